import ActionFlowModel
import Foundation

// The mail app, links and where a tap takes the device (app, store, web widget, browser),
// what the app does with a link it receives, and the mail security scanner.
extension Session {
    /// Messages in the inbox the user has not seen in the mail app yet.
    public var unreadMessages: Int { max(0, inbox.count - (app.seenMessages ?? 0)) }

    mutating func reduceMail(_ event: AppEvent) -> [Effect] {
        switch event {
        case .mailboxOpened:
            app.location = .mailbox(openMessageID: nil)
            app.seenMessages = inbox.count
            log(.mailboxOpened)
            return start(.refreshMailbox)

        case .messageOpened(let id):
            guard let message = inbox.first(where: { $0.id == id }) else {
                log(.refused(.noSuchMessage(id)))
                return []
            }
            app.location = .mailbox(openMessageID: id)
            log(.messageOpened(subject: message.subject, to: message.to))
            return []

        case .linkTapped(let messageID):
            guard let message = inbox.first(where: { $0.id == messageID }) else {
                log(.refused(.noSuchMessage(messageID)))
                app.banner = ErrorBanner(message: "No message \(Narration.safe(messageID)) in the inbox", code: nil, retry: nil)
                return []
            }
            app.location = .mailbox(openMessageID: messageID)
            let route = LinkRouter.route(tapped: message.link, on: app.device, project: project, requested: requestedSettings)
            return follow(route, link: message.link)

        case .linkOpened(let link):
            return follow(LinkRouter.route(tapped: link, on: app.device, project: project, requested: requestedSettings), link: link)

        case .linkPasted(let link):
            app.location = .app
            log(.linkPasted(link))
            app.lastLink = LinkVisit(link: link, outcome: "pasted into the app", anatomy: inspect(link))
            return appReceives(link)

        case .storeActionTapped:
            guard case .store(let page) = app.location else {
                log(.refused(.noStorePage))
                return []
            }
            app.device.appInstalled = true
            if let version = page.version { app.device.installedVersion = version }
            log(.storeCompleted(page))
            coldStartIfKilled(with: page.thenOpens)
            return appReceives(page.thenOpens)

        case .mailboxRefreshed(let messages):
            app.busy.remove(.mailbox)
            let added = messages.count - app.listedMessages
            app.listedMessages = messages.count
            world.inbox = messages
            if case .mailbox = app.location { app.seenMessages = messages.count }
            log(.mailboxListed(new: max(0, added), total: messages.count))
            return scanNewMessages()

        default:
            return []
        }
    }

    /// The link taken apart against the project's authorized domains; nil when it holds no action.
    func inspect(_ link: String) -> LinkAnatomy? {
        try? LinkInspector.inspect(link, authorizedDomains: project.authorizedDomains)
    }

    /// Goes where the route says, recording the router's reasons and assumptions.
    mutating func follow(_ route: TapRoute, link: String) -> [Effect] {
        log(.routed(link: link, route))
        let anatomy = inspect(link)
        switch route.destination {
        case .app(let url):
            app.lastLink = LinkVisit(link: link, outcome: "app", anatomy: anatomy, route: route)
            coldStartIfKilled(with: url)
            return appReceives(url, anatomy: anatomy)
        case .store(let visit):
            app.lastLink = LinkVisit(link: link, outcome: visit.store.title, anatomy: anatomy, route: route)
            app.location = .store(StorePage(visit, project: project))
            log(.storePage(visit))
            return []
        case .webWidget(let actionURL):
            app.lastLink = LinkVisit(link: link, outcome: "web widget", anatomy: anatomy, route: route)
            return openWebWidget(actionURL)
        case .browser(let url):
            app.lastLink = LinkVisit(link: link, outcome: "browser", anatomy: anatomy, route: route)
            if app.device.platform == .desktop, app.isWebAppURL(url) {
                // A computer has no app but the web app: its browser opens it at the URL's path.
                log(.webAppOpened(url))
                return resumeAt(continueURL: url)
            }
            app.location = .browser(url: url)
            log(.browserOpened(url))
            return []
        }
    }

    /// The app was killed before the tap: it starts from `url` alone. What it kept in memory is
    /// gone (where the user was going, the email for sign-in, the flow in progress); what it
    /// kept on disk stays (the signed-in user, as the SDKs persist it). The knob is spent: the
    /// app runs from now on.
    mutating func coldStartIfKilled(with url: String) {
        guard app.device.appKilledBeforeTap else { return }
        app.device.appKilledBeforeTap = false
        log(.appColdStarted(link: url, forgotDestination: app.pendingDestination, forgotEmailForSignIn: app.emailForSignIn, forgotFlow: app.flow?.kind))
        app.pendingDestination = nil
        app.emailForSignIn = nil
        app.flow = nil
        app.screen = .articles
        app.coldStartLink = url
    }

