@testable import ActionFlowClient
import ActionFlowModel
import Testing

/// Exhaustive reducer harness: each step states the whole state change and the exact effects,
/// and every effect must be answered by a `receive` before `finish`.
struct TestStore {
    private(set) var state: AppState
    private var unanswered: [Effect] = []

    init(_ state: AppState) {
        self.state = state
    }

    /// Sends a user intent; `update` turns the old state into the expected new one.
    mutating func send(_ event: AppEvent, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout AppState) -> Void = { _ in }) {
        step(event, expected, sourceLocation, update)
    }

    /// Feeds back the reply to an effect sent earlier.
    mutating func receive(_ event: AppEvent, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout AppState) -> Void = { _ in }) {
        guard let index = unanswered.firstIndex(where: { Self.answers(event, $0) }) else {
            Issue.record("\(event) answers no outstanding effect; outstanding: \(unanswered)", sourceLocation: sourceLocation)
            return
        }
        unanswered.remove(at: index)
        step(event, expected, sourceLocation, update)
    }

    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(unanswered.isEmpty, "effects never answered: \(unanswered)", sourceLocation: sourceLocation)
    }

    private mutating func step(_ event: AppEvent, _ expectedEffects: [Effect], _ sourceLocation: SourceLocation, _ update: (inout AppState) -> Void) {
        var expected = state
        update(&expected)
        let effects = AppReducer.reduce(&state, event)
        #expect(effects == expectedEffects, sourceLocation: sourceLocation)
        if state != expected {
            Issue.record("state after \(event) differs:\n\(Self.difference(expected, state))", sourceLocation: sourceLocation)
            state = expected
        }
        unanswered += effects
    }

    private static func answers(_ event: AppEvent, _ effect: Effect) -> Bool {
        switch (event, effect) {
        case (.callSucceeded(let call, let caller, _), .call(let sent, let sentBy)),
             (.callFailed(let call, let caller, _), .call(let sent, let sentBy)):
            call == sent && caller == sentBy
        case (.mailboxRefreshed, .refreshMailbox), (.clockAdvanced, .advanceClock), (.worldReset, .resetWorld), (.worldReset, .applyProject):
            true
        case (.serviceFailed(let failed, _), _):
            failed == effect
        default:
            false
        }
    }

    /// Field-by-field difference, so a failure says which field drifted.
    private static func difference(_ expected: AppState, _ actual: AppState) -> String {
        let expectedFields = Mirror(reflecting: expected).children
        let actualFields = Array(Mirror(reflecting: actual).children)
        var lines: [String] = []
        for (offset, field) in expectedFields.enumerated() where "\(field.value)" != "\(actualFields[offset].value)" {
            lines.append("  \(field.label ?? "?"):\n    expected \(field.value)\n    actual   \(actualFields[offset].value)")
        }
        return lines.joined(separator: "\n")
    }
}

extension TestStore {
    /// The `accounts:lookup` reply saying the user is verified, which resumes at `screen`;
    /// `completing` names the flow that finishes there (nil when none is running); `signingIn`
    /// when the lookup completes a sign-in rather than reloading the cached user.
    mutating func receiveVerifiedLookup(_ lookup: AuthCall, email: String, resumingAt screen: AppScreen, completing flow: FlowKind?, signingIn: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        receive(.callSucceeded(lookup, by: .app, .lookedUp(Fixture.user(email, verified: true))), sourceLocation: sourceLocation) {
            $0.busy = []
            $0.screen = screen
            $0.pendingDestination = nil
            if signingIn {
                $0.session = CachedUser(localId: "uid-\(email)", email: email, emailVerified: true, idToken: "token-1")
                $0.narration.append("accounts:lookup → signed in as \(email), emailVerified true")
            } else {
                $0.session?.emailVerified = true
                $0.narration.append("accounts:lookup → emailVerified true (cache was false)")
            }
            $0.narration.append("resume: at \(screen.name)")
            if let flow {
                $0.flow?.step = .completed
                $0.narration.append("\(flow.rawValue) complete: resumed at \(screen.name) from continueUrl https://www.example.com\(screen.path ?? "")")
            }
        }
    }
}

extension TestStore {
    /// Taps the message's link on an iPhone where it opens the web widget, which makes `call` on
    /// load; returns the loading page and the link's anatomy.
    mutating func tapIntoWebWidget(_ message: MailMessage, call: AuthCall, busy: BusyTask, operation: ActionCodeOperation, code: String, action: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (page: WebWidgetPage, anatomy: LinkAnatomy) {
        let route = LinkRouter.route(tapped: message.link, on: .iPhone, project: Fixture.project, requested: state.sentSettings)
        let anatomy = try #require(Fixture.anatomy(message.link), sourceLocation: sourceLocation)
        guard case .webWidget(let actionURL) = route.destination else {
            throw WebWidgetExpected(destination: route.destination)
        }
        let page = WebWidgetPage(actionURL: actionURL, operation: operation, oobCode: code, continueURL: anatomy.continueUrl, step: .loading)
        send(.linkTapped(messageID: message.id), effects: [.call(call, by: .webWidget)], sourceLocation: sourceLocation) {
            $0.busy = [busy]
            $0.location = .webWidget(page)
            $0.lastLink = LinkVisit(link: message.link, outcome: "web widget", anatomy: anatomy, route: route)
            $0.flow?.step = .handledInWebWidget
            $0.narration += Fixture.narration(of: route)
            $0.narration.append(SecretMasking.maskLinks(in: "web widget opens \(actionURL): \(action)"))
        }
        return (page, anatomy)
    }
}

struct WebWidgetExpected: Error, CustomStringConvertible {
    var destination: TapDestination
    var description: String { "expected the web widget, got \(destination)" }
}
