import ActionFlowClient
import ActionFlowModel
import CTerminalSupport
import Foundation
import Logging
import Synchronization

/// Replies of a remote world, handed from the task that runs its effects to the terminal loop,
/// which reduces them with the keys: one queue, one reducer.
final class ReplyQueue: Sendable {
    private struct Content {
        var replies: [AppEvent] = []
        /// Inspector panes laid out on another thread, not yet taken.
        var preparedPanes: [PanePreparation.Pane]?
        /// Effects handed over and not answered yet.
        var outstanding = 0
        var wakeDescriptor: Int32 = -1
    }

    private let content = Mutex(Content())

    func connect(wakeDescriptor: Int32) {
        content.withLock { $0.wakeDescriptor = wakeDescriptor }
    }

    /// Stops waking the loop (its pipe is about to close).
    func disconnect() {
        content.withLock { $0.wakeDescriptor = -1 }
    }

    func handedOver() {
        content.withLock { $0.outstanding += 1 }
    }

    /// The replies to one effect.
    func post(_ replies: [AppEvent]) {
        content.withLock { content in
            content.replies += replies
            content.outstanding -= 1
            Self.wake(content)
        }
    }

    /// Panes laid out away from the loop, which wakes to take them.
    func post(_ panes: [PanePreparation.Pane]) {
        content.withLock { content in
            content.preparedPanes = panes
            Self.wake(content)
        }
    }

    /// One byte on the loop's wake pipe, unless it is closing.
    private static func wake(_ content: Content) {
        guard content.wakeDescriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(content.wakeDescriptor, &byte, 1)
    }

    func takePreparedPanes() -> [PanePreparation.Pane]? {
        content.withLock { content in
            defer { content.preparedPanes = nil }
            return content.preparedPanes
        }
    }

    func take() -> [AppEvent] {
        content.withLock { content in
            defer { content.replies = [] }
            return content.replies
        }
    }

    var isIdle: Bool { content.withLock { $0.outstanding == 0 && $0.replies.isEmpty } }
}

/// The full-screen program: owns the terminal and the loop that turns keys into events, reduces
/// them into the session synchronously, and draws the session.
@MainActor
public final class TUIApplication {
    /// The priority of all the interface's work off the main thread: the project's load, the
    /// stories played in advance, the panes laid out ahead. One for all, since libdispatch keeps
    /// threads for each priority apart: seven threads held about 0.1 MiB more than three.
    @inlinable public static var backgroundPriority: TaskPriority { .userInitiated }

    public struct Options: Sendable {
        public var monochrome: Bool
        /// Nil asks the terminal for its background.
        public var theme: Theme?
        public var logFile: String?
        /// Saved after every event (`--session`); nil writes nothing.
        public var sessionFile: String?
        /// Shown in the status line on the first frame.
        public var notice: String?
        /// `g` plays this many times faster than recorded (or than one scenario step a second).
        public var speed: Double
        /// Where `e` writes the exports.
        public var exportDirectory: String
        public init(monochrome: Bool = false, theme: Theme? = nil, logFile: String? = nil, sessionFile: String? = nil, notice: String? = nil, speed: Double = 1, exportDirectory: String = ".") {
            self.exportDirectory = exportDirectory
            self.monochrome = monochrome
            self.theme = theme
            self.logFile = logFile
            self.sessionFile = sessionFile
            self.notice = notice
            self.speed = speed
        }
    }

    private var driver: SessionDriver {
        didSet { panes.sessionRevision += 1 }
    }
    /// The panes drawn last, kept while the session on screen stays the same.
    private let panes = PaneCache()
    private let transportSummary: String
    private let options: Options
    private let scenario: Scenario?
    private let logger: Logger
    private let replies = ReplyQueue()
    private var effectSink: AsyncStream<Effect>.Continuation?
    private var savedEvents = -1
    /// A story picked on the welcome screen and the index of its next step.
    private var story: (scenario: Scenario, next: Int)?
    /// A recording played back (`actionflow replay`): read-only, stepped with n, b and g.
    private var replay: Replay? {
        didSet { panes.sessionRevision += 1 }
    }
    private let replayTitle: String
    /// How many events the session had before each presented step, to step back to.
    private var presenterMarks: [Int] = []
    /// When `g` is playing: the time of the next step.
    private var nextPlayedStep: Date?

