import ActionFlowModel
import PropertyBased
import Testing

@Suite struct LinkRouterTests {
    let project = Fixtures.project()
    let settings = Fixtures.articleSettings
    var link: String { Fixtures.emailLink(settings) }
    var actionURL: String { (try? LinkInspector.inspect(link).actionURL) ?? "" }

    func device(_ platform: Device.Platform, installed: Bool = true, version: Int? = 11, verified: Bool = true, mail: Device.MailClient = .native) -> Device {
        Device(platform: platform, osName: platform == .iOS ? "iOS 18" : platform == .android ? "Android 14" : "Desktop", appInstalled: installed,
               installedVersion: installed ? version : nil, linksVerified: verified, mailClient: mail, mailScanner: false)
    }

    @Test func iPhoneWithVerifiedUniversalLinksOpensTheApp() {
        let route = LinkRouter.route(tapped: link, on: device(.iOS), project: project, requested: settings)
        #expect(route.destination == .app(url: actionURL))
        #expect(route.steps.last?.contains("universal link verified for demo-actionflow.firebaseapp.com") == true)
        #expect(route.assumptions.allSatisfy { $0.hasPrefix("assumed") })
        #expect(!route.assumptions.isEmpty, "Hosting links rely on unpublished rules")
    }

    @Test func webmailInAppBrowserGetsTheWebWidget() {
        let route = LinkRouter.route(tapped: link, on: device(.iOS, mail: .webmailInAppBrowser), project: project, requested: settings)
        #expect(route.destination == .webWidget(actionURL: actionURL))
        #expect(route.steps.contains { $0.contains("universal links do not fire") })
    }

    @Test func unverifiedUniversalLinksOrMissingAppGetTheWebWidget() {
        #expect(LinkRouter.route(tapped: link, on: device(.iOS, verified: false), project: project, requested: settings).destination == .webWidget(actionURL: actionURL))
        #expect(LinkRouter.route(tapped: link, on: device(.iOS, installed: false), project: project, requested: settings).destination == .webWidget(actionURL: actionURL))
    }

    /// A build claims its link domains (associated domains, verified intent filters): a link on
    /// any other domain goes to the browser, whatever the OS verified.
    @Test func aBuildOpensOnlyTheDomainsItClaims() {
        for platform in [Device.Platform.iOS, .android] {
            var old = device(platform)
            old.linkDomains = ["example.page.link"]
            var androidSettings = settings
            androidSettings.androidPackageName = "com.example.android"
            let route = LinkRouter.route(tapped: Fixtures.emailLink(androidSettings), on: old, project: Fixtures.project(), requested: androidSettings)
            #expect(route.destination != .app(url: actionURL), "\(platform)")
            #expect(route.steps.contains { $0.contains("the installed build does not claim demo-actionflow.firebaseapp.com") && $0.contains("example.page.link") }, "\(platform)")
            old.linkDomains = ["example.page.link", "Demo-ActionFlow.firebaseapp.com"]
            guard case .app = LinkRouter.route(tapped: Fixtures.emailLink(androidSettings), on: old, project: Fixtures.project(), requested: androidSettings).destination else {
                Issue.record("\(platform): a build that claims the domain did not open")
                continue
            }
        }
    }

    @Test func androidAtOrAboveMinimumVersionOpensTheApp() {
        let route = LinkRouter.route(tapped: link, on: device(.android, version: 10), project: project, requested: settings)
        #expect(route.destination == .app(url: actionURL))
        #expect(route.steps.last == "Android 14: app link verified for demo-actionflow.firebaseapp.com, app v10 meets the minimum version 10: the app opens")
    }

    @Test func androidTooOldGoesToThePlayStoreToUpgrade() {
        let route = LinkRouter.route(tapped: link, on: device(.android, version: 9), project: project, requested: settings)
        #expect(route.destination == .store(StoreVisit(store: .playStore, purpose: .upgrade, appID: "com.example.android", thenAppReceives: actionURL)))
    }

    @Test func androidMissingWithInstallGoesToThePlayStoreToInstall() {
        let route = LinkRouter.route(tapped: link, on: device(.android, installed: false), project: project, requested: settings)
        #expect(route.destination == .store(StoreVisit(store: .playStore, purpose: .install, appID: "com.example.android", thenAppReceives: actionURL)))
    }

    @Test func androidMissingWithoutInstallGetsTheWebWidget() {
        var noInstall = settings
        noInstall.androidInstallIfNotAvailable = false
        let route = LinkRouter.route(tapped: Fixtures.emailLink(noInstall), on: device(.android, installed: false), project: project, requested: noInstall)
        #expect(route.destination == .webWidget(actionURL: actionURL))
    }

