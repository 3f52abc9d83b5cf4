@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

@Suite("Reducer: password reset (scenario 1)")
struct PasswordResetReducerTests {
    let bob = "bob@example.com"

    /// Steps up to the reset email being sent, shared by the variants below.
    func storeWithResetSent(settings: ActionCodeSettings = Fixture.inAppSettings) -> (TestStore, SendOobCodeRequest) {
        var store = TestStore(Fixture.state(settings: settings))
        store.send(.openRoute("/articles/42")) {
            $0.screen = .signIn
            $0.pendingDestination = .article(id: "42")
            $0.narration.append("open /articles/42: /articles/42 is for members: sign in first (pending destination /articles/42)")
        }
        let wrong = AuthCall.signInWithPassword(SignInWithPasswordRequest(email: bob, password: "wrong"))
        store.send(.signInSubmitted(email: bob, password: "wrong"), effects: [.call(wrong, by: .app)]) {
            $0.busy = [.signIn]
            $0.narration.append("signInWithPassword for bob@example.com")
        }
        store.receive(.callFailed(wrong, by: .app, .server(.invalidPassword, detail: nil))) {
            $0.busy = []
            $0.banner = ErrorBanner(message: "INVALID_PASSWORD (wrong password)", code: .invalidPassword, retry: nil)
            $0.narration.append("accounts:signInWithPassword → INVALID_PASSWORD (wrong password)")
        }
        store.send(.forgotPasswordTapped) {
            $0.screen = .forgotPassword
            $0.banner = nil
            $0.narration.append("forgot password: the app will send a reset email whose continue URL points back to /articles/42")
        }
        var sent = settings
        sent.url = "https://www.example.com/articles/42"
        let request = SendOobCodeRequest(requestType: .passwordReset, email: bob, settings: sent, clientType: .iOS)
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.passwordResetRequested(email: bob), effects: [.call(send, by: .app)]) {
            $0.busy = [.sendOobCode]
            $0.flow = FlowProgress(kind: .passwordReset, step: .requesting, email: self.bob, continueURL: "https://www.example.com/articles/42")
            $0.sentSettings = sent
            $0.narration.append("sendOobCode PASSWORD_RESET for bob@example.com with continueUrl https://www.example.com/articles/42, canHandleCodeInApp \(settings.handleCodeInApp), iOSBundleId com.example.ios")
        }
        store.receive(.callSucceeded(send, by: .app, .oobCodeSent(SendOobCodeResponse(email: bob))), effects: [.refreshMailbox]) {
            $0.busy = [.mailbox]
            $0.flow?.step = .emailSent
            $0.screen = .signIn
            $0.narration.append("sendOobCode PASSWORD_RESET → sent to bob@example.com")
            $0.narration.append("app: \"check your email\", back to sign-in")
        }
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1")
        store.receive(.mailboxRefreshed([message])) {
            $0.busy = []
            $0.inbox = [message]
            $0.narration.append("mailbox: 1 new, 1 in all")
        }
        return (store, request)
    }

    /// Pastes the reset link into the app, which checks its code.
    func pasteResetLink(_ store: inout TestStore, _ request: SendOobCodeRequest) -> AuthCall {
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1")
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1"))
        store.send(.linkPasted(message.link), effects: [.call(check, by: .app)]) {
            $0.busy = [.checkCode]
            $0.lastLink = LinkVisit(link: message.link, outcome: "pasted into the app", anatomy: Fixture.anatomy(message.link))
            $0.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: self.bob, continueURL: "https://www.example.com/articles/42", oobCode: "RESET1")
            $0.narration.append("link pasted into the app: \(SecretMasking.maskLinks(in: message.link))")
            $0.narration.append("app handles mode resetPassword (continueUrl https://www.example.com/articles/42): resetPassword with oobCode only to check it")
        }
        return check
    }

    @Test("in the app: check, weak password refused, new password, signed in, resumed at the article")
    func inApp() {
        var (store, request) = storeWithResetSent()
        let check = pasteResetLink(&store, request)
        store.receive(.callSucceeded(check, by: .app, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset)))) {
            $0.busy = []
            $0.flow?.step = .enteringNewPassword
            $0.screen = .newPassword(email: self.bob)
            $0.narration.append("resetPassword with oobCode only → valid PASSWORD_RESET code for bob@example.com (not consumed): new-password form")
        }
        let weak = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1", newPassword: "123"))
        store.send(.newPasswordSubmitted("123"), effects: [.call(weak, by: .app)]) {
            $0.busy = [.resetPassword]
            $0.flow?.step = .confirmingNewPassword
            $0.narration.append("app: resetPassword with newPassword")
        }
        store.receive(.callFailed(weak, by: .app, .server(.weakPassword, detail: "Password should be at least 6 characters"))) {
            $0.busy = []
            $0.flow?.step = .enteringNewPassword
            $0.banner = ErrorBanner(message: "WEAK_PASSWORD: Password should be at least 6 characters (the new password is shorter than 6 characters)", code: .weakPassword, retry: nil)
            $0.narration.append("accounts:resetPassword → WEAK_PASSWORD: Password should be at least 6 characters (the new password is shorter than 6 characters)")
        }
        let confirm = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1", newPassword: "correct horse"))
        store.send(.newPasswordSubmitted("correct horse"), effects: [.call(confirm, by: .app)]) {
            $0.busy = [.resetPassword]
            $0.banner = nil
            $0.flow?.step = .confirmingNewPassword
            $0.narration.append("app: resetPassword with newPassword")
        }
        let signIn = AuthCall.signInWithPassword(SignInWithPasswordRequest(email: bob, password: "correct horse"))
        store.receive(.callSucceeded(confirm, by: .app, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset))), effects: [.call(signIn, by: .app)]) {
            $0.busy = [.signIn]
            $0.flow?.step = .signingIn
            $0.narration.append("resetPassword with newPassword → PASSWORD_RESET code consumed; older sessions revoked")
            $0.narration.append("app signs in with the new password: signInWithPassword for bob@example.com")
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(signIn, by: .app, .signedIn(Fixture.signedIn(bob))), effects: [.call(lookup, by: .app)]) {
            $0.busy = [.lookup]
            $0.narration.append("signInWithPassword → ID token for bob@example.com")
            $0.narration.append("accounts:lookup with the new idToken to load the user before showing it signed in")
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .article(id: "42"), completing: .passwordReset, signingIn: true)
        store.finish()
    }

    @Test("web widget: the page checks the code and takes the new password; Continue reopens the app at sign-in")
    func webWidget() throws {
        var (store, request) = storeWithResetSent(settings: Fixture.webWidgetSettings)
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "RESET1")
        let check = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1"))
        var (page, anatomy) = try store.tapIntoWebWidget(message, call: check, busy: .checkCode, operation: .passwordReset, code: "RESET1",
                                                        action: "checks the PASSWORD_RESET code (resetPassword with oobCode only; not consumed)")
        page.step = .resetForm(email: bob)
        store.receive(.callSucceeded(check, by: .webWidget, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset)))) {
            $0.busy = []
            $0.location = .webWidget(page)
            $0.narration.append("web widget: valid PASSWORD_RESET code for bob@example.com; shows its new-password form")
        }
        let confirm = AuthCall.resetPassword(ResetPasswordRequest(oobCode: "RESET1", newPassword: "correct horse"))
        page.step = .saving
        store.send(.newPasswordSubmitted("correct horse"), effects: [.call(confirm, by: .webWidget)]) {
            $0.busy = [.resetPassword]
            $0.location = .webWidget(page)
            $0.narration.append("web widget: resetPassword with newPassword")
        }
        page.step = .done(message: "Password changed. You can now sign in with your new password.")
        store.receive(.callSucceeded(confirm, by: .webWidget, .passwordReset(ResetPasswordResponse(email: bob, requestType: .passwordReset)))) {
            $0.busy = []
            $0.location = .webWidget(page)
            $0.narration.append("web widget: resetPassword with newPassword → PASSWORD_RESET code consumed for bob@example.com; older sessions revoked; Continue shown")
        }
        let continueRoute = try #require(LinkRouter.continueRoute(afterWidget: page.actionURL, on: .iPhone, project: Fixture.project, requested: store.state.sentSettings))
        store.send(.continueTapped) {
            $0.location = .app
            $0.screen = .signIn
            $0.pendingDestination = .article(id: "42")
            $0.lastLink = LinkVisit(link: anatomy.continueUrl ?? "", outcome: "app", anatomy: nil, route: continueRoute)
            $0.narration += Fixture.narration(of: continueRoute)
            $0.narration.append("app opened with continue URL https://www.example.com/articles/42: /articles/42 is for members: sign in first (pending destination /articles/42)")
        }
        store.finish()
    }

    @Test("an expired code sends the user back to the forgot-password form")
    func expiredCode() {
        var (store, request) = storeWithResetSent()
        let check = pasteResetLink(&store, request)
        store.receive(.callFailed(check, by: .app, .server(.expiredOobCode, detail: nil))) {
            $0.busy = []
            $0.flow = nil
            $0.screen = .forgotPassword
            $0.banner = ErrorBanner(message: "EXPIRED_OOB_CODE (the code is past its lifetime: request a new email)", code: .expiredOobCode, retry: nil)
            $0.narration.append("accounts:resetPassword → EXPIRED_OOB_CODE (the code is past its lifetime: request a new email)")
        }
        store.finish()
    }

    @Test("a network failure on send offers a retry and never retries by itself")
    func networkFailureRetry() {
        var store = TestStore(Fixture.state())
        store.send(.forgotPasswordTapped) {
            $0.screen = .forgotPassword
            $0.narration.append("forgot password: the app will send a reset email whose continue URL points back to /")
        }
        let request = SendOobCodeRequest(requestType: .passwordReset, email: bob, settings: ActionCodeSettings(url: "https://www.example.com/", handleCodeInApp: true, iOSBundleID: "com.example.ios"), clientType: .iOS)
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.passwordResetRequested(email: bob), effects: [.call(send, by: .app)]) {
            $0.busy = [.sendOobCode]
            $0.flow = FlowProgress(kind: .passwordReset, step: .requesting, email: self.bob, continueURL: "https://www.example.com/")
            $0.sentSettings = ActionCodeSettings(url: "https://www.example.com/", handleCodeInApp: true, iOSBundleID: "com.example.ios")
            $0.narration.append("sendOobCode PASSWORD_RESET for bob@example.com with continueUrl https://www.example.com/, canHandleCodeInApp true, iOSBundleId com.example.ios")
        }
        store.receive(.callFailed(send, by: .app, .network(.connectionLost("injected")))) {
            $0.busy = []
            $0.banner = ErrorBanner(message: "network failure: connection lost: injected", code: nil, retry: .call(send, by: .app))
            $0.narration.append("accounts:sendOobCode → network failure: connection lost: injected; the user may retry")
        }
        store.send(.retryTapped, effects: [.call(send, by: .app)]) {
            $0.busy = [.sendOobCode]
            $0.banner = nil
            $0.narration.append("retry requested by the user")
        }
        store.receive(.callFailed(send, by: .app, .server(.tooManyAttempts, detail: nil))) {
            $0.busy = []
            $0.banner = ErrorBanner(message: "TOO_MANY_ATTEMPTS_TRY_LATER (rate limit reached: try again later)", code: .tooManyAttempts, retry: .call(send, by: .app))
            $0.narration.append("accounts:sendOobCode → TOO_MANY_ATTEMPTS_TRY_LATER (rate limit reached: try again later); the user may retry")
        }
        store.send(.errorDismissed) {
            $0.banner = nil
            $0.narration.append("error dismissed")
        }
        store.finish()
    }
}
