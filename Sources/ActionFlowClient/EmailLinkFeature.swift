import ActionFlowModel
import Foundation

// Email-link sign-in: the request, and the email the app must know to finish it.
extension Session {
    mutating func reduceEmailLinkSignIn(_ event: AppEvent) -> [Effect] {
        switch event {
        case .signInLinkRequested(let email):
            return requestEmail(.emailSignIn, email: email)
        case .signInEmailConfirmed(let email):
            guard let code = app.flow?.oobCode, app.flow?.kind == .emailLinkSignIn else {
                log(.refused(.noSignInWaitingForEmail))
                return []
            }
            app.flow?.step = .signingIn
            return send(.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code)), for: .emailConfirmed)
        default:
            return []
        }
    }
}
