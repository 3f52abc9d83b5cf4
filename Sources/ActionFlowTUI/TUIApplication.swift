import ActionFlowClient
import ActionFlowModel
import CTerminalSupport
import Foundation
import Logging
import Synchronization

/// Replies of a remote world, handed from the task that runs its effects to the terminal loop,
/// which gives them to `Interface.update` with the keys: one queue, one update.
final class ReplyQueue: Sendable {
    private struct Content {
        /// The replies to each effect answered, in order.
        var replies: [[AppEvent]] = []
        /// Traffic watched (`serve --inspect`), not yet shown.
        var observed: [AppEvent] = []
        /// Inspector panes laid out on another thread, not yet taken.
        var preparedPanes: [PanePreparation.Pane]?
        /// Answers of the runtime's own work done off the loop (the doctor's checks).
        var messages: [InterfaceMessage] = []
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

    /// The replies to one effect.
    func post(_ replies: [AppEvent]) { change { $0.replies.append(replies) } }

    /// Panes laid out away from the loop, which wakes to take them.
    func post(_ panes: [PanePreparation.Pane]) { change { $0.preparedPanes = panes } }

    /// A message for the interface from work done off the loop.
    func post(message: InterfaceMessage) { change { $0.messages.append(message) } }

    /// Traffic seen by the server. Only the first post since the loop last took them wakes it:
    /// under load the loop takes them in batches, not one wake per request.
    func post(observed events: [AppEvent]) {
        guard !events.isEmpty else { return }
        content.withLock { content in
            let wasEmpty = content.observed.isEmpty
            content.observed += events
            if wasEmpty { Self.wake(content) }
        }
    }

    func take() -> [[AppEvent]] { take(\.replies, leaving: []) }
    func takeObserved() -> [AppEvent] { take(\.observed, leaving: []) }
    func takeMessages() -> [InterfaceMessage] { take(\.messages, leaving: []) }
    func takePreparedPanes() -> [PanePreparation.Pane]? { take(\.preparedPanes, leaving: nil) }

    /// Changes the content and wakes the loop.
    private func change(_ body: (inout Content) -> Void) {
        content.withLock { content in
            body(&content)
            Self.wake(content)
        }
    }

    private func take<Value: Sendable>(_ field: WritableKeyPath<Content, Value> & Sendable, leaving empty: Value) -> Value {
        content.withLock { content in
            defer { content[keyPath: field] = empty }
            return content[keyPath: field]
        }
    }

    /// One byte on the loop's wake pipe, unless it is closing.
    private static func wake(_ content: Content) {
        guard content.wakeDescriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(content.wakeDescriptor, &byte, 1)
    }
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
        /// Checks a project's link domains and continue URLs (`actionflow doctor`); nil offers no such check.
        public var doctor: (@Sendable (ProjectConfiguration, [String]) async -> [DoctorCheck])?
        public init(monochrome: Bool = false, theme: Theme? = nil, logFile: String? = nil, sessionFile: String? = nil, notice: String? = nil, speed: Double = 1, exportDirectory: String = ".",
                    doctor: (@Sendable (ProjectConfiguration, [String]) async -> [DoctorCheck])? = nil) {
            self.exportDirectory = exportDirectory
            self.doctor = doctor
            self.monochrome = monochrome
            self.theme = theme
            self.logFile = logFile
            self.sessionFile = sessionFile
            self.notice = notice
            self.speed = speed
        }
    }

    /// What the interface starts from: a live session (with a scenario to present) or a recording.
    private enum Start {
        case live(SessionDriver, scenario: Scenario?)
        case replay(SessionRecording, title: String)
        case watching(Session)
    }

    private let start: Start
    /// The panes drawn last, kept while the session on screen stays the same.
    private let panes = PaneCache()
    private let transportSummary: String
    private let options: Options
    private let logger: Logger
    private let replies = ReplyQueue()
    private var effectSink: AsyncStream<Effect>.Continuation?