    @Test func androidWithoutRegisteredFingerprintsCannotVerifyAppLinks() {
        let bare = Fixtures.project(fingerprints: false)
        let route = LinkRouter.route(tapped: link, on: device(.android), project: bare, requested: settings)
        #expect(route.destination == .webWidget(actionURL: actionURL))
        #expect(route.steps.contains { $0.contains("SHA-1/SHA-256") })
    }

    @Test func desktopGetsTheWebWidget() {
        let route = LinkRouter.route(tapped: link, on: .desktop, project: project, requested: settings)
        #expect(route.destination == .webWidget(actionURL: actionURL))
    }

    @Test func unknownRequestAssumesTheRegisteredApps() {
        let route = LinkRouter.route(tapped: link, on: device(.iOS), project: project, requested: nil)
        #expect(route.destination == .app(url: actionURL))
        #expect(route.assumptions.contains { $0.contains("settings the app sent are unknown") })
    }

    @Test func dynamicLinksReadTheirOwnParameters() {
        let legacy = Fixtures.project(style: .firebaseDynamicLinkDomain)
        var withStore = settings
        withStore.androidInstallIfNotAvailable = false
        let fdl = Fixtures.emailLink(withStore, project: legacy)
        let action = (try? LinkInspector.inspect(fdl).actionURL) ?? ""
        // requested is ignored for Dynamic Links: the link carries apn/amv/afl.
        #expect(LinkRouter.route(tapped: fdl, on: device(.android, version: 11), project: legacy, requested: nil).destination == .app(url: action))
        #expect(LinkRouter.route(tapped: fdl, on: device(.android, version: 3), project: legacy, requested: nil).destination
            == .store(StoreVisit(store: .playStore, purpose: .upgrade, appID: "com.example.android", thenAppReceives: action)))
        let missing = LinkRouter.route(tapped: fdl, on: device(.android, installed: false), project: legacy, requested: nil)
        #expect(missing.destination == .webWidget(actionURL: action), "afl is present: no install")
        #expect(missing.steps.contains { $0.contains("fallback page") })
        #expect(missing.assumptions.contains { $0.contains("2025-08-25") })
    }

    @Test func handleCodeInAppFalseGoesToTheWidgetThenContinueOpensTheApp() throws {
        var webFirst = settings
        webFirst.handleCodeInApp = false
        let email = Fixtures.emailLink(webFirst)
        let anatomy = try LinkInspector.inspect(email)
        let tap = LinkRouter.route(tapped: email, on: device(.iOS), project: project, requested: webFirst)
        #expect(tap.destination == .webWidget(actionURL: email))
        let next = try #require(LinkRouter.continueRoute(afterWidget: email, on: device(.iOS), project: project, requested: webFirst))
        #expect(next.destination == .app(url: "https://www.example.com/articles/42"))
        #expect(next.steps.first?.contains(anatomy.continueUrl ?? "?") == true)
        let onDesktop = try #require(LinkRouter.continueRoute(afterWidget: email, on: .desktop, project: project, requested: webFirst))
        #expect(onDesktop.destination == .browser(url: "https://www.example.com/articles/42"))
    }

    @Test func emulatorLinksAlwaysOpenTheEmulatorsHandler() {
        let link = "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=C&apiKey=fake-api-key&continueUrl=http%3A%2F%2Flocalhost%3A5000%2Ffinish"
        for device in [device(.iOS), device(.android), Device.desktop] {
            #expect(LinkRouter.route(tapped: link, on: device, project: project, requested: settings).destination == .webWidget(actionURL: link))
        }
    }

    @Test func anyTextGetsARouteWithReasons() async {
        await propertyCheck(count: 300, input: LinkInspectorPropertyTests.anyText.string(of: 0...80), Gen.bool) { text, iOS in
            let route = LinkRouter.route(tapped: text, on: device(iOS ? .iOS : .android), project: project, requested: nil)
            #expect(!route.steps.isEmpty)
        }
    }

    @Test func plainContinueURLOpensInTheBrowser() {
        let route = LinkRouter.route(tapped: "https://www.example.com/articles/42", on: device(.android), project: project, requested: nil)
        #expect(route.destination == .browser(url: "https://www.example.com/articles/42"))
    }

    @Test func linkWithoutIOSAppFallsBackOnIPhone() {
        let androidOnly = ActionCodeSettings(url: "https://www.example.com/a", handleCodeInApp: true, androidPackageName: "com.example.android")
        let route = LinkRouter.route(tapped: Fixtures.emailLink(androidOnly), on: device(.iOS), project: project, requested: androidOnly)
        #expect(route.destination.summary == "web widget")
        #expect(route.steps.contains { $0.contains("names no iOS app") })
    }
}

