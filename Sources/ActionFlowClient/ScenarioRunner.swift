import ActionFlowBackend
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
    /// The session when the run stopped, with the events that led there.
    public var recording: SessionRecording?
    /// For each step that sent an event, by the step's index in the scenario, the event's index in
    /// the recording: where the scenario's own words for a step (its caption) apply.
    public var sentEvents: [Int: Int] = [:]

    public var passed: Bool { failure == nil }

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

/// One presented step: the event to send (none for expectations) and its result.
public struct PresentedStep: Sendable, Equatable {
    public var event: AppEvent?
    public var passed: Bool
    public var summary: String
    /// The step checked expectations: `narrates` looks after this point next time.
    public var checked: Bool = false

    /// The event recording the step's result in the session.
    public var played: AppEvent { .presenterStepPlayed(passed: passed, summary: summary, checked: checked) }
}

/// Plays scenarios headless, on the embedded world or a remote one.
public enum ScenarioRunner {
    /// Plays the scenario on `start` (see `Scenario.embeddedSession`), whose runner runs the effects.
    public static func run(_ scenario: Scenario, on start: SessionDriver) async -> ScenarioTranscript {
        var transcript = ScenarioTranscript(scenario: scenario.name, description: scenario.description, lines: [], failure: nil, recording: nil)
        var driver = start
        var journalMark = driver.session.journal.count
        var recentMark = journalMark
        // Narration lines are numbered through the transcript.
        var narrated = 0
        for (index, step) in scenario.steps.enumerated() {
            transcript.lines.append(.step(number: step.number, summary: step.action.summary))
            switch resolve(step.action, in: driver.session) {
            case .failure(let problem):
                transcript.failure = ScenarioFailure(source: scenario.source, step: step.number, line: step.line, message: problem.message)
                transcript.recording = SessionRecording(driver)
                return transcript
            case .success(.expectations(let expectations, let device)):
                let recent = driver.session.journal[recentMark...].flatMap(\.lines)
                let checked = device.map(driver.session.focused(on:)) ?? driver.session
                for expectation in expectations {
                    let (met, detail) = check(expectation, in: checked, recent: recent)
                    transcript.lines.append(.expectation(expectation, met: met, detail: detail))
                    if !met, transcript.failure == nil {
                        transcript.failure = ScenarioFailure(source: scenario.source, step: step.number, line: step.line, message: "expected \(UntrustedText.sanitize(expectation.description)), but \(detail)")
                    }
                }
                recentMark = driver.session.journal.count
                if transcript.failure != nil {
                    transcript.recording = SessionRecording(driver)
                    return transcript
                }
            case .success(.event(let event)):
                transcript.sentEvents[index] = driver.events.count
                await driver.send(event)
                for line in driver.session.journal[journalMark...].flatMap(\.lines) {
                    narrated += 1
                    transcript.lines.append(.narration(number: narrated, text: line))
                }
                journalMark = driver.session.journal.count
            }
        }
        transcript.recording = SessionRecording(driver)
        return transcript
    }

    /// Plays step `index` of a scenario being presented: sends its event through `send`, or
    /// checks its expectations against the journal since the previous expectation. Returns
    /// whether it held and a one-line result; the presenter's progress moves on.
    public static func present(_ scenario: Scenario, stepAt index: Int, in session: Session) -> PresentedStep {
        guard scenario.steps.indices.contains(index) else { return PresentedStep(event: nil, passed: false, summary: "no step \(index + 1)") }
        let step = scenario.steps[index]
        // The step happens on the scenario's device, even when the presenter looks at the other.
        let device = focus(of: scenario, before: index, in: session)
        let onDevice = session.focused(on: device)
        switch resolve(step.action, in: onDevice) {
        case .failure(let problem):
            return PresentedStep(event: nil, passed: false, summary: "✗ step \(step.number): \(problem.message)")
        case .success(.expectations(let expectations, let named)):
            let mark = min(session.presenter?.journalMark ?? 0, session.journal.count)
            let recent = session.journal[mark...].flatMap(\.lines)
            let checked = named.map(session.focused(on:)) ?? onDevice
            for expectation in expectations {
                let (met, detail) = check(expectation, in: checked, recent: recent)
                if !met {
                    return PresentedStep(event: nil, passed: false, summary: "✗ expected \(expectation.spoken), but \(detail)", checked: true)
                }
            }
            return PresentedStep(event: nil, passed: true, summary: Expectation.marks(expectations), checked: true)
        case .success(.event(let event)):
            let sent: AppEvent = if case .deviceFocused = event { event } else if device != session.focus { .onDevice(device, event) } else { event }
            return PresentedStep(event: sent, passed: true, summary: "step \(step.number): \(UntrustedText.sanitize(step.action.summary))")
        }
    }

