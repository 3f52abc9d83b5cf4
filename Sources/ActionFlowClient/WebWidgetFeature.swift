import ActionFlowModel
import Foundation

// The hosted email action handler (`/__/auth/action`) on the device: the shared
// `HostedActionHandler`, whose calls go out as the widget's, and Continue. A sign-in link is not
// handled there: the page sends the browser on to the continue URL, where the web app takes it.
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
        guard case .webWidget(var page) = app.location, let save = page.handler.submitNewPassword(password) else { return nil }
        app.location = .webWidget(page)
        return send(AuthCall(save), by: .webWidget, for: .newPasswordForm)
    }

    /// The hosted page loads and does what its mode says: checks a reset code, applies a
    /// verify-email code, or sends a sign-in link on to its continue URL.
    mutating func openWebWidget(_ actionURL: String) -> [Effect] {
        let (handler, load) = HostedActionHandler.open(actionURL: actionURL)
        app.location = .webWidget(WebWidgetPage(actionURL: actionURL, handler: handler))
        if case .forwarded(let target) = handler.step {
            return forwarded(to: target, continueURL: handler.continueURL)
        }
        if app.flow?.step == .emailSent {
            app.flow?.step = .handledInWebWidget
            app.flow?.handledByWebWidget = true
        }
        guard let load else {
            switch handler.step {
            case .failed(.noCode), .failed(.unsupportedMode):
                log(.webWidget(.unusable(mode: handler.mode.isEmpty ? "none" : handler.mode, missingCode: handler.oobCode == nil)))
            case .failed(let failure):
                log(.webWidget(.cannotForward(failure)))
            default:
                break
            }
            return []
        }
        return send(AuthCall(load), by: .webWidget, for: .webWidgetLoaded(actionURL: actionURL))
    }

    /// The hosted page sent the browser on to `target`, the continue URL with the link's
    /// parameters. On a computer that page is the web app, which finishes the sign-in as the app
    /// would: with the email this browser kept when it asked for the link, else the user types it
    /// (firebase-js-sdk's demo app on load, `packages/auth/demo/src/index.js` lines 1842-1856).
    /// Elsewhere it is a web page.
    mutating func forwarded(to target: String, continueURL: String?) -> [Effect] {
        log(.webWidget(.forwarded(to: target)))
        guard app.device.platform == .desktop, app.isWebAppURL(target) else {
            app.location = .browser(url: target)
            log(.browserOpened(target))
            return []
        }
        log(.webAppOpened(target))
        return appReceives(target, atPage: continueURL)
    }

    mutating func webWidgetSucceeded(_ reply: CallReply) -> [Effect] {
        guard case .webWidget(var page) = app.location else {
            log(.webWidget(.answeredAfterLeaving(reply.call.operation)))
            return []
        }
        guard let answer = HostedActionHandler.Reply(reply) else {
            // The page never makes this call; say so rather than guess what it means for it.
            log(.webWidget(.done(reply.call.operation)))
            return []
        }
        page.handler.receive(answer)
        app.location = .webWidget(page)
        let continueShown = page.continueURL != nil
        switch (page.step, reply) {
        case (.failed(.codeOfWrongKind(let type)), _):
            log(.webWidget(.codeOfWrongKind(type)))
        case (.resetForm, .resetPassword(_, let response)):
            log(.webWidget(.resetFormShown(email: response.email)))
        case (.done(let outcome), _):
            app.flow?.step = .handledInWebWidget
            switch page.operation {
            case .passwordReset:
                log(.webWidget(.passwordChanged(email: outcome.email, continueShown: continueShown)))
            case .revertSecondFactorAddition:
                log(.webWidget(.secondFactorRemoved(email: outcome.email, continueShown: continueShown)))
            default:
                log(.webWidget(.emailVerified(email: outcome.email, continueShown: continueShown)))
            }
        default:
            log(.webWidget(.done(reply.call.operation)))
        }
        return []
    }

    mutating func webWidgetFailed(_ call: AuthCall, _ failure: AuthFailure) -> [Effect] {
        if case .webWidget(var page) = app.location {
            page.handler.receive(.failed(failure))
            app.location = .webWidget(page)
        }
        log(.webWidget(.failed(call.operation, failure)))
        return []
    }
}
