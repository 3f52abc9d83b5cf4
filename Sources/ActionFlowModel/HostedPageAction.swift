/// What the hosted email action handler page (`/__/auth/action`, the "web widget") does when a
/// link opens it. The simulated phone's widget, the mail scanner's browser and `serve`'s page
/// all follow this one rule.
public enum HostedPageAction: Sendable, Equatable {
    /// Checks the reset code without consuming it (`resetPassword` with `oobCode` only), then
    /// asks for a new password.
    case checkResetCode
    /// Applies the code on load (`accounts:update` with `oobCode`), which consumes it.
    case applyCode
    /// Asks for the email the link was sent to; only then signs in (`signInWithEmailLink`),
    /// which consumes the code. A browser that cannot answer (a mail scanner) leaves it alone.
    case askEmailThenSignIn
    /// Nothing the page can do with this mode.
    case unsupported

    public init(_ operation: ActionCodeOperation) {
        switch operation {
        case .passwordReset: self = .checkResetCode
        // A revert removes the second factor on load, as the hosted widget applies it.
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition: self = .applyCode
        case .emailLink: self = .askEmailThenSignIn
        case .unknown: self = .unsupported
        }
    }
}
