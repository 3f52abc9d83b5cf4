import ActionFlowClient
import ActionFlowModel
import Foundation

/// Everything that changes the interface, from outside (keys, resizes, signals, a remote
/// world's replies, traffic watched, time passing, a note from the runtime) and from within: a
/// key or a control asks for what it does with messages of its own (`Controller`, `Control`),
/// which `update` then applies like any other.
public enum InterfaceMessage: Sendable, Equatable {
    case key(Key)
    /// The terminal's new size (the runtime reads it when the terminal reports a resize).
    case resized(width: Int, height: Int)
    case replies([AppEvent])
    /// Traffic the server answered (`serve --inspect`), as capture steps.
    case observed([AppEvent])
    case noted(String)
    /// The session file could not be written: says why, and asks for the save again later.
    case notSaved(String)
    case tick(Date)
    /// A signal that ends the program (SIGTERM, SIGHUP, SIGINT from outside).
    case terminated(signal: Int32)
    /// An event for the session (its effects go to the world).
    case send(AppEvent)
    /// Shows or hides one exchange in full in the Network pane.
    case toggleExchange(Int)
    /// Plays the presented scenario's (or the replay's) next step.
    case nextScenarioStep
    /// Back one step: the session as it was before the step on screen.
    case stepBack
    /// Plays every remaining step, paced.
    case playToEnd
    /// Plays every step of a story picked on the welcome screen, then leaves the user to it.
    case playStory(Scenario)
    /// Writes the session as a diagram, a report, a cast and a deck into the export folder.
    case exportSession
    /// Copies one exchange of the Network pane as a curl command, secrets masked.
    case copyExchange(Int)
    /// Checks the project's link domains as `actionflow doctor` does (the Project pane's button).
    case checkLinkDomains
    /// The checks of `project`, done (from the runtime).
    case doctorFinished(ProjectConfiguration, [DoctorCheck])
    case quit
    /// Ctrl-Z or SIGTSTP: the terminal is handed back to the shell until `fg`.
    case suspend
    case redraw
}

/// What the interface asks its runtime to do: everything `update` cannot do by itself.
public enum InterfaceCommand: Sendable, Equatable {
    /// A remote world's effect; its replies come back as `.replies`.
    case run(Effect)
    /// Write the session file (`--session`); a failure comes back as `.notSaved`.
    case save(SessionRecording)
    /// Write the session as it is on screen in every export format; the runtime says where
    /// with `.noted`.
    case export(SessionRecording, title: String?)
    /// Put this text on the terminal's clipboard (OSC 52, `ClipboardSequence`).
    case copyToClipboard(String)
    /// Check this project's link domains and the app's continue URLs; the checks come back as
    /// `.doctorFinished`.
    case runDoctor(ProjectConfiguration, continueURLs: [String])
    case quit
    case suspend
    case redraw
}

/// The whole interface as one value: the session (live or replayed), what only the interface
/// knows (`UIState`), and the progress of a presented scenario, a story or a replay.
/// `update` is the only thing that changes it; `MainView.render(self)` is the screen.
public struct Interface: Sendable {
    /// A story picked on the welcome screen, and the index of its next step.
    struct StoryProgress: Sendable {
        var scenario: Scenario
        var next: Int
    }

    /// A presented step typing into the phone's fields, a character at a time, before its event.
    struct Typing: Sendable {
        var fields: [(field: DraftField, text: String)]
        var typed = 0
        var then: PresentedStep
        var due: Date
        var total: Int { fields.reduce(0) { $0 + $1.text.count } }

        /// Each field's text as typed so far.
        var shown: [(field: DraftField, text: String)] {
            var left = typed
            return fields.map { entry in
                let count = min(left, entry.text.count)
                left -= count
                return (entry.field, String(entry.text.prefix(count)))
            }
        }
    }