    /// The device a scenario is on before step `index`: the one its last `focus` step named,
    /// else the first.
    static func focus(of scenario: Scenario, before index: Int, in session: Session) -> Int {
        for step in scenario.steps[..<index].reversed() {
            if case .focus(let name) = step.action, let found = session.deviceIndex(name) { return found }
        }
        return 0
    }

    enum Resolved {
        case event(AppEvent)
        /// Expectations about the device at this index, or the one in focus (nil).
        case expectations([Expectation], device: Int?)
    }

    static func resolve(_ action: ScenarioAction, in session: Session) -> Result<Resolved, ResolveError> {
        let state = session.app
        let inbox = session.inbox
        func message(_ reference: MessageReference) -> Result<MailMessage, ResolveError> {
            switch reference {
            case .latest:
                guard let last = inbox.last else { return .failure(ResolveError("the inbox is empty: there is no latest message")) }
                return .success(last)
            case .position(let position):
                guard position <= inbox.count else {
                    return .failure(ResolveError("there is no message \(position): the inbox holds \(inbox.count)"))
                }
                return .success(inbox[position - 1])
            }
        }
        func device(_ name: DeviceName) -> Result<Int, ResolveError> {
            guard let index = session.deviceIndex(name) else {
                return .failure(ResolveError("the session has no \(name.rawValue): its devices are \(session.devices.map(\.name.rawValue).joined(separator: ", "))"))
            }
            return .success(index)
        }
        switch action {
        case .event(let event):
            return Result { () throws(ResolveError) in .event(try event.fillingUserPlaceholders(from: session.project)) }
        case .openMessage(let reference): return message(reference).map { .event(.messageOpened(id: $0.id)) }
        case .tapLink(let reference): return message(reference).map { .event(.linkTapped(messageID: $0.id)) }
        case .pasteMessageLink(let reference): return message(reference).map { .event(.linkPasted($0.link)) }
        case .changeDevice(let patch): return .success(.event(.deviceEdited(patch.applied(to: state.device))))
        case .changeSettings(let patch): return .success(.event(.settingsEdited(patch.applied(to: state.settings))))
        case .changeProject(let patch):
            let project = patch.applied(to: session.project)
            if let problem = project.validate().first {
                return .failure(ResolveError("the project change breaks a project rule: \(ProjectPatch.scenarioKeys[problem.path] ?? problem.path): \(problem.message)"))
            }
            return .success(.event(.projectEdited(project.normalized())))
        case .expect(let expectations): return .success(.expectations(expectations, device: nil))
        case .focus(let name): return device(name).map { .event(.deviceFocused($0)) }
        case .expectOn(let name, let expectations): return device(name).map { .expectations(expectations, device: $0) }
        }
    }

    struct ResolveError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Whether the expectation holds, and what the state shows instead when it does not.
    static func check(_ expectation: Expectation, in session: Session, recent: [String]) -> (Bool, String) {
        let state = session.app
        let showing = state.location == .app ? "the app shows \(state.screen.spoken)" : "the device shows \(Vocabulary.place(state.location.name))"
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
            return (session.inbox.count == count, "the inbox holds \(session.inbox.count)")
        case .signedIn(let email):
            let actual = state.session?.email
            let met = actual?.lowercased() == email?.lowercased() && (state.session == nil) == (email == nil)
            return (met, actual.map { "signed in as \(Narration.safe($0))" } ?? "signed out")
        case .subscribed(let subscribed):
            return (state.subscribed == subscribed, "subscribed is \(state.subscribed)")
        case .flowStep(let step):
            return (state.flow?.step == step, state.flow.map { "the flow is at “\($0.step.spoken)”" } ?? "no email action is under way")
        case .narrates(let text):
            return (recent.contains { $0.contains(text) }, "no narration line since the previous expectation contains it")
        case .linkOpensIn(let place):
            return (state.lastLink?.outcome == place, "the last link went to \(state.lastLink?.outcome ?? "nowhere (no link opened)")")
        case .finding(let code):
            let found = findings(in: session)
            return (found.contains { $0.code == code }, found.isEmpty ? "there are no findings" : "the findings are \(found.map(\.code).joined(separator: ", "))")
        case .store(let purpose):
            guard case .store(let page) = state.location else { return (false, showing) }
            return (page.purpose == purpose, "the store page asks to \(page.purpose.rawValue)")
        }
    }

    /// What the Settings and Link panes report: findings on the settings last sent and on the
    /// last link opened.
    static func findings(in session: Session) -> [Finding] {
        var found = session.app.lastLink?.anatomy?.findings ?? []
        if let sent = session.app.sentSettings {
            found += SettingsFindings.findings(for: sent, requestType: (session.app.flow?.kind ?? .passwordReset).requestType, project: session.project)
        }
        return found
    }

    static func shownError(_ state: AppState) -> AuthErrorCode? {
        state.banner?.code ?? webWidgetFailure(state)?.code
    }

    static func webWidgetFailure(_ state: AppState) -> (code: AuthErrorCode?, message: String)? {
        guard case .webWidget(let page) = state.location, case .failed(let failure) = page.step else { return nil }
        return (failure.code, failure.explanation)
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
        case .changeDevice(let patch): patch == .appKilled ? "killApp" : "device change"
        case .changeSettings: "settings change"
        case .changeProject: "project change"
        case .expect(let expectations): "expect " + expectations.map(\.description).joined(separator: ", ")
        case .focus(let name): "focus \(name.rawValue)"
        case .expectOn(let name, let expectations): "expect on \(name.rawValue): " + expectations.map(\.description).joined(separator: ", ")
        }
    }
}

