import ActionFlowModel
import Foundation

// How the app, the web widget and a mail scanner read links, and where a tap takes the device.
extension AppState {
    /// The link taken apart against the project's authorized domains; nil when it holds no action.
    func inspect(_ link: String) -> LinkAnatomy? {
        try? LinkInspector.inspect(link, authorizedDomains: project.authorizedDomains)
    }

    /// A link tapped in the mail client: routed by the device, then handled where it lands.
    mutating func tap(_ link: String, recipient: String?) -> [Effect] {
        let route = LinkRouter.route(tapped: link, on: device, project: project, requested: sentSettings)
        return follow(route, link: link, recipient: recipient)
    }

    /// Goes where the route says, narrating the router's reasons and assumptions.
    mutating func follow(_ route: TapRoute, link: String, recipient: String?) -> [Effect] {
        for step in route.steps { narrate(Narration.safe(step)) }
        for assumption in route.assumptions { narrate(Narration.safe(assumption)) }
        let anatomy = inspect(link)
        switch route.destination {
        case .app(let url):
            lastLink = LinkVisit(link: link, outcome: "app", anatomy: anatomy, route: route)
            return appReceives(url, anatomy: anatomy)
        case .store(let visit):
            lastLink = LinkVisit(link: link, outcome: visit.store.title, anatomy: anatomy, route: route)
            location = .store(StorePage(visit, project: project))
            narrate("\(visit.store.title) page for \(Narration.safe(visit.appID)): \(visit.purpose == .install ? "install" : "update") the app, then it opens with the link")
            return []
        case .webWidget(let actionURL):
            lastLink = LinkVisit(link: link, outcome: "web widget", anatomy: anatomy, route: route)
            return openWebWidget(actionURL, recipient: recipient, anatomy: anatomy)
        case .browser(let url):
            lastLink = LinkVisit(link: link, outcome: "browser", anatomy: anatomy, route: route)
            location = .browser(url: url)
            narrate("browser opens \(Narration.safe(url)); the app does not get the link")
            return []
        }
    }

    /// The hosted action handler page: checks reset codes, applies verify-email and sign-in codes on load.
    /// `anatomy` is the tapped link's, whose action fields are the action URL's.
    mutating func openWebWidget(_ actionURL: String, recipient: String?, anatomy known: LinkAnatomy?) -> [Effect] {
        let anatomy = known ?? inspect(actionURL)
        let operation = anatomy?.operation ?? .unknown
        var page = WebWidgetPage(actionURL: actionURL, operation: operation, oobCode: anatomy?.oobCode, continueURL: anatomy?.continueUrl, step: .loading)
        if flow?.step == .emailSent { flow?.step = .handledInWebWidget }
        guard let code = anatomy?.oobCode, let call = Self.webWidgetCall(operation, code: code, email: recipient) else {
            let mode = Narration.safe(anatomy?.mode ?? "none")
            page.step = .failed(code: .invalidOobCode, message: "This link has no usable code (mode \(mode))")
            location = .webWidget(page)
            narrate("web widget: mode \(mode)\(anatomy?.oobCode == nil ? " without oobCode" : ""): nothing it can do")
            return []
        }
        location = .webWidget(page)
        narrate("web widget opens \(Narration.safe(actionURL)): \(Self.webWidgetAction(operation))")
        return start(.call(call, by: .webWidget))
    }

    /// What the hosted page does on load. Sign-in uses the recipient's email, as the user (or a
    /// scanner filling the page) would confirm it.
    static func webWidgetCall(_ operation: ActionCodeOperation, code: String, email: String?) -> AuthCall? {
        switch operation {
        case .passwordReset: .resetPassword(ResetPasswordRequest(oobCode: code))
        case .verifyEmail, .recoverEmail, .verifyAndChangeEmail: .update(UpdateAccountRequest(oobCode: code))
        case .emailLink: email.map { .signInWithEmailLink(SignInWithEmailLinkRequest(email: $0, oobCode: code)) }
        case .revertSecondFactorAddition, .unknown: nil
        }
    }

    static func webWidgetAction(_ operation: ActionCodeOperation) -> String {
        switch operation {
        case .passwordReset: "checks the PASSWORD_RESET code (resetPassword with oobCode only; not consumed)"
        case .emailLink: "signs in on the web page (signInWithEmailLink; consumes the code)"
        default: "applies the code on load (accounts:update with oobCode; consumes it)"
        }
    }

