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
        guard let route = LinkRouter.continueRoute(afterWidget: page.actionURL, on: app.device, project: project, requested: requestedSettings),
              let continueURL = page.continueURL else {
            log(.refused(.noContinueURL))
            return []
        }
        return follow(route, link: continueURL)
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

    /// The hosted page loads and does what `HostedPageAction` says: checks a reset code,
    /// applies a verify-email code, or asks for the email before an email-link sign-in.
    /// `anatomy` is the tapped link's, whose action fields are the action URL's.
    mutating func openWebWidget(_ actionURL: String, anatomy known: LinkAnatomy?) -> [Effect] {
        let anatomy = known ?? inspect(actionURL)
        let operation = anatomy?.operation ?? .unknown
        var page = WebWidgetPage(actionURL: actionURL, operation: operation, oobCode: anatomy?.oobCode, continueURL: anatomy?.continueUrl, step: .loading)
        if app.flow?.step == .emailSent { app.flow?.step = .handledInWebWidget }
        let action = HostedPageAction(operation)
        guard let code = anatomy?.oobCode, action != .unsupported else {
            let mode = anatomy?.mode ?? "none"
            page.step = .failed(code: .invalidOobCode, message: "This link has no usable code (mode \(Narration.safe(mode)))")
            app.location = .webWidget(page)
            log(.webWidget(.unusable(mode: mode, missingCode: anatomy?.oobCode == nil)))
            return []
        }
        guard let call = AuthCall.onLoad(action, code: code) else {
            page.step = .confirmEmail
            app.location = .webWidget(page)
            log(.webWidget(.asksForEmail(actionURL: actionURL)))
            return []
        }
        app.location = .webWidget(page)
        log(.request(call, by: .webWidget, purpose: .webWidgetLoaded(actionURL: actionURL)))
        return start(.call(call, by: .webWidget))
    }

    /// The widget's confirm-email form submitted; nil when the widget does not ask for one.
    mutating func webWidgetEmailConfirmed(_ email: String) -> [Effect]? {
        guard case .webWidget(var page) = app.location, case .confirmEmail = page.step, let code = page.oobCode else { return nil }
        page.step = .loading
        app.location = .webWidget(page)
        let call = AuthCall.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code))
        log(.request(call, by: .webWidget, purpose: .emailConfirmed))
        return start(.call(call, by: .webWidget))
    }

    mutating func webWidgetSucceeded(_ reply: CallReply) -> [Effect] {
        guard case .webWidget(var page) = app.location else {
            log(.webWidget(.answeredAfterLeaving(reply.call.operation)))
            return []
        }
        let continueShown = page.continueURL != nil
        switch reply {
        case .resetPassword(let request, let response) where request.newPassword == nil:
            if let type = response.requestType, type != .passwordReset {
                page.step = .failed(code: .invalidOobCode, message: "This is a \(type.rawValue) code, not a password reset code")
                log(.webWidget(.codeOfWrongKind(type)))
            } else {
                page.step = .resetForm(email: response.email ?? "")
                log(.webWidget(.resetFormShown(email: response.email)))
            }
        case .resetPassword(_, let response):
            page.step = .done(message: "Password changed. You can now sign in with your new password.")
            app.flow?.step = .handledInWebWidget
            log(.webWidget(.passwordChanged(email: response.email, continueShown: continueShown)))
        case .update(_, let response):
            page.step = .done(message: "Your email has been verified. You can now sign in with your new account.")
            app.flow?.step = .handledInWebWidget
            log(.webWidget(.emailVerified(email: response.email, continueShown: continueShown)))
        case .signInWithEmailLink(_, let response):
            page.step = .done(message: "Signed in on this web page.")
            log(.webWidget(.signedInOnPage(email: response.email)))
        case .signInWithPassword, .sendOobCode, .lookup:
            // The page never makes these; say so rather than guess what they mean for it.
            log(.webWidget(.done(reply.call.operation)))
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

extension AuthCall {
    /// The call the hosted page makes as it loads; nil when it must ask for the email first.
    static func onLoad(_ action: HostedPageAction, code: String) -> AuthCall? {
        switch action {
        case .checkResetCode: .resetPassword(ResetPasswordRequest(oobCode: code))
        case .applyCode: .update(UpdateAccountRequest(oobCode: code))
        case .askEmailThenSignIn, .unsupported: nil
        }
    }
}