    public init(driver: SessionDriver, transportSummary: String, options: Options, scenario: Scenario? = nil, logger: Logger) {
        self.driver = driver
        self.transportSummary = transportSummary
        self.options = options
        self.scenario = scenario
        self.logger = logger
        replayTitle = ""
    }

    /// Plays `recording` back instead of a live session.
    public init(replaying recording: SessionRecording, title: String, options: Options, logger: Logger) {
        driver = SessionDriver(session: recording.start, remote: nil)
        let replay = Replay(recording)
        self.replay = replay
        replayTitle = title
        transportSummary = replay.transportLabel
        self.options = options
        scenario = nil
        self.logger = logger
    }

    /// The session on screen: the live one, or the replay's with its progress as a presenter's.
    public var session: Session {
        replay?.shownSession(title: replayTitle) ?? driver.session
    }

    /// Enters full-screen mode ahead of the application, so that a launch can start the terminal
    /// on one core while its project loads on the other.
    public static func startTerminal(monochrome: Bool, theme: Theme?, errorLog: String?) throws(TerminalUnavailable) -> CursesTerminal {
        let terminal = CursesTerminal(monochrome: monochrome, theme: theme)
        try terminal.start(errorLog: errorLog)
        StartupTrace.mark("terminal started")
        return terminal
    }

    /// Runs until the user quits. Returns the termination signal that ended it, if one did.
    public func run() async throws(TerminalUnavailable) -> Int32? {
        await run(on: try Self.startTerminal(monochrome: options.monochrome, theme: options.theme, errorLog: options.logFile))
    }

    /// Runs on a terminal already started, and stops it when the user quits.
    public func run(on terminal: CursesTerminal) async -> Int32? {
        runLoop(on: terminal)
    }

