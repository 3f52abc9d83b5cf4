import ActionFlowModel
import ActionFlowTransport
import Foundation

/// The record of one scenario run: numbered narration, each step and each expectation's result.
public struct ScenarioTranscript: Sendable, Equatable {
    public enum Line: Sendable, Equatable {
        case step(number: Int, summary: String)
        case narration(number: Int, text: String)
        case expectation(Expectation, met: Bool, detail: String)
    }

    public var scenario: String
    public var description: String
    public var lines: [Line]
    /// The first unmet expectation or step that could not run; nil when the scenario passed.
    public var failure: ScenarioFailure?
    /// The app state when the run stopped.
    public var finalState: AppState?

    public var passed: Bool { failure == nil }

    public var narration: [String] {
        lines.compactMap { if case .narration(_, let text) = $0 { text } else { nil } }
    }

    /// The transcript as printed by `actionflow run`; `quiet` keeps only steps' results.
    public func text(quiet: Bool = false) -> String {
        var out: [String] = ["scenario \(UntrustedText.sanitize(scenario))"]
        if !quiet, !description.isEmpty {
            out += UntrustedText.sanitizeLines(description.trimmingCharacters(in: .whitespacesAndNewlines)).map { "  \($0)" }
        }
        for line in lines {
            switch line {
            case .step(let number, let summary):
                if !quiet { out.append("step \(number): \(UntrustedText.sanitize(summary))") }
            case .narration(let number, let text):
                if !quiet { out.append(String(format: "%4d  ", number) + text) }
            case .expectation(let expectation, let met, let detail):
                out.append("      \(met ? "✓" : "✗") expect \(UntrustedText.sanitize(expectation.description))\(met ? "" : ": \(detail)")")
            }
        }
        out.append(failure.map { "FAILED: \($0)" } ?? "PASSED")
        return out.joined(separator: "\n")
    }
}

public struct ScenarioFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var step: Int
    public var line: Int?
    public var message: String

    public init(source: String, step: Int, line: Int?, message: String) {
        self.source = source
        self.step = step
        self.line = line
        self.message = message
    }

    /// The run could not start (no transport, or one that cannot play scenarios).
    public var isSetup: Bool { step == 0 }

    public var description: String {
        let place = "\(UntrustedText.sanitize(source))\(line.map { ":\($0)" } ?? "")"
        return isSetup ? "\(place): \(message)" : "\(place): step \(step): \(message)"
    }
}

/// Plays scenarios headless against any transport.
public enum ScenarioRunner {
    /// Builds a transport whose world is fresh for this project.
    public typealias TransportFactory = (ProjectConfiguration) async throws(AuthFailure) -> any AuthTransport

    public static func run(_ scenario: Scenario, baseProject: ProjectConfiguration, transport makeTransport: TransportFactory) async -> ScenarioTranscript {
        var transcript = ScenarioTranscript(scenario: scenario.name, description: scenario.description, lines: [], failure: nil, finalState: nil)
        let project = scenario.project.applied(to: baseProject)
        let transport: any AuthTransport
        do throws(AuthFailure) {
            transport = try await makeTransport(project)
        } catch {
            transcript.failure = ScenarioFailure(source: scenario.source, step: 0, line: nil, message: "cannot start the transport: \(Narration.describe(error))")
            return transcript
        }
        let runtime = AppRuntime(state: scenario.initialState(project: project, now: try? await transport.now()), transport: transport)
        var narrated = 0
        var sinceExpectation: [String] = []
        for step in scenario.steps {
            transcript.lines.append(.step(number: step.number, summary: step.action.summary))
            let current = await runtime.state
            let event: AppEvent
            switch resolve(step.action, in: current) {
            case .failure(let problem):
                transcript.failure = ScenarioFailure(source: scenario.source, step: step.number, line: step.line, message: problem.message)
                transcript.finalState = current
                return transcript
            case .success(.expectations(let expectations)):
                for expectation in expectations {
                    let (met, detail) = check(expectation, in: current, recent: sinceExpectation)
                    transcript.lines.append(.expectation(expectation, met: met, detail: detail))
                    if !met, transcript.failure == nil {
                        transcript.failure = ScenarioFailure(source: scenario.source, step: step.number, line: step.line, message: "expected \(UntrustedText.sanitize(expectation.description)), but \(detail)")
                    }
                }
                sinceExpectation = []
                if transcript.failure != nil {
                    transcript.finalState = current
                    return transcript
                }
                continue
            case .success(.event(let resolved)):
                event = resolved
            }
            await runtime.process(event)
            let lines = await runtime.state.narration
            for line in lines[min(narrated, lines.count)...] {
                transcript.lines.append(.narration(number: transcript.narration.count + 1, text: line))
                sinceExpectation.append(line)
            }
            narrated = lines.count
        }
        transcript.finalState = await runtime.state
        return transcript
    }

    enum Resolved {
        case event(AppEvent)
        case expectations([Expectation])
    }

    static func resolve(_ action: ScenarioAction, in state: AppState) -> Result<Resolved, ResolveError> {
        func message(_ reference: MessageReference) -> Result<MailMessage, ResolveError> {
            switch reference {
            case .latest:
                guard let last = state.inbox.last else { return .failure(ResolveError("the inbox is empty: there is no latest message")) }
                return .success(last)
            case .position(let position):
                guard position <= state.inbox.count else {
                    return .failure(ResolveError("there is no message \(position): the inbox holds \(state.inbox.count)"))
                }
                return .success(state.inbox[position - 1])
            }
        }
        switch action {
        case .event(let event): return .success(.event(event))
        case .openMessage(let reference): return message(reference).map { .event(.messageOpened(id: $0.id)) }
        case .tapLink(let reference): return message(reference).map { .event(.linkTapped(messageID: $0.id)) }
        case .pasteMessageLink(let reference): return message(reference).map { .event(.linkPasted($0.link)) }
        case .changeDevice(let patch): return .success(.event(.deviceEdited(patch.applied(to: state.device))))
        case .changeSettings(let patch): return .success(.event(.settingsEdited(patch.applied(to: state.settings))))
        case .expect(let expectations): return .success(.expectations(expectations))
        }
    }

