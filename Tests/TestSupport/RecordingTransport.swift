import ActionFlowModel
import ActionFlowTransport
import Foundation

/// Wraps any transport and records each Identity Toolkit call as an `ExchangeRecord` (the
/// network pane and transcripts), with secrets masked by `SecretMasking`. Mailbox, text messages,
/// clock and reset calls pass through unrecorded: they are no part of the protocol.
public final class RecordingTransport: AuthTransport, @unchecked Sendable {
    // `@unchecked`: the mutable state below is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [ExchangeRecord] = []
    private var nextID = 1
    private var observers: [Int: AsyncStream<ExchangeRecord>.Continuation] = [:]
    private var nextObserverID = 0

    public let base: any AuthTransport
    private let apiKey: String?
    /// Oldest records are dropped beyond this many, so long sessions stay small.
    public let capacity: Int

    /// `apiKey` is shown (masked) in each request line, as the `key` query parameter.
    public init(_ base: any AuthTransport, apiKey: String?, capacity: Int = 1000) {
        self.base = base
        self.apiKey = apiKey
        self.capacity = max(1, capacity)
    }

    public var summary: String { base.summary }
    public var capabilities: TransportCapabilities { base.capabilities }

    /// Every recorded exchange, oldest first.
    public func records() -> [ExchangeRecord] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// New exchanges as they complete, for as long as the caller iterates.
    public func updates() -> AsyncStream<ExchangeRecord> {
        let (stream, continuation) = AsyncStream.makeStream(of: ExchangeRecord.self, bufferingPolicy: .bufferingNewest(capacity))
        lock.lock()
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.lock()
            self.observers[id] = nil
            self.lock.unlock()
        }
        return stream
    }

    /// Forgets every record and numbers the next call 1 again, so the newest record's id is
    /// always the number of calls since the last clear, however many the capacity kept.
    public func clear() {
        lock.lock()
        stored.removeAll()
        nextID = 1
        lock.unlock()
    }

    // MARK: Recorded calls

    public func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply {
        let startedAt = await base.exchangeStartTime()
        let (result, duration) = await ExchangeRecord.timed { () async throws(AuthFailure) in try await base.perform(call) }
        append { id in
            ExchangeRecord(
                id: id, call.operation, request: WireBody(call.request), locale: call.locale, apiKey: apiKey,
                result: result.map { WireBody($0.response) }, startedAt: startedAt, duration: duration
            )
        }
        return try result.get()
    }

    // MARK: Pass-through

    public func mailbox() async throws(AuthFailure) -> [MailMessage] { try await base.mailbox() }
    public func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode] { try await base.textMessages() }
    public func now() async throws(AuthFailure) -> Date { try await base.now() }
    public func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date { try await base.advanceClock(by: seconds) }
    public func resetWorld() async throws(AuthFailure) { try await base.resetWorld() }

    /// A new world: its exchanges start again from 1.
    public func applyProject(_ project: ProjectConfiguration) async throws(AuthFailure) -> Date {
        let now = try await base.applyProject(project)
        clear()
        return now
    }

    // MARK: Recording

    private func append(_ make: (Int) -> ExchangeRecord) {
        lock.lock()
        let record = make(nextID)
        nextID += 1
        stored.append(record)
        if stored.count > capacity { stored.removeFirst(stored.count - capacity) }
        let listeners = Array(observers.values)
        lock.unlock()
        for listener in listeners { listener.yield(record) }
    }
}
