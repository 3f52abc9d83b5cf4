import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// Runs effects on a transport (`EffectRunner` over REST).
public struct RemoteEffects: Sendable {
    public let transport: any AuthTransport
    /// Shown masked in each exchange's request line.
    public let apiKey: String?

    public init(transport: any AuthTransport, apiKey: String?) {
        self.transport = transport
        self.apiKey = apiKey
    }

    public func run(_ effect: Effect) async -> [AppEvent] {
        if case .onDevice(let index, let inner) = effect {
            return await run(inner).map { .onDevice(index, $0) }
        }
        do throws(AuthFailure) {
            switch effect {
            case .call(let call, let caller):
                let startedAt = await transport.exchangeStartTime()
                let (result, duration) = await ExchangeRecord.timed { () async throws(AuthFailure) -> AuthReply in
                    try await transport.perform(call)
                }
                let record = call.exchangeRecord(id: 0, apiKey: apiKey, result: result, startedAt: startedAt, duration: duration)
                return [.exchangeRecorded(record, call.operation, by: caller), result.reply(to: call, by: caller)]
            case .refreshMailbox:
                return [.mailboxRefreshed(try await transport.mailbox())]
            case .readTextMessages:
                return [.textMessagesRead(try await transport.textMessages())]
            case .advanceClock(let seconds):
                return [.clockAdvanced(try await transport.advanceClock(by: seconds))]
            case .resetWorld:
                try await transport.resetWorld()
                return [.worldReset(now: try? await transport.now())]
            case .applyProject(let project):
                return [.projectApplied(project, now: try await transport.applyProject(project))]
            case .onDevice:
                return []
            }
        } catch {
            return [.serviceFailed(effect, error)]
        }
    }
}

/// Runs the effects the reducer returns, one at a time, and gives back their replies as events,
/// in the order the reducer must see them: the same events in both worlds (the exchange, then
/// the reply), so that a recording replays without a backend.
///
/// Over the embedded world the simulated project lives here, behind the same calls a transport
/// takes (`SimulatedProject.perform`), and an effect runs synchronously and deterministically;
/// over REST it goes to the transport.
public struct EffectRunner: Sendable {
    /// The simulated project (embedded world), as it is now.
    public private(set) var simulated: SimulatedProject?
    /// The transport of a remote world.
    public let remote: RemoteEffects?

    public static func embedded(_ project: SimulatedProject) -> EffectRunner {
        EffectRunner(simulated: project, remote: nil)
    }

    public static func remote(_ remote: RemoteEffects) -> EffectRunner {
        EffectRunner(simulated: nil, remote: remote)
    }

    public var isEmbedded: Bool { simulated != nil }

    /// Runs `effect` now when the world is embedded; nil over REST, where it takes a wait.
    public mutating func runNow(_ effect: Effect) -> [AppEvent]? {
        guard simulated != nil else { return nil }
        return Self.run(effect, on: &simulated!)
    }

    public mutating func run(_ effect: Effect) async -> [AppEvent] {
        if let replies = runNow(effect) { return replies }
        return await remote?.run(effect) ?? []
    }

    private static func run(_ effect: Effect, on simulated: inout SimulatedProject) -> [AppEvent] {
        do throws(AuthFailure) {
            switch effect {
            case .onDevice(let index, let inner):
                return run(inner, on: &simulated).map { .onDevice(index, $0) }
            case .call(let call, let caller):
                let startedAt = simulated.now
                let mailBefore = simulated.mailbox.count
                let result: Result<AuthReply, AuthFailure>
                do throws(AuthFailure) {
                    result = .success(try simulated.perform(call))
                } catch {
                    result = .failure(error)
                }
                // An in-process call takes no time worth showing; a zero keeps replays identical.
                let record = call.exchangeRecord(id: 0, apiKey: simulated.configuration.apiKey, result: result, startedAt: startedAt, duration: 0)
                let sent = Array(simulated.mailbox.dropFirst(mailBefore))
                return [.exchangeRecorded(record, call.operation, by: caller)] + (sent.isEmpty ? [] : [.mailSent(sent)]) + [result.reply(to: call, by: caller)]
            case .refreshMailbox:
                return [.mailboxRefreshed(simulated.mailbox)]
            case .readTextMessages:
                return [.textMessagesRead(simulated.verificationCodes)]
            case .advanceClock(let seconds):
                return [.clockAdvanced(try simulated.advanceClock(by: seconds))]
            case .resetWorld:
                simulated.reset()
                return [.worldReset(now: simulated.now)]
            case .applyProject(let project):
                simulated = SimulatedProject(configuration: project)
                return [.projectApplied(project, now: simulated.now)]
            }
        } catch {
            return [.serviceFailed(effect, error)]
        }
    }
}

