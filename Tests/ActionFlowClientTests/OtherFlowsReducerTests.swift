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
        var store = TestStore(Fixture.state())
        store.send(.openRoute("/articles/7")) {
            $0.screen = .signIn
            $0.pendingDestination = .article(id: "7")
            $0.narration.append("open /articles/7: /articles/7 is for members: sign in first (pending destination /articles/7)")
        }
        let (request, message) = signInLinkMessage()
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.signInLinkRequested(email: alice), effects: [.call(send, by: .app)]) {
            $0.busy = [.sendOobCode]
            $0.flow = FlowProgress(kind: .emailLinkSignIn, step: .requesting, email: self.alice, continueURL: "https://www.example.com/articles/7")
            $0.sentSettings = ActionCodeSettings(url: "https://www.example.com/articles/7", handleCodeInApp: true, iOSBundleID: "com.example.ios")
            $0.narration.append("sendOobCode EMAIL_SIGNIN for alice@example.com with continueUrl https://www.example.com/articles/7, canHandleCodeInApp true, iOSBundleId com.example.ios")
        }
        store.receive(.callSucceeded(send, by: .app, .oobCodeSent(SendOobCodeResponse(email: alice))), effects: [.refreshMailbox]) {
            $0.busy = [.mailbox]
            $0.flow?.step = .emailSent
            $0.emailForSignIn = self.alice
            $0.narration.append("sendOobCode EMAIL_SIGNIN → sent to alice@example.com")
        }
        store.receive(.mailboxRefreshed([message])) {
            $0.busy = []
            $0.inbox = [message]
            $0.narration.append("mailbox: 1 new, 1 in all")
        }
        let route = LinkRouter.route(tapped: message.link, on: .iPhone, project: Fixture.project, requested: store.state.sentSettings)
        let signIn = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice, oobCode: "SIGNIN1"))
        store.send(.linkTapped(messageID: "m1"), effects: [.call(signIn, by: .app)]) {
            $0.busy = [.emailLinkSignIn]
            $0.lastLink = LinkVisit(link: message.link, outcome: "app", anatomy: Fixture.anatomy(message.link), route: route)
            $0.flow = FlowProgress(kind: .emailLinkSignIn, step: .signingIn, email: self.alice, continueURL: "https://www.example.com/articles/7", oobCode: "SIGNIN1")
            $0.narration += Fixture.narration(of: route)
            $0.narration.append("app handles mode signIn (continueUrl https://www.example.com/articles/7): signInWithEmailLink for alice@example.com")
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(signIn, by: .app, .signedIn(Fixture.signedIn(alice))), effects: [.call(lookup, by: .app)]) {
            $0.busy = [.lookup]
            $0.emailForSignIn = nil
            $0.narration.append("signInWithEmailLink → EMAIL_SIGNIN code consumed; ID token for alice@example.com")
            $0.narration.append("accounts:lookup with the new idToken to load the user before showing it signed in")
        }
        store.receiveVerifiedLookup(lookup, email: alice, resumingAt: .article(id: "7"), completing: .emailLinkSignIn, signingIn: true)
        store.finish()
    }

    @Test("email-link sign-in with handleCodeInApp false is refused by the SDK before sending")
    func signInLinkNeedsHandleCodeInApp() {
        var store = TestStore(Fixture.state(settings: Fixture.webWidgetSettings))
        var sent = Fixture.webWidgetSettings
        sent.url = "https://www.example.com/"
        let problem = sent.validate(for: .iOS, requestType: .emailSignIn)[0]
        store.send(.signInLinkRequested(email: alice)) {
            $0.banner = ErrorBanner(message: problem.message, code: AuthErrorCode("auth/argument-error"), retry: nil)
            $0.narration.append("sendOobCode EMAIL_SIGNIN refused by the iOS SDK before sending: auth/argument-error (handleCodeInApp): \(problem.message)")
        }
        store.finish()
    }

    @Test("a sign-in link opened where the app forgot the email: a different email is refused, the right one works")
    func signInOnAnotherDevice() {
        var store = TestStore(Fixture.state())
        let (_, message) = signInLinkMessage()
        store.send(.linkPasted(message.link)) {
            $0.lastLink = LinkVisit(link: message.link, outcome: "pasted into the app", anatomy: Fixture.anatomy(message.link))
            $0.flow = FlowProgress(kind: .emailLinkSignIn, step: .emailSent, email: nil, continueURL: "https://www.example.com/articles/7", oobCode: "SIGNIN1")
            $0.pendingDestination = .article(id: "7")
            $0.screen = .confirmEmailForSignIn
            $0.narration.append(SecretMasking.maskLinks(in: "link pasted into the app: \(message.link)"))
            $0.narration.append("app handles mode signIn (continueUrl https://www.example.com/articles/7) but does not remember the email (opened on another device?): ask for it")
        }
        let wrong = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: "mallory@example.com", oobCode: "SIGNIN1"))
        store.send(.signInEmailConfirmed("mallory@example.com"), effects: [.call(wrong, by: .app)]) {
            $0.busy = [.emailLinkSignIn]
            $0.flow?.step = .signingIn
            $0.narration.append("email confirmed for email-link sign-in: mallory@example.com")
        }
        let mismatch = AuthFailure.server(.invalidEmail, detail: "The email provided does not match the sign-in email address.")
        store.receive(.callFailed(wrong, by: .app, mismatch)) {
            $0.busy = []
            $0.flow?.step = .emailSent
            $0.banner = ErrorBanner(message: "INVALID_EMAIL: The email provided does not match the sign-in email address. (not a valid email address, or not the one the code was sent to)", code: .invalidEmail, retry: nil)
            $0.narration.append("accounts:signInWithEmailLink → INVALID_EMAIL: The email provided does not match the sign-in email address. (not a valid email address, or not the one the code was sent to)")
        }
        let right = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice, oobCode: "SIGNIN1"))
        store.send(.signInEmailConfirmed(alice), effects: [.call(right, by: .app)]) {
            $0.busy = [.emailLinkSignIn]
            $0.flow?.step = .signingIn
            $0.narration.append("email confirmed for email-link sign-in: alice@example.com")
        }
        store.receive(.callFailed(right, by: .app, .network(.timedOut(seconds: 10)))) {
            $0.busy = []
            $0.banner = ErrorBanner(message: "network failure: timed out after 10.0 s", code: nil, retry: .call(right, by: .app))
            $0.narration.append("accounts:signInWithEmailLink → network failure: timed out after 10.0 s; the user may retry")
        }
        store.send(.retryTapped, effects: [.call(right, by: .app)]) {
            $0.busy = [.emailLinkSignIn]
            $0.banner = nil
            $0.narration.append("retry requested by the user")
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(right, by: .app, .signedIn(Fixture.signedIn(alice))), effects: [.call(lookup, by: .app)]) {
            $0.busy = [.lookup]
            $0.narration.append("signInWithEmailLink → EMAIL_SIGNIN code consumed; ID token for alice@example.com")
            $0.narration.append("accounts:lookup with the new idToken to load the user before showing it signed in")
        }
        store.receiveVerifiedLookup(lookup, email: alice, resumingAt: .article(id: "7"), completing: .emailLinkSignIn, signingIn: true)
        store.finish()
    }

    @Test("Android without the app: the Play Store installs it, then the app checks the reset code")
    func playStoreInstall() throws {
        let settings = ActionCodeSettings(url: "https://www.example.com/articles/42", handleCodeInApp: true, androidPackageName: "com.example.android", androidInstallIfNotAvailable: true)
        var device = Device.pixel
        device.appInstalled = false
        device.installedVersion = nil
        var initial = Fixture.state(device: device, settings: settings)
        initial.sentSettings = settings
        let request = SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com", settings: settings, clientType: .android)
        let message = Fixture.message(id: "m1", for: request, to: "bob@example.com", code: "RESET1")
        initial.inbox = [message]
        var project = Fixture.project
        project.androidApp?.sha256 = ["FA:C6:17:45"]
        initial.project = project
        var store = TestStore(initial)
        let route = LinkRouter.route(tapped: message.link, on: device, project: project, requested: settings)
        guard case .store(let visit) = route.destination else {
            Issue.record("expected the Play Store, got \(route.destination)")
            return
        }
        #expect(visit.purpose == .install)
        store.send(.linkTapped(messageID: "m1")) {
            $0.location = .store(StorePage(store: .playStore, purpose: .install, appID: "com.example.android", version: 12, thenOpens: visit.thenAppReceives))
            $0.lastLink = LinkVisit(link: message.link, outcome: "Play Store", anatomy: Fixture.anatomy(message.link), route: route)
            $0.narration += Fixture.narration(of: route)
            $0.narration.append("Play Store page for com.example.android: install the app, then it opens with the link")
        }
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1"))
        store.send(.storeActionTapped, effects: [.call(check, by: .app)]) {
            $0.device.appInstalled = true
            $0.device.installedVersion = 12
            $0.location = .app
            $0.busy = [.checkCode]
            $0.pendingDestination = .article(id: "42")
            $0.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: nil, continueURL: "https://www.example.com/articles/42", oobCode: "RESET1")
            $0.narration.append("Play Store: installed v12; the app opens with the link")
            $0.narration.append("app handles mode resetPassword (continueUrl https://www.example.com/articles/42): resetPassword with oobCode only to check it")
        }
        store.receive(.callSucceeded(check, by: .app, .passwordReset(ResetPasswordResponse(email: "bob@example.com", requestType: .passwordReset)))) {
            $0.busy = []
            $0.flow?.step = .enteringNewPassword
            $0.flow?.email = "bob@example.com"
            $0.screen = .newPassword(email: "bob@example.com")
            $0.narration.append("resetPassword with oobCode only → valid PASSWORD_RESET code for bob@example.com (not consumed): new-password form")
        }
        store.finish()
    }

    @Test("a verify-email code opened as a reset link is a code of the wrong kind")
    func wrongKindOfCode() {
        var store = TestStore(Fixture.state())
        let link = ActionLinkBuilder.actionURL(handler: Fixture.project.effectiveActionHandlerURL, operation: .passwordReset, oobCode: "VERIFY1", apiKey: "fake-api-key", continueURL: nil, lang: "en", tenantId: nil)
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "VERIFY1"))
        store.send(.linkPasted(link), effects: [.call(check, by: .app)]) {
            $0.busy = [.checkCode]
            $0.lastLink = LinkVisit(link: link, outcome: "pasted into the app", anatomy: Fixture.anatomy(link))
            $0.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: nil, continueURL: nil, oobCode: "VERIFY1")
            $0.narration.append(SecretMasking.maskLinks(in: "link pasted into the app: \(link)"))
            $0.narration.append("app handles mode resetPassword (no continueUrl): resetPassword with oobCode only to check it")
        }
        store.receive(.callSucceeded(check, by: .app, .passwordReset(ResetPasswordResponse(email: "bob@example.com", requestType: .verifyEmail)))) {
            $0.busy = []
            $0.flow = nil
            $0.screen = .forgotPassword
            $0.banner = ErrorBanner(message: "This link holds a VERIFY_EMAIL code, not a password reset code", code: .invalidOobCode, retry: nil)
            $0.narration.append("resetPassword check → a VERIFY_EMAIL code opened as mode resetPassword: code of the wrong kind")
        }
        store.finish()
    }

    @Test("routes, sign-out, clock, world reset and project changes")
    func worldControls() {
        var initial = Fixture.state()
        initial.session = CachedUser(localId: "uid-alice", email: alice, emailVerified: true, idToken: "token-1")
        initial.subscribed = true
        var store = TestStore(initial)
        store.send(.openRoute("/admin\u{1B}[2J")) {
            $0.banner = ErrorBanner(message: "No screen at /admin␛[2J", code: nil, retry: nil)
            $0.narration.append("open /admin␛[2J: the app has no such route; stays at /")
        }
        store.send(.openRoute("/account")) {
            $0.screen = .account
            $0.narration.append("open /account: at /account")
        }
        store.send(.signOutTapped) {
            $0.session = nil
            $0.screen = .articles
            $0.narration.append("signed out")
        }
        var edited = Fixture.inAppSettings
        edited.handleCodeInApp = false
        edited.androidPackageName = "com.example.android"
        store.send(.settingsEdited(edited)) {
            $0.settings = edited
            $0.narration.append("settings: handleCodeInApp false, androidPackageName com.example.android")
        }
        store.send(.settingsEdited(edited)) {
            $0.narration.append("settings: unchanged")
        }
        var webmail = Device.iPhone
        webmail.mailClient = .webmailInAppBrowser
        store.send(.deviceEdited(webmail)) {
            $0.device = webmail
            $0.narration.append("device: iOS 18, app installed v11, links verified, mail webmailInAppBrowser")
        }
        store.send(.localeEdited("fr")) {
            $0.locale = "fr"
            $0.narration.append("emails requested with X-Firebase-Locale fr")
        }
        store.send(.errorDismissed) {
            $0.banner = nil
            $0.narration.append("error dismissed")
        }
        store.send(.errorDismissed)
        store.send(.clockAdvanceRequested(seconds: 7200), effects: [.advanceClock(seconds: 7200)]) {
            $0.busy = [.clock]
            $0.narration.append("advance the project clock by 2h")
        }
        let later = Fixture.start.addingTimeInterval(7200)
        store.receive(.clockAdvanced(later)) {
            $0.busy = []
            $0.now = later
            $0.narration.append("project clock now \(later.formatted(.iso8601))")
        }
        store.send(.mailboxOpened, effects: [.refreshMailbox]) {
            $0.busy = [.mailbox]
            $0.location = .mailbox(openMessageID: nil)
            $0.narration.append("open the mailbox")
        }
        store.receive(.serviceFailed(.refreshMailbox, .network(.connectionRefused(host: "127.0.0.1")))) {
            $0.busy = []
            $0.banner = ErrorBanner(message: "mailbox refresh failed: network failure: connection refused by 127.0.0.1", code: nil, retry: .refreshMailbox)
            $0.narration.append("mailbox refresh failed: network failure: connection refused by 127.0.0.1")
        }
        var legacy = Fixture.project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        store.send(.projectEdited(legacy), effects: [.applyProject(legacy)]) {
            $0.project = legacy
            $0.busy = [.resetWorld]
            $0.narration.append("project demo-actionflow: FIREBASE_DYNAMIC_LINK_DOMAIN, authorized domains localhost, demo-actionflow.firebaseapp.com, demo-actionflow.web.app, www.example.com; the world restarts with it")
        }
        store.receive(.worldReset(now: Fixture.start)) {
            var fresh = AppState(device: webmail, settings: edited, project: legacy, locale: "fr")
            fresh.narration = $0.narration + ["world reset: signed out, empty mailbox, clock at \(Fixture.start.formatted(.iso8601))"]
            fresh.now = Fixture.start
            $0 = fresh
        }
        store.finish()
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

    @Test("a continue URL with control characters is narrated harmlessly")
    func hostileContinueURL() {
        var state = Fixture.state()
        _ = AppReducer.reduce(&state, .linkPasted("https://www.example.com/articles/%1B%5B2J\u{202E}"))
        #expect(state.screen == .articles)
        #expect(state.narration.allSatisfy { !UntrustedText.needsSanitizing($0) })
    }
}