    public init(driver: SessionDriver, transportSummary: String, options: Options, scenario: Scenario? = nil, logger: Logger) {
        start = .live(driver, scenario: scenario)
        self.transportSummary = transportSummary
        self.options = options
        self.logger = logger
    }

    /// Plays `recording` back instead of a live session.
    public init(replaying recording: SessionRecording, title: String, options: Options, logger: Logger) {
        start = .replay(recording, title: title)
        transportSummary = Replay(recording).transportLabel
        self.options = options
        self.logger = logger
    }

    /// Watches traffic as it happens (`serve --inspect`): hand it over with `observe`.
    public init(watching start: Session, transportSummary: String, options: Options, logger: Logger) {
        self.start = .watching(start)
        self.transportSummary = transportSummary
        self.options = options
        self.logger = logger
    }

    /// Hands traffic to a watching interface, from any thread; it is shown on the next frame.
    public nonisolated func observe(_ events: [AppEvent]) {
        replies.post(observed: events)
    }

    /// The session a watching interface shows, once it has stopped (for `--save`'s `current`).
    public private(set) var finalSession: Session?

    /// Traffic handed over that the interface did not take before it stopped.
    public nonisolated func takeUnshownTraffic() -> [AppEvent] {
        replies.takeObserved()
    }

    /// At most this many frames a second for traffic alone: a key is drawn at once.
    static let trafficFrameInterval: TimeInterval = 1.0 / 20

    /// The interface as it opens on a terminal of this size and colours.
    private func opening(on terminal: CursesTerminal) -> Interface {
        switch start {
        case .live(let driver, let scenario):
            Interface(driver: driver, scenario: scenario, colorMode: terminal.colorMode, theme: terminal.theme, width: terminal.width, height: terminal.height,
                      speed: options.speed, notice: options.notice)
        case .replay(let recording, let title):
            Interface(replaying: recording, title: title, colorMode: terminal.colorMode, theme: terminal.theme, width: terminal.width, height: terminal.height, speed: options.speed)
        case .watching(let session):
            Interface(watching: session, colorMode: terminal.colorMode, theme: terminal.theme, width: terminal.width, height: terminal.height, notice: options.notice)
        }
    }

