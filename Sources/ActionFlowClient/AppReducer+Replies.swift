import ActionFlowModel
import Foundation

// Transport replies: what the app, the web widget and a mail scanner do with each answer.
extension AppState {
    mutating func handleSuccess(_ call: AuthCall, by caller: Caller, _ reply: AuthReply) -> [Effect] {
        switch caller {
        case .mailScanner:
            narrate("mail scanner: \(Self.scannerResult(call))")
            return []
        case .webWidget:
            return webWidgetSucceeded(call, reply)
        case .app:
            return appSucceeded(call, reply)
        }
    }

    static func scannerResult(_ call: AuthCall) -> String {
        switch call {
        case .resetPassword: "resetPassword with oobCode only → code checked, not consumed; the user's tap still works"
        case .update: "accounts:update with oobCode → code consumed (the email is verified, but the user's tap will fail with INVALID_OOB_CODE)"
        case .signInWithEmailLink: "signInWithEmailLink → code consumed by the scanner's browser; the user's tap will fail with INVALID_OOB_CODE"
        default: "\(call.operation.rawValue) → done"
        }
    }

    mutating func webWidgetSucceeded(_ call: AuthCall, _ reply: AuthReply) -> [Effect] {
        guard case .webWidget(var page) = location else {
            narrate("web widget: \(call.operation.rawValue) answered after the page was left")
            return []
        }
        switch (call, reply) {
        case (.resetPassword(let request), .passwordReset(let response)) where request.newPassword == nil:
            if let type = response.requestType, type != .passwordReset {
                page.step = .failed(code: .invalidOobCode, message: "This is a \(type.rawValue) code, not a password reset code")
                narrate("web widget: resetPassword check → a \(type.rawValue) code: code of the wrong kind for mode resetPassword")
            } else {
                page.step = .resetForm(email: response.email ?? "")
                narrate("web widget: valid PASSWORD_RESET code for \(Narration.safe(response.email)); shows its new-password form")
            }
        case (.resetPassword, .passwordReset(let response)):
            page.step = .done(message: "Password changed. You can now sign in with your new password.")
            flow?.step = .handledInWebWidget
            narrate("web widget: resetPassword with newPassword → PASSWORD_RESET code consumed for \(Narration.safe(response.email)); older sessions revoked\(page.continueURL == nil ? "" : "; Continue shown")")
        case (.update, .updated(let response)):
            page.step = .done(message: "Your email has been verified. You can now sign in with your new account.")
            flow?.step = .handledInWebWidget
            narrate("web widget: accounts:update with oobCode → code consumed; \(Narration.safe(response.email)) verified on the server\(page.continueURL == nil ? "" : "; Continue shown")")
        case (.signInWithEmailLink, .signedIn(let response)):
            page.step = .done(message: "Signed in on this web page.")
            narrate("web widget: signInWithEmailLink → \(Narration.safe(response.email)) signed in on the web page, not in the app; code consumed")
        default:
            narrate("web widget: \(call.operation.rawValue) → done")
        }
        location = .webWidget(page)
        return []
    }

    mutating func appSucceeded(_ call: AuthCall, _ reply: AuthReply) -> [Effect] {
        switch (call, reply) {
        case (.signInWithPassword, .signedIn(let response)), (.signInWithEmailLink, .signedIn(let response)):
            return signedIn(response, via: call)
        case (.lookup(let request), .lookedUp(let response)):
            return reloaded(response, token: request.idToken)
        case (.sendOobCode(let request, _), .oobCodeSent):
            let email = request.email ?? session?.email
            flow = FlowProgress(kind: FlowKind(request.requestType), step: .emailSent, email: email, continueURL: request.continueUrl)
            if request.requestType == .emailSignIn { emailForSignIn = request.email }
            let protection = project.emailEnumerationProtection && request.requestType == .passwordReset
                ? " (email enumeration protection: an unknown address gets the same answer and no email)" : ""
            narrate("sendOobCode \(request.requestType.rawValue) → sent to \(Narration.safe(email))\(protection)")
            if request.requestType == .passwordReset, screen == .forgotPassword {
                screen = .signIn
                narrate("app: \"check your email\", back to sign-in")
            }
            return start(.refreshMailbox)
        case (.resetPassword(let request), .passwordReset(let response)):
            guard let newPassword = request.newPassword else { return codeChecked(response) }
            let email = response.email ?? flow?.email
            narrate("resetPassword with newPassword → PASSWORD_RESET code consumed; older sessions revoked")
            guard let email else {
                flow?.step = .completed
                screen = .signIn
                return []
            }
            flow?.step = .signingIn
            flow?.email = email
            narrate("app signs in with the new password: signInWithPassword for \(Narration.safe(email))")
            return start(.call(.signInWithPassword(SignInWithPasswordRequest(email: email, password: newPassword)), by: .app))
        case (.update, .updated(let response)):
            narrate("accounts:update with oobCode → \(flow?.kind == .verifyEmail ? "VERIFY_EMAIL " : "")code consumed; the server now says emailVerified \(response.emailVerified ?? true)")
            guard let token = session?.idToken else {
                flow?.step = .completed
                return resume()
            }
            flow?.step = .reloadingUser
            narrate("cached user still says emailVerified \(session?.emailVerified ?? false) until reloaded: accounts:lookup with idToken")
            return start(.call(.lookup(LookupRequest(idToken: token)), by: .app))
        default:
            narrate("\(call.operation.rawValue) → unexpected reply")
            return []
        }
    }

