import ActionFlowModel
import Testing

@Suite struct LinkInspectorFormTests {
    let code = Fixtures.oobCode
    let key = Fixtures.apiKey

    @Test func plainDefaultHandlerLink() throws {
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=\(code)&apiKey=\(key)&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42&lang=en"
        let anatomy = try LinkInspector.inspect(link)
        #expect(anatomy.mode == "resetPassword")
        #expect(anatomy.operation == .passwordReset)
        #expect(anatomy.oobCode == code)
        #expect(anatomy.apiKey == key)
        #expect(anatomy.continueUrl == "https://www.example.com/articles/42")
        #expect(anatomy.lang == "en")
        #expect(anatomy.tenantId == nil)
        #expect(anatomy.actionURL == link)
        #expect(anatomy.kinds == [.actionURL, .continueURL])
        #expect(anatomy.layers[0].parameters.map(\.name) == ["mode", "oobCode", "apiKey", "continueUrl", "lang"])
        #expect(anatomy.continueUrlAuthorized == nil)
        #expect(!anatomy.has("ios.no-unwrap"))
        #expect(!anatomy.has("link.custom-handler"))
    }

    @Test func customHandlerWithTenantInAnyOrder() throws {
        let link = "https://auth.example.com/email/handle?lang=fr&tenantId=tenant-1&continueUrl=https%3A%2F%2Fwww.example.com%2Fsubscribe&apiKey=\(key)&oobCode=\(code)&mode=verifyEmail"
        let anatomy = try LinkInspector.inspect(link)
        #expect(anatomy.operation == .verifyEmail)
        #expect(anatomy.tenantId == "tenant-1")
        #expect(anatomy.lang == "fr")
        #expect(anatomy.continueUrl == "https://www.example.com/subscribe")
        #expect(anatomy.has("link.custom-handler"))
    }

    @Test func hostingWrapper() throws {
        let anatomy = try LinkInspector.inspect(LinkInspector.representativeLink, authorizedDomains: Fixtures.domains)
        #expect(anatomy.kinds == [.hostingWrapper, .actionURL, .continueURL])
        #expect(anatomy.layers[0].host == "demo-actionflow.firebaseapp.com")
        #expect(anatomy.actionURL.hasPrefix("https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode="))
        #expect(anatomy.oobCode == code)
        #expect(anatomy.continueUrl == "https://www.example.com/articles/42")
        #expect(anatomy.continueUrlAuthorized == true)
        #expect(anatomy.has("ios.no-unwrap"))
        #expect(!anatomy.has("legacy-dynamic-links"))
    }

    @Test func dynamicLinkWrapperExplainsItsParameters() throws {
        let action = "https%3A%2F%2Fdemo-actionflow.firebaseapp.com%2F__%2Fauth%2Faction%3Fmode%3DsignIn%26oobCode%3D\(code)%26apiKey%3D\(key)%26continueUrl%3Dhttps%253A%252F%252Fwww.example.com%252Ffinish%26lang%3Den"
        let link = "https://example.page.link/?link=\(action)&apn=com.example.android&amv=10&ibi=com.example.ios&ifl=\(action)&isi=1234567890"
        let anatomy = try LinkInspector.inspect(link)
        #expect(anatomy.kinds == [.dynamicLinkWrapper, .actionURL, .continueURL])
        #expect(anatomy.operation == .emailLink)
        #expect(anatomy.continueUrl == "https://www.example.com/finish")
        let wrapper = anatomy.layers[0]
        #expect(wrapper.value("apn") == "com.example.android")
        #expect(wrapper.value("amv") == "10")
        #expect(wrapper.value("isi") == "1234567890")
        for name in ["link", "apn", "amv", "ibi", "ifl", "isi"] {
            #expect(wrapper.parameters.first { $0.name == name }?.meaning != nil, "\(name) explained")
        }
        #expect(anatomy.has("legacy-dynamic-links"))
    }

    @Test("Every protocol parameter is explained in plain printable ASCII, which JSON Lines copies as it is; other names are not")
    func meaningsArePlainText() {
        let names = ["apn", "amv", "afl", "ibi", "ifl", "isi", "imv", "ofl", "efr", "link", "mode", "lang",
                     "apiKey", "oobCode", "tenantId", "continueUrl", "deep_link_id"]
        for name in names {
            let parameter = LinkParameter(name: name, value: "v")
            guard let meaning = parameter.knownMeaning else {
                Issue.record("\(name) has no meaning")
                continue
            }
            let bytes = UnsafeBufferPointer(start: meaning.utf8Start, count: meaning.utf8CodeUnitCount)
            #expect(bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }, "\(name)")
            #expect(parameter.meaning == meaning.description)
        }
        for name in ["Mode", "apikey", "links", "x", "", "mode "] {
            #expect(LinkParameter(name: name, value: "v").meaning == nil, "\(name)")
        }
    }