    public private(set) var driver: SessionDriver {
        didSet { revision += 1 }
    }
    public var ui: UIState
    public private(set) var replay: Replay? {
        didSet { revision += 1 }
    }
    public let replayTitle: String
    /// The scenario presented step by step (`--scenario`), if any.
    public let scenario: Scenario?
    /// Its steps as the presenter plays them (`stepGroups(_:)`), worked out once.
    let presentedSteps: [[Int]]
    /// Each presented step's caption (`captions(_:groups:)`), worked out once.
    let stepCaptions: [String]
    /// Changes whenever the session on screen may have changed (the panes' cache key).
    public private(set) var revision = 0
    public var width: Int
    public var height: Int
    /// `g` plays this many times faster than recorded (or than one step a second).
    let speed: Double
    var story: StoryProgress?
    /// The session, its events and its simulated project before each presented step, to step back to.
    var presenterMarks: [SessionDriver] = []
    /// The presented step's `expect` steps still to check, once its replies are in.
    var pendingChecks = 0
    /// What the checks of the presented step found, for its caption.
    var checkResults: [String] = []
    var typing: Typing? {
        didSet { revision += 1 }
    }
    /// When `g` is playing: the time of the next step.
    var nextPlayedStep: Date?
    /// Effects handed to the runtime and not answered yet.
    var awaiting = 0
    /// Whether the runtime can check link domains (`.runDoctor`): it fetches over the network.
    public var checksLinkDomains = false
    /// Whether every change to the session is to be saved (`--session`): `update` asks for it
    /// with `.save`.
    public var savesSession = false
    /// The events in the session file as last asked for; -1 when it is to be written again.
    private var savedEvents = -1

    /// A live session; `scenario` is presented step by step.
    public init(driver: SessionDriver, scenario: Scenario? = nil, colorMode: ColorMode, theme: Theme = .dark, width: Int, height: Int, speed: Double = 1, notice: String? = nil) {
        self.driver = driver
        self.scenario = scenario
        presentedSteps = scenario.map(Self.stepGroups) ?? []
        stepCaptions = scenario.map { Self.captions($0, groups: Self.stepGroups($0)) } ?? []
        self.width = width
        self.height = height
        self.speed = speed
        replayTitle = ""
        ui = UIState(colorMode: colorMode, theme: theme)
        // A session that has begun opens where it was, its fields waiting to be chosen; a new
        // one on the welcome screen.
        if !driver.events.isEmpty || driver.session.presenter != nil {
            ui.mode = .main
            ui.fieldsWaitForChoice = true
        }
        if let scenario {
            ui.mode = .main
            if driver.session.presenter == nil {
                _ = send(.presenterStarted(title: scenario.name, steps: scenario.steps.map(Self.caption)))
            }
            ui.openingCard = self.driver.session.presenter?.played == 0
        }
        ui.message = notice
    }

    /// A recording played back: read-only, stepped with n, b and g.
    public init(replaying recording: SessionRecording, title: String, colorMode: ColorMode, theme: Theme = .dark, width: Int, height: Int, speed: Double = 1) {
        self.init(readOnly: recording.start, replay: Replay(recording), title: title, colorMode: colorMode, theme: theme, width: width, height: height, speed: speed)
    }

    /// Traffic watched as it happens (`serve --inspect`): read-only, fed by `.observed`.
    public init(watching start: Session, colorMode: ColorMode, theme: Theme = .dark, width: Int, height: Int, notice: String? = nil) {
        self.init(readOnly: start, replay: nil, title: "", colorMode: colorMode, theme: theme, width: width, height: height, speed: 1)
        ui.watching = true
        ui.message = notice
    }

    /// A session shown, not played: no runner and no scenario.
    private init(readOnly session: Session, replay: Replay?, title: String, colorMode: ColorMode, theme: Theme, width: Int, height: Int, speed: Double) {
        driver = SessionDriver(session: session, runner: nil)
        self.replay = replay
        replayTitle = title
        scenario = nil
        presentedSteps = []
        stepCaptions = []
        self.width = width
        self.height = height
        self.speed = speed
        ui = UIState(colorMode: colorMode, theme: theme)
        ui.mode = .main
        ui.readOnly = true
    }

    /// Events a watched session keeps; the rest are in its file (`--save`), summarised on screen.
    public static let watchedEvents = 2_000
    /// Forgotten this many at a time: moving the start on past them is a short pause, not a long one.
    static let forgottenAtOnce = 250
    public static let watchedMail = 200

    /// The session on screen: the live one (with what a presented step is typing), or the
    /// replay's with its progress as a presenter's.
    public var session: Session {
        if let replay { return replay.shownSession(title: replayTitle) }
        guard let typing else { return driver.session }
        var shown = driver.session
        for (field, text) in typing.shown { shown.drafts[field.rawValue] = text }
        return shown
    }

    /// When the interface wants a `.tick` without a key: the next typed character, the next
    /// played step, or now while a story or a presented step's checks wait to go on.
    public var nextTick: Date? {
        if let typing { return typing.due }
        if story != nil || pendingChecks > 0 { return awaiting == 0 ? .distantPast : nil }
        return nextPlayedStep
    }