    /// A sign-in answered with tokens. As the SDKs do, the app loads the user (`accounts:lookup`)
    /// before it treats them as signed in, so the cached user starts out current.
    mutating func signedIn(_ response: SignInResponse, via call: AuthCall) -> [Effect] {
        let email = response.email ?? {
            if case .signInWithPassword(let request) = call { return request.email }
            if case .signInWithEmailLink(let request) = call { return request.email }
            return nil
        }()
        banner = nil
        if case .signInWithEmailLink = call {
            emailForSignIn = nil
            narrate("signInWithEmailLink → EMAIL_SIGNIN code consumed; ID token for \(Narration.safe(email))")
        } else {
            narrate("signInWithPassword → ID token for \(Narration.safe(email))")
        }
        guard let token = response.idToken else {
            session = CachedUser(localId: response.localId, email: email, emailVerified: false, idToken: nil)
            narrate("no ID token to load the user with: signed in, emailVerified unknown (taken as false)")
            return resume()
        }
        if flow != nil, flow?.step != .completed, flow?.step != .handledInWebWidget { flow?.step = .signingIn }
        narrate("accounts:lookup with the new idToken to load the user before showing it signed in")
        return start(.call(.lookup(LookupRequest(idToken: token)), by: .app))
    }

    /// A lookup answer: the user of a fresh sign-in, or a reload of the cached one.
    mutating func reloaded(_ response: LookupResponse, token: String?) -> [Effect] {
        guard let user = response.users?.first else {
            narrate("accounts:lookup → no user: signed out")
            session = nil
            screen = .signIn
            return []
        }
        let verified = user.emailVerified ?? false
        if let session, session.idToken == token {
            self.session?.emailVerified = verified
            if let email = user.email { self.session?.email = email }
            narrate("accounts:lookup → emailVerified \(verified)\(session.emailVerified == verified ? " (unchanged)" : " (cache was \(session.emailVerified))")")
        } else {
            session = CachedUser(localId: user.localId, email: user.email, emailVerified: verified, idToken: token)
            narrate("accounts:lookup → signed in as \(Narration.safe(user.email)), emailVerified \(verified)")
        }
        return resume()
    }

    mutating func codeChecked(_ response: ResetPasswordResponse) -> [Effect] {
        if let type = response.requestType, type != .passwordReset {
            narrate("resetPassword check → a \(type.rawValue) code opened as mode resetPassword: code of the wrong kind")
            banner = ErrorBanner(message: "This link holds a \(type.rawValue) code, not a password reset code", code: .invalidOobCode, retry: nil)
            flow = nil
            screen = .forgotPassword
            return []
        }
        let email = response.email ?? flow?.email ?? ""
        flow?.step = .enteringNewPassword
        flow?.email = email
        screen = .newPassword(email: email)
        narrate("resetPassword with oobCode only → valid PASSWORD_RESET code for \(Narration.safe(email)) (not consumed): new-password form")
        return []
    }

    mutating func handleFailure(_ call: AuthCall, by caller: Caller, _ failure: AuthFailure) -> [Effect] {
        switch caller {
        case .mailScanner:
            narrate("mail scanner: \(call.operation.rawValue) → \(Narration.describe(failure))")
            return []
        case .webWidget:
            if case .webWidget(var page) = location {
                page.step = .failed(code: failure.serverCode, message: Narration.describe(failure))
                location = .webWidget(page)
            }
            narrate("web widget: \(call.operation.rawValue) → \(Narration.describe(failure))")
            return []
        case .app:
            return appFailed(call, failure)
        }
    }

    mutating func appFailed(_ call: AuthCall, _ failure: AuthFailure) -> [Effect] {
        let retryable: Bool
        switch failure {
        case .network: retryable = true
        case .server(let code, _): retryable = code == .tooManyAttempts || code == .resetPasswordExceedLimit
        }
        narrate("\(call.operation.rawValue) → \(Narration.describe(failure))\(retryable ? "; the user may retry" : "")")
        banner = ErrorBanner(message: Narration.describe(failure), code: failure.serverCode, retry: retryable ? .call(call, by: .app) : nil)
        if retryable { return [] }
        let code = failure.serverCode
        switch call {
        case .signInWithPassword:
            screen = .signIn
            if flow?.step == .signingIn { flow = nil }
        case .sendOobCode:
            flow = nil
        case .resetPassword(let request):
            if request.newPassword != nil, code == .weakPassword {
                flow?.step = .enteringNewPassword
            } else {
                flow = nil
                screen = .forgotPassword
            }
        case .update:
            flow = nil
            screen = session == nil ? .signIn : .verifyEmail
        case .lookup:
            if code == .invalidIDToken || code == .tokenExpired || code == .userNotFound {
                session = nil
                screen = .signIn
            }
            if flow?.step == .reloadingUser { flow?.step = .completed }
        case .signInWithEmailLink:
            if code == .invalidEmail, flow?.kind == .emailLinkSignIn {
                flow?.step = .emailSent
                screen = .confirmEmailForSignIn
            } else {
                flow = nil
                screen = .signIn
            }
        }
        return []
    }
}
