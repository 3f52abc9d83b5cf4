import ActionFlowClient
import ActionFlowCommands
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import ActionFlowTUI
import ArgumentParser
import CTerminalSupport
import Foundation
import Logging
import Synchronization

/// `serve --inspect`: the server runs in the background and the interface watches its traffic,
/// read as `import` reads a capture; `q` stops the server and `--save` writes the session.
extension ServeCommand {
    @MainActor
    func runInspecting(api: EmulatorAPI, limits: ServerLimits, forwarder: UpstreamForwarder?, project: ProjectConfiguration) async throws {
        let feed: TrafficFeed
        do throws(SessionFileError) {
            feed = try TrafficFeed(capture: LiveCapture(project: project, source: "serve --inspect"), savingTo: save, mail: { api.sentMail() })
        } catch {
            throw failing("actionflow serve: \(error)")
        }
        // The interface is the log: the server's own lines would draw over it.
        let quietLogger = Logger(label: "actionflow.serve") { _ in SwiftLogNoOpLogHandler() }
        let server = AuthEmulatorServer(api: api, host: host, port: port, limits: limits, logger: quietLogger, upstream: forwarder,
                                        observer: ExchangeObserver { feed.observe($0) })
        let running: RunningEmulatorServer
        do {
            running = try await server.start()
        } catch {
            throw failing("actionflow serve: could not listen on \(host):\(port) (\(error))", ExitCode(1))
        }
        let served = EmulatorAddress(host: host, port: running.port)
        // Short enough for the status line at 80 columns, with the clock beside it.
        let summary = forwarder.map { "inspect \(served) → \($0.address)" } ?? "serve --inspect \(served)"
        let reach = listensOnLoopbackOnly ? "listening" : "listening where other machines can reach it"
        let notice = "\(reach): export \(RESTTransportConfiguration.emulatorHostVariable)=\(served)" + (forwarder.map { ", forwarded to \($0.address)" } ?? "")
        var options = interfaceOptions
        options.notice = notice
        let terminal: CursesTerminal
        do {
            terminal = try startInspectorTerminal()
        } catch {
            await running.stop()
            throw error
        }
        // Made once logging goes to --log-file.
        let application = TUIApplication(watching: feed.start, transportSummary: summary, options: options, logger: Logger(label: "actionflow.inspect"))
        feed.connect { application.observe($0) }
        let endingSignal = await application.run(on: terminal)
        // What came in after the interface stopped is read into the saved session too.
        feed.disconnect()
        let unshown = application.takeUnshownTraffic()
        await running.stop()
        let seen = await feed.finish()
        var current = application.finalSession ?? feed.start
        for event in unshown + seen.unshown { _ = current.reduce(event) }
        current.forgetEarly(keepingFacts: Interface.watchedEvents, mail: Interface.watchedMail)
        var outcome = "actionflow serve --inspect: stopped after \(seen.entries) request\(seen.entries == 1 ? "" : "s") (\(seen.calls) Identity Toolkit call\(seen.calls == 1 ? "" : "s"), \(seen.links) action link\(seen.links == 1 ? "" : "s"))"
        do throws(SessionFileError) {
            if let saved = try feed.save(current: current) {
                outcome += "; saved \(saved.events) event\(saved.events == 1 ? "" : "s") to \(saved.path) (replay or export it)"
            }
        } catch {
            throw failing("actionflow serve: \(error)", ExitCode(1))
        }
        print(UntrustedText.sanitize(outcome))
        if let endingSignal { ts_reraise(endingSignal) }
    }
}

/// Hands each exchange the server answered to the live capture, the spool and the interface,
/// one at a time and in the order the server finished them. The server only queues it: reading
/// it is done on a task of its own, off the server's threads.
final class TrafficFeed: Sendable {
    private struct State {
        var capture: LiveCapture
        var spool: SessionSpool?
        var sink: (@Sendable ([AppEvent]) -> Void)?
        /// Events seen before the interface was connected.
        var waiting: [AppEvent] = []
        /// How many of each project's emails are read (a project restarted starts again at 0).
        var mailRead: [String: Int] = [:]
    }