    struct ResolveError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Whether the expectation holds, and what the state shows instead when it does not.
    static func check(_ expectation: Expectation, in state: AppState, recent: [String]) -> (Bool, String) {
        let showing = state.location == .app ? "the app shows \(state.screen.name)" : "the device shows \(state.location.name)"
        switch expectation {
        case .landsAt(let path):
            let target = AppScreen(path: path)
            return (state.location == .app && state.screen == target, showing)
        case .screen(let name):
            let met = state.location.name == name || (state.location == .app && state.screen.name == name)
            return (met, showing)
        case .fails(let code):
            let shown = shownError(state)
            return (shown == code, shown.map { "the error showing is \($0.rawValue)" } ?? "no error with a server code is showing")
        case .noError:
            let shown = state.banner?.message ?? webWidgetFailure(state)?.message
            return (shown == nil, "an error is showing: \(Narration.safe(shown))")
        case .emailVerified(let verified):
            guard let session = state.session else { return (false, "no user is signed in") }
            return (session.emailVerified == verified, "the cached user says emailVerified \(session.emailVerified)")
        case .mailbox(let count):
            return (state.inbox.count == count, "the inbox holds \(state.inbox.count)")
        case .signedIn(let email):
            let actual = state.session?.email
            let met = actual?.lowercased() == email?.lowercased() && (state.session == nil) == (email == nil)
            return (met, actual.map { "signed in as \(Narration.safe($0))" } ?? "signed out")
        case .subscribed(let subscribed):
            return (state.subscribed == subscribed, "subscribed is \(state.subscribed)")
        case .flowStep(let step):
            return (state.flow?.step == step, "the flow step is \(state.flow?.step.rawValue ?? "none")")
        case .narrates(let text):
            return (recent.contains { $0.contains(text) }, "no narration line since the previous expectation contains it")
        case .linkOpensIn(let place):
            return (state.lastLink?.outcome == place, "the last link went to \(state.lastLink?.outcome ?? "nowhere (no link opened)")")
        case .store(let purpose):
            guard case .store(let page) = state.location else { return (false, showing) }
            return (page.purpose == purpose, "the store page asks to \(page.purpose.rawValue)")
        }
    }

    static func shownError(_ state: AppState) -> AuthErrorCode? {
        state.banner?.code ?? webWidgetFailure(state)?.code
    }

    static func webWidgetFailure(_ state: AppState) -> (code: AuthErrorCode?, message: String)? {
        guard case .webWidget(let page) = state.location, case .failed(let code, let message) = page.step else { return nil }
        return (code, message)
    }
}

extension ScenarioRunner.ResolveError: CustomStringConvertible {
    var description: String { message }
}

extension ScenarioAction {
    /// One line naming the step for the transcript.
    public var summary: String {
        switch self {
        case .event(let event): event.summary
        case .openMessage(let reference): "openMessage \(reference)"
        case .tapLink(let reference): "tapLink \(reference)"
        case .pasteMessageLink(let reference): "pasteLink \(reference)"
        case .changeDevice: "device change"
        case .changeSettings: "settings change"
        case .expect(let expectations): "expect " + expectations.map(\.description).joined(separator: ", ")
        }
    }
}

extension AppEvent {
    /// A short name for transcripts and logs (passwords never shown).
    public var summary: String {
        switch self {
        case .openRoute(let path): "open \(path)"
        case .signInSubmitted(let email, _): "signIn \(email)"
        case .forgotPasswordTapped: "forgotPassword"
        case .passwordResetRequested(let email): "requestPasswordReset \(email)"
        case .verificationRequested: "requestVerification"
        case .signInLinkRequested(let email): "requestSignInLink \(email)"
        case .signInEmailConfirmed(let email): "confirmSignInEmail \(email)"
        case .mailboxOpened: "openMailbox"
        case .messageOpened(let id): "openMessage \(id)"
        case .linkTapped(let id): "tapLink \(id)"
        case .linkPasted(let link): "pasteLink \(link)"
        case .newPasswordSubmitted: "newPassword"
        case .continueTapped: "continue"
        case .storeActionTapped: "install/update"
        case .appOpened: "backToApp"
        case .reloadUserTapped: "reloadUser"
        case .subscribeTapped: "subscribe"
        case .signOutTapped: "signOut"
        case .settingsEdited: "settings change"
        case .deviceEdited: "device change"
        case .projectEdited: "project change"
        case .continueURLBaseEdited(let base): "continueURLBase \(base)"
        case .localeEdited(let locale): "locale \(locale ?? "none")"
        case .clockAdvanceRequested(let seconds): "advance \(Narration.duration(seconds))"
        case .worldResetRequested: "resetWorld"
        case .retryTapped: "retry"
        case .errorDismissed: "dismissError"
        case .callSucceeded(let call, let caller, _): "\(caller.rawValue): \(call.operation.rawValue) succeeded"
        case .callFailed(let call, let caller, _): "\(caller.rawValue): \(call.operation.rawValue) failed"
        case .mailboxRefreshed(let messages): "mailbox refreshed (\(messages.count))"
        case .clockAdvanced: "clock advanced"
        case .worldReset: "world reset"
        case .serviceFailed(let effect, _): "\(effect.summary) failed"
        case .exchangesUpdated(_, let total): "exchanges updated (\(total))"
        }
    }
}