extension ScenarioAction {
    /// A plain-language sentence for the audience while the step plays (`caption:` in a
    /// scenario replaces it).
    public var caption: String {
        switch self {
        case .event(let event): event.caption
        case .openMessage(let reference): reference == .latest ? "Opens the latest email" : "Opens email \(reference)"
        case .tapLink(let reference): reference == .latest ? "Taps the link in the latest email" : "Taps the link in email \(reference)"
        case .pasteMessageLink: "Copies the email's link and pastes it into the app"
        case .changeDevice(let patch): patch == .appKilled ? "The system kills the app in the background" : "The device changes"
        case .changeSettings: "The app changes the settings it sends with the email"
        case .changeProject: "The project changes, and its world restarts with it"
        case .expect(let expectations), .expectOn(_, let expectations): "Checks: " + expectations.map(\.spoken).joined(separator: ", ")
        case .focus(let name): "Picks up the \(name.title)"
        }
    }
}

extension AppEvent {
    /// Whether the event is something the user did (a tap, a key, a change of the world asked
    /// for), not a reply, a draft or the presenter's own bookkeeping.
    public var isUserStep: Bool {
        switch self {
        case .onDevice(_, let event): event.isUserStep
        case .callSucceeded, .callFailed, .mailboxRefreshed, .textMessagesRead, .clockAdvanced, .worldReset, .projectApplied, .serviceFailed,
             .exchangeRecorded, .mailSent, .presenterStarted, .presenterStepPlayed, .draftEdited:
            false
        default: true
        }
    }

    /// A plain-language sentence for what the user (or the world) does.
    public var caption: String {
        switch self {
        case .openRoute(let path): "Opens \(UntrustedText.sanitize(path)) in the app"
        case .signInSubmitted(let email, _): "Signs in as \(UntrustedText.sanitize(email))"
        case .forgotPasswordTapped: "Taps “Forgot password?”"
        case .passwordResetRequested(let email): "Asks for a password reset email for \(UntrustedText.sanitize(email))"
        case .verificationRequested: "Asks for a verification email"
        case .signInLinkRequested(let email): "Asks for a sign-in link for \(UntrustedText.sanitize(email))"
        case .signInEmailConfirmed(let email): "Confirms the sign-in as \(UntrustedText.sanitize(email))"
        case .mailboxOpened: "Opens the mailbox"
        case .newPasswordSubmitted: "Chooses a new password"
        case .continueTapped: "Taps Continue"
        case .storeActionTapped: "Installs or updates the app from the store"
        case .appOpened: "Goes back to the app"
        case .reloadUserTapped: "Reloads the user"
        case .secondFactorRequested(let phoneNumber): "Adds \(UntrustedText.sanitize(phoneNumber)) as a second sign-in step"
        case .subscribeTapped: "Subscribes"
        case .signOutTapped: "Signs out"
        case .clockAdvanceRequested(let seconds): "Time passes: \(SimulatedDuration.describe(seconds))"
        case .worldResetRequested: "Starts the world again"
        case .retryTapped: "Tries again"
        case .errorDismissed: "Dismisses the error"
        case .draftEdited(let field, _): "Types into \(Self.fieldName(field))"
        case .onDevice(_, let event): event.caption
        case .messageOpened: "Opens the email"
        case .linkTapped: "Taps the link in the email"
        case .linkPasted: "Pastes a link into the app"
        case .linkOpened: "Taps a link on the phone"
        case .settingsEdited: "Changes the settings the app sends with the email"
        case .deviceEdited: "Changes the device"
        case .projectEdited: "Changes the project, and its world restarts with it"
        case .continueURLBaseEdited: "Changes the app's web address"
        case .localeEdited: "Changes the app's language"
        case .deviceFocused(let index): "Picks up device \(index + 1)"
        case .callSucceeded(let call, _, _): "The server answers \(call.operation.rawValue)"
        case .callFailed(let call, _, _): "The server refuses \(call.operation.rawValue)"
        case .mailboxRefreshed: "The mailbox refreshes"
        case .textMessagesRead: "The phone receives a text message"
        case .clockAdvanced: "The clock moves on"
        case .worldReset: "The world starts again"
        case .projectApplied: "The new project is in place"
        case .serviceFailed: "The server cannot be reached"
        case .exchangeRecorded: "A call is recorded"
        case .mailSent(let messages): messages.count == 1 ? "An email is sent" : "\(messages.count) emails are sent"
        case .presenterStarted(let title, _): "Presents \(UntrustedText.sanitize(title))"
        case .presenterStepPlayed(let passed, _, _): passed ? "The step is checked" : "The step's check fails"
        case .captured: summary
        }
    }

