import ActionFlowClient
import ActionFlowModel
import Foundation

/// What the simulated phone shows: the newsletter session's screen, or wherever routing took the
/// user (mailbox, web widget, store, browser). Only reads state; buttons send client events.
public struct PhonePage {
    /// Which page it is, so that selections are remembered per page.
    public enum Name: Hashable, Sendable {
        case capture
        case app(AppScreen)
        /// The inbox, or the message open in it.
        case mail(open: String?)
        /// The hosted page: its action and the kind of its step (a refused password keeps the form's selection).
        case widget(ActionCodeOperation, HostedActionHandler.Step.Kind)
        case store
        case browser
    }

    public var name: Name
    /// The device it shows on (its index in the session).
    public var device = 0
    /// The pane the interface keeps this page's selection, scroll and field focus under.
    public var key: PaneID { .phone(device: device, page: name) }
    /// The address or session bar under the phone's status bar.
    public var bar: String
    public var blocks: [Block]
}

enum Articles {
    static let all: [(id: String, title: String)] = [
        ("42", "How continue URLs carry state"),
        ("7", "Universal links, app links, and you"),
        ("12", "Why single-use codes expire"),
    ]

    static func title(_ id: String) -> String {
        all.first { $0.id == id }?.title ?? "Article \(id)"
    }
}

enum PhoneContent {
    /// An error as the phone shows it: the server's code once, before a message that does not
    /// already start with it.
    static func errorLine(_ code: AuthErrorCode?, _ message: String) -> String {
        guard let code, !message.hasPrefix(code.rawValue) else { return "✗ \(message)" }
        return "✗ \(code.rawValue): \(message)"
    }

    /// An email's body as the mail app and the Mailbox pane show it: the link where the email
    /// has it (before the signature), drawn as a link; at the end for a body without it.
    static func mailBody(_ message: MailMessage, indent: Int) -> [Block] {
        let link = UntrustedText.sanitize(message.link)
        let margin = String(repeating: " ", count: indent)
        var blocks: [Block] = []
        var linkShown = false
        for line in UntrustedText.sanitizeLines(message.body) {
            if line == link {
                blocks.append(.verbatim(message.link, .link, indent: indent))
                linkShown = true
            } else {
                blocks.append(.paragraph(margin + line, .text))
            }
        }
        if !linkShown { blocks.append(.verbatim(message.link, .link, indent: indent)) }
        return blocks
    }

    /// What a device's frame can say of it, from the fullest to the shortest: the system, the
    /// app (its build, never to be read as the SDK's version) and the SDK release it ships.
    static func deviceLabels(_ device: Device) -> [String] {
        let system = UntrustedText.sanitize(device.osName)
        guard device.platform != .desktop else { return [system] }
        guard device.appInstalled else { return ["\(system) · app not installed", "\(system) · no app"] }
        let build = device.installedVersion.map { "build \($0)" }
        let sdk = device.sdk.map { "SDK \(UntrustedText.sanitize($0.name))" }
        let app = (["app"] + [build].compactMap { $0 }).joined(separator: " ")
        return [
            ([system, app + " installed"] + [sdk].compactMap { $0 }).joined(separator: " · "),
            ([system, app] + [sdk].compactMap { $0 }).joined(separator: " · "),
            ([system] + [sdk ?? app]).joined(separator: " · "),
            system,
        ]
    }

    /// The fullest label that fits `columns`; the shortest, cut between words, when none does.
    static func deviceLabel(_ device: Device, fitting columns: Int, prefix: String = "") -> String {
        let labels = deviceLabels(device).map { prefix + $0 }
        return labels.first { $0.displayWidth <= columns } ?? (labels.last ?? prefix).truncatedBetweenWords(toColumns: columns)
    }

    static func page(_ session: Session, _ ui: UIState) -> PhonePage {
        if let capture = session.capture { return capturePage(capture, session, watching: ui.watching) }
        var page = switch session.app.location {
        case .app: appPage(session, ui)
        case .mailbox(let openID): mailboxPage(session, openID)
        case .webWidget(let page): webWidgetPage(page, session, ui)
        case .store(let page): storePage(page)
        case .browser(let url): browserPage(url)
        }
        // Each device remembers its own selection on a page.
        page.device = session.focus
        return page
    }