extension Result<AuthReply, AuthFailure> {
    /// The reply event of a call that ended so.
    func reply(to call: AuthCall, by caller: Caller) -> AppEvent {
        switch self {
        case .success(let reply): .callSucceeded(call, by: caller, reply)
        case .failure(let failure): .callFailed(call, by: caller, failure)
        }
    }
}

/// A session driven headless: each event is reduced and every effect it causes has run, and
/// its replies been reduced, before `send` returns. Every event is kept, replies included, so
/// the session can be saved as a recording and replayed without a backend.
public struct SessionDriver: Sendable {
    public private(set) var session: Session
    /// The session before the first event kept.
    public private(set) var start: Session
    /// Every event reduced since `start`: user intents and the world's replies.
    public private(set) var events: [AppEvent] = []
    /// When each event was reduced; nil when a loaded recording did not say.
    public private(set) var times: [Date]? = []
    /// Runs the effects; nil for a session only watched or replayed, which asks for none.
    public private(set) var runner: EffectRunner?
    /// The simulated project at `start` (embedded world only): a story starts over on it.
    public private(set) var startWorld: SimulatedProject?

    public init(session: Session, runner: EffectRunner?) {
        self.session = session
        start = session
        self.runner = runner
        startWorld = runner?.simulated
    }

    /// Goes on from a saved recording: one of the embedded world on its own simulated project,
    /// one of a remote world over `remote`.
    public init(_ recording: SessionRecording, remote: RemoteEffects?) {
        session = recording.current
        start = recording.start
        events = recording.events
        times = recording.events.isEmpty ? [] : recording.times
        if let worlds = recording.worlds {
            runner = .embedded(worlds.current)
            startWorld = worlds.start
        } else {
            runner = remote.map(EffectRunner.remote)
        }
    }

    /// A session on a fresh simulated project in this process.
    public static func embedded(project: ProjectConfiguration, devices: [SessionDevice]) -> SessionDriver {
        let runner = EffectRunner.embedded(SimulatedProject(configuration: project))
        return SessionDriver(session: .fresh(project: project, devices: devices, now: runner.simulated?.now, simulated: true), runner: runner)
    }

    public static func embedded(project: ProjectConfiguration, app: AppState) -> SessionDriver {
        embedded(project: project, devices: [SessionDevice(app: app)])
    }

    public var isEmbedded: Bool { runner?.isEmbedded ?? false }

    /// The session as it was at `start`, with no events: its world as it was then too.
    public var restarted: SessionDriver {
        var driver = SessionDriver(session: start, runner: startWorld.map(EffectRunner.embedded) ?? runner)
        driver.startWorld = startWorld
        return driver
    }

    /// Sends `event` and waits for the remote world's replies to every effect it causes.
    public mutating func send(_ event: AppEvent) async {
        var effects = sendNow(event)
        while !effects.isEmpty, runner != nil {
            let effect = effects.removeFirst()
            for reply in await runner!.run(effect) {
                effects += sendNow(reply)
            }
        }
    }

    /// Reduces `event` and runs what it asks of an embedded world now, replies and all;
    /// returns the effects left for a remote world's runner.
    public mutating func sendNow(_ event: AppEvent) -> [Effect] {
        var effects = reduce(event)
        var left: [Effect] = []
        while !effects.isEmpty {
            let effect = effects.removeFirst()
            guard let replies = runner?.runNow(effect) else {
                left.append(effect)
                continue
            }
            for reply in replies { effects += reduce(reply) }
        }
        return runner == nil ? [] : left
    }

    /// Keeps only the last `count` events: `start` moves on past the others, and both sessions
    /// forget their early facts (`Session.forgetEarly`). A live session's own file (`serve
    /// --inspect --save`) keeps every event; this keeps the interface's memory bounded.
    public mutating func forgetEarlierEvents(keepingLast count: Int, facts: Int, mail: Int) {
        guard events.count > count else { return }
        let dropped = events.count - count
        for event in events.prefix(dropped) { _ = start.reduce(event) }
        start.forgetEarly(keepingFacts: facts, mail: mail)
        events.removeFirst(dropped)
        if times != nil { times?.removeFirst(dropped) }
        session.forgetEarly(keepingFacts: facts, mail: mail)
    }

    /// Reduces one event and keeps it; returns the effects it asks for, not run.
    public mutating func reduce(_ event: AppEvent) -> [Effect] {
        events.append(event)
        times?.append(.recordable())
        return session.reduce(event)
    }
}
