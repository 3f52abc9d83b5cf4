import ActionFlowModel
import Testing

@Suite struct ContinueURLPolicyTests {
    let domains = ["localhost", "demo-actionflow.firebaseapp.com", "www.example.com"]

    @Test(arguments: [
        "https://www.example.com/articles/42",
        "https://WWW.Example.COM/articles/42?ref=mail",
        "https://www.example.com./x",
        "https://www.example.com:8443/subscribe#top",
        "http://localhost:5000/account",
        "https://www.example.com#@evil.com",
        "https://www.example.com?next=https://evil.com",
    ])
    func authorizedHostsPass(url: String) {
        let verdict = ContinueURLPolicy.check(url, authorizedDomains: domains)
        #expect(verdict.isAuthorized, "\(url): \(verdict)")
        #expect(verdict.errorCode == nil)
    }

    /// docs/security-review.md (3.7.2): every known trick is refused, with the server code a user would see.
    @Test(arguments: [
        ("https://www.example.com@evil.com/", "UNAUTHORIZED_DOMAIN"),
        ("https://www.example.com:443@evil.com", "UNAUTHORIZED_DOMAIN"),
        ("https:\\\\evil.com", "INVALID_CONTINUE_URI"),
        ("https:/\\evil.com", "INVALID_CONTINUE_URI"),
        ("/\\evil.com", "INVALID_CONTINUE_URI"),
        ("//evil.com", "INVALID_CONTINUE_URI"),
        ("%2F%2Fevil.com", "INVALID_CONTINUE_URI"),
        ("https://www.example.com%2F%2Fevil.com", "INVALID_CONTINUE_URI"),
        ("https://evil.com\\@www.example.com", "INVALID_CONTINUE_URI"),
        ("http:evil.com", "INVALID_CONTINUE_URI"),
        ("https://www.example.com.evil.com/", "UNAUTHORIZED_DOMAIN"),
        ("https://evilwww.example.com/", "UNAUTHORIZED_DOMAIN"),
        ("https://sub.www.example.com/", "UNAUTHORIZED_DOMAIN"),
        ("javascript:alert(1)//www.example.com", "INVALID_CONTINUE_URI"),
        ("data:text/html,<script>alert(1)</script>", "INVALID_CONTINUE_URI"),
        ("https://www.exаmple.com/", "UNAUTHORIZED_DOMAIN"),
        ("https:///www.example.com", "INVALID_CONTINUE_URI"),
        ("https://www.example.com:99999/", "INVALID_CONTINUE_URI"),
        ("https://www.example.com /x", "INVALID_CONTINUE_URI"),
        ("", "INVALID_CONTINUE_URI"),
        ("www.example.com/articles/42", "INVALID_CONTINUE_URI"),
        ("myapp://www.example.com/", "INVALID_CONTINUE_URI"),
    ])
    func tricksAreRefused(url: String, code: String) {
        let verdict = ContinueURLPolicy.check(url, authorizedDomains: domains)
        #expect(verdict.errorCode?.rawValue == code, "\(url): \(verdict)")
    }

    @Test func reasonsNameTheRealHost() {
        let userinfo = ContinueURLPolicy.check("https://www.example.com@evil.com/", authorizedDomains: domains)
        #expect(userinfo == .unauthorized(host: "evil.com", reason: "host evil.com is not an authorized domain (the text before '@', \"www.example.com\", is user info, not the host)"))
        let subdomain = ContinueURLPolicy.check("https://shop.www.example.com/", authorizedDomains: domains)
        #expect(subdomain.explanation.contains("subdomains are not covered"))
        let lookalike = ContinueURLPolicy.check("https://www.example.com.evil.com/", authorizedDomains: domains)
        #expect(lookalike.explanation.contains("only looks like www.example.com"))
    }

    @Test func browserHostIsWhatABrowserVisits() throws {
        #expect(try ContinueURLPolicy.browserHost(of: "https://a@b@Evil.COM:80/x").get() == "evil.com")
        #expect(try ContinueURLPolicy.browserHost(of: "http://[::1]:8080/").get() == "[::1]")
    }