    /// A capture holds a client's traffic, not its screens: the phone says so and what it saw.
    private static func capturePage(_ capture: String, _ session: Session, watching: Bool) -> PhonePage {
        var calls = session.earlier?.callCount ?? 0
        // A link opened again, or its page's form sent, is the same link.
        var distinct: Set<String> = []
        for entry in session.journal {
            switch entry.fact {
            case .captured(.call): calls += 1
            case .captured(.actionLink(let link)): distinct.insert(link.link)
            default: break
            }
        }
        let links = (session.earlier?.links ?? 0) + distinct.count
        return PhonePage(name: .capture, bar: UntrustedText.sanitize(capture), blocks: [
            .heading(watching ? "Live traffic" : "Captured traffic"),
            .paragraph(watching ? "The server's clients are shown by their calls, not their screens." : "A capture holds the client's calls, not its screens.", .muted),
            .paragraph("So far: \(calls) call\(calls == 1 ? "" : "s"), \(links) action link\(links == 1 ? "" : "s").", .text),
            .paragraph("The Flow pane narrates each; Network, Link, Mail and Seq show them.", .muted),
        ])
    }

    private static func draft(_ session: Session, _ field: DraftField, fallback: String = "") -> String {
        session.drafts[field.rawValue] ?? fallback
    }

    /// A text field whose value stays in the interface until its form's button sends it.
    private static func field(_ field: DraftField, _ session: Session, placeholder: String, secret: Bool = false, fallback: String = "") -> Control {
        Control(id: field.rawValue, label: field.label, kind: .text(value: draft(session, field, fallback: fallback), placeholder: placeholder, secret: secret),
                field: .draft(field.rawValue))
    }

    private static func status(_ session: Session) -> [Block] {
        var blocks: [Block] = []
        if let banner = session.app.banner {
            blocks.append(.paragraph(errorLine(banner.code, banner.message), .error))
            // Only some failures can be retried (a network failure, the rate limit); never offer it otherwise.
            let retry = banner.retry == nil ? [] : [Span("r", .keyName), Span(" retry  ", .muted)]
            blocks.append(.line(retry + [Span("x", .keyName), Span(" dismiss", .muted)]))
            blocks.append(.blank)
        }
        if !session.app.busy.isEmpty {
            let tasks = session.app.busy.map(\.rawValue).sorted().joined(separator: ", ")
            blocks.append(.paragraph("… waiting for \(tasks)", .warning))
            blocks.append(.blank)
        }
        return blocks
    }

    private static func back(_ path: String = "/", label: String = "Back to articles") -> Control {
        .button("back", label, [.send(.openRoute(path))])
    }