    /// The state, shared with the reading task.
    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: sending State) { self.state = Mutex(state) }
    }

    private let shared: Shared
    let start: Session
    private let queue: AsyncStream<ServedExchange>.Continuation
    private let reader: Task<Void, Never>

    /// With `savingTo`, every event also goes to a spool beside that file. `mail` gives the
    /// emails the server sent, by project: read after each exchange, they join the session.
    init(capture: LiveCapture, savingTo path: String?, mail: (@Sendable () -> [String: [MailMessage]])? = nil) throws(SessionFileError) {
        start = capture.start
        let spool = try path.map { path throws(SessionFileError) in try SessionSpool(path: path) }
        let shared = Shared(State(capture: capture, spool: spool))
        let (exchanges, queue) = AsyncStream.makeStream(of: ServedExchange.self)
        self.shared = shared
        self.queue = queue
        // Below the server's threads: under load the answers come first, the reading a moment later.
        reader = Task.detached(priority: .utility) {
            for await served in exchanges { Self.read(served, into: shared.state, mail: mail) }
        }
    }

    /// Writes the session file from the spool, if there is one: where, and how many events.
    func save(current: Session) throws(SessionFileError) -> (path: String, events: Int)? {
        let start = self.start
        return try shared.state.withLock { state throws(SessionFileError) -> (path: String, events: Int)? in
            guard let spool = state.spool else { return nil }
            try spool.finish(start: start, current: current)
            return (spool.path, spool.count)
        }
    }

    /// Called on the server's threads: queues the exchange and returns.
    func observe(_ served: ServedExchange) {
        queue.yield(served)
    }

    private static func read(_ served: ServedExchange, into state: borrowing Mutex<State>, mail: (@Sendable () -> [String: [MailMessage]])?) {
        let exchange = CapturedExchange(entry: 0, startedDateTime: nil, time: served.milliseconds, method: served.request.method, url: served.url,
                                        requestHeaders: served.request.headers, requestBody: served.request.body,
                                        status: served.response.status, responseHeaders: served.responseHeaders, responseBody: served.response.body)
        // Only a call that can send one looks for new mail: a mailbox is copied to be read.
        let sent = served.url.contains("sendOobCode") || served.url.contains("getOobConfirmationCode") || served.url.contains(":update") || served.url.contains("setAccountInfo") || served.url.contains("resetPassword")
            ? mail?() : nil
        state.withLock { state in
            var events = state.capture.read(exchange, at: served.startedAt)
            for (projectId, messages) in (sent ?? [:]).sorted(by: { $0.key < $1.key }) {
                let read = state.mailRead[projectId] ?? 0
                // A project restarted (PUT config, a reset) begins its mailbox again.
                let from = read <= messages.count ? read : 0
                for message in messages[from...] { events += state.capture.read(sent: message) }
                state.mailRead[projectId] = messages.count
            }
            state.spool?.append(events, at: served.startedAt)
            if let sink = state.sink { sink(events) } else { state.waiting += events }
        }
    }

    func connect(_ sink: @escaping @Sendable ([AppEvent]) -> Void) {
        shared.state.withLock { state in
            state.sink = sink
            sink(state.waiting)
            state.waiting = []
        }
    }

    /// Stops handing events on: they are kept for `finish`.
    func disconnect() {
        shared.state.withLock { $0.sink = nil }
    }

    /// Reads what is still queued (the server has stopped): what was seen, and the events read
    /// since `disconnect`.
    func finish() async -> (entries: Int, calls: Int, links: Int, unshown: [AppEvent]) {
        queue.finish()
        await reader.value
        return shared.state.withLock { state in
            state.sink = nil
            defer { state.waiting = [] }
            return (state.capture.entries, state.capture.calls, state.capture.links, state.waiting)
        }
    }
}
