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

    // MARK: Recorded operations

    public func signUp(_ request: SignUpRequest) async throws(AuthFailure) -> SignInResponse {
        try await exchange(.signUp, request) { () async throws(AuthFailure) in try await base.signUp(request) }
    }

    public func signInWithPassword(_ request: SignInWithPasswordRequest) async throws(AuthFailure) -> SignInResponse {
        try await exchange(.signInWithPassword, request) { () async throws(AuthFailure) in try await base.signInWithPassword(request) }
    }

    public func sendOobCode(_ request: SendOobCodeRequest, locale: String?) async throws(AuthFailure) -> SendOobCodeResponse {
        try await exchange(.sendOobCode, request, locale: locale) { () async throws(AuthFailure) in try await base.sendOobCode(request, locale: locale) }
    }

    public func resetPassword(_ request: ResetPasswordRequest) async throws(AuthFailure) -> ResetPasswordResponse {
        try await exchange(.resetPassword, request) { () async throws(AuthFailure) in try await base.resetPassword(request) }
    }

    public func update(_ request: UpdateAccountRequest) async throws(AuthFailure) -> UpdateAccountResponse {
        try await exchange(.update, request) { () async throws(AuthFailure) in try await base.update(request) }
    }

    public func lookup(_ request: LookupRequest) async throws(AuthFailure) -> LookupResponse {
        try await exchange(.lookup, request) { () async throws(AuthFailure) in try await base.lookup(request) }
    }

    public func signInWithEmailLink(_ request: SignInWithEmailLinkRequest) async throws(AuthFailure) -> SignInResponse {
        try await exchange(.signInWithEmailLink, request) { () async throws(AuthFailure) in try await base.signInWithEmailLink(request) }
    }

    public func startMfaEnrollment(_ request: StartMfaEnrollmentRequest) async throws(AuthFailure) -> StartMfaEnrollmentResponse {
        try await exchange(.startMfaEnrollment, request) { () async throws(AuthFailure) in try await base.startMfaEnrollment(request) }
    }

    public func finalizeMfaEnrollment(_ request: FinalizeMfaEnrollmentRequest) async throws(AuthFailure) -> MfaTokensResponse {
        try await exchange(.finalizeMfaEnrollment, request) { () async throws(AuthFailure) in try await base.finalizeMfaEnrollment(request) }
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

    private func exchange<Request: Encodable, Response: Encodable>(
        _ operation: IdentityToolkitOperation, _ request: Request, locale: String? = nil,
        _ call: () async throws(AuthFailure) -> Response
    ) async throws(AuthFailure) -> Response {
        let startedAt = await base.exchangeStartTime()
        let (result, duration) = await ExchangeRecord.timed(call)
        append { id in
            ExchangeRecord(id: id, operation, request: request, locale: locale, apiKey: apiKey, result: result, startedAt: startedAt, duration: duration)
        }
        return try result.get()
    }

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