    private static func appPage(_ session: Session, _ ui: UIState) -> PhonePage {
        let screen = session.app.screen
        // A computer shows the web app in its browser, at the page's address.
        let bar = session.hasSeveralDevices && session.app.device.platform == .desktop
            ? "⌕ \(URLComponents(string: session.app.continueURLBase)?.host ?? session.app.continueURLBase)\(session.app.resumePath)"
            : "The Newsletter  \(screen.path ?? "")"
        var blocks = status(session)
        let email = session.app.session?.email.map(UntrustedText.sanitize)
        switch screen {
        case .articles:
            blocks.append(.heading("Latest articles"))
            blocks.append(.paragraph(email.map { "Signed in as \($0)" } ?? "Signed out · articles are members-only", .muted))
            blocks.append(.blank)
            for article in Articles.all {
                blocks.append(.control(.button("article.\(article.id)", article.title, [.send(.openRoute("/articles/\(article.id)"))])))
            }
            blocks.append(.blank)
            blocks.append(.control(.button("subscribe", session.app.subscribed ? "Subscribed ✓" : "Subscribe", [.send(.openRoute("/subscribe"))])))
            blocks.append(.control(.button("account", "Account", [.send(.openRoute("/account"))])))
        case .article(let id):
            blocks.append(.heading(Articles.title(UntrustedText.sanitize(id))))
            blocks.append(.line([Span("Members only ", .badge), Span("· /articles/\(UntrustedText.sanitize(id))", .muted)]))
            blocks.append(.blank)
            blocks.append(.paragraph("You are reading the full article. The continue URL brought you back to exactly this page after the email action.", .text))
            blocks.append(.blank)
            blocks.append(.control(back()))
        case .subscribe:
            blocks.append(.heading("Subscribe"))
            if session.app.subscribed {
                blocks.append(.paragraph("✓ Subscribed with \(email ?? "your account"). Thank you!", .success))
            } else {
                blocks.append(.paragraph("The weekly letter goes to verified addresses only.", .text))
                blocks.append(.blank)
                blocks.append(.control(.button("subscribe.confirm", "Subscribe now", [.send(.subscribeTapped)])))
            }
            blocks.append(.control(back()))
        case .account:
            blocks.append(.heading("Account"))
            blocks.append(.pair("Email", email ?? "signed out", .text, nameWidth: 9))
            blocks.append(.pair("Verified", session.app.session.map { $0.emailVerified ? "yes" : "no (cached)" } ?? "–", session.app.session?.emailVerified == true ? .success : .warning, nameWidth: 9))
            blocks.append(.pair("Letter", session.app.subscribed ? "subscribed" : "not subscribed", .text, nameWidth: 9))
            let factors = session.app.session?.secondFactors ?? []
            blocks.append(.pair("2nd step", factors.isEmpty ? "none" : factors.map(UntrustedText.sanitize).joined(separator: ", "), .text, nameWidth: 9))
            blocks.append(.blank)
            if session.app.session != nil {
                blocks.append(.control(field(.secondFactorPhone, session, placeholder: "+15555550100")))
                blocks.append(.control(.button("account.phone.add", "Add phone as second step", [.send(.secondFactorRequested(phoneNumber: draft(session, .secondFactorPhone)))])))
            }
            blocks.append(.control(.button("account.reload", "Reload user", [.send(.reloadUserTapped)])))
            blocks.append(.control(.button("account.signout", "Sign out", [.send(.signOutTapped)])))
            blocks.append(.control(back()))
        case .signIn:
            // After asking for a reset or a sign-in link the app says where to look next.
            if let flow = session.app.flow, flow.step == .emailSent, flow.kind != .verifyEmail {
                let what = flow.kind == .passwordReset ? "a password reset link" : "a sign-in link"
                blocks.append(.paragraph("✉ Check your email: \(what) went to \(UntrustedText.sanitize(flow.email ?? "your address")).", .success))
                blocks.append(.blank)
            }
            blocks.append(.heading("Sign in"))
            blocks.append(.paragraph(session.app.pendingDestination?.path.map { "to continue to \($0)" } ?? "Members sign in here.", .muted))
            blocks.append(.blank)
            let emailField = field(.signInEmail, session, placeholder: "you@example.com")
            blocks.append(.control(emailField))
            blocks.append(.control(field(.signInPassword, session, placeholder: "password", secret: true)))
            let typedEmail = draft(session, .signInEmail)
            let typedPassword = draft(session, .signInPassword)
            blocks.append(.control(.button("signIn.submit", "Sign in", [.send(.signInSubmitted(email: typedEmail, password: typedPassword))])))
            blocks.append(.control(.button("signIn.forgot", "Forgot password?", [.send(.draftEdited(field: DraftField.forgotEmail.rawValue, text: typedEmail)), .send(.forgotPasswordTapped)])))
            blocks.append(.control(.button("signIn.link", "Email me a sign-in link", [.send(.signInLinkRequested(email: typedEmail))])))
            blocks.append(.control(back()))
        case .forgotPassword:
            blocks.append(.heading("Forgot password"))
            blocks.append(.paragraph("We email a link that brings you back to \(session.app.pendingDestination?.path ?? "this app").", .muted))
            blocks.append(.blank)
            blocks.append(.control(field(.forgotEmail, session, placeholder: "you@example.com")))
            blocks.append(.control(.button("forgot.send", "Send reset email", [.send(.passwordResetRequested(email: draft(session, .forgotEmail)))])))
            blocks.append(.control(back()))
        case .verifyEmail:
            blocks.append(.heading("Verify your email"))
            blocks.append(.paragraph("Subscribing needs a verified address: \(email ?? "sign in first").", .text))
            blocks.append(.blank)
            blocks.append(.control(.button("verify.send", "Send verification email", [.send(.verificationRequested)])))
            blocks.append(.control(.button("verify.reload", "I have verified: reload", [.send(.reloadUserTapped)])))
            blocks.append(.control(back()))
        case .newPassword(let forEmail):
            blocks.append(.heading("Choose a new password"))
            blocks.append(.paragraph("for \(UntrustedText.sanitize(forEmail))", .muted))
            blocks.append(.blank)
            blocks.append(.control(field(.newPassword, session, placeholder: "6+ characters", secret: true)))
            blocks.append(.control(.button("newPassword.save", "Save password", [.send(.newPasswordSubmitted(draft(session, .newPassword)))])))
        case .confirmEmailForSignIn:
            blocks.append(.heading("Confirm your email"))
            blocks.append(.paragraph("This device does not remember which address asked for the link.", .muted))
            blocks.append(.blank)
            blocks.append(.control(field(.confirmEmail, session, placeholder: "you@example.com")))
            blocks.append(.control(.button("confirm.submit", "Sign in", [.send(.signInEmailConfirmed(draft(session, .confirmEmail)))])))
        }
        return PhonePage(name: .app(screen), bar: bar, blocks: blocks)
    }