    /// Whether any effect is still to be answered.
    var isIdle: Bool { awaiting == 0 }

    // MARK: Update

    /// Applies one message; returns what the runtime must do. `panes` holds the panes drawn
    /// last (so that a key scrolls what is on screen); it is the view's memo, read here, never
    /// written.
    public mutating func update(_ message: InterfaceMessage, panes: PaneCache = PaneCache()) -> [InterfaceCommand] {
        let commands = apply(message, panes: panes)
        if case .notSaved = message { return commands }
        return commands + (pendingSave().map { [$0] } ?? [])
    }

    /// A session kept in a file is written whenever an event changed it, and once as it opens.
    public mutating func pendingSave() -> InterfaceCommand? {
        guard savesSession, replay == nil, driver.events.count != savedEvents else { return nil }
        savedEvents = driver.events.count
        return .save(SessionRecording(driver))
    }

    private mutating func apply(_ message: InterfaceMessage, panes: PaneCache) -> [InterfaceCommand] {
        switch message {
        case .key(let key):
            // A key stops `g` from playing on; the key itself then acts as usual.
            nextPlayedStep = nil
            if ui.openingCard, let answer = openingCardKey(key) { return answer }
            // The keys' child update: it changes the interface's own state (`ui`) and asks for
            // the rest with messages, which come back here.
            let messages = Controller.handle(key, session: session, ui: &ui, width: width, height: height, panes: panes.at(revision))
            return messages.flatMap { apply($0, panes: panes) }
        case .resized(let columns, let rows):
            width = columns
            height = rows
            return [.redraw]
        case .replies(let replies):
            awaiting = max(0, awaiting - 1)
            return replies.flatMap { send($0) } + goOn(now: nil)
        case .observed(let events):
            for event in events { _ = driver.reduce(event) }
            if driver.events.count >= Self.watchedEvents + Self.forgottenAtOnce {
                driver.forgetEarlierEvents(keepingLast: Self.watchedEvents, facts: Self.watchedEvents, mail: Self.watchedMail)
            }
            return []
        case .noted(let note):
            ui.message = note
            return []
        case .notSaved(let reason):
            ui.message = "not saved: \(reason)"
            savedEvents = -1
            return []
        case .tick(let now):
            return goOn(now: now)
        case .terminated, .quit:
            return [.quit]
        case .suspend: return [.suspend]
        case .redraw: return [.redraw]
        case .send where replay != nil:
            ui.message = ui.readOnlyMessage
            return []
        case .send(let event):
            ui.fieldsWaitForChoice = false
            return send(event)
        case .toggleExchange(let id):
            ui.expandedExchange = ui.expandedExchange == id ? nil : id
            return []
        case .nextScenarioStep:
            if typing != nil { return finishTyping() }
            return playNextStep().commands
        case .stepBack: return stepBack()
        case .playToEnd:
            nextPlayedStep = .distantPast
            return []
        case .playStory(let scenario):
            // A story starts on a fresh world and app: the session as the interface opened it,
            // on the simulated project as it was then (a server's world is reset as `R` resets it).
            driver = driver.restarted
            replay = nil
            typing = nil
            pendingChecks = 0
            checkResults = []
            presenterMarks = []
            nextPlayedStep = nil
            ui.caption = nil
            story = StoryProgress(scenario: scenario, next: 0)
            let reset = driver.runner?.remote == nil ? [] : send(.worldResetRequested)
            return reset + playStory()
        case .exportSession: return [exportCommand()]
        case .copyExchange(let id):
            guard let record = session.exchanges.first(where: { $0.id == id }) else { return [] }
            ui.message = "copied exchange \(id) as curl (secrets masked)"
            return [.copyToClipboard(CurlScript.pasteable(record))]
        case .checkLinkDomains:
            let project = session.project
            if let refusal = Self.doctorRefusal(project, available: checksLinkDomains) {
                ui.message = refusal
                return []
            }
            ui.doctor = DoctorRun(project: project, checks: nil)
            ui.message = "checking \(LinkDomainDoctor.linkDomains(project).count) link domain(s) of \(project.projectId)"
            return [.runDoctor(project, continueURLs: [session.app.settings.url].compactMap { $0 }.filter { !$0.isEmpty })]
        case .doctorFinished(let project, let checks):
            guard ui.doctor?.project == project else { return [] }
            ui.doctor?.checks = checks
            let failed = LinkDomainDoctor.counts(checks).failed
            ui.message = failed == 0 ? "link domains checked: nothing failed" : "link domains checked: \(failed) failed (Project pane)"
            return []
        }
    }

