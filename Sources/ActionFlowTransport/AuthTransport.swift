import ActionFlowModel
import Foundation

/// What a transport can do beyond the client API.
public struct TransportCapabilities: Sendable, Hashable {
    /// The sent emails can be listed (embedded project, `serve`, Auth Emulator). Otherwise the
    /// user pastes links from a real inbox.
    public var listsMailbox: Bool
    /// The project's clock can be read and advanced (embedded project and `serve`).
    public var controlsClock: Bool
    /// Users, codes, mailbox and clock can be reset to the project's start.
    public var resetsWorld: Bool
    public init(listsMailbox: Bool, controlsClock: Bool, resetsWorld: Bool) {
        self.listsMailbox = listsMailbox
        self.controlsClock = controlsClock
        self.resetsWorld = resetsWorld
    }
}

/// The pluggable auth transport: every Identity Toolkit operation is one `perform`, its request
/// and response mirroring the JSON, its failures carrying the server's codes. The rest is the
/// emulator's own API (mailbox, SMS codes, clock, reset, configuration), where the server has it.
public protocol AuthTransport: Sendable {
    /// One line for the status bar, e.g. `embedded demo-actionflow` or `rest http://127.0.0.1:9099`.
    var summary: String { get }
    var capabilities: TransportCapabilities { get }

    /// One Identity Toolkit call.
    func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply

    /// The SMS codes sent and not used yet, oldest first, as the emulator lists them at
    /// `verificationCodes` (needs `capabilities.listsMailbox`).
    func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode]

    /// Every email sent so far, oldest first (needs `capabilities.listsMailbox`).
    func mailbox() async throws(AuthFailure) -> [MailMessage]
    /// The project's current time (the simulated clock where there is one).
    func now() async throws(AuthFailure) -> Date
    /// Moves the simulated clock forward (needs `capabilities.controlsClock`); returns the new time.
    func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date
    /// Back to the project's start: preset users, no codes, empty mailbox, clock at its start.
    func resetWorld() async throws(AuthFailure)
    /// Restarts the world with another project configuration (users, codes, mailbox, clock);
    /// returns the new clock time. Fails with `.network(.unsupported)` where the server cannot.
    func applyProject(_ project: ProjectConfiguration) async throws(AuthFailure) -> Date
}
