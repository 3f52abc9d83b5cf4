import ActionFlowModel
import ActionFlowTransport
import Foundation

/// Runs the effects the reducer returns for a remote world, one at a time, on a transport.
/// Replies come back as events, in the order a reducer must see them.
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
                let reply: AppEvent = switch result {
                case .success(let reply): .callSucceeded(call, by: caller, reply)
                case .failure(let failure): .callFailed(call, by: caller, failure)
                }
                return [.exchangeRecorded(record, call.operation, by: caller), reply]
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

/// A session driven headless: each event is reduced and every effect it causes has run, and
/// its replies been reduced, before `send` returns. Every event is kept, so the session can be
/// saved as a recording.
public struct SessionDriver: Sendable {
    public private(set) var session: Session
    /// The session before the first event kept.
    public private(set) var start: Session
    /// Every event reduced since `start`: user intents, and the replies of a remote world.
    public private(set) var events: [AppEvent] = []
    /// When each event was reduced; nil when a loaded recording did not say.
    public private(set) var times: [Date]? = []
    public let remote: RemoteEffects?

    public init(session: Session, remote: RemoteEffects?) {
        self.init(SessionRecording(start: session, events: [], current: session), remote: remote)
    }

    /// Goes on from a saved recording.
    public init(_ recording: SessionRecording, remote: RemoteEffects?) {
        session = recording.current
        start = recording.start
        events = recording.events
        times = recording.events.isEmpty ? [] : recording.times
        self.remote = remote
    }

    public mutating func send(_ event: AppEvent) async {
        var effects = reduce(event)
        while !effects.isEmpty {
            let effect = effects.removeFirst()
            guard let remote else { continue }
            for reply in await remote.run(effect) {
                effects += reduce(reply)
            }
        }
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

    /// Reduces one event and keeps it; returns the effects a remote world still has to run.
    public mutating func reduce(_ event: AppEvent) -> [Effect] {
        events.append(event)
        times?.append(.recordable())
        return session.reduce(event)
    }
}