    private static func mailboxPage(_ session: Session, _ openID: String?) -> PhonePage {
        var blocks = status(session)
        if let openID, let message = session.inbox.first(where: { $0.id == openID }) {
            blocks.append(.heading(message.subject))
            blocks.append(.pair("To", message.to, .text, nameWidth: 5))
            blocks.append(.pair("Sent", Clock.format(message.sentAt), .muted, nameWidth: 5))
            blocks.append(.control(.button("mail.tap", "Tap the link", [.send(.linkTapped(messageID: message.id))])))
            blocks.append(.control(.button("mail.inbox", "Back to inbox", [.send(.mailboxOpened)])))
            blocks.append(.rule)
            blocks += mailBody(message, indent: 0)
            return PhonePage(name: .mail(open: openID), bar: "Mail · \(message.to)", blocks: blocks)
        }
        blocks.append(.heading("Inbox"))
        if session.inbox.isEmpty {
            blocks.append(.paragraph("No mail yet.", .muted))
        }
        for message in session.inbox.reversed() {
            let opened = session.app.scannedMessageIDs.contains(message.id) ? " (scanned)" : ""
            blocks.append(.control(.button("mail.\(message.id)", "\(message.subject)\(opened)", [.send(.messageOpened(id: message.id))])))
        }
        blocks.append(.blank)
        let device = session.app.device
        let back = device.platform != .desktop && !device.appInstalled ? "Back to the home screen" : "Back to the \(Vocabulary.app(on: device))"
        blocks.append(.control(.button("mail.app", back, [.send(.appOpened)])))
        return PhonePage(name: .mail(open: nil), bar: "Mail", blocks: blocks)
    }