    @Test func customDynamicLinksDomainWithDeepLinkID() throws {
        let encoded = "https%3A%2F%2Fdemo-actionflow.firebaseapp.com%2F__%2Fauth%2Faction%3Fmode%3DsignIn%26oobCode%3D\(code)%26apiKey%3D\(key)"
        let link = "com.example.ios://google/link/?deep_link_id=\(encoded)&match_type=unique"
        let anatomy = try LinkInspector.inspect(link)
        #expect(anatomy.kinds == [.dynamicLinkWrapper, .actionURL])
        #expect(anatomy.oobCode == code)
        #expect(anatomy.apiKey == key)
        #expect(anatomy.continueLink == nil)
    }

    @Test func doubleWrappingIsUnwrapped() throws {
        let action = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=\(code)&apiKey=\(key)"
        let hosting = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent(action)
        let fdl = "https://links.example.com/?link=" + PercentEncoding.encodeComponent(hosting) + "&apn=com.example.android"
        let anatomy = try LinkInspector.inspect(fdl)
        #expect(anatomy.kinds == [.dynamicLinkWrapper, .hostingWrapper, .actionURL])
        #expect(anatomy.actionURL == action)
        #expect(anatomy.oobCode == code)
    }

    @Test func doubleEncodedPayloadIsDecodedTwice() throws {
        let action = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=\(code)&apiKey=\(key)"
        let twice = PercentEncoding.encodeComponent(PercentEncoding.encodeComponent(action))
        let anatomy = try LinkInspector.inspect("https://demo-actionflow.web.app/__/auth/links?link=\(twice)")
        #expect(anatomy.actionURL == action)
        #expect(anatomy.oobCode == code)
        #expect(anatomy.has("link.double-encoded"))
    }

    @Test func emulatorLink() throws {
        let emulatorCode = "Ab9_-kLm2Pz9RtYwB7nC4dF6gH1jK5sT0uV2xA8eQZLr3Mo9Np1Zqq"
        #expect(emulatorCode.count == 54)
        let link = "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=\(emulatorCode)&apiKey=fake-api-key&continueUrl=http%3A%2F%2Flocalhost%3A5000%2Fsubscribe"
        let anatomy = try LinkInspector.inspect(link, authorizedDomains: Fixtures.domains)
        #expect(anatomy.kinds == [.emulatorActionURL, .continueURL])
        #expect(anatomy.isEmulatorLink)
        #expect(anatomy.oobCode == emulatorCode)
        #expect(anatomy.apiKey == "fake-api-key")
        #expect(anatomy.continueUrlAuthorized == true)
        #expect(anatomy.has("link.emulator"))
        #expect(!anatomy.has("continue-url.plain-http"), "http is fine on localhost")
        #expect(!anatomy.has("link.plain-http"))
    }

    @Test(arguments: [
        ("  https://x.example/__/auth/action?mode=verifyEmail&oobCode=C \n", "whitespace"),
        ("<https://x.example/__/auth/action?mode=verifyEmail&oobCode=C>", "angle brackets"),
        ("\"https://x.example/__/auth/action?mode=verifyEmail&oobCode=C\"", "quotes"),
        (" '<https://x.example/__/auth/action?mode=verifyEmail&oobCode=C>' ", "quotes"),
        ("https://x.example/__/auth/action?mode=verify\r\nEmail&oobCode=C", "line breaks"),
    ])
    func pastedDecorationIsIgnored(text: String, note: String) throws {
        let anatomy = try LinkInspector.inspect(text)
        #expect(anatomy.link == "https://x.example/__/auth/action?mode=verifyEmail&oobCode=C")
        #expect(anatomy.oobCode == "C")
        #expect(anatomy.findings.first { $0.code == "link.cleaned" }?.message.contains(note) == true)
    }

    @Test func handleCodeInAppFalseExposesTheNestedContinueLink() throws {
        let inner = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent("https://www.example.com/subscribe")
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=verifyEmail&oobCode=\(code)&apiKey=\(key)&continueUrl=\(PercentEncoding.encodeComponent(inner))&lang=en"
        let anatomy = try LinkInspector.inspect(link, authorizedDomains: Fixtures.domains)
        #expect(anatomy.continueUrl == inner)
        #expect(anatomy.kinds == [.actionURL, .hostingWrapper, .continueURL])
        let nested = try #require(anatomy.continueLink)
        #expect(nested.isMobileLink)
        #expect(nested.destination == "https://www.example.com/subscribe")
        #expect(anatomy.continueUrlAuthorized == true, "the destination, not the wrapper, is checked")
        #expect(anatomy.has("continue-url.mobile-link"))
    }