    /// The loop itself, which never suspends. As the body of an async function, every value
    /// that it and all it inlines ever hold had a slot of its own in the task's frame, on the
    /// heap for the whole session (about 110 KB); on the thread's stack, slots are shared
    /// between values that do not live at the same time.
    @inline(never)
    private func runLoop(on terminal: CursesTerminal) -> Int32? {
        logger.info("terminal started", metadata: ["size": "\(terminal.width)x\(terminal.height)", "colors": "\(terminal.colorMode.rawValue)", "theme": "\(terminal.theme.rawValue)",
                                                   "background": "\(terminal.reportedBackground.map(\.description) ?? "not reported")"])
        if let notice = terminal.fallbackNotice { logger.warning("\(notice)") }
        replies.connect(wakeDescriptor: terminal.wakeDescriptor)

        // A remote world's effects run one at a time, in order, off the loop.
        var worker: Task<Void, Never>?
        if let remote = driver.remote {
            let (effects, sink) = AsyncStream.makeStream(of: Effect.self)
            effectSink = sink
            let replies = self.replies
            worker = Task.detached {
                for await effect in effects {
                    replies.post(await remote.run(effect))
                }
            }
        }

        var ui = UIState(colorMode: terminal.colorMode, theme: terminal.theme)
        ui.readOnly = replay != nil
        // A session that has begun opens where it was; a new one on the welcome screen.
        if !driver.events.isEmpty || driver.session.presenter != nil || replay != nil { ui.mode = .main }
        if let scenario {
            ui.mode = .main
            if driver.session.presenter == nil {
                send(.presenterStarted(title: scenario.name, steps: scenario.steps.map(\.action.summary)))
            }
        }
        ui.message = options.notice

        var endingSignal: Int32?
        var warmedUp = false
        var preparingPanes = false
        // Whether anything on screen may have changed since the last frame.
        var frameWanted = true
        loop: while true {
            let arrived = replies.take()
            for reply in arrived { send(reply) }
            if let prepared = replies.takePreparedPanes() {
                // Panes laid out for later change nothing on screen: the pane shown was laid
                // out when it was drawn, and adopting never replaces a pane. Drawing again for
                // them cost a whole frame after most keys, which the next key then waited for.
                panes.adopt(prepared)
                preparingPanes = false
            }
            if !arrived.isEmpty || story != nil || nextPlayedStep != nil { frameWanted = true }
            playStory(&ui)
            playOnTime(&ui)
            save(&ui)
            if frameWanted {
                // An embedded world names its project as it is now (the Project pane may change it).
                let transport = replay == nil && driver.session.isEmbedded ? "embedded \(driver.session.project.projectId)" : transportSummary
                terminal.present(MainView.render(session: session, ui: ui, transport: transport, width: terminal.width, height: terminal.height, panes: panes))
                StartupTrace.mark("frame drawn")
                frameWanted = false
                // While the welcome screen waits for a pick, its stories play once on a throwaway
                // embedded project, a few milliseconds on the other core. The runtime's first
                // look-ups of each wire type's metadata and conformances then happen there, not
                // in the key that first calls the backend. Nothing is shared with this session.
                if !warmedUp, ui.mode != .main, driver.session.isEmbedded {
                    warmedUp = true
                    let project = driver.session.project
                    Task.detached(priority: Self.backgroundPriority) {
                        for story in ScenarioLibrary.stories { _ = await ScenarioLibrary.runEmbedded(story, baseProject: project) }
                    }
                }
            }
            // The other panes are laid out on another thread while the loop waits for keys, so
            // that going to one draws at once and no key waits for a pane it did not ask for.
            if !preparingPanes, let preparation = panes.preparation(session, ui, ScreenLayout(width: terminal.width, height: terminal.height, session: session)) {
                preparingPanes = true
                let replies = self.replies
                Task.detached(priority: Self.backgroundPriority) { replies.post(preparation.run()) }
            }
            let timeout = nextPlayedStep.map { Int32(max(1, min(500, $0.timeIntervalSinceNow * 1000))) } ?? 500
            let input = terminal.nextInput(timeout: timeout)
            if case .wake = input {} else { frameWanted = true }
            switch input {
            case .keys(let keys):
                // A key stops `g` from playing on; the key itself then acts as usual.
                nextPlayedStep = nil
                for key in keys {
                    for command in Controller.handle(key, session: session, ui: &ui, width: terminal.width, height: terminal.height, panes: panes) {
                        switch command {
                        case .send where replay != nil:
                            ui.message = UIState.readOnlyMessage
                        case .send(let event): send(event)
                        case .quit: break loop
                        case .suspend:
                            logger.info("suspended")
                            terminal.suspend()
                        case .redraw: terminal.invalidate()
                        case .nextScenarioStep: playNextStep(&ui)
                        case .stepBack: stepBack(&ui)
                        case .playToEnd: nextPlayedStep = Date()
                        case .playStory(let scenario):
                            story = (scenario, 0)
                            playStory(&ui)
                        case .exportSession: exportSession(&ui, columns: terminal.width, rows: terminal.height)
                        case .setDraft, .toggleExchange: break
                        }
                    }
                }
            case .terminate(let signal):
                logger.info("terminated by signal", metadata: ["signal": "\(signal)"])
                endingSignal = signal
                break loop
            case .suspend:
                terminal.suspend()
            case .wake, .timeout:
                break
            }
        }
        replies.disconnect()
        effectSink?.finish()
        worker?.cancel()
        terminal.stop()
        logger.info("terminal restored")
        return endingSignal
    }

    /// Reduces an event now; a remote world's effects go to the worker.
    private func send(_ event: AppEvent) {
        logger.debug("event", metadata: ["event": "\(Self.name(of: event))"])
        for effect in driver.reduce(event) {
            replies.handedOver()
            effectSink?.yield(effect)
        }
    }

    /// The presenter's next step: its event, then its result, both in the session. In a replay,
    /// the next recorded event. Returns whether a step was played.
    @discardableResult
    private func playNextStep(_ ui: inout UIState) -> Bool {
        if replay != nil {
            guard replay?.forward() == true else { return false }
            ui.message = session.presenter?.lastResult
            return true
        }
        guard let scenario, let presenter = driver.session.presenter, !presenter.isFinished else { return false }
        guard replies.isIdle, story == nil else {
            ui.message = "waiting for the server to answer the previous step"
            return false
        }
        presenterMarks.append(driver.events.count)
        let step = ScenarioRunner.present(scenario, stepAt: presenter.played, in: driver.session)
        if let event = step.event { send(event) }
        send(step.played)
        ui.message = step.summary
        return true
    }

