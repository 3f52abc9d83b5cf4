import ActionFlowModel
import ActionFlowTransport
import Foundation

/// One planned failure: the next `count` calls of `operation` (any operation when nil) fail.
public struct ScheduledFault: Sendable, Hashable {
    public enum Timing: Sendable, Hashable {
        /// The call never reaches the server: nothing changes there.
        case beforeRequest
        /// The server handles the call, then the answer is lost: a code may be consumed although
        /// the client saw an error.
        case afterResponse
    }

    public var operation: IdentityToolkitOperation?
    public var remaining: Int
    public var failure: AuthFailure
    public var timing: Timing

    public init(operation: IdentityToolkitOperation?, count: Int = 1, failure: AuthFailure, timing: Timing = .beforeRequest) {
        self.operation = operation
        self.remaining = max(0, count)
        self.failure = failure
        self.timing = timing
    }

    /// The next `count` calls of `operation` get the server error `code`.
    public static func serverError(_ code: AuthErrorCode, detail: String? = nil, on operation: IdentityToolkitOperation?, count: Int = 1) -> ScheduledFault {
        ScheduledFault(operation: operation, count: count, failure: .server(code, detail: detail))
    }

    public static func connectionLost(on operation: IdentityToolkitOperation?, count: Int = 1, timing: Timing = .beforeRequest) -> ScheduledFault {
        ScheduledFault(operation: operation, count: count, failure: .network(.connectionLost("connection lost (injected)")), timing: timing)
    }

    /// Reported at once, so tests stay fast; add latency to make the wait visible.
    public static func timeout(on operation: IdentityToolkitOperation?, seconds: Double = 30, count: Int = 1) -> ScheduledFault {
        ScheduledFault(operation: operation, count: count, failure: .network(.timedOut(seconds: seconds)))
    }
}

/// What to inject: latency for every call or per operation, and scheduled failures (first
/// matching fault wins; a fault is used up after `remaining` calls).
public struct FaultPlan: Sendable, Hashable {
    public var latency: Duration
    public var latencyByOperation: [IdentityToolkitOperation: Duration]
    public var faults: [ScheduledFault]

    public init(latency: Duration = .zero, latencyByOperation: [IdentityToolkitOperation: Duration] = [:], faults: [ScheduledFault] = []) {
        self.latency = latency
        self.latencyByOperation = latencyByOperation
        self.faults = faults
    }

    public static let none = FaultPlan()

    public func latency(for operation: IdentityToolkitOperation) -> Duration {
        latencyByOperation[operation] ?? latency
    }

    /// Takes one use of the first fault matching `operation`.
    mutating func takeFault(for operation: IdentityToolkitOperation) -> ScheduledFault? {
        guard let index = faults.firstIndex(where: { ($0.operation == nil || $0.operation == operation) && $0.remaining > 0 }) else {
            return nil
        }
        faults[index].remaining -= 1
        let fault = faults[index]
        if fault.remaining == 0 { faults.remove(at: index) }
        return fault
    }
}

/// Wraps any transport and injects latency and failures from a `FaultPlan` that demos and tests
/// can change while it runs. Mailbox, clock and reset calls pass through untouched.
public final class FaultInjectingTransport: AuthTransport, @unchecked Sendable {
    /// Waits for injected latency; tests pass one that records instead of sleeping.
    public typealias Sleeper = @Sendable (Duration) async -> Void

    // `@unchecked`: `currentPlan` is only touched under `lock`.
    private let lock = NSLock()
    private var currentPlan: FaultPlan
    public let base: any AuthTransport
    private let sleeper: Sleeper

    public init(_ base: any AuthTransport, plan: FaultPlan = .none, sleeper: @escaping Sleeper = FaultInjectingTransport.taskSleep) {
        self.base = base
        self.currentPlan = plan
        self.sleeper = sleeper
    }

    public static let taskSleep: Sleeper = { duration in
        try? await Task.sleep(for: duration)
    }

    public var summary: String { base.summary }
    public var capabilities: TransportCapabilities { base.capabilities }

    public var plan: FaultPlan {
        get {
            lock.lock()
            defer { lock.unlock() }
            return currentPlan
        }
        set {
            lock.lock()
            currentPlan = newValue
            lock.unlock()
        }
    }

    /// Adds a fault after those already planned.
    public func schedule(_ fault: ScheduledFault) {
        lock.lock()
        currentPlan.faults.append(fault)
        lock.unlock()
    }

    public func setLatency(_ latency: Duration, for operation: IdentityToolkitOperation? = nil) {
        lock.lock()
        if let operation { currentPlan.latencyByOperation[operation] = latency } else { currentPlan.latency = latency }
        lock.unlock()
    }

    // MARK: Operations

    public func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply {
        let (latency, fault) = takePlanned(call.operation)
        if latency > .zero { await sleeper(latency) }
        guard let fault else { return try await base.perform(call) }
        if fault.timing == .afterResponse { _ = try? await base.perform(call) }
        throw fault.failure
    }

    public func mailbox() async throws(AuthFailure) -> [MailMessage] { try await base.mailbox() }
    public func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode] { try await base.textMessages() }
    public func now() async throws(AuthFailure) -> Date { try await base.now() }
    public func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date { try await base.advanceClock(by: seconds) }
    public func resetWorld() async throws(AuthFailure) { try await base.resetWorld() }
    public func applyProject(_ project: ProjectConfiguration) async throws(AuthFailure) -> Date { try await base.applyProject(project) }

    private func takePlanned(_ operation: IdentityToolkitOperation) -> (Duration, ScheduledFault?) {
        lock.lock()
        defer { lock.unlock() }
        return (currentPlan.latency(for: operation), currentPlan.takeFault(for: operation))
    }
}
