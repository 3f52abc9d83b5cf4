@testable import ActionFlowClient
import ActionFlowModel
import Testing

/// Exhaustive reducer harness: each step states the whole change of the session and the exact
/// effects. Over a remote world every effect must be answered by a `receive` before `finish`;
/// over the embedded world the store runs each effect at once on the simulated project, as
/// `EffectRunner` does for the interface, and every reply it gave must be received, in order.
struct TestStore {
    private(set) var session: Session
    private var unanswered: [Effect] = []
    /// The embedded world's runner, and the replies it gave that are not received yet.
    private var runner: EffectRunner?
    private var replies: [AppEvent] = []

    init(_ session: Session) {
        self.session = session
    }

    /// A store over the embedded world of `driver`: its effects run on its simulated project.
    init(embedded driver: SessionDriver) {
        session = driver.session
        runner = driver.runner
    }

    /// Sends a user intent; `update` turns the old session into the expected new one.
    mutating func send(_ event: AppEvent, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout Session) -> Void = { _ in }) {
        if let next = replies.first {
            Issue.record("\(event) sent while the world's reply \(next) waits to be received", sourceLocation: sourceLocation)
        }
        step(event, expected, sourceLocation, update)
    }

    /// Feeds back the reply to an effect sent earlier; over the embedded world, takes the next
    /// reply it gave, which must be `event`.
    mutating func receive(_ event: AppEvent, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout Session) -> Void = { _ in }) {
        if runner != nil {
            receive({ $0 == event ? () : nil }, effects: expected, sourceLocation: sourceLocation) { session, _ in update(&session) }
            return
        }
        guard let index = unanswered.firstIndex(where: { Self.answers(event, $0) }) else {
            Issue.record("\(event) answers no outstanding effect; outstanding: \(unanswered)", sourceLocation: sourceLocation)
            return
        }
        unanswered.remove(at: index)
        step(event, expected, sourceLocation, update)
    }

    /// Takes the embedded world's next reply, which `match` must recognise; `update` gets what
    /// it took out of it (a record the simulated project made, an email it sent).
    mutating func receive<Payload>(_ match: (AppEvent) -> Payload?, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
                                   _ update: (inout Session, Payload) -> Void) {
        guard let next = replies.first else {
            Issue.record("no reply of the embedded world waits", sourceLocation: sourceLocation)
            return
        }
        guard let payload = match(next) else {
            Issue.record("the embedded world's next reply is \(next)", sourceLocation: sourceLocation)
            return
        }
        replies.removeFirst()
        step(next, expected, sourceLocation) { update(&$0, payload) }
    }

    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(unanswered.isEmpty, "effects never answered: \(unanswered)", sourceLocation: sourceLocation)
        #expect(replies.isEmpty, "replies never received: \(replies)", sourceLocation: sourceLocation)
    }

    private mutating func step(_ event: AppEvent, _ expectedEffects: [Effect], _ sourceLocation: SourceLocation, _ update: (inout Session) -> Void) {
        var expected = session
        update(&expected)
        let effects = session.reduce(event)
        #expect(effects == expectedEffects, sourceLocation: sourceLocation)
        if session != expected {
            let lines = Self.difference(expected, session, at: "session")
            Issue.record("session after \(event) differs:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
            session = expected
        }
        guard runner != nil else {
            unanswered += effects
            return
        }
        // In the order a runner runs them: each effect's replies before the next effect's.
        for effect in effects { replies += runner?.runNow(effect) ?? [] }
    }

    private static func answers(_ event: AppEvent, _ effect: Effect) -> Bool {
        switch (event, effect) {
        case (.callSucceeded(let call, let caller, _), .call(let sent, let sentBy)),
             (.callFailed(let call, let caller, _), .call(let sent, let sentBy)):
            call == sent && caller == sentBy
        case (.mailboxRefreshed, .refreshMailbox), (.textMessagesRead, .readTextMessages), (.clockAdvanced, .advanceClock), (.worldReset, .resetWorld):
            true
        case (.projectApplied(let applied, _), .applyProject(let asked)):
            applied == asked
        case (.serviceFailed(let failed, _), _):
            failed == effect
        default:
            false
        }
    }

    /// The fields that drifted, down to the innermost struct field or collection element that
    /// differs, so a failure names `session.app.flow` or `session.journal[7]`, not the whole value.
    private static func difference(_ expected: Any, _ actual: Any, at path: String) -> [String] {
        guard "\(expected)" != "\(actual)" else { return [] }
        let expectedMirror = Mirror(reflecting: expected)
        let actualMirror = Mirror(reflecting: actual)
        let expectedFields = Array(expectedMirror.children)
        let actualFields = Array(actualMirror.children)
        let style = expectedMirror.displayStyle
        let sameShape = style == actualMirror.displayStyle && !expectedFields.isEmpty && !actualFields.isEmpty
        let byElement = sameShape && style == .collection
        let byField = sameShape && [.struct, .enum, .optional].contains(style) && expectedFields.map(\.label) == actualFields.map(\.label)
        guard byElement || byField else {
            return [Self.mismatch(path, expected, actual)]
        }
        var lines: [String] = []
        for (offset, (expectedField, actualField)) in zip(expectedFields, actualFields).enumerated() {
            lines += difference(expectedField.value, actualField.value, at: expectedField.label.map { "\(path).\($0)" } ?? "\(path)[\(offset)]")
        }
        for offset in min(expectedFields.count, actualFields.count)..<max(expectedFields.count, actualFields.count) {
            lines.append(Self.mismatch("\(path)[\(offset)]", expectedFields.dropFirst(offset).first?.value ?? "(none)", actualFields.dropFirst(offset).first?.value ?? "(none)"))
        }
        return lines
    }

    private static func mismatch(_ path: String, _ expected: Any, _ actual: Any) -> String {
        "  \(path):\n    expected \(expected)\n    actual   \(actual)"
    }
}

