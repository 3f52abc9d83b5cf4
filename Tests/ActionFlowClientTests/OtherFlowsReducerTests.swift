@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

@Suite("Reducer: email-link sign-in, store visits, wrong codes, world controls")
struct OtherFlowsReducerTests {
    let alice = "alice@example.com"

    func signInLinkMessage(code: String = "SIGNIN1") -> (SendOobCodeRequest, MailMessage) {
        let settings = ActionCodeSettings(url: "https://www.example.com/articles/7", handleCodeInApp: true, iOSBundleID: "com.example.ios")
        let request = SendOobCodeRequest(requestType: .emailSignIn, email: alice, settings: settings, clientType: .iOS)
        return (request, Fixture.message(id: "m1", for: request, to: alice, code: code))
    }

    @Test("email-link sign-in: the app remembers the email, signs in and resumes at the article")
    func emailLinkSignIn() throws {
        var store = TestStore(Fixture.session())
        store.send(.openRoute("/articles/7")) {
            $0.app.screen = .signIn
            $0.app.pendingDestination = .article(id: "7")
            $0.log(.gated(.open(.article(id: "7")), target: .article(id: "7"), gate: .signIn))
        }
        let (request, message) = signInLinkMessage()
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.signInLinkRequested(email: alice), effects: [.call(send, by: .app)]) {
            $0.app.busy = [.sendOobCode]
            $0.app.flow = FlowProgress(kind: .emailLinkSignIn, step: .requesting, email: self.alice, continueURL: "https://www.example.com/articles/7")
            $0.app.sentSettings = ActionCodeSettings(url: "https://www.example.com/articles/7", handleCodeInApp: true, iOSBundleID: "com.example.ios")
            $0.log(.request(send, by: .app, purpose: .sendEmail(recipient: self.alice)))
        }
        store.receive(.callSucceeded(send, by: .app, .oobCodeSent(SendOobCodeResponse(email: alice))), effects: [.refreshMailbox]) {
            $0.app.busy = [.mailbox]
            $0.app.flow?.step = .emailSent
            $0.app.emailForSignIn = self.alice
            $0.log(.reply(.oobCodeSent(.emailSignIn, email: self.alice, enumerationProtected: false)))
        }
        store.receive(.mailboxRefreshed([message])) {
            $0.app.busy = []
            $0.listMessages([message])
            $0.log(.mailboxListed(new: 1, total: 1))
        }
        let route = LinkRouter.route(tapped: message.link, on: .iPhone, project: Fixture.project, requested: store.session.app.sentSettings)
        let signIn = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice, oobCode: "SIGNIN1"))
        store.send(.linkTapped(messageID: "m1"), effects: [.call(signIn, by: .app)]) {
            $0.app.busy = [.emailLinkSignIn]
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "app", anatomy: Fixture.anatomy(message.link), route: route)
            $0.app.flow = FlowProgress(kind: .emailLinkSignIn, step: .signingIn, email: self.alice, continueURL: "https://www.example.com/articles/7", oobCode: "SIGNIN1")
            $0.log(.routed(link: message.link, route))
            $0.log(.request(signIn, by: .app, purpose: .handleLink(continueURL: "https://www.example.com/articles/7")))
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(signIn, by: .app, .signedIn(Fixture.signedIn(alice))), effects: [.call(lookup, by: .app)]) {
            $0.app.busy = [.lookup]
            $0.app.emailForSignIn = nil
            $0.log(.reply(.signedInWithEmailLink(email: self.alice)))
            $0.log(.request(lookup, by: .app, purpose: .loadSignedInUser))
        }
        store.receiveVerifiedLookup(lookup, email: alice, resumingAt: .article(id: "7"), completing: .emailLinkSignIn, signingIn: true)
        store.finish()
    }

    @Test("email-link sign-in with handleCodeInApp false is refused by the SDK before sending")
    func signInLinkNeedsHandleCodeInApp() {
        var store = TestStore(Fixture.session(Fixture.app(settings: Fixture.webWidgetSettings)))
        var sent = Fixture.webWidgetSettings
        sent.url = "https://www.example.com/"
        let problem = sent.validate(for: .iOS, requestType: .emailSignIn)[0]
        store.send(.signInLinkRequested(email: alice)) {
            $0.app.banner = ErrorBanner(message: problem.message, code: AuthErrorCode("auth/argument-error"), retry: nil)
            $0.log(.refused(.sdkRefused(.emailSignIn, sdk: "iOS", problem)))
        }
        store.finish()

        #expect(store.session.narration == ["sendOobCode EMAIL_SIGNIN refused by the iOS SDK before sending: auth/argument-error (handleCodeInApp): \(problem.message)"])
    }

    @Test("a sign-in link opened where the app forgot the email: a different email is refused, the right one works")
    func signInOnAnotherDevice() {
        var store = TestStore(Fixture.session())
        let (_, message) = signInLinkMessage()
        store.send(.linkPasted(message.link)) {
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "pasted into the app", anatomy: Fixture.anatomy(message.link))
            $0.app.flow = FlowProgress(kind: .emailLinkSignIn, step: .emailSent, email: nil, continueURL: "https://www.example.com/articles/7", oobCode: "SIGNIN1")
            $0.app.pendingDestination = .article(id: "7")
            $0.app.screen = .confirmEmailForSignIn
            $0.log(.linkPasted(message.link))
            $0.log(.askForSignInEmail(continueURL: "https://www.example.com/articles/7", inWebApp: false))
        }
        let wrong = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: "mallory@example.com", oobCode: "SIGNIN1"))
        store.send(.signInEmailConfirmed("mallory@example.com"), effects: [.call(wrong, by: .app)]) {
            $0.app.busy = [.emailLinkSignIn]
            $0.app.flow?.step = .signingIn
            $0.log(.request(wrong, by: .app, purpose: .emailConfirmed))
        }
        let mismatch = AuthFailure.server(.invalidEmail, detail: "The email provided does not match the sign-in email address.")
        store.receive(.callFailed(wrong, by: .app, mismatch)) {
            $0.app.busy = []
            $0.app.flow?.step = .emailSent
            $0.app.banner = ErrorBanner(message: "INVALID_EMAIL: The email provided does not match the sign-in email address. (not a valid email address, or not the one the code was sent to)", code: .invalidEmail, retry: nil)
            $0.log(.callFailed(.signInWithEmailLink, mismatch, retryable: false))
        }
        let right = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice, oobCode: "SIGNIN1"))
        store.send(.signInEmailConfirmed(alice), effects: [.call(right, by: .app)]) {
            $0.app.busy = [.emailLinkSignIn]
            $0.app.flow?.step = .signingIn
            $0.log(.request(right, by: .app, purpose: .emailConfirmed))
        }
        let timedOut = AuthFailure.network(.timedOut(seconds: 10))
        store.receive(.callFailed(right, by: .app, timedOut)) {
            $0.app.busy = []
            $0.app.banner = ErrorBanner(message: "network failure: timed out after 10.0 s", code: nil, retry: .call(right, by: .app))
            $0.log(.callFailed(.signInWithEmailLink, timedOut, retryable: true))
        }
        store.send(.retryTapped, effects: [.call(right, by: .app)]) {
            $0.app.busy = [.emailLinkSignIn]
            $0.app.banner = nil
            $0.log(.retryRequested)
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(right, by: .app, .signedIn(Fixture.signedIn(alice))), effects: [.call(lookup, by: .app)]) {
            $0.app.busy = [.lookup]
            $0.log(.reply(.signedInWithEmailLink(email: self.alice)))
            $0.log(.request(lookup, by: .app, purpose: .loadSignedInUser))
        }
        store.receiveVerifiedLookup(lookup, email: alice, resumingAt: .article(id: "7"), completing: .emailLinkSignIn, signingIn: true)
        store.finish()

        #expect(store.session.narration == [
            SecretMasking.maskLinks(in: "link pasted into the app: \(message.link)"),
            "app handles mode signIn (continueUrl https://www.example.com/articles/7) but does not remember the email (opened on another device?): ask for it",
            "email confirmed for email-link sign-in: mallory@example.com",
            "accounts:signInWithEmailLink → INVALID_EMAIL: The email provided does not match the sign-in email address. (not a valid email address, or not the one the code was sent to)",
            "email confirmed for email-link sign-in: alice@example.com",
            "accounts:signInWithEmailLink → network failure: timed out after 10.0 s; the user may retry",
            "retry requested by the user",
            "signInWithEmailLink → EMAIL_SIGNIN code consumed; ID token for alice@example.com",
            "accounts:lookup with the new idToken to load the user before showing it signed in",
        ] + TestStore.verifiedLookupNarration(email: alice, resumingAt: .article(id: "7"), completing: .emailLinkSignIn, signingIn: true))
    }

    @Test("Android without the app: the Play Store installs it, then the app checks the reset code")
    func playStoreInstall() throws {
        let settings = ActionCodeSettings(url: "https://www.example.com/articles/42", handleCodeInApp: true, androidPackageName: "com.example.android", androidInstallIfNotAvailable: true)
        var device = Device.pixel
        device.appInstalled = false
        device.installedVersion = nil
        var app = Fixture.app(device: device, settings: settings)
        app.sentSettings = settings
        let request = SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com", settings: settings, clientType: .android)
        let message = Fixture.message(id: "m1", for: request, to: "bob@example.com", code: "RESET1")
        var project = Fixture.project
        project.androidApp?.sha256 = ["FA:C6:17:45"]
        var initial = Fixture.session(app, project: project)
        initial.listMessages([message])
        var store = TestStore(initial)
        let route = LinkRouter.route(tapped: message.link, on: device, project: project, requested: settings)
        guard case .store(let visit) = route.destination else {
            Issue.record("expected the Play Store, got \(route.destination)")
            return
        }
        #expect(visit.purpose == .install)
        let page = StorePage(store: .playStore, purpose: .install, appID: "com.example.android", version: 12, thenOpens: visit.thenAppReceives)
        store.send(.linkTapped(messageID: "m1")) {
            $0.app.location = .store(page)
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "Play Store", anatomy: Fixture.anatomy(message.link), route: route)
            $0.log(.routed(link: message.link, route))
            $0.log(.storePage(visit))
        }
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1"))
        store.send(.storeActionTapped, effects: [.call(check, by: .app)]) {
            $0.app.device.appInstalled = true
            $0.app.device.installedVersion = 12
            $0.app.location = .app
            $0.app.busy = [.checkCode]
            $0.app.pendingDestination = .article(id: "42")
            $0.app.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: nil, continueURL: "https://www.example.com/articles/42", oobCode: "RESET1")
            $0.log(.storeCompleted(page))
            $0.log(.request(check, by: .app, purpose: .handleLink(continueURL: "https://www.example.com/articles/42")))
        }
        store.receive(.callSucceeded(check, by: .app, .passwordReset(ResetPasswordResponse(email: "bob@example.com", requestType: .passwordReset)))) {
            $0.app.busy = []
            $0.app.flow?.step = .enteringNewPassword
            $0.app.flow?.email = "bob@example.com"
            $0.app.screen = .newPassword(email: "bob@example.com")
            $0.log(.reply(.resetCodeValid(email: "bob@example.com")))
        }
        store.finish()

        #expect(store.session.narration == Fixture.narration(of: route) + [
            "Play Store page for com.example.android: install the app, then it opens with the link",
            "Play Store: installed v12; the app opens with the link",
            "app handles mode resetPassword (continueUrl https://www.example.com/articles/42): resetPassword with oobCode only to check it",
            "resetPassword with oobCode only → valid PASSWORD_RESET code for bob@example.com (not consumed): new-password form",
        ])
    }

    @Test("a verify-email code opened as a reset link is a code of the wrong kind")
    func wrongKindOfCode() {
        var store = TestStore(Fixture.session())
        let link = ActionLinkBuilder.actionURL(handler: Fixture.project.effectiveActionHandlerURL, operation: .passwordReset, oobCode: "VERIFY1", apiKey: "fake-api-key", continueURL: nil, lang: "en", tenantId: nil)
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "VERIFY1"))
        store.send(.linkPasted(link), effects: [.call(check, by: .app)]) {
            $0.app.busy = [.checkCode]
            $0.app.lastLink = LinkVisit(link: link, outcome: "pasted into the app", anatomy: Fixture.anatomy(link))
            $0.app.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: nil, continueURL: nil, oobCode: "VERIFY1")
            $0.log(.linkPasted(link))
            $0.log(.request(check, by: .app, purpose: .handleLink(continueURL: nil)))
        }
        store.receive(.callSucceeded(check, by: .app, .passwordReset(ResetPasswordResponse(email: "bob@example.com", requestType: .verifyEmail)))) {
            $0.app.busy = []
            $0.app.flow = nil
            $0.app.screen = .forgotPassword
            $0.app.banner = ErrorBanner(message: "This link holds a VERIFY_EMAIL code, not a password reset code", code: .invalidOobCode, retry: nil)
            $0.log(.reply(.codeOfWrongKind(.verifyEmail)))
        }
        store.finish()

        #expect(store.session.narration == [
            SecretMasking.maskLinks(in: "link pasted into the app: \(link)"),
            "app handles mode resetPassword (no continueUrl): resetPassword with oobCode only to check it",
            "resetPassword check → a VERIFY_EMAIL code opened as mode resetPassword: code of the wrong kind",
        ])
    }

    @Test("routes, sign-out, clock, world reset and project changes")
    func worldControls() {
        var app = Fixture.app()
        app.session = CachedUser(localId: "uid-alice", email: alice, emailVerified: true, idToken: "token-1")
        app.subscribed = true
        var store = TestStore(Fixture.session(app))
        store.send(.openRoute("/admin\u{1B}[2J")) {
            $0.app.banner = ErrorBanner(message: "No screen at /admin␛[2J", code: nil, retry: nil)
            $0.log(.unknownRoute(path: "/admin\u{1B}[2J", stayedAt: .articles))
        }
        store.send(.openRoute("/account")) {
            $0.app.screen = .account
            $0.log(.arrived(.open(.account), at: .account))
        }
        store.send(.signOutTapped) {
            $0.app.session = nil
            $0.app.screen = .articles
            $0.log(.signedOut)
        }
        var edited = Fixture.inAppSettings
        edited.handleCodeInApp = false
        edited.androidPackageName = "com.example.android"
        store.send(.settingsEdited(edited)) {
            $0.app.settings = edited
            $0.log(.settingsEdited(from: Fixture.inAppSettings, to: edited))
        }
        store.send(.settingsEdited(edited)) {
            $0.log(.settingsEdited(from: edited, to: edited))
        }
        var webmail = Device.iPhone
        webmail.mailClient = .webmailInAppBrowser
        store.send(.deviceEdited(webmail)) {
            $0.app.device = webmail
            $0.log(.deviceEdited(webmail))
        }
        store.send(.localeEdited("fr")) {
            $0.app.locale = "fr"
            $0.log(.localeEdited("fr"))
        }
        store.send(.errorDismissed) {
            $0.app.banner = nil
            $0.log(.errorDismissed)
        }
        store.send(.errorDismissed)
        store.send(.clockAdvanceRequested(seconds: 7200), effects: [.advanceClock(seconds: 7200)]) {
            $0.app.busy = [.clock]
            $0.log(.clockAdvanceRequested(seconds: 7200))
        }
        let later = Fixture.start.addingTimeInterval(7200)
        store.receive(.clockAdvanced(later)) {
            $0.app.busy = []
            $0.world.now = later
            $0.log(.clockAdvanced(later))
        }
        store.send(.mailboxOpened, effects: [.refreshMailbox]) {
            $0.app.busy = [.mailbox]
            $0.app.location = .mailbox(openMessageID: nil)
            $0.app.seenMessages = 0
            $0.log(.mailboxOpened)
        }
        let refused = AuthFailure.network(.connectionRefused(host: "127.0.0.1"))
        store.receive(.serviceFailed(.refreshMailbox, refused)) {
            $0.app.busy = []
            $0.app.banner = ErrorBanner(message: "mailbox refresh failed: network failure: connection refused by 127.0.0.1", code: nil, retry: .refreshMailbox)
            $0.log(.serviceFailed(.refreshMailbox, refused))
        }
        var legacy = Fixture.project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        store.send(.projectEdited(legacy), effects: [.applyProject(legacy)]) {
            // The app keeps routing with the old project until the world has restarted with the new one.
            $0.app.busy = [.resetWorld]
            $0.log(.projectEdited(legacy))
        }
        store.receive(.projectApplied(legacy, now: Fixture.start)) {
            $0.app = AppState(device: webmail, settings: edited, locale: "fr")
            $0.world = World(project: legacy, inbox: [], now: Fixture.start, isSimulated: false)
            $0.log(.worldReset(now: Fixture.start))
        }
        store.finish()

        #expect(store.session.narration == [
            "open /admin␛[2J: the app has no such route; stays at /",
            "open /account: at /account",
            "signed out",
            "settings: handleCodeInApp false, androidPackageName com.example.android",
            "settings: unchanged",
            "device: iOS 18, app installed v11, links verified, mail webmailInAppBrowser",
            "emails requested with X-Firebase-Locale fr",
            "error dismissed",
            "advance the project clock by 2h",
            "project clock now \(later.formatted(.iso8601))",
            "open the mailbox",
            "mailbox refresh failed: network failure: connection refused by 127.0.0.1",
            "project demo-actionflow: FIREBASE_DYNAMIC_LINK_DOMAIN, authorized domains localhost, demo-actionflow.firebaseapp.com, demo-actionflow.web.app, www.example.com; the world restarts with it",
            "world reset: signed out, empty mailbox, clock at \(Fixture.start.formatted(.iso8601))",
        ])
    }
}

