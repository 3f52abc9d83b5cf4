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

/// The pluggable auth transport, shaped after the Identity Toolkit v1 operations. Requests and
/// responses mirror the JSON; failures carry the server's codes.
public protocol AuthTransport: Sendable {
    /// One line for the status bar, e.g. `embedded demo-actionflow` or `rest http://127.0.0.1:9099`.
    var summary: String { get }
    var capabilities: TransportCapabilities { get }

    func signUp(_ request: SignUpRequest) async throws(AuthFailure) -> SignInResponse
    func signInWithPassword(_ request: SignInWithPasswordRequest) async throws(AuthFailure) -> SignInResponse
    /// `locale` travels as the `X-Firebase-Locale` header.
    func sendOobCode(_ request: SendOobCodeRequest, locale: String?) async throws(AuthFailure) -> SendOobCodeResponse
    func resetPassword(_ request: ResetPasswordRequest) async throws(AuthFailure) -> ResetPasswordResponse
    func update(_ request: UpdateAccountRequest) async throws(AuthFailure) -> UpdateAccountResponse
    func lookup(_ request: LookupRequest) async throws(AuthFailure) -> LookupResponse
    func signInWithEmailLink(_ request: SignInWithEmailLinkRequest) async throws(AuthFailure) -> SignInResponse
    /// v2 `accounts/mfaEnrollment:start`: a code sent by SMS to enroll a second factor.
    func startMfaEnrollment(_ request: StartMfaEnrollmentRequest) async throws(AuthFailure) -> StartMfaEnrollmentResponse
    /// v2 `accounts/mfaEnrollment:finalize`: the factor enrolled with its code; new tokens.
    func finalizeMfaEnrollment(_ request: FinalizeMfaEnrollmentRequest) async throws(AuthFailure) -> MfaTokensResponse

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
