import ActionFlowModel
import PropertyBased
import Testing

/// Links built by `ActionLinkBuilder` come apart again into what went in.
@Suite struct LinkRoundTripTests {
    static let cases: [(MobileLinkStyle, Bool, Bool)] = [
        (.hostingDomain, true, true), (.hostingDomain, true, false), (.hostingDomain, false, true), (.hostingDomain, false, false),
        (.firebaseDynamicLinkDomain, true, true), (.firebaseDynamicLinkDomain, true, false),
        (.firebaseDynamicLinkDomain, false, true), (.firebaseDynamicLinkDomain, false, false),
    ]

    @Test(arguments: cases)
    func buildThenInspect(style: MobileLinkStyle, inApp: Bool, withApps: Bool) throws {
        let project = Fixtures.project(style: style)
        let continueURL = "https://www.example.com/articles/42?from=reset&tab=comments"
        let settings = ActionCodeSettings(url: continueURL, handleCodeInApp: inApp,
                                          iOSBundleID: withApps ? "com.example.ios" : nil,
                                          androidPackageName: withApps ? "com.example.android" : nil,
                                          androidMinimumVersion: withApps ? "10" : nil)
        let link = Fixtures.emailLink(settings, project: project, tenantId: "tenant-7")
        let anatomy = try LinkInspector.inspect(link, authorizedDomains: project.authorizedDomains)
        #expect(anatomy.operation == .passwordReset)
        #expect(anatomy.oobCode == Fixtures.oobCode)
        #expect(anatomy.apiKey == Fixtures.apiKey)
        #expect(anatomy.lang == "en")
        #expect(anatomy.tenantId == "tenant-7")
        #expect(anatomy.continueLink?.destination == continueURL)
        #expect(anatomy.continueUrlAuthorized == true)
        let wrapperKind: LinkLayer.Kind = style == .hostingDomain ? .hostingWrapper : .dynamicLinkWrapper
        switch (inApp, withApps) {
        case (true, _):
            #expect(anatomy.kinds == [wrapperKind, .actionURL, .continueURL])
            #expect(anatomy.continueUrl == continueURL)
        case (false, true):
            #expect(anatomy.kinds == [.actionURL, wrapperKind, .continueURL])
            #expect(anatomy.continueLink?.isMobileLink == true)
        case (false, false):
            #expect(anatomy.kinds == [.actionURL, .continueURL])
            #expect(anatomy.continueUrl == continueURL)
        }
        #expect(anatomy.has("legacy-dynamic-links") == (style == .firebaseDynamicLinkDomain && (inApp || withApps)))
        if style == .firebaseDynamicLinkDomain, inApp, withApps {
            let wrapper = anatomy.layers[0]
            #expect(wrapper.value("apn") == "com.example.android")
            #expect(wrapper.value("amv") == "10")
            #expect(wrapper.value("ibi") == "com.example.ios")
            #expect(wrapper.value("afl") == anatomy.actionURL, "no install requested: Android falls back to the web page")
        }
    }

    @Test func customHandlerRoundTrip() throws {
        let project = Fixtures.project(handler: "https://auth.example.com/action?source=email")
        let link = Fixtures.emailLink(ActionCodeSettings(url: "https://www.example.com/subscribe"), requestType: .verifyEmail, project: project)
        let anatomy = try LinkInspector.inspect(link)
        #expect(anatomy.operation == .verifyEmail)
        #expect(anatomy.layers[0].value("source") == "email")
        #expect(anatomy.has("link.custom-handler"))
    }

