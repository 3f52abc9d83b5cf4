import ActionFlowModel
import Foundation

// Email verification: the request, applying the code, reloading the stale cached user.
extension Session {
    mutating func reduceVerification(_ event: AppEvent) -> [Effect] {
        switch event {
        case .verificationRequested:
            guard let user = app.session else {
                log(.refused(.verifyNeedsSignIn))
                app.banner = ErrorBanner(message: "Sign in before verifying your email", code: nil, retry: nil)
                return []
            }
            return requestEmail(.verifyEmail, email: user.email)
        case .reloadUserTapped:
            guard let token = app.session?.idToken else {
                log(.refused(.reloadNeedsSignIn))
                return []
            }
            return send(.lookup(LookupRequest(idToken: token)), for: .reloadTapped)
        default:
            return []
        }
    }

    /// `accounts:update` with the code answered: the server says verified, the cache does not yet.
    mutating func codeApplied(_ response: UpdateAccountResponse) -> [Effect] {
        log(.reply(.codeApplied(verifyEmail: app.flow?.kind == .verifyEmail, serverSaysVerified: response.emailVerified ?? true)))
        guard let token = app.session?.idToken else {
            app.flow?.step = .completed
            return resume()
        }
        app.flow?.step = .reloadingUser
        return send(.lookup(LookupRequest(idToken: token)), for: .reloadAfterApplying(cachedVerified: app.session?.emailVerified ?? false))
    }
}
