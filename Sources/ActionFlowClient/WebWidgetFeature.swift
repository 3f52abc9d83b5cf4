import ActionFlowModel
import Foundation

// The hosted email action handler (`/__/auth/action`): what it does on load, its reset form,
// its replies, and Continue.
extension Session {
    mutating func reduceWebWidget(_ event: AppEvent) -> [Effect] {
        guard case .continueTapped = event else { return [] }
        guard case .webWidget(let page) = app.location, case .done = page.step else {
            log(.refused(.noContinueButton))
            return []
        }
        guard let route = LinkRouter.continueRoute(afterWidget: page.actionURL, on: app.device, project: project, requested: app.sentSettings),
              let continueURL = page.continueURL else {
            log(.refused(.noContinueURL))
            return []
        }
        return follow(route, link: continueURL, recipient: nil)
    }

    /// The widget's reset form submitted; nil when the widget shows no reset form.
    mutating func webWidgetNewPassword(_ password: String) -> [Effect]? {
        guard case .webWidget(var page) = app.location, case .resetForm = page.step, let code = page.oobCode else { return nil }
        page.step = .saving
        app.location = .webWidget(page)
        let call = AuthCall.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: password))
        log(.request(call, by: .webWidget, purpose: .newPasswordForm))
        return start(.call(call, by: .webWidget))
    }

    /// The hosted page loads: it checks reset codes, applies verify-email and sign-in codes.
    /// `anatomy` is the tapped link's, whose action fields are the action URL's.
    mutating func openWebWidget(_ actionURL: String, recipient: String?, anatomy known: LinkAnatomy?) -> [Effect] {
        let anatomy = known ?? inspect(actionURL)
        let operation = anatomy?.operation ?? .unknown
        var page = WebWidgetPage(actionURL: actionURL, operation: operation, oobCode: anatomy?.oobCode, continueURL: anatomy?.continueUrl, step: .loading)
        if app.flow?.step == .emailSent { app.flow?.step = .handledInWebWidget }
        guard let code = anatomy?.oobCode, let call = WebWidgetBehaviour.callOnLoad(operation, code: code, email: recipient) else {
            let mode = anatomy?.mode ?? "none"
            page.step = .failed(code: .invalidOobCode, message: "This link has no usable code (mode \(Narration.safe(mode)))")
            app.location = .webWidget(page)
            log(.webWidget(.unusable(mode: mode, missingCode: anatomy?.oobCode == nil)))
            return []
        }
        app.location = .webWidget(page)
        log(.request(call, by: .webWidget, purpose: .webWidgetLoaded(actionURL: actionURL)))
        return start(.call(call, by: .webWidget))
    }

    mutating func webWidgetSucceeded(_ call: AuthCall, _ reply: AuthReply) -> [Effect] {
        guard case .webWidget(var page) = app.location else {
            log(.webWidget(.answeredAfterLeaving(call.operation)))
            return []
        }
        let continueShown = page.continueURL != nil
        switch (call, reply) {
        case (.resetPassword(let request), .passwordReset(let response)) where request.newPassword == nil:
            if let type = response.requestType, type != .passwordReset {
                page.step = .failed(code: .invalidOobCode, message: "This is a \(type.rawValue) code, not a password reset code")
                log(.webWidget(.codeOfWrongKind(type)))
            } else {
                page.step = .resetForm(email: response.email ?? "")
                log(.webWidget(.resetFormShown(email: response.email)))
            }
        case (.resetPassword, .passwordReset(let response)):
            page.step = .done(message: "Password changed. You can now sign in with your new password.")
            app.flow?.step = .handledInWebWidget
            log(.webWidget(.passwordChanged(email: response.email, continueShown: continueShown)))
        case (.update, .updated(let response)):
            page.step = .done(message: "Your email has been verified. You can now sign in with your new account.")
            app.flow?.step = .handledInWebWidget
            log(.webWidget(.emailVerified(email: response.email, continueShown: continueShown)))
        case (.signInWithEmailLink, .signedIn(let response)):
            page.step = .done(message: "Signed in on this web page.")
            log(.webWidget(.signedInOnPage(email: response.email)))
        default:
            log(.webWidget(.done(call.operation)))
        }
        app.location = .webWidget(page)
        return []
    }

    mutating func webWidgetFailed(_ call: AuthCall, _ failure: AuthFailure) -> [Effect] {
        if case .webWidget(var page) = app.location {
            page.step = .failed(code: failure.serverCode, message: Narration.describe(failure))
            app.location = .webWidget(page)
        }
        log(.webWidget(.failed(call.operation, failure)))
        return []
    }
}

/// What the hosted action handler page does when it loads a link, shared by the simulated
/// phone's widget and the mail scanner's browser.
public enum WebWidgetBehaviour {
    /// The call the page makes on load. Sign-in uses the recipient's email, as the user (or a
    /// scanner filling the page) would confirm it.
    public static func callOnLoad(_ operation: ActionCodeOperation, code: String, email: String?) -> AuthCall? {
        switch operation {
        case .passwordReset: .resetPassword(ResetPasswordRequest(oobCode: code))
        case .verifyEmail, .recoverEmail, .verifyAndChangeEmail: .update(UpdateAccountRequest(oobCode: code))
        case .emailLink: email.map { .signInWithEmailLink(SignInWithEmailLinkRequest(email: $0, oobCode: code)) }
        case .revertSecondFactorAddition, .unknown: nil
        }
    }
}
