import ActionFlowModel
import Foundation

// Password reset: the request, checking the code, the new password, signing in with it.
extension Session {
    mutating func reducePasswordReset(_ event: AppEvent) -> [Effect] {
        switch event {
        case .passwordResetRequested(let email):
            return requestEmail(.passwordReset, email: email)
        case .newPasswordSubmitted(let password):
            if let effects = webWidgetNewPassword(password) { return effects }
            guard case .newPassword = app.screen, let code = app.flow?.oobCode else {
                log(.refused(.noNewPasswordForm))
                return []
            }
            app.flow?.step = .confirmingNewPassword
            app.banner = nil
            return send(.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: password)), for: .newPasswordForm)
        default:
            return []
        }
    }

    mutating func passwordResetAnswered(_ request: ResetPasswordRequest, _ response: ResetPasswordResponse) -> [Effect] {
        guard let newPassword = request.newPassword else { return codeChecked(response) }
        let email = response.email ?? app.flow?.email
        log(.reply(.passwordChanged))
        guard let email else {
            app.flow?.step = .completed
            app.screen = .signIn
            return []
        }
        app.flow?.step = .signingIn
        app.flow?.email = email
        return send(.signInWithPassword(SignInWithPasswordRequest(email: email, password: newPassword)), for: .signInWithNewPassword)
    }

    mutating func codeChecked(_ response: ResetPasswordResponse) -> [Effect] {
        if let type = response.requestType, type != .passwordReset {
            log(.reply(.codeOfWrongKind(type)))
            app.banner = ErrorBanner(message: "This link holds a \(type.rawValue) code, not a password reset code", code: .invalidOobCode, retry: nil)
            app.flow = nil
            app.screen = .forgotPassword
            return []
        }
        let email = response.email ?? app.flow?.email ?? ""
        app.flow?.step = .enteringNewPassword
        app.flow?.email = email
        app.screen = .newPassword(email: email)
        log(.reply(.resetCodeValid(email: email)))
        return []
    }
}