    /// The opening card takes `n` (to begin), Esc or Enter (to close it), `?` and `q`.
    private mutating func openingCardKey(_ key: Key) -> [InterfaceCommand]? {
        switch key {
        case .character("n"), .enter, .escape, .character(" "):
            ui.openingCard = false
            return []
        case .character("q"), .control("c"): return [.quit]
        case .control("l"), .control("z"), .character("?"): return nil
        default: return []
        }
    }

    /// Plays on whatever waits for time or for replies: typing, a story, checks, `g`.
    private mutating func goOn(now: Date?) -> [InterfaceCommand] {
        var commands: [InterfaceCommand] = []
        if let now, var typing, typing.due <= now {
            typing.typed += 1
            typing.due = now.addingTimeInterval(Replay.typingPause / max(0.01, speed))
            self.typing = typing
            if typing.typed >= typing.total { commands += finishTyping() }
        }
        commands += playStory()
        commands += playChecks()
        if let now, let due = nextPlayedStep, due <= now, typing == nil, pendingChecks == 0, isIdle {
            let (played, more) = playNextStep()
            commands += more
            if played {
                // A scenario has no recorded pace: a presenter's.
                let pause = replay?.pauseBeforeNext ?? Replay.readingPause
                nextPlayedStep = now.addingTimeInterval(pause / max(0.01, speed))
            } else {
                nextPlayedStep = nil
            }
        }
        return commands
    }

    /// Why the link domains of `project` are not checked, if they are not: the demo project's
    /// domains are examples, and nothing is fetched from an address the user did not name.
    static func doctorRefusal(_ project: ProjectConfiguration, available: Bool) -> String? {
        if LinkDomainDoctor.hasExampleDomains(project) {
            return "the demo project's domains are examples: open your own project (--project FILE, made by actionflow project init) to check its domains"
        }
        return available ? nil : "checking link domains is not offered here: run actionflow doctor"
    }

    /// Reduces an event now; a remote world's effects go to the runtime.
    private mutating func send(_ event: AppEvent) -> [InterfaceCommand] {
        let effects = driver.sendNow(event)
        awaiting += effects.count
        return effects.map { .run($0) }
    }

    // MARK: Presenter

    /// The scenario's steps as the presenter plays them: each action with the `expect` steps
    /// after it, which check it and change nothing on screen themselves. Leading checks form a
    /// group of their own.
    static func stepGroups(_ scenario: Scenario) -> [[Int]] {
        var groups: [[Int]] = []
        for (index, step) in scenario.steps.enumerated() {
            if step.action.isCheck, !groups.isEmpty {
                groups[groups.count - 1].append(index)
            } else {
                groups.append([index])
            }
        }
        return groups
    }

    /// The plain-language caption of a step: the scenario's own, or its kind's.
    static func caption(_ step: ScenarioStep) -> String {
        step.caption ?? step.action.caption
    }

    /// Each presented step's caption: the scenario's own words, else its action's, said as an
    /// attempt when the step's checks expect a refusal; a caption an earlier step already had
    /// says "again", so that no two steps read the same.
    static func captions(_ scenario: Scenario, groups: [[Int]]) -> [String] {
        var seen: [String: Int] = [:]
        var device = scenario.devices[0].device
        return groups.map { group in
            let step = scenario.steps[group[0]]
            // Steps after `focus` happen on the device it names: "the app" there may be a website.
            if case .focus(let name) = step.action, let named = scenario.devices.first(where: { $0.name == name }) { device = named.device }
            let expectsRefusal = group.dropFirst().contains { index in
                switch scenario.steps[index].action {
                case .expect(let checks), .expectOn(_, let checks): checks.contains { if case .fails = $0 { true } else { false } }
                default: false
                }
            }
            let base = step.caption ?? Vocabulary.said(expectsRefusal ? step.action.attemptCaption : step.action.caption, on: device)
            seen[base, default: 0] += 1
            switch seen[base] ?? 1 {
            case 1: return base
            case 2: return base + " again"
            case let count: return base + " again (\(count))"
            }
        }
    }

