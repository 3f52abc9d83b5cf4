import ActionFlowBackend
import ActionFlowModel
import Foundation

/// The default transport: a `SimulatedProject` in the same process, no network, no sleeps.
///
/// A final class around one project value guarded by a lock rather than an actor: calls are
/// short and synchronous, and the benchmark runs thousands of full flows per second.
public final class EmbeddedTransport: AuthTransport, @unchecked Sendable {
    // `@unchecked`: `project` is only touched inside `withProject`, under `lock`.
    private let lock = NSLock()
    private var project: SimulatedProject

    public init(project: SimulatedProject) {
        self.project = project
    }

    /// The configuration of the project as it is now (a project edit replaces it).
    public var configuration: ProjectConfiguration {
        snapshotValue(\.configuration)
    }

    public convenience init(configuration: ProjectConfiguration, behaviour: ServeBehaviour = .production) {
        self.init(project: SimulatedProject(configuration: configuration, behaviour: behaviour))
    }

    public var summary: String { "embedded \(configuration.projectId)" }

    public var capabilities: TransportCapabilities {
        TransportCapabilities(listsMailbox: true, controlsClock: true, resetsWorld: true)
    }

    /// Runs `body` on the project under the lock.
    public func withProject<Result>(_ body: (inout SimulatedProject) throws(AuthFailure) -> Result) throws(AuthFailure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&project)
    }

    /// A copy of the project as it is now (for inspection and tests).
    public var snapshot: SimulatedProject {
        lock.lock()
        defer { lock.unlock() }
        return project
    }

    /// The ActionCodeSettings a code was requested with.
    public func settings(forOobCode code: String) -> ActionCodeSettings? {
        snapshotValue { $0.settings(forOobCode: code) }
    }

    /// Every code issued so far, oldest first.
    public func issuedCodes() -> [IssuedOobCode] {
        snapshotValue { $0.issuedCodes }
    }

    private func snapshotValue<Value>(_ read: (SimulatedProject) -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return read(project)
    }

    public func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply {
        try withProject { (project) throws(AuthFailure) in try project.perform(call) }
    }

    public func mailbox() async throws(AuthFailure) -> [MailMessage] {
        snapshotValue(\.mailbox)
    }

    public func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode] {
        snapshotValue(\.verificationCodes)
    }

    public func now() async throws(AuthFailure) -> Date {
        snapshotValue(\.now)
    }

    public func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date {
        try withProject { (project) throws(AuthFailure) in try project.advanceClock(by: seconds) }
    }

    public func resetWorld() async throws(AuthFailure) {
        try withProject { (project) throws(AuthFailure) in project.reset() }
    }

    public func applyProject(_ configuration: ProjectConfiguration) async throws(AuthFailure) -> Date {
        try withProject { (project) throws(AuthFailure) in
            // The behaviour and tenant stay; the server's address and wall clock too.
            // The users the configuration lists were asked for, even where a project starts empty.
            let presetUsers = project.behaviour == .emulator && project.tenant == nil ? true : nil
            var fresh = SimulatedProject(configuration: configuration, behaviour: project.behaviour, tenant: project.tenant, presetUsers: presetUsers)
            fresh.adoptHostReadings(from: project)
            project = fresh
            return project.now
        }
    }
}
