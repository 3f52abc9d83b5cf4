import ActionFlowClient
import CTerminalSupport
import Foundation
import Logging
import Synchronization

/// The latest client state handed from the runtime's tasks to the terminal loop, plus how many
/// sent events the runtime has reduced (so keys typed ahead act on the state they expect).
final class StateMailbox: Sendable {
    private struct Content {
        var state: AppState?
        var reducedEvents = 0
        var wakeDescriptor: Int32 = -1
        var stepResults: [StepResult] = []
    }

    struct StepResult: Sendable {
        var index: Int
        var passed: Bool
        var summary: String
    }

    private let content = Mutex(Content())

    func connect(wakeDescriptor: Int32) {
        content.withLock { $0.wakeDescriptor = wakeDescriptor }
    }

    /// Stops waking the loop (its pipe is about to close).
    func disconnect() {
        content.withLock { $0.wakeDescriptor = -1 }
    }

    func post(_ state: AppState?, reducedEvent: Bool = false, stepResult: StepResult? = nil) {
        content.withLock { content in
            if let state { content.state = state }
            if reducedEvent { content.reducedEvents += 1 }
            if let stepResult { content.stepResults.append(stepResult) }
            if content.wakeDescriptor >= 0 {
                var byte: UInt8 = 1
                _ = write(content.wakeDescriptor, &byte, 1)
            }
        }
    }

    func take() -> (state: AppState?, reducedEvents: Int, stepResults: [StepResult]) {
        content.withLock { content in
            defer {
                content.state = nil
                content.stepResults = []
            }
            return (content.state, content.reducedEvents, content.stepResults)
        }
    }
}

enum BridgeInput: Sendable {
    case event(AppEvent)
    case changed
}

/// The full-screen program: owns the terminal and the loop that turns keys into client
/// events and client states into frames.
@MainActor
public final class TUIApplication {
    public struct Options: Sendable {
        public var monochrome: Bool
        public var logFile: String?
        public init(monochrome: Bool = false, logFile: String? = nil) {
            self.monochrome = monochrome
            self.logFile = logFile
        }
    }

    private let runtime: AppRuntime
    private let transportSummary: String
    private let options: Options
    private let scenario: ScenarioPlayback?
    private let logger: Logger
    private let mailbox = StateMailbox()

    public init(runtime: AppRuntime, options: Options, scenario: ScenarioPlayback? = nil, logger: Logger) {
        self.runtime = runtime
        transportSummary = runtime.transport.summary
        self.options = options
        self.scenario = scenario
        self.logger = logger
    }

    /// Runs until the user quits. Returns the termination signal that ended it, if one did.
    public func run(initialEvents: [AppEvent] = []) async throws(TerminalUnavailable) -> Int32? {
        let terminal = CursesTerminal(monochrome: options.monochrome)
        try terminal.start(errorLog: options.logFile)
        logger.info("terminal started", metadata: ["size": "\(terminal.width)x\(terminal.height)", "colors": "\(terminal.colorMode.rawValue)"])
        mailbox.connect(wakeDescriptor: terminal.wakeDescriptor)

        // One task reads the runtime's state after every event and every change, so the states it
        // posts are never older than the ones posted before them.
        let (inputs, bridge) = AsyncStream.makeStream(of: BridgeInput.self)
        let runtime = self.runtime
        let mailbox = self.mailbox
        let bridging = Task.detached {
            for await input in inputs {
                switch input {
                case .event(let event):
                    await runtime.send(event)
                    mailbox.post(await runtime.state, reducedEvent: true)
                case .changed:
                    mailbox.post(await runtime.state)
                }
            }
        }
        let observing = Task.detached {
            for await _ in await runtime.updates() {
                bridge.yield(.changed)
            }
        }

        var app = await runtime.state
        var ui = UIState(colorMode: terminal.colorMode)
        if let scenario {
            ui.mode = .main
            ui.presenter = PresenterState(title: scenario.scenario.name, steps: scenario.stepSummaries)
        }
        var sentEvents = 0
        var reducedEvents = 0
        var stepTask: Task<Void, Never>?

        func send(_ event: AppEvent) {
            sentEvents += 1
            logger.debug("event", metadata: ["event": "\(Self.name(of: event))"])
            bridge.yield(.event(event))
        }
        for event in initialEvents { send(event) }

        func refreshState() {
            let latest = mailbox.take()
            if let state = latest.state { app = state }
            reducedEvents = latest.reducedEvents
            for result in latest.stepResults {
                stepTask = nil
                guard var presenter = ui.presenter else { continue }
                presenter.played = result.index + 1
                presenter.lastResult = result.summary
                presenter.failed = presenter.failed || !result.passed
                ui.presenter = presenter
                ui.message = result.summary
            }
        }

        var endingSignal: Int32?
        loop: while true {
            refreshState()
            terminal.present(MainView.render(app: app, ui: ui, transport: transportSummary, width: terminal.width, height: terminal.height))
            switch terminal.nextInput(timeout: 500) {
            case .keys(let keys):
                for key in keys {
                    // Keys typed ahead wait (briefly) until the events before them are reduced.
                    var waited = 0
                    while reducedEvents < sentEvents, waited < 200 {
                        terminal.waitForWake(timeout: 5)
                        refreshState()
                        waited += 5
                    }
                    for command in Controller.handle(key, app: app, ui: &ui, width: terminal.width, height: terminal.height) {
                        switch command {
                        case .send(let event): send(event)
                        case .quit: break loop
                        case .suspend:
                            logger.info("suspended")
                            terminal.suspend()
                        case .redraw: terminal.invalidate()
                        case .nextScenarioStep:
                            guard let scenario, let presenter = ui.presenter, !presenter.isFinished, stepTask == nil else { continue }
                            let index = presenter.played
                            ui.message = "playing: \(presenter.steps[index])"
                            stepTask = Task.detached {
                                let result = await scenario.play(stepAt: index, on: runtime)
                                mailbox.post(nil, stepResult: StateMailbox.StepResult(index: index, passed: result.passed, summary: result.summary))
                                bridge.yield(.changed)
                            }
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
        mailbox.disconnect()
        bridge.finish()
        bridging.cancel()
        observing.cancel()
        stepTask?.cancel()
        terminal.stop()
        logger.info("terminal restored")
        return endingSignal
    }

    /// The event's case name, without its values (which may hold passwords).
    static func name(of event: AppEvent) -> String {
        String(String(describing: event).prefix { $0 != "(" })
    }
}