@Suite("App routes")
struct AppRouteTests {
    @Test("routes the app has", arguments: [("/", AppScreen.articles), ("", .articles), ("/articles/42", .article(id: "42")), ("/articles/how-to_1/", .article(id: "how-to_1")), ("/subscribe", .subscribe), ("/account", .account)])
    func routes(_ path: String, _ screen: AppScreen) {
        #expect(AppScreen(path: path) == screen)
    }

    @Test("paths that are no route of the app", arguments: ["/articles/", "/articles/4/2", "/articles/\u{1B}[2J", "/articles/%2F", "/admin", "/subscribe/now", "articles/42"])
    func notRoutes(_ path: String) {
        #expect(AppScreen(path: path) == nil)
    }

    @Test("a continue URL leads to the route its path names, whatever its host is written in", arguments: [
        ("https://www.example.com/articles/42?utm=mail#top", AppScreen.article(id: "42")),
        ("https://b%C3%BCcher.example/subscribe", .subscribe),
        ("https://xn--bcher-kva.example/account", .account),
        ("http://127.0.0.1:8080/", .articles),
    ] as [(String, AppScreen)])
    func continueURLRoutes(_ url: String, _ screen: AppScreen) {
        #expect(AppState.appScreen(forContinueURL: url) == screen)
    }

    @Test("a continue URL without a host, or that is no URL, leads to no route", arguments: ["/articles/42", "articles/42", "mailto:bob@example.com", "urn:articles:42", "https://www.example.com/articles/ 42", ""])
    func continueURLsWithoutRoute(_ url: String) {
        #expect(AppState.appScreen(forContinueURL: url) == nil)
    }

    @Test("a continue URL with control characters is narrated harmlessly")
    func hostileContinueURL() {
        var session = Fixture.session()
        #expect(session.reduce(.linkPasted("https://www.example.com/articles/%1B%5B2J\u{202E}")) == [])
        #expect(session.app.screen == .articles)
        #expect(session.narration.allSatisfy { !UntrustedText.needsSanitizing($0) })
    }
}