extension TestStore {
    /// The `accounts:lookup` reply saying the user is verified, which resumes at `screen`;
    /// `completing` names the flow that finishes there (nil when none is running); `signingIn`
    /// when the lookup completes a sign-in rather than reloading the cached user.
    mutating func receiveVerifiedLookup(_ lookup: AuthCall, email: String, resumingAt screen: AppScreen, completing flow: FlowKind?, signingIn: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        receive(.callSucceeded(lookup, by: .app, .lookedUp(Fixture.user(email, verified: true))), sourceLocation: sourceLocation) {
            $0.app.busy = []
            if signingIn {
                $0.app.session = CachedUser(localId: "uid-\(email)", email: email, emailVerified: true, idToken: "token-1")
                $0.log(.reply(.lookupSignedIn(email: email, verified: true)))
            } else {
                $0.app.session?.emailVerified = true
                $0.log(.reply(.lookupRefreshed(verified: true, cachedWas: false)))
            }
            $0.app.screen = screen
            $0.app.pendingDestination = nil
            $0.log(.arrived(.resume, at: screen))
            if let flow {
                $0.app.flow?.step = .completed
                $0.log(.flowCompleted(flow, at: screen, continueURL: "https://www.example.com\(screen.path ?? "")"))
            }
        }
    }

    /// The narration of `receiveVerifiedLookup`, as the journal renders it.
    static func verifiedLookupNarration(email: String, resumingAt screen: AppScreen, completing flow: FlowKind?, signingIn: Bool = false) -> [String] {
        var lines = [signingIn ? "accounts:lookup → signed in as \(email), emailVerified true" : "accounts:lookup → emailVerified true (cache was false)",
                     "resume: at \(screen.name)"]
        if let flow {
            lines.append("\(flow.rawValue) complete: resumed at \(screen.name) from continueUrl https://www.example.com\(screen.path ?? "")")
        }
        return lines
    }
}

extension TestStore {
    /// Taps the message's link on an iPhone where it opens the web widget, which makes `call` on
    /// load; returns the loading page and the link's anatomy.
    mutating func tapIntoWebWidget(_ message: MailMessage, call: AuthCall, busy: BusyTask, operation: ActionCodeOperation, code: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (page: WebWidgetPage, anatomy: LinkAnatomy, route: TapRoute) {
        let route = LinkRouter.route(tapped: message.link, on: .iPhone, project: Fixture.project, requested: session.app.sentSettings)
        let anatomy = try #require(Fixture.anatomy(message.link), sourceLocation: sourceLocation)
        guard case .webWidget(let actionURL) = route.destination else {
            throw WebWidgetExpected(destination: route.destination)
        }
        let page = WebWidgetPage(actionURL: actionURL)
        #expect(page.operation == operation && page.oobCode == code && page.step == .loading, sourceLocation: sourceLocation)
        send(.linkTapped(messageID: message.id), effects: [.call(call, by: .webWidget)], sourceLocation: sourceLocation) {
            $0.app.busy = [busy]
            $0.app.location = .webWidget(page)
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "web widget", anatomy: anatomy, route: route)
            $0.app.flow?.step = .handledInWebWidget
            $0.app.flow?.handledByWebWidget = true
            $0.log(.routed(link: message.link, route))
            $0.log(.request(call, by: .webWidget, purpose: .webWidgetLoaded(actionURL: actionURL)))
        }
        return (page, anatomy, route)
    }

    /// Taps the message's link into the web widget, which applies `code` on load
    /// (`accounts:update`), the server answers for `email`, and the page shows `outcome` and
    /// journals `fact`. Returns the page as it loaded, and the link's anatomy.
    mutating func applyInWebWidget(_ message: MailMessage, code: String, operation: ActionCodeOperation, email: String,
                                   outcome: HostedActionHandler.Outcome, fact: WebWidgetFact,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> (page: WebWidgetPage, anatomy: LinkAnatomy) {
        let apply = AuthCall.update(UpdateAccountRequest(oobCode: code))
        let (loading, anatomy, _) = try tapIntoWebWidget(message, call: apply, busy: .applyCode, operation: operation, code: code, sourceLocation: sourceLocation)
        var done = loading
        done.step = .done(outcome)
        let answer = UpdateAccountResponse(localId: "uid-\(email)", email: email, emailVerified: true)
        receive(.callSucceeded(apply, by: .webWidget, .updated(answer)), sourceLocation: sourceLocation) {
            $0.app.busy = []
            $0.app.location = .webWidget(done)
            $0.log(.webWidget(fact))
        }
        return (loading, anatomy)
    }
}

struct WebWidgetExpected: Error, CustomStringConvertible {
    var destination: TapDestination
    var description: String { "expected the web widget, got \(destination)" }
}
