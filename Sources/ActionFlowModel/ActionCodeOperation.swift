/// The `mode` of an action link and the iOS `ActionCodeOperation` it maps to (docs/sdk-profiles.md).
public enum ActionCodeOperation: String, Sendable, Codable, CaseIterable {
    case passwordReset
    case verifyEmail
    case recoverEmail
    case emailLink
    case verifyAndChangeEmail
    case revertSecondFactorAddition
    case unknown

    /// Parses a `mode` query value; anything unrecognised is `.unknown` (whose `mode` is nil).
    public init(mode: String) {
        self = Self.allCases.first { $0.mode == mode } ?? .unknown
    }

    /// The `mode` query value, nil for `.unknown`.
    public var mode: String? {
        switch self {
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .recoverEmail: "recoverEmail"
        case .emailLink: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .revertSecondFactorAddition: "revertSecondFactorAddition"
        case .unknown: nil
        }
    }

    public init(requestType: OobRequestType) {
        switch requestType {
        case .passwordReset: self = .passwordReset
        case .verifyEmail: self = .verifyEmail
        case .emailSignIn: self = .emailLink
        case .verifyAndChangeEmail: self = .verifyAndChangeEmail
        case .recoverEmail: self = .recoverEmail
        case .revertSecondFactorAddition: self = .revertSecondFactorAddition
        }
    }
}

/// `requestType` of `accounts:sendOobCode`, and of the `accounts:resetPassword` check response.
public enum OobRequestType: String, Sendable, Codable, CaseIterable {
    case passwordReset = "PASSWORD_RESET"
    case verifyEmail = "VERIFY_EMAIL"
    case emailSignIn = "EMAIL_SIGNIN"
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    case recoverEmail = "RECOVER_EMAIL"
    case revertSecondFactorAddition = "REVERT_SECOND_FACTOR_ADDITION"
}