    /// The presenter's caption of each step of `scenario` that sent an event, by the index of that
    /// event in a recording of it (`ScenarioTranscript.sentEvents`): the words the room saw.
    public static func presentedCaptions(_ scenario: Scenario, sentEvents: [Int: Int]) -> [Int: String] {
        let groups = stepGroups(scenario)
        var captions: [Int: String] = [:]
        for (group, caption) in zip(groups, Self.captions(scenario, groups: groups)) {
            if let event = sentEvents[group[0]] { captions[event] = caption }
        }
        return captions
    }

    /// The caption of presented step `index` (0-based among the groups).
    func stepCaption(_ index: Int) -> String {
        stepCaptions.indices.contains(index) ? stepCaptions[index] : ""
    }

    /// The presenter's next step: its action, typed into the phone first when it fills a form,
    /// then its checks once the replies are in. In a replay, the next recorded event. Returns
    /// whether a step was played.
    private mutating func playNextStep() -> (played: Bool, commands: [InterfaceCommand]) {
        if replay != nil {
            guard replay?.forwardStep() == true else { return (false, []) }
            ui.message = session.presenter?.lastResult
            return (true, [])
        }
        guard let scenario, let presenter = driver.session.presenter, !presenter.isFinished else { return (false, []) }
        guard isIdle, story == nil, pendingChecks == 0 else {
            ui.message = "waiting for the server to answer the previous step"
            return (false, [])
        }
        guard let group = presentedSteps.first(where: { ($0.first ?? 0) >= presenter.played }) else { return (false, []) }
        ui.openingCard = false
        presenterMarks.append(driver)
        checkResults = []
        let first = group[0]
        let step = ScenarioRunner.present(scenario, stepAt: first, in: driver.session)
        ui.caption = stepCaption(presentedSteps.firstIndex(of: group) ?? 0)
        pendingChecks = group.count - 1
        if step.event != nil, let fields = typedFields(step), !fields.isEmpty {
            typing = Typing(fields: fields, then: step, due: .distantPast)
            return (true, [])
        }
        return (true, played(step))
    }

    /// The step's event, then its result, both in the session.
    private mutating func played(_ step: PresentedStep) -> [InterfaceCommand] {
        var commands: [InterfaceCommand] = []
        if let event = step.event { commands += send(event) }
        commands += send(step.played)
        if !step.passed {
            pendingChecks = 0
            ui.message = step.summary
        }
        return commands + playChecks()
    }

    /// The typing done (or skipped with `n`): the fields keep what was typed, then the step's event.
    private mutating func finishTyping() -> [InterfaceCommand] {
        guard let typing else { return [] }
        self.typing = nil
        var commands: [InterfaceCommand] = []
        for (field, text) in typing.fields { commands += send(.draftEdited(field: field.rawValue, text: text)) }
        return commands + played(typing.then)
    }

    /// The fields on the phone's screen that a presented step's event fills, with their text.
    private func typedFields(_ step: PresentedStep) -> [(field: DraftField, text: String)]? {
        guard let event = step.event else { return nil }
        let candidates = event.submittedFields
        guard !candidates.isEmpty else { return nil }
        let shown = Set(PhoneContent.page(driver.session, ui).blocks.compactMap { block -> String? in
            if case .control(let control) = block, control.isTextField { control.id } else { nil }
        })
        return candidates.filter { shown.contains($0.field.rawValue) }
    }

    /// The presented step's `expect` steps, once every reply is in; each adds a ✓ to the caption.
    private mutating func playChecks() -> [InterfaceCommand] {
        var commands: [InterfaceCommand] = []
        while pendingChecks > 0, isIdle, typing == nil, let scenario, let presenter = driver.session.presenter, !presenter.isFinished {
            let step = ScenarioRunner.present(scenario, stepAt: presenter.played, in: driver.session)
            pendingChecks -= 1
            commands += send(step.played)
            guard step.passed else {
                pendingChecks = 0
                ui.message = step.summary
                return commands
            }
            if !step.summary.isEmpty { checkResults.append(step.summary) }
            let caption = presenterCaption(played: presenter.played)
            ui.caption = ([caption] + checkResults).joined(separator: "  ")
        }
        return commands
    }

    /// The caption of the group holding step index `played`.
    private func presenterCaption(played: Int) -> String {
        guard let index = presentedSteps.lastIndex(where: { ($0.first ?? 0) <= played }) else { return "" }
        return stepCaption(index)
    }