    /// Back one step: the session is rebuilt from its start up to the step before.
    private func stepBack(_ ui: inout UIState) {
        nextPlayedStep = nil
        if replay != nil {
            ui.message = replay?.back() == true ? (session.presenter?.lastResult ?? "at the start") : "at the start"
            return
        }
        guard driver.remote == nil else {
            ui.message = "stepping back needs the embedded world: a server does not undo its calls"
            return
        }
        guard let target = presenterMarks.popLast() else {
            ui.message = "at the start"
            return
        }
        var rebuilt = Replay(SessionRecording(driver))
        rebuilt.seek(to: target)
        driver = SessionDriver(SessionRecording(start: driver.start, events: Array(driver.events.prefix(target)),
                                                times: driver.times.map { Array($0.prefix(target)) }, current: rebuilt.session), remote: nil)
        ui.message = "back to step \(driver.session.presenter?.played ?? 0)"
    }

    /// `g`: plays the next step when its time has come, at the recorded pace (a replay) or one
    /// step a second (a scenario), `speed` times faster; long pauses are cut to 3 seconds.
    private func playOnTime(_ ui: inout UIState) {
        guard let due = nextPlayedStep, due <= Date() else { return }
        guard playNextStep(&ui) else {
            nextPlayedStep = nil
            return
        }
        // A scenario has no recorded pace: one step a second.
        let pause = replay?.pauseBeforeNext ?? 1
        nextPlayedStep = Date().addingTimeInterval(pause / max(0.01, options.speed))
    }

    /// Plays the picked story's steps as the presenter would, without presenting them: each as
    /// soon as the server answered the previous one (at once in an embedded world). An unmet
    /// expectation or a step that cannot play stops the story and says why.
    private func playStory(_ ui: inout UIState) {
        while let (scenario, next) = story, replies.isIdle {
            guard scenario.steps.indices.contains(next) else {
                story = nil
                return
            }
            let step = ScenarioRunner.present(scenario, stepAt: next, in: driver.session)
            guard step.passed else {
                story = nil
                ui.message = step.summary
                return
            }
            story = (scenario, next + 1)
            if let event = step.event { send(event) }
        }
    }

    /// The session on screen in every export format, the paths (or why not) in the status line.
    private func exportSession(_ ui: inout UIState, columns: Int, rows: Int) {
        let recording: SessionRecording
        if let replay {
            // Up to the event on screen, so the export matches what the presenter shows.
            recording = SessionRecording(start: replay.recording.start, events: Array(replay.recording.events.prefix(replay.position)),
                                         times: replay.recording.times.map { Array($0.prefix(replay.position)) }, current: replay.session)
        } else {
            recording = SessionRecording(driver)
        }
        let title = scenario?.name ?? (replay != nil ? replayTitle : nil)
            ?? options.sessionFile.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "session"
        do throws(SessionExportError) {
            let paths = try SessionExport.writeAll(recording: recording, title: title, into: options.exportDirectory, columns: columns, rows: rows)
            // One stem and the extensions: three full paths would not fit the status line.
            let stem = (paths[0] as NSString).deletingPathExtension
            let extensions = paths.map { ($0 as NSString).pathExtension }.joined(separator: ",")
            ui.message = "exported \(stem).{\(extensions)}"
            logger.info("exported", metadata: ["paths": "\(paths)"])
        } catch {
            ui.message = "not exported: \(error)"
            logger.error("not exported", metadata: ["reason": "\(error)"])
        }
    }

    /// Writes the session file when an event changed the session since the last write.
    private func save(_ ui: inout UIState) {
        guard replay == nil, let path = options.sessionFile, driver.events.count != savedEvents else { return }
        do throws(SessionFileError) {
            try SessionFile.save(SessionRecording(driver), to: path)
            savedEvents = driver.events.count
        } catch {
            logger.error("session not saved", metadata: ["reason": "\(error)"])
            ui.message = "not saved: \(error.reason)"
        }
    }

    /// The event's case name, without its values (which may hold passwords).
    static func name(of event: AppEvent) -> String {
        String(String(describing: event).prefix { $0 != "(" })
    }
}