    /// Found by fuzzing (Fuzz/Regressions/links): a host ending in a number is an IPv4 address
    /// to a browser, in any form, and an IPv6 address is visited in its shortest form.
    @Test func addressesAreReadAsBrowsersReadThem() throws {
        #expect(try ContinueURLPolicy.browserHost(of: "http://199").get() == "0.0.0.199")
        #expect(try ContinueURLPolicy.browserHost(of: "http://127.1/x").get() == "127.0.0.1")
        #expect(try ContinueURLPolicy.browserHost(of: "https://0x7f.0.0.1/").get() == "127.0.0.1")
        #expect(try ContinueURLPolicy.browserHost(of: "https://2130706433:8080/").get() == "127.0.0.1")
        #expect(try ContinueURLPolicy.browserHost(of: "https://0177.0.0.1./").get() == "127.0.0.1")
        #expect(try ContinueURLPolicy.browserHost(of: "https://%31%32%37.0.0.1/").get() == "127.0.0.1")
        #expect(try ContinueURLPolicy.browserHost(of: "http://[0:0:0::1]/").get() == "[::1]")
        #expect(try ContinueURLPolicy.browserHost(of: "http://[::FFFF:127.0.0.1]/").get() == "[::ffff:7f00:1]")
        #expect(ContinueURLPolicy.check("http://127.1/", authorizedDomains: ["127.0.0.1"]) == .authorized(host: "127.0.0.1"))
        #expect(ContinueURLPolicy.check("http://[0::1]/", authorizedDomains: ["[::1]"]) == .authorized(host: "[::1]"))
        for notAnAddress in ["http://1.2.3.4.5/", "http://256.1.1.1/", "http://08/", "http://example.0x/", "http://a.1/", "http://[1::2::3]/", "http://[::1:]/"] {
            #expect(!ContinueURLPolicy.check(notAnAddress, authorizedDomains: ["127.0.0.1"]).isAuthorized, "\(notAnAddress)")
            #expect((try? ContinueURLPolicy.browserHost(of: notAnAddress).get()) == nil, "\(notAnAddress) is refused by browsers")
        }
        #expect(try ContinueURLPolicy.browserHost(of: "http://example.0x1g/").get() == "example.0x1g", "a last label that is no number")
    }
}

@Suite struct ActionLinkBuilderTests {
    let project = ProjectConfiguration(
        projectId: "demo-actionflow", apiKey: "fake-api-key", authorizedDomains: ["www.example.com"],
        iOSApp: RegisteredIOSApp(bundleId: "com.example.ios"), androidApp: RegisteredAndroidApp(packageName: "com.example.android", latestVersion: 12),
        mobileLinkStyle: .hostingDomain, hostingDomains: ["demo-actionflow.firebaseapp.com", "links.example.com"], dynamicLinkDomains: ["example.page.link"],
        actionHandlerURL: nil, emailEnumerationProtection: false, codeLifetimes: CodeLifetimes(), rateLimit: RateLimit(),
        defaultLocale: "en", clockStart: .init(timeIntervalSince1970: 0), users: []
    )

    @Test func actionURLFollowsTheDocumentedShape() {
        let url = ActionLinkBuilder.actionURL(handler: project.effectiveActionHandlerURL, operation: .passwordReset, oobCode: "CODE", apiKey: "KEY", continueURL: "https://www.example.com/articles/42?a=b&c=d", lang: "en", tenantId: nil)
        #expect(url == "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=CODE&apiKey=KEY&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42%3Fa%3Db%26c%3Dd&lang=en")
    }

    @Test func customHandlerKeepsItsOwnQuery() {
        let url = ActionLinkBuilder.actionURL(handler: "https://auth.example.com/handle?site=news", operation: .verifyEmail, oobCode: "C", apiKey: "K", continueURL: nil, lang: nil, tenantId: "t1")
        #expect(url == "https://auth.example.com/handle?site=news&mode=verifyEmail&oobCode=C&apiKey=K&tenantId=t1")
    }

    @Test func inAppLinkWrapsTheActionURLInAHostingLink() {
        var request = SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com", settings: ActionCodeSettings(url: "https://www.example.com/articles/42", handleCodeInApp: true, iOSBundleID: "com.example.ios"), clientType: .iOS)
        request.iOSAppStoreId = nil
        let link = ActionLinkBuilder.emailLink(for: request, oobCode: "CODE", lang: "en", project: project, linkDomain: "demo-actionflow.firebaseapp.com")
        let action = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=CODE&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42&lang=en"
        #expect(link == "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent(action))
    }

    @Test func webWidgetLinkCarriesAMobileLinkBackToTheApp() {
        var legacy = project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        var settings = ActionCodeSettings(url: "https://www.example.com/subscribe", handleCodeInApp: false)
        settings.androidPackageName = "com.example.android"
        settings.androidInstallIfNotAvailable = false
        settings.androidMinimumVersion = "10"
        let request = SendOobCodeRequest(requestType: .verifyEmail, email: nil, idToken: "T", settings: settings, clientType: .android)
        let link = ActionLinkBuilder.emailLink(for: request, oobCode: "C", lang: "fr", project: legacy, linkDomain: "example.page.link")
        let back = "https://example.page.link/?link=https%3A%2F%2Fwww.example.com%2Fsubscribe&apn=com.example.android&amv=10&afl=https%3A%2F%2Fwww.example.com%2Fsubscribe"
        #expect(link == "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=verifyEmail&oobCode=C&apiKey=fake-api-key&continueUrl=\(PercentEncoding.encodeComponent(back))&lang=fr")
    }