    /// Back one step: the session and its simulated project as they were before it.
    private mutating func stepBack() -> [InterfaceCommand] {
        nextPlayedStep = nil
        if replay != nil {
            ui.message = replay?.backStep() == true ? (session.presenter?.lastResult ?? "at the start") : "at the start"
            return []
        }
        guard driver.isEmbedded else {
            ui.message = "stepping back needs the embedded world: a server does not undo its calls"
            return []
        }
        typing = nil
        pendingChecks = 0
        guard let before = presenterMarks.popLast() else {
            ui.message = "at the start"
            return []
        }
        driver = before
        checkResults = []
        // The header names the step now on screen, or the scenario before the first.
        ui.caption = presenterStep > 0 ? stepCaption(presenterStep - 1) : nil
        ui.message = "back to step \(presenterStep)"
        return []
    }

    /// The presented step on screen, counted as the presenter counts them (checks folded in).
    public var presenterStep: Int {
        guard scenario != nil, let presenter = session.presenter else { return session.presenter?.played ?? 0 }
        // A step being typed has begun: its number shows with its caption.
        return presentedSteps.filter { ($0.first ?? 0) < presenter.played }.count + (typing == nil ? 0 : 1)
    }

    /// What the screen says of the scenario presented or the replay: its card, the step
    /// counter and the next step's caption.
    public var presentation: Presentation? {
        guard let presenter = session.presenter else { return nil }
        guard let scenario, replay == nil else { return Presentation(presenter) }
        let groups = presentedSteps
        // A step being typed has begun: the next is the one after it.
        let begun = presenter.played + (typing == nil ? 0 : 1)
        let next = presenter.isFinished ? nil : groups.first { ($0.first ?? 0) >= begun }
        return Presentation(title: scenario.title, description: scenario.description, step: presenterStep, total: groups.count,
                            next: next.flatMap { groups.firstIndex(of: $0) }.map(stepCaption), finished: presenter.isFinished, failed: presenter.failed)
    }

    /// Plays the picked story's steps as the presenter would, without presenting them: each as
    /// soon as the server answered the previous one (at once in an embedded world). An unmet
    /// expectation or a step that cannot play stops the story and says why.
    private mutating func playStory() -> [InterfaceCommand] {
        var commands: [InterfaceCommand] = []
        while let progress = story, isIdle {
            guard progress.scenario.steps.indices.contains(progress.next) else {
                story = nil
                break
            }
            let step = ScenarioRunner.present(progress.scenario, stepAt: progress.next, in: driver.session)
            guard step.passed else {
                story = nil
                ui.message = step.summary
                break
            }
            story?.next += 1
            if let event = step.event { commands += send(event) }
        }
        return commands
    }

    /// The session as it is on screen, to export: a replay up to the event shown.
    private func exportCommand() -> InterfaceCommand {
        if let replay {
            let recording = SessionRecording(start: replay.recording.start, events: Array(replay.recording.events.prefix(replay.position)),
                                             times: replay.recording.times.map { Array($0.prefix(replay.position)) }, current: replay.session)
            return .export(recording, title: replayTitle)
        }
        return .export(SessionRecording(driver), title: scenario?.name)
    }
}

extension ScenarioAction {
    /// Whether the step only checks what the steps before it did.
    var isCheck: Bool {
        switch self {
        case .expect, .expectOn: true
        default: false
        }
    }
}

/// A scenario as the presenter shows it, or a replay's progress: title, description, where it
/// is and what comes next.
public struct Presentation: Sendable, Equatable {
    public var title: String
    public var description: String
    /// Steps played, counted as shown (a presented scenario's checks fold into their step).
    public var step: Int
    public var total: Int
    /// The next step's caption; nil when every step was played.
    public var next: String?
    public var finished: Bool
    public var failed: Bool
    /// A recording played back rather than a scenario presented.
    public var isReplay = false

    public init(title: String, description: String, step: Int, total: Int, next: String?, finished: Bool, failed: Bool) {
        self.title = title
        self.description = description
        self.step = step
        self.total = total
        self.next = next
        self.finished = finished
        self.failed = failed
    }

    /// A progress with no scenario behind it (a replay's, or a session saved while presenting):
    /// each step as recorded.
    public init(_ progress: PresenterProgress) {
        let step = min(progress.played, progress.steps.count)
        self.init(title: progress.title, description: "", step: step, total: progress.steps.count,
                  next: progress.isFinished ? nil : progress.steps[step], finished: progress.isFinished, failed: progress.failed)
        isReplay = true
    }
}