    /// The app is opened with a URL: a link with a code to handle, or a continue URL to resume at.
    /// `anatomy` is the tapped link's when the URL is its payload (same action fields);
    /// `continueURL` is the page the web app is on when the hosted page sent a sign-in link there.
    mutating func appReceives(_ url: String, anatomy known: LinkAnatomy? = nil, atPage page: String? = nil) -> [Effect] {
        app.location = .app
        guard let anatomy = known ?? inspect(url), let linkCode = anatomy.oobCode else {
            return resumeAt(continueURL: url)
        }
        var operation = anatomy.operation
        var code = linkCode
        var linkContinueURL = anatomy.continueLink?.destination ?? anatomy.continueUrl
        if let sdk = app.device.sdk {
            let given = linkForSDK(payload: url, tapped: known)
            var handling = sdk.appHandling(of: given.link)
            if let note = given.note { handling.reasons.insert(note, at: 0) }
            log(.sdkHandled(handling))
            switch handling.outcome {
            case .handles(let read, let readCode, let readContinueURL):
                (operation, code, linkContinueURL) = (read, readCode, readContinueURL)
            case .ignores:
                app.banner = ErrorBanner(message: "The app did not handle this link: \(sdk.name) found no action in it", code: nil, retry: nil)
                return []
            case .throwsError(let message):
                app.banner = ErrorBanner(message: "\(sdk.name): \(Narration.safe(message))", code: nil, retry: nil)
                return []
            case .crashes(let message):
                crash(because: "\(sdk.name): \(message)")
                return []
            }
        }
        let continueURL = page ?? linkContinueURL
        if let destination = continueURL.flatMap(AppState.appScreen(forContinueURL:)) { app.pendingDestination = destination }
        let call: AuthCall
        switch operation {
        case .passwordReset:
            app.flow = FlowProgress(kind: .passwordReset, step: .checkingCode, email: app.flow?.email, continueURL: continueURL, oobCode: code)
            call = .resetPassword(ResetPasswordRequest(oobCode: code))
        case .verifyEmail:
            app.flow = FlowProgress(kind: .verifyEmail, step: .applyingCode, email: app.session?.email ?? app.flow?.email, continueURL: continueURL, oobCode: code)
            call = .update(UpdateAccountRequest(oobCode: code))
        case .emailLink:
            app.flow = FlowProgress(kind: .emailLinkSignIn, step: .signingIn, email: app.emailForSignIn, continueURL: continueURL, oobCode: code)
            guard let email = app.emailForSignIn else {
                app.flow?.step = .emailSent
                app.screen = .confirmEmailForSignIn
                log(.askForSignInEmail(continueURL: continueURL, inWebApp: app.device.platform == .desktop))
                return []
            }
            call = .signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code))
        default:
            let mode = operation.mode ?? anatomy.mode ?? "unknown"
            log(.refused(.unsupportedMode(mode)))
            app.banner = ErrorBanner(message: "This app does not handle \(Narration.safe(mode)) links", code: nil, retry: nil)
            return []
        }
        return send(call, for: .handleLink(continueURL: continueURL))
    }

    /// What the app's SDK is given, and how the narration says it: the action URL inside a
    /// Hosting link (a Dynamic Link's payload comes from the Dynamic Links SDK), or the whole
    /// link when the app passes it on.
    private func linkForSDK(payload: String, tapped: LinkAnatomy?) -> (link: String, note: String?) {
        guard let tapped, tapped.outerWrapper?.kind == .hostingWrapper else { return (payload, nil) }
        if app.device.passesWholeLink {
            return (tapped.link, "the app hands its SDK the whole Hosting link the system opened it with")
        }
        return (payload, "the app takes the action URL out of the Hosting link's link= before handing it to its SDK")
    }

    /// The app's process ended: what it held in memory is gone, and the user is back at the
    /// system's home screen with the app's first screen behind it.
    mutating func crash(because reason: String) {
        log(.appCrashed(reason: reason, lostFlow: app.flow?.kind))
        app.flow = nil
        app.pendingDestination = nil
        app.emailForSignIn = nil
        app.screen = .articles
        app.banner = ErrorBanner(message: "The app crashed: \(Narration.safe(reason))", code: nil, retry: nil)
    }

    /// New mail arrived: a mail security scanner opens each new link like a desktop browser. The
    /// hosted page applies verify-email codes on load (consuming them), only checks reset codes,
    /// and sends sign-in links on to the continue URL, whose web app asks the scanner for an
    /// email it cannot give: verify-email links are spent by the scanner, the others survive it.
    mutating func scanNewMessages() -> [Effect] {
        guard app.device.mailScanner else { return [] }
        var effects: [Effect] = []
        for message in inbox where !app.scannedMessageIDs.contains(message.id) {
            app.scannedMessageIDs.insert(message.id)
            let route = LinkRouter.route(tapped: message.link, on: .desktop, project: project, requested: requestedSettings)
            guard case .webWidget(let actionURL) = route.destination else {
                log(.scanner(.landedElsewhere(subject: message.subject, url: route.destination.url)))
                continue
            }
            let (handler, load) = HostedActionHandler.open(actionURL: actionURL)
            guard let load else {
                switch handler.step {
                case .forwarded: log(.scanner(.cannotConfirmEmail(subject: message.subject)))
                default: log(.scanner(.noCode(subject: message.subject)))
                }
                continue
            }
            effects += send(AuthCall(load), by: .mailScanner, for: .scannerPreOpened(subject: message.subject))
        }
        return effects
    }
}
