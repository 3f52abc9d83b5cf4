@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Foundation
import TestSupport
import Testing

@Suite("Reducer: password reset (scenario 1)")
struct PasswordResetReducerTests {
    let bob = "bob@example.com"

    /// Opens the members-only article signed out, then signs in with a wrong password; returns the call.
    func signInWithWrongPassword(_ store: inout TestStore) -> AuthCall {
        store.send(.openRoute("/articles/42")) {
            $0.app.screen = .signIn
            $0.app.pendingDestination = .article(id: "42")
            $0.log(.gated(.open(.article(id: "42")), target: .article(id: "42"), gate: .signIn))
        }
        let wrong = AuthCall.signInWithPassword(SignInWithPasswordRequest(email: bob, password: "wrong"))
        store.send(.signInSubmitted(email: bob, password: "wrong"), effects: [.call(wrong, by: .app)]) {
            $0.app.busy = [.signIn]
            $0.log(.request(wrong, by: .app, purpose: .signInForm))
        }
        return wrong
    }

    /// The server refuses the wrong password with `detail`; the banner says `banner`.
    func refuseWrongPassword(_ store: inout TestStore, _ wrong: AuthCall, detail: String?, banner: String) {
        let invalidPassword = AuthFailure.server(.invalidPassword, detail: detail)
        store.receive(.callFailed(wrong, by: .app, invalidPassword)) {
            $0.app.busy = []
            $0.app.banner = ErrorBanner(message: banner, code: .invalidPassword, retry: nil)
            $0.log(.callFailed(.signInWithPassword, invalidPassword, retryable: false))
        }
    }