@Suite struct SettingsValidationTests {
    @Test func validSettingsHaveNoErrors() {
        #expect(Fixtures.articleSettings.validate(for: .iOS, requestType: .emailSignIn).isEmpty)
        #expect(ActionCodeSettings.iOSDefault(bundleID: "com.example.ios").validate(for: .iOS, requestType: .passwordReset).isEmpty)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let settings = ActionCodeSettings(url: "", handleCodeInApp: false, iOSBundleID: "", androidPackageName: "", dynamicLinkDomain: "", linkDomain: "")
        let errors = settings.validate(for: .web, requestType: .emailSignIn)
        #expect(errors.map(\.code) == ["auth/invalid-continue-uri", "auth/argument-error", "auth/invalid-dynamic-link-domain",
                                       "auth/invalid-hosting-link-domain", "auth/missing-ios-bundle-id", "auth/missing-android-pkg-name"])
        #expect(errors.map(\.field) == ["url", "handleCodeInApp", "dynamicLinkDomain", "linkDomain", "iOSBundleID", "androidPackageName"])
    }

    @Test func signInWithoutURLOrInApp() {
        let errors = ActionCodeSettings().validate(for: .iOS, requestType: .emailSignIn)
        #expect(errors.map(\.code) == ["auth/missing-continue-uri", "auth/argument-error"])
        #expect(errors[1].message.contains("the app stops with a fatal error"))
    }

    @Test func missingURLDependsOnThePlatform() {
        #expect(ActionCodeSettings().validate(for: .iOS, requestType: .passwordReset).isEmpty)
        #expect(ActionCodeSettings().validate(for: .web, requestType: .passwordReset).map(\.code) == ["auth/invalid-continue-uri"])
        #expect(ActionCodeSettings().validate(for: .android, requestType: .verifyEmail).map(\.code) == ["auth/invalid-continue-uri"])
    }

    @Test(arguments: [(true, nil), (false, "12")] as [(Bool, String?)])
    func installOrMinimumVersionWithoutPackage(install: Bool, minimum: String?) {
        let settings = ActionCodeSettings(url: "https://www.example.com", androidInstallIfNotAvailable: install, androidMinimumVersion: minimum)
        let errors = settings.validate(for: .android, requestType: .passwordReset)
        #expect(errors.map(\.code) == ["auth/missing-android-pkg-name"])
        #expect(errors.first?.message.contains("MISSING_ANDROID_PACKAGE_NAME") == true)
    }
}

@Suite struct SettingsFindingsTests {
    let project = Fixtures.project()

    func codes(_ settings: ActionCodeSettings, _ type: OobRequestType = .passwordReset, project: ProjectConfiguration? = nil) -> Set<String> {
        Set(SettingsFindings.findings(for: settings, requestType: type, project: project ?? self.project).map(\.code))
    }

    @Test func cleanSettingsHaveNoFindings() {
        #expect(codes(Fixtures.articleSettings).isEmpty)
    }

    @Test func continueURLRisks() {
        #expect(codes(ActionCodeSettings(url: "https://evil.example.net/x")) == ["continue-url.unauthorized"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com/welcome?email=ada@example.com")) == ["continue-url.personal-data"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com/a?oobCode=x&apiKey=y")) == ["continue-url.credentials"])
        #expect(codes(ActionCodeSettings(url: "http://www.example.com/a")) == ["continue-url.plain-http"])
        #expect(codes(ActionCodeSettings(url: "http://localhost:5000/a")).isEmpty)
        #expect(codes(ActionCodeSettings(url: "javascript:alert(1)")) == ["continue-url.invalid", "continue-url.dangerous-scheme"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com/a#b")) == ["continue-url.fragment"])
    }

    @Test func protocolMistakes() {
        #expect(codes(ActionCodeSettings(url: "https://www.example.com/finish"), .emailSignIn).contains("settings.sign-in-not-in-app"))
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", androidInstallIfNotAvailable: true)) == ["settings.install-without-package"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", dynamicLinkDomain: "example.page.link")) == ["legacy-dynamic-links"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", dynamicLinkDomain: "other.page.link")) == ["legacy-dynamic-links", "settings.dynamic-link-domain-unknown"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com"), project: Fixtures.project(style: .firebaseDynamicLinkDomain)) == ["legacy-dynamic-links"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", linkDomain: "links.example.org")) == ["settings.link-domain-unknown"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", handleCodeInApp: true)) == ["settings.no-app"])
        #expect(codes(ActionCodeSettings()) == ["settings.no-continue-url"])
    }

    @Test func appsMustBeRegisteredAndVersionsReachable() {
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", iOSBundleID: "com.other.ios")) == ["settings.ios-app-not-registered"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", androidPackageName: "com.other")) == ["settings.android-app-not-registered"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", androidPackageName: "com.example.android", androidMinimumVersion: "99")) == ["settings.minimum-version-unavailable"])
        #expect(codes(ActionCodeSettings(url: "https://www.example.com", androidPackageName: "com.example.android", androidMinimumVersion: "1.2.3")) == ["settings.minimum-version-not-a-number"])
    }
}