    @Test func plusIsASpaceAndEveryLayerIsDecoded() throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=resetPassword&oobCode=C&continueUrl=https%3A%2F%2Fwww.example.com%2Fsearch%3Fq%3Da%2Bb%26page%3D2&lang=pt+BR")
        #expect(anatomy.lang == "pt BR")
        #expect(anatomy.continueUrl == "https://www.example.com/search?q=a+b&page=2")
        #expect(anatomy.layers.last?.parameters == [LinkParameter(name: "q", value: "a b"), LinkParameter(name: "page", value: "2")])
    }
}

@Suite struct LinkInspectorPitfallTests {
    @Test func unencodedValueWithEqualsShowsWhatIOSWouldRead() throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=resetPassword&oobCode=ABC&continueUrl=https://www.example.com/a?ref=mail")
        #expect(anatomy.continueUrl == "https://www.example.com/a?ref=mail")
        let finding = try #require(anatomy.findings.first { $0.code == "ios.value-truncated" })
        #expect(finding.message.contains("\"https://www.example.com/a?ref\""))
    }

    @Test func resolvedDeepLinkWithoutCodeIsFlagged() throws {
        let anatomy = try LinkInspector.inspect("https://www.example.com/finish?mode=signIn&apiKey=K")
        #expect(anatomy.oobCode == nil)
        #expect(anatomy.has("link.missing-oob-code"))
        #expect(anatomy.findings.first { $0.code == "link.missing-oob-code" }?.severity == .danger)
    }

    @Test func unencodedPayloadLosesParametersToTheWrapper() throws {
        let anatomy = try LinkInspector.inspect("https://demo-actionflow.firebaseapp.com/__/auth/links?link=https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=ABC&apiKey=K")
        #expect(anatomy.mode == "resetPassword")
        #expect(anatomy.oobCode == "ABC", "recovered from the wrapper")
        #expect(anatomy.has("link.unencoded-payload"))
    }

    @Test func sdkKeepsTheLastOfRepeatedParameters() throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=resetPassword&oobCode=FIRST&oobCode=SECOND")
        #expect(anatomy.oobCode == "SECOND")
        #expect(anatomy.has("link.duplicate-parameter"))
    }

    @Test func unknownModeAndMissingKey() throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=doSomething&oobCode=C")
        #expect(anatomy.operation == .unknown)
        #expect(anatomy.has("link.unknown-mode"))
        #expect(anatomy.has("link.missing-api-key"))
    }

    @Test func continueURLRisks() throws {
        let continueURL = "http://evil.example.net/welcome?email=ada%40example.com&idToken=xyz&phone=%2B44%2020%207946%200000#step2"
        let anatomy = try LinkInspector.inspect("https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=C&apiKey=K&continueUrl=" + PercentEncoding.encodeComponent(continueURL), authorizedDomains: Fixtures.domains)
        #expect(anatomy.continueUrlAuthorized == false)
        for code in ["continue-url.unauthorized", "continue-url.plain-http", "continue-url.personal-data", "continue-url.credentials", "continue-url.phone-number", "continue-url.fragment"] {
            #expect(anatomy.has(code), "\(code)")
        }
    }

    @Test(arguments: ["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>"])
    func dangerousContinueSchemes(continueURL: String) throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=resetPassword&oobCode=C&continueUrl=" + PercentEncoding.encodeComponent(continueURL), authorizedDomains: Fixtures.domains)
        #expect(anatomy.continueUrlAuthorized == false)
        #expect(anatomy.has("continue-url.dangerous-scheme"))
        #expect(anatomy.has("continue-url.invalid"))
    }

    @Test func userinfoTrickIsExplained() throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=resetPassword&oobCode=C&continueUrl=" + PercentEncoding.encodeComponent("https://www.example.com@evil.com/x"), authorizedDomains: Fixtures.domains)
        #expect(anatomy.continueUrlAuthorized == false)
        #expect(anatomy.has("continue-url.userinfo"))
    }

    @Test func fragmentOutsideThePayloadIsLost() throws {
        let anatomy = try LinkInspector.inspect("https://h.example/__/auth/action?mode=resetPassword&oobCode=C&continueUrl=https%3A%2F%2Fwww.example.com%2Fa#section-2")
        #expect(anatomy.continueUrl == "https://www.example.com/a")
        #expect(anatomy.has("link.fragment"))
    }
}

