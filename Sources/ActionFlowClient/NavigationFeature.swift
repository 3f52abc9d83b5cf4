import ActionFlowModel
import Foundation

// Navigation: routes, the sign-in and verified-email gates, resuming where the user was going.
extension Session {
    mutating func reduceNavigation(_ event: AppEvent) -> [Effect] {
        switch event {
        case .openRoute(let path):
            app.location = .app
            guard let screen = AppScreen(path: path) else {
                log(.unknownRoute(path: path, stayedAt: app.screen))
                app.banner = ErrorBanner(message: "No screen at \(Narration.safe(path))", code: nil, retry: nil)
                return []
            }
            app.pendingDestination = nil
            return navigate(to: screen, reason: .open(screen))

        case .signInSubmitted(let email, let password):
            app.location = .app
            app.banner = nil
            return send(.signInWithPassword(SignInWithPasswordRequest(email: email, password: password)), for: .signInForm)

        case .forgotPasswordTapped:
            app.location = .app
            app.screen = .forgotPassword
            app.banner = nil
            log(.forgotPassword(resumePath: app.resumePath))
            return []

        case .appOpened:
            app.location = .app
            log(.backToApp(at: app.screen))
            return []

        case .subscribeTapped:
            guard let user = app.session else {
                app.pendingDestination = .subscribe
                app.screen = .signIn
                log(.refused(.subscribeNeedsSignIn))
                return []
            }
            guard user.emailVerified else {
                app.pendingDestination = .subscribe
                app.screen = .verifyEmail
                log(.refused(.subscribeNeedsVerifiedEmail))
                return []
            }
            app.subscribed = true
            app.screen = .subscribe
            log(.subscribed(email: user.email))
            return []

        case .signOutTapped:
            app.session = nil
            app.flow = nil
            app.screen = .articles
            app.location = .app
            log(.signedOut)
            return []

        default:
            return []
        }
    }

    /// Shows `target`, or the gate in front of it (sign-in, verify email), remembering the target.
    mutating func navigate(to target: AppScreen, reason: NavigationReason) -> [Effect] {
        app.location = .app
        if target.needsSignIn, app.session == nil {
            app.pendingDestination = target
            app.screen = .signIn
            log(.gated(reason, target: target, gate: .signIn))
            return []
        }
        if target == .subscribe, let user = app.session, !user.emailVerified {
            app.pendingDestination = target
            app.screen = .verifyEmail
            log(.gated(reason, target: target, gate: .verifiedEmail))
            return []
        }
        app.screen = target
        if app.pendingDestination == target { app.pendingDestination = nil }
        log(.arrived(reason, at: target))
        if let flow = app.flow, flow.step != .completed, let destination = flow.destination, destination == target,
           flow.step == .signingIn || flow.step == .reloadingUser || flow.step == .handledInWebWidget {
            app.flow?.step = .completed
            log(.flowCompleted(flow.kind, at: target, continueURL: flow.continueURL))
        }
        return []
    }

    /// After sign-in or reload: go where the user was heading.
    mutating func resume() -> [Effect] {
        if let destination = app.flow?.destination ?? app.pendingDestination {
            return navigate(to: destination, reason: .resume)
        }
        switch app.screen {
        case .signIn, .newPassword, .confirmEmailForSignIn, .forgotPassword:
            return navigate(to: .articles, reason: .resume)
        default:
            if app.flow?.step == .signingIn || app.flow?.step == .reloadingUser { app.flow?.step = .completed }
            return []
        }
    }

    /// The app was opened with a URL that holds no code: resume at its route.
    mutating func resumeAt(continueURL url: String) -> [Effect] {
        guard let screen = AppState.appScreen(forContinueURL: url) else {
            log(.noRoute(url: url))
            return navigate(to: .articles, reason: .deepLink)
        }
        return navigate(to: screen, reason: .continueURL(url))
    }
}

extension AppState {
    /// The path the user was trying to reach: where a continue URL should bring them back.
    public var resumePath: String {
        pendingDestination?.path ?? screen.path ?? "/"
    }

    /// Whether `url` is a page of the app's web origin (`continueURLBase`): on a computer, the web app.
    public func isWebAppURL(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased(), let origin = URLComponents(string: continueURLBase)?.host?.lowercased() else { return false }
        return host == origin
    }

    /// The app route a continue URL names (its path), if the app has one.
    public static func appScreen(forContinueURL url: String) -> AppScreen? {
        // Where the host lies, not `host`: that decodes it through ICU's IDNA, which loads its
        // normalization data and code, only to learn that there is one.
        guard let components = URLComponents(string: url), components.rangeOfHost != nil else { return nil }
        return AppScreen(path: components.path)
    }

    /// The settings the app sends: the template, with the continue URL of the screen being
    /// reached when the template has none. The Settings pane shows exactly these.
    public func settingsToSend() -> ActionCodeSettings {
        settingsToSend(settings)
    }

    /// `template` as the app would send it now.
    public func settingsToSend(_ template: ActionCodeSettings) -> ActionCodeSettings {
        var sent = template
        if sent.url == nil { sent.url = continueURLBase + resumePath }
        return sent
    }

    /// Where Esc takes the user: back to the app, then to the article list; nil when already there.
    public var escapeEvent: AppEvent? {
        if location != .app { return .appOpened }
        if screen != .articles { return .openRoute("/") }
        return nil
    }
}

extension FlowProgress {
    /// The app screen the continue URL names.
    var destination: AppScreen? {
        continueURL.flatMap(AppState.appScreen(forContinueURL:))
    }
}
