import ActionFlowModel
import Foundation

/// A session's flow as a sequence diagram: who asked whom for what, the email, the taps and
/// where they led, with a note for every routing decision and assumption and for each point the
/// continue URL passes on its way from the app's request back to the resumed screen.
///
/// Built from the journal alone, a pure function of the session. `items` is the structure (for
/// tests and other renderers); `mermaid` is the same diagram as Mermaid `sequenceDiagram` text.
/// Every label is sanitized and has its secrets masked when built, and is escaped for Mermaid
/// only when written.
public struct SequenceDiagram: Sendable, Equatable {
    public enum Participant: String, Sendable, Hashable, CaseIterable {
        case user = "User"
        case app = "App"
        /// The app on the second device, in a session of two.
        case app2 = "App2"
        case auth = "Auth"
        case mailbox = "Mailbox"
        case webWidget = "Widget"
        case store = "Store"
        case browser = "Browser"
        case scanner = "Scanner"

        /// The identifier in the Mermaid text.
        public var id: String { rawValue }
    }

    public struct Lifeline: Sendable, Equatable {
        public var participant: Participant
        /// The name shown at the top of the lifeline.
        public var label: String
    }

    public struct Message: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A request or an action: a solid arrow (`->>`).
            case request
            /// A reply: a dotted arrow (`-->>`).
            case reply
        }

        public var from: Participant
        public var to: Participant
        public var kind: Kind
        public var text: String
    }

    public struct Note: Sendable, Equatable {
        /// One or two participants the note spans.
        public var over: [Participant]
        public var lines: [String]
    }

    public enum Item: Sendable, Equatable {
        case message(Message)
        case note(Note)
        /// The route a tapped link took begins (`alt`) ...
        case routeBegins(String)
        /// ... and ends (`end`).
        case routeEnds
    }

    public var lifelines: [Lifeline]
    public var items: [Item]

    /// The lifelines are those of the participants that act (an arrow's ends, a note's span),
    /// in the order of `Participant`, and those of `alwaysShown`, so that a diagram declares no
    /// participant the flow never uses.
    public init(_ session: Session, alwaysShown: Set<Participant> = []) {
        var builder = SequenceDiagramBuilder(session: session)
        for (index, entry) in session.journal.enumerated() {
            builder.position = index
            builder.appLine = Self.appParticipant(on: entry.device, in: session)
            builder.device = entry.device
            builder.add(entry.fact)
        }
        items = builder.items
        var acting = alwaysShown
        for item in items {
            switch item {
            case .message(let message): acting.formUnion([message.from, message.to])
            case .note(let note): acting.formUnion(note.over)
            case .routeBegins, .routeEnds: break
            }
        }
        lifelines = Participant.allCases
            .filter { acting.contains($0) }
            .filter { $0 != .app2 || session.hasSeveralDevices }
            .map { Lifeline(participant: $0, label: Self.label(of: $0, in: session)) }
    }

    /// The lifeline of the app on the device a journal entry names: the first device's is `App`.
    static func appParticipant(on device: DeviceName?, in session: Session) -> Participant {
        guard let device, let index = session.deviceIndex(device), index > 0 else { return .app }
        return .app2
    }

    static func label(of participant: Participant, in session: Session) -> String {
        let safe = JournalText.clean
        switch participant {
        case .user: return "User"
        case .app where session.hasSeveralDevices: return safe(appLabel(session.devices[0]))
        case .app: return safe("App on \(session.app.device.osName)")
        case .app2: return safe(session.devices.count > 1 ? appLabel(session.devices[1]) : "App")
        case .auth where session.capture != nil: return safe("Firebase Auth (\(session.capturedProjectId.map { "captured project \($0)" } ?? "the captured project"))")
        case .auth: return safe("Firebase Auth (\(session.project.projectId))")
        case .mailbox: return "Mailbox"
        case .webWidget: return "Web widget (hosted action page)"
        case .store:
            switch session.app.device.platform {
            case .iOS: return "App Store"
            case .android: return "Play Store"
            case .desktop: return "App store"
            }
        case .browser: return "Browser"
        case .scanner: return "Mail scanner"
        }
    }

    /// "App on the iPhone (iOS 18)", "Web app on the laptop (Web browser)".
    static func appLabel(_ device: SessionDevice) -> String {
        let app = device.app.device.platform == .desktop ? "Web app" : "App"
        return "\(app) on the \(device.name.title) (\(device.app.device.osName))"
    }

    /// The diagram as Mermaid `sequenceDiagram` text, one statement per line.
    public var mermaid: String {
        var lines = ["sequenceDiagram"]
        for lifeline in lifelines {
            lines.append("    participant \(lifeline.participant.id) as \(MermaidText.escape(lifeline.label))")
        }
        var indent = "    "
        for item in items {
            switch item {
            case .message(let message):
                let arrow = message.kind == .request ? "->>" : "-->>"
                lines.append("\(indent)\(message.from.id)\(arrow)\(message.to.id): \(MermaidText.escape(message.text))")
            case .note(let note):
                let over = note.over.map(\.id).joined(separator: ",")
                lines.append("\(indent)Note over \(over): \(MermaidText.escape(lines: note.lines))")
            case .routeBegins(let label):
                lines.append("\(indent)alt \(MermaidText.escape(label))")
                indent += "    "
            case .routeEnds:
                indent = String(indent.dropLast(4))
                lines.append("\(indent)end")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Turns journal facts into diagram items, one fact at a time.
struct SequenceDiagramBuilder {
    typealias Participant = SequenceDiagram.Participant

    let session: Session
    var items: [SequenceDiagram.Item] = []
    /// The app of the device the fact being added happened on.
    var appLine: Participant = .app
    /// The device the fact being added happened on, with two devices.
    var device: DeviceName?
    /// How many of a remote world's emails are drawn already: each device's mail app lists
    /// the shared mailbox, and an email is drawn once, when it is first listed.
    var mailDrawn = 0
    /// The web widget is on screen after a tap, so the next route comes from its Continue button.
    var widgetShowing = false
    /// The journal index of the fact being added.
    var position = 0
    /// A remote world's inbox is the one listed after its last restart; earlier listings were of
    /// a mailbox since emptied.
    let remoteInboxSince: Int?

    init(session: Session) {
        self.session = session
        remoteInboxSince = session.isEmbedded ? nil : (session.journal.lastIndex {
            switch $0.fact {
            case .worldReset, .projectEdited: true
            default: false
            }
        } ?? 0)
    }

    mutating func request(_ from: Participant, _ to: Participant, _ text: String) {
        items.append(.message(.init(from: from, to: to, kind: .request, text: JournalText.clean(text))))
    }

    mutating func reply(_ from: Participant, _ to: Participant, _ text: String) {
        items.append(.message(.init(from: from, to: to, kind: .reply, text: JournalText.clean(text))))
    }

    /// A note with the fact's narration: the same words as the Flow pane, already clean.
    mutating func narrate(_ fact: JournalFact, over participants: Participant...) {
        let lines = JournalEntry(at: nil, fact, device: device).lines
        guard !lines.isEmpty else { return }
        items.append(.note(.init(over: participants, lines: lines)))
    }

    mutating func note(_ lines: [String], over participants: [Participant]) {
        items.append(.note(.init(over: participants, lines: lines.map(JournalText.clean))))
    }

    mutating func add(_ fact: JournalFact) {
        switch fact {
        case .unknownRoute(let path, _):
            request(.user, appLine, "open \(path)")
            narrate(fact, over: appLine)
        case .arrived(.open(let screen), _):
            request(.user, appLine, "open \(screen.name)")
        case .gated(.open(let screen), _, _):
            request(.user, appLine, "open \(screen.name)")
            narrate(fact, over: appLine)
        case .noRoute, .gated, .arrived, .flowCompleted, .subscribed, .callFailed, .serviceFailed,
             .settingsEdited, .deviceEdited, .continueURLBaseEdited, .localeEdited:
            narrate(fact, over: appLine)
        case .forgotPassword:
            request(.user, appLine, "forgot password")
            narrate(fact, over: appLine)
        case .backToApp:
            request(.user, appLine, "back to the app")
        case .signedOut:
            request(.user, appLine, "sign out")
        case .refused(.noContinueURL):
            narrate(fact, over: .webWidget)
        case .refused:
            narrate(fact, over: appLine)
        case .request(let call, let caller, let purpose):
            addRequest(call, by: caller, purpose)
        case .captured(.call(let call)):
            request(appLine, .auth, ([call.operation] + [call.requestType, call.email].compactMap { $0 }).joined(separator: " "))
            reply(.auth, appLine, call.status == 0 ? "no answer captured" : "\(call.status)" + (call.error.map { " \($0)" } ?? ""))
        case .captured(.actionLink(let link)):
            switch link.source {
            case .emulatorListing, .operationResponse, .sentByServer: reply(.auth, .mailbox, "\(link.mode ?? "action") link, continueUrl \(link.continueUrl ?? "none")")
            case .opened: request(.user, .browser, "opens the \(link.mode ?? "action") link")
            case .redirect: reply(.browser, .user, "redirected to the \(link.mode ?? "action") link")
            case .formSent: request(.browser, .auth, "sends the \(link.mode ?? "action") page's form")
            }
        case .captured(.emulatorRequest(let captured)):
            request(appLine, .auth, "\(captured.method) the emulator's \(captured.resource) (its own API)")
            reply(.auth, appLine, captured.status == 0 ? "no answer captured" : "\(captured.status)")
        case .captured(.finding):
            // Findings belong to the report; the diagram draws what happened.
            break
        case .exchange(let id, let operation, let caller, let status, let error):
            reply(.auth, participant(caller), replyText(id: id, operation, status: status, error: error))
        case .reply(.checkYourEmail):
            reply(appLine, .user, "check your email")
        case .reply(.oobCodeSent(_, _, enumerationProtected: false)), .reply(.signedInWithPassword), .reply(.lookupSignedIn):
            // The reply arrow just drawn already says it.
            break
        case .reply:
            narrate(fact, over: appLine)
        case .webWidget(.forwarded):
            narrate(fact, over: .webWidget)
            request(.webWidget, .browser, "303 to the continue URL with mode, oobCode, apiKey, lang")
        case .webWidget:
            narrate(fact, over: .webWidget)
        case .scanner:
            narrate(fact, over: .scanner)
        case .mailboxOpened:
            widgetShowing = false
            request(.user, .mailbox, "open the mailbox")
        case .mailboxListed(let new, let total):
            addMailSeenByListing(new: new, total: total)
            reply(.mailbox, .user, "\(new) new, \(total) in all")
        case .mailSent(let id, let to, let type):
            let message = session.sentMail.first { $0.id == id }
            request(.auth, .mailbox, "\(type.rawValue) email to \(to)\(message.map { ": \"\($0.subject)\"" } ?? "")")
        case .messageOpened(let subject, _):
            widgetShowing = false
            request(.user, .mailbox, "open \"\(subject)\"")
        case .textMessageArrived:
            narrate(fact, over: appLine)
        case .linkPasted(let link):
            request(.user, appLine, "paste the link \(link)")
        case .routed(_, let route):
            addRoute(route)
        case .storePage:
            narrate(fact, over: .store)
        case .storeCompleted(let page):
            request(.store, appLine, "\(page.purpose == .install ? "installed" : "updated"): the app opens with the link")
        case .browserOpened:
            narrate(fact, over: .browser)
        case .webAppOpened(let url):
            narrate(fact, over: .browser)
            request(.browser, appLine, "open the web app at \(URLComponents(string: url)?.path ?? url)")
        case .askForSignInEmail:
            narrate(fact, over: appLine)
            request(appLine, .user, "which email did you sign in with?")
        case .appColdStarted, .appCrashed, .sdkSent:
            narrate(fact, over: appLine)
        case .sdkHandled(let handling):
            // The headline only: the rules behind it are in the narration.
            note([JournalText.sdkHeadline(handling)], over: [appLine])
        case .projectEdited, .clockAdvanced, .worldReset:
            // The world restarts with an empty mailbox.
            if case .clockAdvanced = fact {} else { mailDrawn = 0 }
            narrate(fact, over: .auth)
        case .retryRequested:
            request(.user, appLine, "retry")
        case .errorDismissed:
            request(.user, appLine, "dismiss the error")
        case .clockAdvanceRequested, .worldResetRequested:
            // The outcome (clock advanced, world reset, or a failure) is drawn instead.
            break
        }
    }

    /// The user's action that set the call off, when there is one, then the call itself.
    private mutating func addRequest(_ call: AuthCall, by caller: Caller, _ purpose: CallPurpose) {
        let from = participant(caller)
        switch purpose {
        case .signInForm:
            request(.user, appLine, "sign in as \(call.email ?? "(none)")")
        case .emailConfirmed:
            request(.user, from, "my email is \(call.email ?? "(none)")")
        case .newPasswordForm:
            request(.user, from, "submit a new password")
        case .reloadTapped:
            request(.user, appLine, "reload")
        case .sendEmail:
            if case .sendOobCode(let sent, _) = call { request(.user, appLine, "send me a \(sent.requestType.rawValue) email") }
        case .handleLink, .webWidgetLoaded, .reloadAfterApplying, .scannerPreOpened:
            narrate(.request(call, by: caller, purpose: purpose), over: from)
        case .addSecondFactor:
            if case .startMfaEnrollment(let sent) = call { request(.user, appLine, "add \(sent.phoneEnrollmentInfo?.phoneNumber ?? "(no number)") as a second step") }
        case .finishSecondFactor:
            narrate(.request(call, by: caller, purpose: purpose), over: from)
        case .signInWithNewPassword, .loadSignedInUser, .reloadAfterSecondFactor:
            break
        }
        request(from, .auth, Self.requestText(call))
        if case .sendOobCode(let sent, _) = call, let continueURL = sent.continueUrl {
            note(["continueUrl \(continueURL) travels in the email link and brings the user back"], over: [appLine, .auth])
        }
    }

    /// A remote world sends mail out of sight: each email is drawn when the mailbox lists it.
    private mutating func addMailSeenByListing(new: Int, total: Int) {
        guard let since = remoteInboxSince, new > 0 else { return }
        // Listed before a restart: the mailbox as it was then.
        let earlier = session.world.earlierInboxes?.first { $0.untilJournalEntry > position }
        let inbox = earlier?.messages ?? session.sentMail
        let first = max(total - new, mailDrawn)
        mailDrawn = max(mailDrawn, total)
        guard first < total else { return }
        for index in first..<total {
            if position >= since || earlier != nil, inbox.indices.contains(index) {
                let message = inbox[index]
                request(.auth, .mailbox, "\(message.requestType.rawValue) email to \(message.to): \"\(message.subject)\"")
            } else {
                request(.auth, .mailbox, "an email (no longer in the inbox)")
            }
        }
    }

    /// `alt` around the tap and the router's reasons: each step and each assumption.
    private mutating func addRoute(_ route: TapRoute) {
        let destination: Participant = switch route.destination {
        case .app: appLine
        case .store: .store
        case .webWidget: .webWidget
        case .browser: .browser
        }
        let fromWidget = widgetShowing
        widgetShowing = destination == .webWidget
        let place = device.map { "on the \($0.title), " } ?? ""
        items.append(.routeBegins(JournalText.clean("\(place)the link opens in: \(route.destination.summary)")))
        request(.user, destination, fromWidget ? "press Continue on the web widget" : "tap the link in the email")
        let span: [Participant] = [.user, destination]
        note(route.steps, over: span)
        for assumption in route.assumptions {
            note([assumption], over: span)
        }
        items.append(.routeEnds)
    }

    private func participant(_ caller: Caller) -> Participant {
        switch caller {
        case .app: appLine
        case .webWidget: .webWidget
        case .mailScanner: .scanner
        }
    }


    /// The operation and the fields that decide the flow; secrets masked.
    static func requestText(_ call: AuthCall) -> String {
        func secret(_ value: String?, _ name: String) -> String? {
            value.map { "\(name) \(SecretMasking.mask($0, named: name))" }
        }
        let operation = call.operation.rawValue
        let fields: [String?]
        switch call {
        case .signUp(let request):
            fields = [request.email.map { "email \($0)" }, secret(request.password, "password")]
        case .signInWithPassword(let request):
            fields = ["email \(request.email)", secret(request.password, "password")]
        case .sendOobCode(let request, let locale):
            fields = [request.requestType.rawValue, request.email.map { "email \($0)" }, Narration.describe(request),
                      locale.map { "X-Firebase-Locale \($0)" }]
        case .resetPassword(let request):
            fields = [secret(request.oobCode, "oobCode"), secret(request.newPassword, "newPassword")]
        case .update(let request):
            fields = [secret(request.oobCode, "oobCode"), secret(request.idToken, "idToken")]
        case .lookup(let request):
            fields = [secret(request.idToken, "idToken")]
        case .signInWithEmailLink(let request):
            fields = ["email \(request.email)", secret(request.oobCode, "oobCode")]
        case .startMfaEnrollment(let request):
            fields = [request.phoneEnrollmentInfo?.phoneNumber.map { "phoneNumber \($0)" }, secret(request.idToken, "idToken")]
        case .finalizeMfaEnrollment(let request):
            fields = [secret(request.phoneVerificationInfo?.code, "code"), secret(request.idToken, "idToken")]
        }
        return ([operation] + fields.compactMap { $0 }).joined(separator: " ")
    }

    /// The status, the error or the reply's telling fields (from the masked exchange record,
    /// while it is among the latest kept).
    func replyText(id: Int, _ operation: IdentityToolkitOperation, status: Int?, error: String?) -> String {
        let head = "\(status.map(String.init) ?? "no reply") \(operation.rawValue)"
        if let error { return "\(head): \(error)" }
        guard let body = session.exchanges.first(where: { $0.id == id })?.responseBody else { return head }
        let fields = Self.replyFields(body)
        return fields.isEmpty ? head : "\(head): \(fields.joined(separator: ", "))"
    }

    static func replyFields(_ body: String) -> [String] {
        guard let reply = try? JSONDecoder().decode(ReplyFields.self, from: Data(body.utf8)) else { return [] }
        // A lookup answers with a list of users: the first is the one asked about.
        let fields = reply.values.merging(reply.users.first?.values ?? [:]) { first, _ in first }
        return ReplyFields.names.compactMap { name in
            fields[name].map { "\(name) \(SecretMasking.mask($0, named: name))" }
        }
    }
}

/// The fields of a reply body that the diagram names, as text. Read with `JSONDecoder` (not
/// `JSONSerialization`, which would load CoreFoundation's collections for every frame's arrows).
private struct ReplyFields: Decodable {
    static let names = ["email", "requestType", "emailVerified", "idToken"]

    private struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var values: [String: String] = [:]
    var users: [ReplyFields] = []

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        for name in Self.names {
            let key = Name(stringValue: name)
            if let text = try? container.decode(String.self, forKey: key) {
                values[name] = text
            } else if let flag = try? container.decode(Bool.self, forKey: key) {
                values[name] = String(flag)
            } else if let number = try? container.decode(Int.self, forKey: key) {
                values[name] = String(number)
            } else if let number = try? container.decode(Double.self, forKey: key) {
                values[name] = "\(number)"
            }
        }
        users = (try? container.decode([ReplyFields].self, forKey: Name(stringValue: "users"))) ?? []
    }
}