@Suite struct LinkParseErrorTests {
    @Test(arguments: [
        ("", LinkParseError.empty),
        ("   \n\t ", LinkParseError.empty),
        ("<>", LinkParseError.empty),
        ("just some words", LinkParseError.notAURL(excerpt: "just some words")),
        ("www.example.com/__/auth/action?mode=signIn&oobCode=C", LinkParseError.notAURL(excerpt: "www.example.com/__/auth/action?mode=signIn&oobCode=C")),
        ("https://?mode=signIn&oobCode=C", LinkParseError.missingHost(excerpt: "https://?mode=signIn&oobCode=C")),
        ("http:", LinkParseError.missingHost(excerpt: "http:")),
        ("https://demo-actionflow.firebaseapp.com/__/auth/links?lnk=x", LinkParseError.wrapperWithoutLink(host: "demo-actionflow.firebaseapp.com")),
        ("https://example.page.link/?apn=com.example.android", LinkParseError.wrapperWithoutLink(host: "example.page.link")),
        ("https://example.page.link/AbCd12", LinkParseError.shortDynamicLink(host: "example.page.link", path: "/AbCd12")),
        ("https://example.page.link/?link=https%3A%2F%2Fx%ZZ", LinkParseError.undecodableWrappedLink(host: "example.page.link", parameter: "link")),
        ("https://example.page.link/?link=%C3%28", LinkParseError.undecodableWrappedLink(host: "example.page.link", parameter: "link")),
        ("https://example.page.link/?link=not-a-url", LinkParseError.wrappedLinkNotAURL(host: "example.page.link", parameter: "link", excerpt: "not-a-url")),
        ("https://www.example.com/articles/42", LinkParseError.noActionParameters(excerpt: "https://www.example.com/articles/42")),
    ])
    func malformedInput(text: String, expected: LinkParseError) {
        #expect(throws: expected) { try LinkInspector.inspect(text) }
    }

    @Test func resolvedContinueDeepLinkHasNoCode() {
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=https%3A%2F%2Fwww.example.com%2Fsubscribe"
        #expect(throws: LinkParseError.noActionParameters(excerpt: link)) { try LinkInspector.inspect(link) }
    }

    @Test func tooLongAndTooDeep() {
        let long = "https://h.example/__/auth/action?mode=signIn&oobCode=" + String(repeating: "A", count: LinkInspector.maximumLinkBytes)
        #expect(throws: LinkParseError.tooLong(bytes: long.utf8.count, limit: LinkInspector.maximumLinkBytes)) { try LinkInspector.inspect(long) }
        var link = "https://h.example/__/auth/action?mode=signIn&oobCode=C"
        for _ in 0...LinkInspector.maximumWrappers {
            link = "https://w.example/__/auth/links?link=" + PercentEncoding.encodeComponent(link)
        }
        #expect(throws: LinkParseError.tooDeeplyWrapped(limit: LinkInspector.maximumWrappers)) { try LinkInspector.inspect(link) }
    }

    @Test func reasonsAreOneSafeLine() {
        let error = LinkParseError.notAURL(excerpt: "evil\u{1B}[2J\nnext line " + String(repeating: "x", count: 200))
        #expect(!error.description.contains("\n"))
        #expect(!error.description.contains("\u{1B}"))
        #expect(error.description.count < 200)
    }
}

@Suite struct LinkInspectorMoreFindingsTests {
    @Test func signInLinkThatNoAppCanReceive() throws {
        let anatomy = try LinkInspector.inspect("https://demo-actionflow.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C&apiKey=K&continueUrl=https%3A%2F%2Fwww.example.com%2Ffinish")
        #expect(anatomy.has("link.sign-in-not-in-app"))
        let wrapped = try LinkInspector.inspect(Fixtures.emailLink(Fixtures.articleSettings, requestType: .emailSignIn))
        #expect(!wrapped.has("link.sign-in-not-in-app"))
    }

    @Test func minimumVersionWithoutPackage() throws {
        let link = "https://example.page.link/?link=" + PercentEncoding.encodeComponent("https://h.example/__/auth/action?mode=resetPassword&oobCode=C") + "&amv=12"
        #expect(try LinkInspector.inspect(link).has("link.minimum-version-without-package"))
    }

    @Test func actionURLThatIsNoWebPage() throws {
        let anatomy = try LinkInspector.inspect("javascript:alert(1)//?mode=resetPassword&oobCode=C")
        #expect(anatomy.has("link.not-web"))
        #expect(anatomy.findings.first { $0.code == "link.not-web" }?.severity == .danger)
    }
}