    @Test func installRequestDropsTheAndroidFallback() {
        let apps = MobileLinkApps(iOSBundleID: "com.example.ios", iOSAppStoreID: "123", androidPackageName: "com.example.android", androidMinimumVersion: nil, androidInstallApp: true)
        let link = ActionLinkBuilder.mobileLink(wrapping: "https://x.test/", style: .firebaseDynamicLinkDomain, domain: "example.page.link", apps: apps)
        #expect(link == "https://example.page.link/?link=https%3A%2F%2Fx.test%2F&apn=com.example.android&ibi=com.example.ios&ifl=https%3A%2F%2Fx.test%2F&isi=123")
    }

    @Test func withoutAnAppTheContinueURLStaysPlain() {
        let request = SendOobCodeRequest(requestType: .passwordReset, email: "a@b.c", settings: ActionCodeSettings(url: "https://www.example.com/"), clientType: .web)
        let link = ActionLinkBuilder.emailLink(for: request, oobCode: "C", lang: "en", project: project, linkDomain: "demo-actionflow.firebaseapp.com")
        #expect(link.hasSuffix("continueUrl=https%3A%2F%2Fwww.example.com%2F&lang=en"))
    }

    @Test func percentEncodingRoundTrips() {
        for text in ["", "plain", "a b+c&d=e?f#g", "山田 👩‍💻", "%41%"] {
            #expect(PercentEncoding.decode(PercentEncoding.encodeComponent(text)) == text)
        }
        #expect(PercentEncoding.decode("%4") == nil)
        #expect(PercentEncoding.decode("%FF") == nil)
        #expect(PercentEncoding.decode("a+b", plusAsSpace: true) == "a b")
    }
}

@Suite struct MobileLinkDomainTests {
    let project = ActionLinkBuilderTests().project

    @Test func requestedDomainIsUsedWhenTheProjectOwnsIt() throws {
        var request = SendOobCodeRequest(requestType: .passwordReset, email: "a@b.c")
        #expect(try project.mobileLinkDomain(for: request) == "demo-actionflow.firebaseapp.com")
        request.linkDomain = "Links.Example.com"
        #expect(try project.mobileLinkDomain(for: request) == "links.example.com")
        // A default domain is where links go unasked, never a domain to ask for (errors.ts:392-394@firebase@12.18.0).
        request.linkDomain = "Demo-ActionFlow.FirebaseApp.com"
        #expect(throws: AuthFailure.self) { try project.mobileLinkDomain(for: request) }
    }

    /// Settings findings predict exactly what the server answers.
    @Test func findingsAgreeWithTheServer() {
        for domain in ["Links.Example.com", "Demo-ActionFlow.FirebaseApp.com", "evil.example"] {
            let findings = SettingsFindings.findings(for: ActionCodeSettings(url: "https://www.example.com/", linkDomain: domain), requestType: .passwordReset, project: project)
            var request = SendOobCodeRequest(requestType: .passwordReset, email: "a@b.c")
            request.linkDomain = domain
            let refused = (try? project.mobileLinkDomain(for: request)) == nil
            #expect(findings.contains { $0.code == "settings.link-domain-unknown" || $0.code == "settings.link-domain-default" } == refused, "\(domain)")
        }
    }

    @Test func domainsTheProjectDoesNotOwnAreRefused() {
        var hosting = SendOobCodeRequest(requestType: .passwordReset, email: "a@b.c")
        hosting.linkDomain = "evil.example"
        #expect(throws: AuthFailure.server(.invalidHostingLinkDomain, detail: "'evil.example' is not a Hosting domain of project demo-actionflow")) {
            try project.mobileLinkDomain(for: hosting)
        }
        var dynamic = SendOobCodeRequest(requestType: .passwordReset, email: "a@b.c")
        dynamic.dynamicLinkDomain = "other.page.link"
        #expect(throws: AuthFailure.server(.invalidDynamicLinkDomain, detail: "'other.page.link' is not a Dynamic Links domain of project demo-actionflow")) {
            try project.mobileLinkDomain(for: dynamic)
        }
    }

    @Test func legacyStyleUsesTheFirstDynamicLinksDomain() throws {
        var legacy = project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        #expect(try legacy.mobileLinkDomain(for: SendOobCodeRequest(requestType: .verifyEmail, idToken: "t")) == "example.page.link")
        legacy.dynamicLinkDomains = []
        #expect(throws: AuthFailure.server(.invalidDynamicLinkDomain, detail: "project demo-actionflow has no Dynamic Links domain")) {
            try legacy.mobileLinkDomain(for: SendOobCodeRequest(requestType: .verifyEmail, idToken: "t"))
        }
    }
}