    /// Taps "Forgot password?" and asks for a reset email for bob; returns the request and its call.
    func requestReset(_ store: inout TestStore, settings: ActionCodeSettings) -> (SendOobCodeRequest, AuthCall) {
        store.send(.forgotPasswordTapped) {
            $0.app.screen = .forgotPassword
            $0.app.banner = nil
            $0.log(.forgotPassword(resumePath: "/articles/42"))
        }
        var sent = settings
        sent.url = "https://www.example.com/articles/42"
        let request = SendOobCodeRequest(requestType: .passwordReset, email: bob, settings: sent, clientType: .iOS)
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.passwordResetRequested(email: bob), effects: [.call(send, by: .app)]) {
            $0.app.busy = [.sendOobCode]
            $0.app.flow = FlowProgress(kind: .passwordReset, step: .requesting, email: self.bob, continueURL: "https://www.example.com/articles/42")
            $0.app.sentSettings = sent
            $0.log(.request(send, by: .app, purpose: .sendEmail(recipient: self.bob)))
        }
        return (request, send)
    }

    /// The server says the reset email went out; the app says to check the mail and lists it.
    func receiveResetSent(_ store: inout TestStore, _ send: AuthCall) {
        store.receive(.callSucceeded(send, by: .app, .oobCodeSent(SendOobCodeResponse(email: bob))), effects: [.refreshMailbox]) {
            $0.app.busy = [.mailbox]
            $0.app.flow?.step = .emailSent
            $0.app.screen = .signIn
            $0.log(.reply(.oobCodeSent(.passwordReset, email: self.bob, enumerationProtected: false)))
            $0.log(.reply(.checkYourEmail))
        }
    }

    /// Steps up to the reset email being sent, shared by the variants below.
    func storeWithResetSent(settings: ActionCodeSettings = Fixture.inAppSettings) -> (TestStore, SendOobCodeRequest) {
        var store = TestStore(Fixture.session(Fixture.app(settings: settings)))
        let wrong = signInWithWrongPassword(&store)
        refuseWrongPassword(&store, wrong, detail: nil, banner: "INVALID_PASSWORD (wrong password)")
        let (request, send) = requestReset(&store, settings: settings)
        receiveResetSent(&store, send)
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1")
        store.receive(.mailboxRefreshed([message])) {
            $0.app.busy = []
            $0.listMessages([message])
            $0.log(.mailboxListed(new: 1, total: 1))
        }
        return (store, request)
    }

    /// The narration of `storeWithResetSent`, as the old reducer wrote it.
    func resetSentNarration(handleCodeInApp: Bool) -> [String] {
        [
            "open /articles/42: members only: sign in first (pending destination /articles/42)",
            "signInWithPassword for bob@example.com",
            "accounts:signInWithPassword → INVALID_PASSWORD (wrong password)",
            "forgot password: the app will send a reset email whose continue URL points back to /articles/42",
            "sendOobCode PASSWORD_RESET for bob@example.com with continueUrl https://www.example.com/articles/42, canHandleCodeInApp \(handleCodeInApp), iOSBundleId com.example.ios",
            "sendOobCode PASSWORD_RESET → sent to bob@example.com",
            "app: \"check your email\", back to sign-in",
            "mailbox: 1 new, 1 in all",
        ]
    }

    /// Pastes the reset link into the app, which checks its code.
    func pasteResetLink(_ store: inout TestStore, _ request: SendOobCodeRequest) -> AuthCall {
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1")
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1"))
        store.send(.linkPasted(message.link), effects: [.call(check, by: .app)]) {
            $0.app.busy = [.checkCode]
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "pasted into the app", anatomy: Fixture.anatomy(message.link))
            $0.app.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: self.bob, continueURL: "https://www.example.com/articles/42", oobCode: "RESET1")
            $0.log(.linkPasted(message.link))
            $0.log(.request(check, by: .app, purpose: .handleLink(continueURL: "https://www.example.com/articles/42")))
        }
        return check
    }

    @Test("in the app: check, weak password refused, new password, signed in, resumed at the article")
    func inApp() {
        var (store, request) = storeWithResetSent()
        let check = pasteResetLink(&store, request)
        store.receive(.callSucceeded(check, by: .app, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset)))) {
            $0.app.busy = []
            $0.app.flow?.step = .enteringNewPassword
            $0.app.screen = .newPassword(email: self.bob)
            $0.log(.reply(.resetCodeValid(email: self.bob)))
        }
        let weak = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1", newPassword: "123"))
        store.send(.newPasswordSubmitted("123"), effects: [.call(weak, by: .app)]) {
            $0.app.busy = [.resetPassword]
            $0.app.flow?.step = .confirmingNewPassword
            $0.log(.request(weak, by: .app, purpose: .newPasswordForm))
        }
        let weakPassword = AuthFailure.server(.weakPassword, detail: "Password should be at least 6 characters")
        store.receive(.callFailed(weak, by: .app, weakPassword)) {
            $0.app.busy = []
            $0.app.flow?.step = .enteringNewPassword
            $0.app.banner = ErrorBanner(message: "WEAK_PASSWORD: Password should be at least 6 characters (the new password is shorter than 6 characters)", code: .weakPassword, retry: nil)
            $0.log(.callFailed(.resetPassword, weakPassword, retryable: false))
        }
        let confirm = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1", newPassword: "correct horse"))
        store.send(.newPasswordSubmitted("correct horse"), effects: [.call(confirm, by: .app)]) {
            $0.app.busy = [.resetPassword]
            $0.app.banner = nil
            $0.app.flow?.step = .confirmingNewPassword
            $0.log(.request(confirm, by: .app, purpose: .newPasswordForm))
        }
        let signIn = AuthCall.signInWithPassword(SignInWithPasswordRequest(email: bob, password: "correct horse"))
        store.receive(.callSucceeded(confirm, by: .app, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset))), effects: [.call(signIn, by: .app)]) {
            $0.app.busy = [.signIn]
            $0.app.flow?.step = .signingIn
            $0.log(.reply(.passwordChanged))
            $0.log(.request(signIn, by: .app, purpose: .signInWithNewPassword))
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(signIn, by: .app, .signedIn(Fixture.signedIn(bob))), effects: [.call(lookup, by: .app)]) {
            $0.app.busy = [.lookup]
            $0.log(.reply(.signedInWithPassword(email: self.bob)))
            $0.log(.request(lookup, by: .app, purpose: .loadSignedInUser))
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .article(id: "42"), completing: .passwordReset, signingIn: true)
        store.finish()

        let link = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1").link
        #expect(store.session.narration == resetSentNarration(handleCodeInApp: true) + [
            "link pasted into the app: \(SecretMasking.maskLinks(in: link))",
            "app handles mode resetPassword (continueUrl https://www.example.com/articles/42): resetPassword with oobCode only to check it",
            "resetPassword with oobCode only → valid PASSWORD_RESET code for bob@example.com (not consumed): new-password form",
            "app: resetPassword with newPassword",
            "accounts:resetPassword → WEAK_PASSWORD: Password should be at least 6 characters (the new password is shorter than 6 characters)",
            "app: resetPassword with newPassword",
            "resetPassword with newPassword → PASSWORD_RESET code consumed; older sessions revoked",
            "app signs in with the new password: signInWithPassword for bob@example.com",
            "signInWithPassword → ID token for bob@example.com",
            "accounts:lookup with the new idToken to load the user before showing it signed in",
        ] + TestStore.verifiedLookupNarration(email: bob, resumingAt: .article(id: "42"), completing: .passwordReset, signingIn: true))
    }

    @Test("web widget: the page checks the code and takes the new password; Continue reopens the app at sign-in")
    func webWidget() throws {
        var (store, request) = storeWithResetSent(settings: Fixture.webWidgetSettings)
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1")
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1"))
        var (page, anatomy, route) = try store.tapIntoWebWidget(message, call: check, busy: .checkCode, operation: .passwordReset, code: "RESET1")
        let actionURL = page.actionURL
        page.step = .resetForm(email: bob, problem: nil)
        store.receive(.callSucceeded(check, by: .webWidget, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset)))) {
            $0.app.busy = []
            $0.app.location = .webWidget(page)
            $0.log(.webWidget(.resetFormShown(email: self.bob)))
        }
        let confirm = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1", newPassword: "correct horse"))
        page.step = .saving(email: bob)
        store.send(.newPasswordSubmitted("correct horse"), effects: [.call(confirm, by: .webWidget)]) {
            $0.app.busy = [.resetPassword]
            $0.app.location = .webWidget(page)
            $0.log(.request(confirm, by: .webWidget, purpose: .newPasswordForm))
        }
        page.step = .done(HostedActionHandler.Outcome(title: "Password changed", detail: "You can now sign in with your new password.", email: bob))
        store.receive(.callSucceeded(confirm, by: .webWidget, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset)))) {
            $0.app.busy = []
            $0.app.location = .webWidget(page)
            $0.log(.webWidget(.passwordChanged(email: self.bob, continueShown: true)))
        }
        let continueRoute = try #require(LinkRouter.continueRoute(afterWidget: page.actionURL, on: .iPhone, project: Fixture.project, requested: store.session.app.sentSettings))
        let continueURL = try #require(anatomy.continueUrl)
        store.send(.continueTapped) {
            $0.app.location = .app
            $0.app.screen = .signIn
            $0.app.pendingDestination = .article(id: "42")
            $0.app.lastLink = LinkVisit(link: continueURL, outcome: "app", anatomy: nil, route: continueRoute)
            $0.log(.routed(link: continueURL, continueRoute))
            $0.log(.gated(.continueURL("https://www.example.com/articles/42"), target: .article(id: "42"), gate: .signIn))
        }
        store.finish()

        #expect(store.session.narration == resetSentNarration(handleCodeInApp: false) + Fixture.narration(of: route) + [
            SecretMasking.maskLinks(in: "web widget opens \(actionURL): checks the PASSWORD_RESET code (resetPassword with oobCode only; not consumed)"),
            "web widget: valid PASSWORD_RESET code for bob@example.com; shows its new-password form",
            "web widget: resetPassword with newPassword",
            "web widget: resetPassword with newPassword → PASSWORD_RESET code consumed for bob@example.com; older sessions revoked; Continue shown",
        ] + Fixture.narration(of: continueRoute) + [
            "app opened with continue URL https://www.example.com/articles/42: members only: sign in first (pending destination /articles/42)",
        ])
    }

    @Test("an expired code sends the user back to the forgot-password form")
    func expiredCode() {
        var (store, request) = storeWithResetSent()
        let check = pasteResetLink(&store, request)
        let expired = AuthFailure.server(.expiredOobCode, detail: nil)
        store.receive(.callFailed(check, by: .app, expired)) {
            $0.app.busy = []
            $0.app.flow = nil
            $0.app.screen = .forgotPassword
            $0.app.banner = ErrorBanner(message: "EXPIRED_OOB_CODE (the code is past its lifetime: request a new email)", code: .expiredOobCode, retry: nil)
            $0.log(.callFailed(.resetPassword, expired, retryable: false))
        }
        store.finish()
    }

    @Test("a network failure on send offers a retry and never retries by itself")
    func networkFailureRetry() {
        var store = TestStore(Fixture.session())
        store.send(.forgotPasswordTapped) {
            $0.app.screen = .forgotPassword
            $0.log(.forgotPassword(resumePath: "/"))
        }
        let request = SendOobCodeRequest(requestType: .passwordReset, email: bob, settings: ActionCodeSettings(url: "https://www.example.com/", handleCodeInApp: true, iOSBundleID: "com.example.ios"), clientType: .iOS)
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.passwordResetRequested(email: bob), effects: [.call(send, by: .app)]) {
            $0.app.busy = [.sendOobCode]
            $0.app.flow = FlowProgress(kind: .passwordReset, step: .requesting, email: self.bob, continueURL: "https://www.example.com/")
            $0.app.sentSettings = ActionCodeSettings(url: "https://www.example.com/", handleCodeInApp: true, iOSBundleID: "com.example.ios")
            $0.log(.request(send, by: .app, purpose: .sendEmail(recipient: self.bob)))
        }
        let connectionLost = AuthFailure.network(.connectionLost("injected"))
        store.receive(.callFailed(send, by: .app, connectionLost)) {
            $0.app.busy = []
            $0.app.banner = ErrorBanner(message: "network failure: connection lost: injected", code: nil, retry: .call(send, by: .app))
            $0.log(.callFailed(.sendOobCode, connectionLost, retryable: true))
        }
        store.send(.retryTapped, effects: [.call(send, by: .app)]) {
            $0.app.busy = [.sendOobCode]
            $0.app.banner = nil
            $0.log(.retryRequested)
        }
        let tooMany = AuthFailure.server(.tooManyAttempts, detail: nil)
        store.receive(.callFailed(send, by: .app, tooMany)) {
            $0.app.busy = []
            $0.app.banner = ErrorBanner(message: "TOO_MANY_ATTEMPTS_TRY_LATER (rate limit reached: try again later)", code: .tooManyAttempts, retry: .call(send, by: .app))
            $0.log(.callFailed(.sendOobCode, tooMany, retryable: true))
        }
        store.send(.errorDismissed) {
            $0.app.banner = nil
            $0.log(.errorDismissed)
        }
        store.finish()
    }

    @Test("the exhaustive store over the embedded world: each call's exchange, the email the project sent and the reply come back as events, in order")
    func embeddedStore() throws {
        var project = Fixture.project
        project.users = [PresetUser(email: bob, password: "old password", emailVerified: true)]
        var store = TestStore(embedded: SessionDriver.embedded(project: project, app: Fixture.app()))
        /// The exchange the runner reports, numbered as the session numbers it.
        func exchange(_ event: AppEvent) -> ExchangeRecord? {
            if case .exchangeRecorded(let record, _, by: .app) = event { record } else { nil }
        }
        let wrong = signInWithWrongPassword(&store)
        store.receive(exchange) { session, record in
            #expect(record.status == 400 && record.operation == .signInWithPassword)
            var numbered = record
            numbered.id = 1
            session.exchanges = [numbered]
            session.exchangeCount = 1
            session.log(.exchange(id: 1, .signInWithPassword, by: .app, status: 400, error: "INVALID_PASSWORD"))
        }
        refuseWrongPassword(&store, wrong, detail: "The password is invalid or the user does not have a password.",
                            banner: "INVALID_PASSWORD: The password is invalid or the user does not have a password. (wrong password)")
        let (_, send) = requestReset(&store, settings: Fixture.inAppSettings)
        store.receive(exchange) { session, record in
            #expect(record.status == 200 && record.operation == .sendOobCode)
            var numbered = record
            numbered.id = 2
            session.exchanges.append(numbered)
            session.exchangeCount = 2
            session.log(.exchange(id: 2, .sendOobCode, by: .app, status: 200, error: nil))
        }
        var mail: [MailMessage] = []
        store.receive({ if case .mailSent(let messages) = $0 { messages } else { nil } }) { session, messages in
            mail = messages
            #expect(messages.map(\.to) == [bob] && messages.map(\.requestType) == [.passwordReset])
            // The Hosting link holds the action URL, which holds the continue URL: encoded twice.
            #expect(messages.first?.link.contains("continueUrl%3Dhttps%253A%252F%252Fwww.example.com%252Farticles%252F42") == true, "\(messages)")
            session.world.inbox = messages
            for message in messages { session.log(.mailSent(id: message.id, to: message.to, message.requestType)) }
        }
        receiveResetSent(&store, send)
        store.receive(.mailboxRefreshed(mail)) {
            $0.app.busy = []
            $0.app.listedMessages = 1
            $0.log(.mailboxListed(new: 1, total: 1))
        }
        store.finish()
    }

    @Test("an embedded session plays the in-app reset synchronously and journals what a remote world journals, plus its exchanges and mails")
    func embeddedMatchesRemote() throws {
        var project = Fixture.project
        project.users = [PresetUser(email: bob, password: "old password", emailVerified: true)]
        var embedded = EmbeddedSession(project: project, app: Fixture.app())
        // The remote world is a simulated project of the same configuration, its clock read at the start.
        var remote = Session.remote(project: project, app: Fixture.app(), now: project.clockStart)
        var server = SimulatedProject(configuration: project)
        let intents: [(Session) -> AppEvent] = [
            { _ in .openRoute("/articles/42") },
            { _ in .signInSubmitted(email: bob, password: "wrong") },
            { _ in .forgotPasswordTapped },
            { _ in .passwordResetRequested(email: bob) },
            { .linkPasted($0.inbox.first?.link ?? "no mail") },
            { _ in .newPasswordSubmitted("123") },
            { _ in .newPasswordSubmitted("correct horse") },
        ]
        for intent in intents {
            #expect(embedded.reduce(intent(embedded.session)) == [], "the embedded world performs every effect at once")
            Self.play(intent(remote), on: &remote, answeredBy: &server)
        }

        #expect(embedded.app.screen == .article(id: "42"))
        #expect(embedded.journal.last == JournalEntry(at: project.clockStart, .flowCompleted(.passwordReset, at: .article(id: "42"), continueURL: "https://www.example.com/articles/42")))
        #expect(embedded.app == remote.app)
        #expect(embedded.inbox == remote.inbox)
        // What differs: the embedded world records each exchange and each mail it sends; a remote
        // world's runner reports exchanges separately and mail only through the mailbox.
        let recordedInProcess = embedded.journal.filter(\.fact.isExchangeOrMailSent)
        #expect(embedded.journal.filter { !$0.fact.isExchangeOrMailSent } == remote.journal)
        let mail = try #require(embedded.inbox.first)
        #expect(recordedInProcess.map(\.fact) == [
            .exchange(id: 1, .signInWithPassword, by: .app, status: 400, error: "INVALID_PASSWORD"),
            .exchange(id: 2, .sendOobCode, by: .app, status: 200, error: nil),
            .mailSent(id: mail.id, to: bob, .passwordReset),
            .exchange(id: 3, .resetPassword, by: .app, status: 200, error: nil),
            .exchange(id: 4, .resetPassword, by: .app, status: 400, error: "WEAK_PASSWORD"),
            .exchange(id: 5, .resetPassword, by: .app, status: 200, error: nil),
            .exchange(id: 6, .signInWithPassword, by: .app, status: 200, error: nil),
            .exchange(id: 7, .lookup, by: .app, status: 200, error: nil),
        ])
    }

    /// Reduces `event` on a remote session and feeds back the replies `server` gives to its
    /// effects, as the tests above feed them (exchanges are not reported).
    static func play(_ event: AppEvent, on session: inout Session, answeredBy server: inout SimulatedProject) {
        var effects = session.reduce(event)
        while !effects.isEmpty {
            switch effects.removeFirst() {
            case .call(let call, let caller):
                do throws(AuthFailure) {
                    effects += session.reduce(.callSucceeded(call, by: caller, try server.perform(call)))
                } catch {
                    effects += session.reduce(.callFailed(call, by: caller, error))
                }
            case .refreshMailbox:
                effects += session.reduce(.mailboxRefreshed(server.mailbox))
            case let effect:
                Issue.record("the reset flow asks for no \(effect)")
            }
        }
    }
}

private extension JournalFact {
    /// Facts only a world in process records.
    var isExchangeOrMailSent: Bool {
        switch self {
        case .exchange, .mailSent: true
        default: false
        }
    }
}