    /// Enters full-screen mode ahead of the application, so that a launch can start the terminal
    /// on one core while its project loads on the other.
    public static func startTerminal(monochrome: Bool, theme: Theme?, errorLog: String?) throws(TerminalUnavailable) -> CursesTerminal {
        let terminal = CursesTerminal(monochrome: monochrome, theme: theme)
        try terminal.start(errorLog: errorLog)
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

    /// The loop itself, which never suspends: it turns keys, replies and time into messages for
    /// `Interface.update`, does what the update asks, and draws the interface. As the body of an
    /// async function, every value that it and all it inlines ever hold had a slot of its own in
    /// the task's frame, on the heap for the whole session (about 110 KB); on the thread's
    /// stack, slots are shared between values that do not live at the same time.
    @inline(never)
    private func runLoop(on terminal: CursesTerminal) -> Int32? {
        logger.info("terminal started", metadata: ["size": "\(terminal.width)x\(terminal.height)", "colors": "\(terminal.colorMode.rawValue)", "theme": "\(terminal.theme.rawValue)",
                                                   "background": "\(terminal.reportedBackground.map(\.description) ?? "not reported")"])
        if let notice = terminal.fallbackNotice { logger.warning("\(notice)") }
        replies.connect(wakeDescriptor: terminal.wakeDescriptor)

        var model = opening(on: terminal)
        model.savesSession = options.sessionFile != nil
        model.checksLinkDomains = options.doctor != nil
        // A remote world's effects run one at a time, in order, off the loop.
        var worker: Task<Void, Never>?
        if let remote = model.driver.runner?.remote {
            let (effects, sink) = AsyncStream.makeStream(of: Effect.self)
            effectSink = sink
            let replies = self.replies
            worker = Task.detached {
                for await effect in effects {
                    replies.post(await remote.run(effect))
                }
            }
        }

        var endingSignal: Int32?
        var warmedUp = false
        var preparingPanes = false
        // Whether anything on screen may have changed since the last frame.
        var frameWanted = true
        var lastFrame = Date.distantPast
        // Traffic taken but not drawn yet: drawn once the frame interval has passed.
        var trafficWaiting = false
        loop: while true {
            var commands: [InterfaceCommand] = []
            for batch in replies.take() { commands += model.update(.replies(batch), panes: panes) }
            for message in replies.takeMessages() { commands += model.update(message, panes: panes) }
            let observed = replies.takeObserved()
            if !observed.isEmpty {
                commands += model.update(.observed(observed), panes: panes)
                trafficWaiting = true
            }
            if let prepared = replies.takePreparedPanes() {
                // Panes laid out for later change nothing on screen: the pane shown was laid
                // out when it was drawn, and adopting never replaces a pane. Drawing again for
                // them cost a whole frame after most keys, which the next key then waited for.
                panes.at(model.revision).adopt(prepared)
                preparingPanes = false
            }
            if let due = model.nextTick, due <= Date() { commands += model.update(.tick(Date()), panes: panes) }
            if let save = model.pendingSave() { commands.append(save) }
            if perform(commands, &model, terminal) { break loop }
            let revisionDrawn = model.revision
            // Traffic alone is drawn at most `trafficFrameInterval` apart; a key at once.
            let trafficHeld = !frameWanted && trafficWaiting && Date().timeIntervalSince(lastFrame) < Self.trafficFrameInterval
            if !trafficHeld, frameWanted || revisionDrawn != drawnRevision {
                lastFrame = Date()
                trafficWaiting = false
                drawnRevision = revisionDrawn
                // An embedded world names its project as it is now (the Project pane may change it).
                let transport = model.replay == nil && model.driver.session.isEmbedded ? "embedded \(model.driver.session.project.projectId)" : transportSummary
                terminal.present(MainView.render(model, transport: transport, panes: panes))
                frameWanted = false
                // While the welcome screen waits for a pick, its stories play once on a throwaway
                // embedded project, a few milliseconds on the other core. The runtime's first
                // look-ups of each wire type's metadata and conformances then happen there, not
                // in the key that first calls the backend. Nothing is shared with this session.
                if !warmedUp, model.ui.mode != .main, model.driver.session.isEmbedded {
                    warmedUp = true
                    let project = model.driver.session.project
                    Task.detached(priority: Self.backgroundPriority) {
                        for story in ScenarioLibrary.stories { _ = await ScenarioLibrary.runEmbedded(story, baseProject: project) }
                    }
                }
            }
            // The other panes are laid out on another thread while the loop waits for keys, so
            // that going to one draws at once and no key waits for a pane it did not ask for.
            // Not while watching: traffic changes the session many times a second, and the panes
            // laid out ahead would be out of date before a key asked for one.
            if !preparingPanes, !model.ui.watching, let preparation = panes.at(model.revision).preparation(model.session, model.ui, ScreenLayout(width: model.width, height: model.height, session: model.session)) {
                preparingPanes = true
                let replies = self.replies
                Task.detached(priority: Self.backgroundPriority) { replies.post(preparation.run()) }
            }
            var timeout = model.nextTick.map { Int32(max(1, min(500, $0.timeIntervalSinceNow * 1000))) } ?? 500
            if trafficWaiting { timeout = min(timeout, Int32(max(1, (Self.trafficFrameInterval - Date().timeIntervalSince(lastFrame)) * 1000))) }
            let input = terminal.nextInput(timeout: timeout)
            if case .wake = input {} else { frameWanted = true }
            if terminal.takeThemeChange() {
                model.ui.theme = terminal.theme
                logger.info("terminal background", metadata: ["background": "\(terminal.reportedBackground.map(\.description) ?? "not reported")", "theme": "\(terminal.theme.rawValue)"])
            }
            switch input {
            case .keys(let keys):
                var commands: [InterfaceCommand] = []
                for key in keys {
                    let message: InterfaceMessage = key == .resize ? .resized(width: terminal.width, height: terminal.height) : .key(key)
                    commands += model.update(message, panes: panes)
                }
                if perform(commands, &model, terminal) { break loop }
            case .terminate(let signal):
                logger.info("terminated by signal", metadata: ["signal": "\(signal)"])
                endingSignal = signal
                if perform(model.update(.terminated(signal: signal), panes: panes), &model, terminal) { break loop }
            case .suspend:
                if perform(model.update(.suspend, panes: panes), &model, terminal) { break loop }
            case .wake, .timeout:
                break
            }
        }
        replies.disconnect()
        if model.ui.watching { finalSession = model.session }
        effectSink?.finish()
        worker?.cancel()
        terminal.stop()
        logger.info("terminal restored")
        return endingSignal
    }

    /// The revision of the session last drawn.
    private var drawnRevision = -1

    /// Does what the interface asked; returns whether it asked to quit. Of several saves asked
    /// for at once, the last is written.
    private func perform(_ commands: [InterfaceCommand], _ model: inout Interface, _ terminal: CursesTerminal) -> Bool {
        if let recording = commands.compactMap({ if case .save(let recording) = $0 { recording } else { nil } }).last {
            save(recording, &model)
        }
        for command in commands {
            switch command {
            case .save: break
            case .run(let effect):
                logger.debug("effect", metadata: ["effect": "\(Self.name(of: effect))"])
                effectSink?.yield(effect)
            case .export(let recording, let title):
                _ = model.update(.noted(export(recording, title: title, drawing: SessionExport.Drawing(columns: terminal.width, rows: terminal.height, theme: model.ui.theme))))
            case .copyToClipboard(let text):
                terminal.copyToClipboard(text)
            case .runDoctor(let project, let continueURLs):
                guard let doctor = options.doctor else { break }
                let replies = self.replies
                Task.detached(priority: Self.backgroundPriority) {
                    replies.post(message: .doctorFinished(project, await doctor(project, continueURLs)))
                }
            case .quit: return true
            case .suspend:
                logger.info("suspended")
                terminal.suspend()
            case .redraw: terminal.invalidate()
            }
        }
        return false
    }

    /// The session in every export format; says where (or why not) for the status line.
    private func export(_ recording: SessionRecording, title: String?, drawing: SessionExport.Drawing) -> String {
        let title = title ?? options.sessionFile.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "session"
        do throws(SessionExportError) {
            let paths = try SessionExport.writeAll(recording: recording, title: title, into: options.exportDirectory, drawing: drawing)
            logger.info("exported", metadata: ["paths": "\(paths)"])
            // One stem and the extensions: three full paths would not fit the status line.
            let stem = (paths[0] as NSString).deletingPathExtension
            let extensions = paths.map { ($0 as NSString).pathExtension }.joined(separator: ",")
            return "exported \(stem).{\(extensions)}"
        } catch {
            logger.error("not exported", metadata: ["reason": "\(error)"])
            return "not exported: \(error)"
        }
    }

    /// Writes the session file; a failure goes back to the interface, which asks again later.
    private func save(_ recording: SessionRecording, _ model: inout Interface) {
        guard let path = options.sessionFile else { return }
        do throws(SessionFileError) {
            try SessionFile.save(recording, to: path)
        } catch {
            logger.error("session not saved", metadata: ["reason": "\(error)"])
            _ = model.update(.notSaved(error.reason))
        }
    }

    /// The effect's case name, without its values (which may hold passwords).
    static func name(of effect: Effect) -> String {
        String(String(describing: effect).prefix { $0 != "(" })
    }
}