    static let urlSafeBase64 = Gen<Character?>.element(of: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")).map { $0! }
    /// Path and query text with every character that needs care: reserved, percent, plus, space, non-ASCII.
    static let urlText = Gen<Character?>.element(of: Array("abcXYZ019-._~/?#[]@!$&'()*+,;=% é山👩‍💻")).map { $0! }

    @Test func arbitraryCodesAndContinueURLsSurvive() async {
        await propertyCheck(count: 300, input: Self.urlSafeBase64.string(of: 54), Self.urlText.string(of: 0...40), Gen.bool, Gen.bool) { code, tail, inApp, hosting in
            let continueURL = "https://www.example.com/" + tail
            let project = Fixtures.project(style: hosting ? .hostingDomain : .firebaseDynamicLinkDomain)
            let settings = ActionCodeSettings(url: continueURL, handleCodeInApp: inApp, iOSBundleID: "com.example.ios", androidPackageName: "com.example.android")
            let link = Fixtures.emailLink(settings, project: project, oobCode: code)
            let anatomy = try? LinkInspector.inspect(link)
            #expect(anatomy?.oobCode == code)
            #expect(anatomy?.continueLink?.destination == continueURL)
        }
    }
}

@Suite struct LinkInspectorPropertyTests {
    static let anyText = Gen<Character?>.element(of: Array("htps:/\\?#&=%+<>\"' \n\tabcXYZ019.-_@[]:;山é\u{1B}\u{202E}")).map { $0! }

    @Test func neverCrashesAndAlwaysExplains() async {
        await propertyCheck(count: 2000, input: Self.anyText.string(of: 0...120)) { text in
            assertInspectsOrExplains(text)
        }
        await propertyCheck(count: 1000, input: Gen.latin1.string(of: 0...200)) { text in
            assertInspectsOrExplains(text)
        }
    }

    @Test func mutatedRealLinksNeverCrash() async {
        let base = Array(LinkInspector.representativeLink)
        await propertyCheck(count: 1000, input: Gen.int(in: 0...(base.count - 1)), Self.anyText.string(of: 0...6), Gen.int(in: 0...20)) { position, insert, cut in
            var mutated = base
            mutated.replaceSubrange(position..<min(base.count, position + cut), with: Array(insert))
            assertInspectsOrExplains(String(mutated))
        }
    }

    static let parameters = [
        ("mode", "verifyEmail"), ("oobCode", Fixtures.oobCode), ("apiKey", Fixtures.apiKey),
        ("continueUrl", "https%3A%2F%2Fwww.example.com%2Fsubscribe%3Fplan%3Dyearly"), ("lang", "de"), ("tenantId", "t-1"),
    ]

    @Test func parameterOrderDoesNotMatter() async throws {
        func link(_ order: [(String, String)]) -> String {
            let action = "https://demo-actionflow.firebaseapp.com/__/auth/action?" + order.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            return "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent(action)
        }
        let reference = try LinkInspector.inspect(link(Self.parameters), authorizedDomains: Fixtures.domains)
        #expect(reference.continueUrl == "https://www.example.com/subscribe?plan=yearly")
        await propertyCheck(count: 200, input: Gen.shuffled(Self.parameters.indices)) { order in
            let shuffled = order.map { Self.parameters[$0] }
            let anatomy = try? LinkInspector.inspect(link(shuffled), authorizedDomains: Fixtures.domains)
            #expect(anatomy?.mode == reference.mode)
            #expect(anatomy?.oobCode == reference.oobCode)
            #expect(anatomy?.apiKey == reference.apiKey)
            #expect(anatomy?.continueUrl == reference.continueUrl)
            #expect(anatomy?.lang == reference.lang)
            #expect(anatomy?.tenantId == reference.tenantId)
            #expect(anatomy?.continueUrlAuthorized == reference.continueUrlAuthorized)
            #expect(anatomy.map { Set($0.findings.map(\.code)) } == Set(reference.findings.map(\.code)))
            #expect(anatomy.map { Set($0.layers[1].parameters.map(\.name)) } == Set(Self.parameters.map(\.0)))
        }
    }
}

/// Either an anatomy that found an action, or a one-line, printable reason.
private func assertInspectsOrExplains(_ text: String) {
    do {
        let anatomy = try LinkInspector.inspect(text)
        #expect(anatomy.mode != nil || anatomy.oobCode != nil)
        #expect(!anatomy.layers.isEmpty)
    } catch {
        #expect(!error.description.isEmpty)
        #expect(!UntrustedText.needsSanitizing(error.description))
    }
}