    /// The event with each user placeholder in its text (`$verified.email`) replaced by that
    /// user's value in `project`.
    func fillingUserPlaceholders(from project: ProjectConfiguration) throws(ScenarioRunner.ResolveError) -> AppEvent {
        func fill(_ text: String) throws(ScenarioRunner.ResolveError) -> String {
            guard let placeholder = UserPlaceholder(text) else { return text }
            guard let value = placeholder.value(in: project) else {
                throw ScenarioRunner.ResolveError("\(text): the project has no \(placeholder.kind.rawValue) user who is not disabled")
            }
            return value
        }
        return switch self {
        case .signInSubmitted(let email, let password): .signInSubmitted(email: try fill(email), password: try fill(password))
        case .passwordResetRequested(let email): .passwordResetRequested(email: try fill(email))
        case .signInLinkRequested(let email): .signInLinkRequested(email: try fill(email))
        case .signInEmailConfirmed(let email): .signInEmailConfirmed(try fill(email))
        case .draftEdited(let field, let text): .draftEdited(field: field, text: try fill(text))
        default: self
        }
    }

    /// A field as the user knows it: its label ("Email"), not its identifier (`signIn.email`).
    static func fieldName(_ field: String) -> String {
        DraftField(rawValue: field)?.label ?? "a field"
    }

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
        case .linkOpened(let link): "openLink \(link)"
        case .newPasswordSubmitted: "newPassword"
        case .continueTapped: "continue"
        case .storeActionTapped: "install/update"
        case .appOpened: "backToApp"
        case .reloadUserTapped: "reloadUser"
        case .secondFactorRequested(let phoneNumber): "addSecondFactor \(phoneNumber)"
        case .subscribeTapped: "subscribe"
        case .signOutTapped: "signOut"
        case .settingsEdited: "settings change"
        case .deviceEdited: "device change"
        case .projectEdited: "project change"
        case .continueURLBaseEdited(let base): "continueURLBase \(base)"
        case .localeEdited(let locale): "locale \(locale ?? "none")"
        case .clockAdvanceRequested(let seconds): "advance \(SimulatedDuration.describe(seconds))"
        case .worldResetRequested: "resetWorld"
        case .retryTapped: "retry"
        case .errorDismissed: "dismissError"
        case .callSucceeded(let call, let caller, _): "\(caller.rawValue): \(call.operation.rawValue) succeeded"
        case .callFailed(let call, let caller, _): "\(caller.rawValue): \(call.operation.rawValue) failed"
        case .mailboxRefreshed(let messages): "mailbox refreshed (\(messages.count))"
        case .textMessagesRead(let messages): "text messages read (\(messages.count))"
        case .clockAdvanced: "clock advanced"
        case .worldReset: "world reset"
        case .serviceFailed(let effect, _): "\(effect.summary) failed"
        case .draftEdited(let field, _): "type into \(Self.fieldName(field))"
        case .presenterStarted(let title, _): "present \(title)"
        case .presenterStepPlayed(let passed, _, _): "presenter step \(passed ? "passed" : "failed")"
        case .deviceFocused(let index): "focus device \(index + 1)"
        case .onDevice(let index, let event): "device \(index + 1): \(event.summary)"
        case .projectApplied(let project, _): "project \(project.projectId) applied"
        case .exchangeRecorded(_, let operation, let caller): "\(caller.rawValue): \(operation.rawValue) recorded"
        case .mailSent(let messages): "mail sent (\(messages.count))"
        case .captured(let step):
            switch step.fact {
            case .call(let call): "captured \(call.operation)"
            case .actionLink(let link): "captured \(Vocabulary.linkKind(mode: link.mode)), \(link.source.narration)"
            case .finding(let finding, _): "finding \(finding.code)"
            case .emulatorRequest(let request): "captured \(request.method) to the emulator's API"
            }
        }
    }
}