    /// The app is opened with a URL: a link with a code to handle, or a continue URL to resume at.
    /// `anatomy` is the tapped link's when the URL is its payload (same action fields).
    mutating func appReceives(_ url: String, anatomy known: LinkAnatomy? = nil) -> [Effect] {
        location = .app
        guard let anatomy = known ?? inspect(url), let code = anatomy.oobCode else {
            return resumeAt(continueURL: url)
        }
        let continueURL = anatomy.continueLink?.destination ?? anatomy.continueUrl
        if let destination = continueURL.flatMap(Self.appScreen(forContinueURL:)) { pendingDestination = destination }
        let continueNote = continueURL.map { "continueUrl \(Narration.safe($0))" } ?? "no continueUrl"
        switch anatomy.operation {
        case .passwordReset:
            flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: flow?.email, continueURL: continueURL, oobCode: code)
            narrate("app handles mode resetPassword (\(continueNote)): resetPassword with oobCode only to check it")
            return start(.call(.resetPassword(ResetPasswordRequest(oobCode: code)), by: .app))
        case .verifyEmail:
            flow = FlowProgress(kind: .verifyEmail, step: .applyingCode, email: session?.email ?? flow?.email, continueURL: continueURL, oobCode: code)
            narrate("app handles mode verifyEmail (\(continueNote)): accounts:update with oobCode")
            return start(.call(.update(UpdateAccountRequest(oobCode: code)), by: .app))
        case .emailLink:
            flow = FlowProgress(kind: .emailLinkSignIn, step: .signingIn, email: emailForSignIn, continueURL: continueURL, oobCode: code)
            guard let email = emailForSignIn else {
                flow?.step = .emailSent
                screen = .confirmEmailForSignIn
                narrate("app handles mode signIn (\(continueNote)) but does not remember the email (opened on another device?): ask for it")
                return []
            }
            narrate("app handles mode signIn (\(continueNote)): signInWithEmailLink for \(Narration.safe(email))")
            return start(.call(.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code)), by: .app))
        default:
            let mode = Narration.safe(anatomy.mode ?? "unknown")
            narrate("app does not handle mode \(mode); ignored")
            banner = ErrorBanner(message: "This app does not handle \(mode) links", code: nil, retry: nil)
            return []
        }
    }

    mutating func resumeAt(continueURL url: String) -> [Effect] {
        guard let screen = Self.appScreen(forContinueURL: url) else {
            narrate("app opened with \(Narration.safe(url)): no route of the app; shows the article list")
            return navigate(to: .articles, reason: "deep link")
        }
        return navigate(to: screen, reason: "app opened with continue URL \(Narration.safe(url))")
    }

    /// The app route a continue URL names (its path), if the app has one.
    static func appScreen(forContinueURL url: String) -> AppScreen? {
        guard let components = URLComponents(string: url), components.host != nil else { return nil }
        return AppScreen(path: components.path)
    }

    /// New mail arrived: a mail security scanner opens each new link like a desktop browser. The
    /// hosted widget applies verify-email and sign-in codes on load (consuming them) and only
    /// checks reset codes, so reset links survive a scanner and the others do not.
    mutating func scanNewMessages() -> [Effect] {
        guard device.mailScanner else { return [] }
        var effects: [Effect] = []
        for message in inbox where !scannedMessageIDs.contains(message.id) {
            scannedMessageIDs.insert(message.id)
            let subject = Narration.safe(message.subject)
            let route = LinkRouter.route(tapped: message.link, on: .desktop, project: project, requested: sentSettings)
            guard case .webWidget(let actionURL) = route.destination else {
                narrate("mail scanner opens the link in \"\(subject)\" like a desktop browser and lands on \(Narration.safe(route.destination.url)): no code is touched")
                continue
            }
            let anatomy = inspect(actionURL)
            let operation = anatomy?.operation ?? .unknown
            guard let code = anatomy?.oobCode, let call = Self.webWidgetCall(operation, code: code, email: message.to) else {
                narrate("mail scanner opens the link in \"\(subject)\": the web widget has no code to act on")
                continue
            }
            narrate("mail scanner pre-opens the link in \"\(subject)\" like a desktop browser: the web widget \(Self.webWidgetAction(operation))")
            effects += start(.call(call, by: .mailScanner))
        }
        return effects
    }
}