    private static func webWidgetPage(_ page: WebWidgetPage, _ session: Session, _ ui: UIState) -> PhonePage {
        var blocks = status(session)
        let heading = switch page.operation {
        case .passwordReset: "Reset your password"
        case .verifyEmail: "Verify your email"
        case .emailLink: "Sign in"
        case .revertSecondFactorAddition: "Remove the second sign-in step"
        default: "Email action"
        }
        blocks.append(.heading(heading))
        blocks.append(.line([Span("web widget ", .badge), Span("· /__/auth/action", .muted)]))
        blocks.append(.blank)
        switch page.step {
        case .loading:
            blocks.append(.paragraph("Checking the code…", .warning))
        case .resetForm(let email, let problem):
            blocks.append(.paragraph("for \(UntrustedText.sanitize(email))", .muted))
            if let problem { blocks.append(.paragraph(problem, .error)) }
            blocks.append(.control(field(.widgetPassword, session, placeholder: "6+ characters", secret: true)))
            blocks.append(.control(.button("widget.save", "Save", [.send(.newPasswordSubmitted(draft(session, .widgetPassword)))])))
        case .saving:
            blocks.append(.paragraph("Saving…", .warning))
        case .done(let outcome):
            blocks.append(.paragraph("✓ \(outcome.sentence)", .success))
            blocks.append(.blank)
            if let continueURL = page.continueURL {
                blocks.append(.control(.button("widget.continue", "Continue", [.send(.continueTapped)])))
                blocks.append(.verbatim(continueURL, .link, indent: 2))
            }
        case .forwarded(let target):
            blocks.append(.paragraph("Sending you on to the continue URL to finish signing in…", .warning))
            blocks.append(.verbatim(SecretMasking.maskLinks(in: UntrustedText.sanitize(target)), .link, indent: 2))
        case .failed(let failure):
            blocks.append(.paragraph(errorLine(failure.code, failure.explanation), .error))
        }
        blocks.append(.blank)
        blocks.append(.control(.button("widget.mail", "Back to mail", [.send(.mailboxOpened)])))
        let host = URLComponents(string: page.actionURL)?.host ?? page.actionURL
        // Each step of the page is a page of its own for the selection: after saving, the focus
        // starts on what continues the story (Continue), not on whatever sat at the same place.
        return PhonePage(name: .widget(page.operation, page.step.kind), bar: "⚿ \(host)", blocks: blocks)
    }

    private static func storePage(_ page: StorePage) -> PhonePage {
        let name = page.store == .playStore ? "Google Play" : "App Store"
        var blocks: [Block] = [.heading("The Newsletter"), .paragraph(name, .muted), .blank]
        let version = page.version.map { " (version \($0))" } ?? ""
        blocks.append(.paragraph(page.purpose == .install ? "Not installed on this device\(version)." : "An update is required\(version).", .text))
        blocks.append(.blank)
        blocks.append(.control(.button("store.action", page.purpose == .install ? "Install" : "Update", [.send(.storeActionTapped)])))
        blocks.append(.paragraph("then opens:", .muted))
        blocks.append(.verbatim(page.thenOpens, .link, indent: 2))
        blocks.append(.blank)
        blocks.append(.control(.button("store.mail", "Back to mail", [.send(.mailboxOpened)])))
        return PhonePage(name: .store, bar: name, blocks: blocks)
    }

    private static func browserPage(_ url: String) -> PhonePage {
        var blocks: [Block] = [.heading("Browser"), .verbatim(url, .link, indent: 0), .blank]
        blocks.append(.paragraph("The continue URL opened on the web, not in the app.", .text))
        blocks.append(.blank)
        blocks.append(.control(.button("browser.app", "Open the app", [.send(.appOpened)])))
        blocks.append(.control(.button("browser.mail", "Back to mail", [.send(.mailboxOpened)])))
        let host = URLComponents(string: url)?.host ?? url
        return PhonePage(name: .browser, bar: "⌕ \(host)", blocks: blocks)
    }
}

/// The simulated clock as the interface shows it (UTC).
enum Clock {
    /// `2026-11-23 16:05` in UTC; drawn in the status line of every frame.
    static func format(_ date: Date) -> String {
        // 1970 to 9999 from the UTC stamp (no calendar per frame); Foundation's calendar, which
        // turns Julian before 1582, for the rest.
        let seconds = date.timeIntervalSince1970.rounded(.down)
        if seconds >= 0, seconds <= Date.endOf9999.timeIntervalSince1970 {
            let stamp = date.iso8601Stamp
            return stamp.prefix(10) + " " + stamp.dropFirst(11).prefix(5)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}
