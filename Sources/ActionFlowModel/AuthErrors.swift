import Foundation
/// A server error code as it appears on the wire (`message` left of the first `:`).
/// A struct, not an enum, so that codes this tool does not know survive intact.
public struct AuthErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let invalidContinueURI = AuthErrorCode("INVALID_CONTINUE_URI")
    public static let unauthorizedDomain = AuthErrorCode("UNAUTHORIZED_DOMAIN")
    public static let missingContinueURI = AuthErrorCode("MISSING_CONTINUE_URI")
    public static let missingIOSBundleID = AuthErrorCode("MISSING_IOS_BUNDLE_ID")
    public static let missingAndroidPackageName = AuthErrorCode("MISSING_ANDROID_PACKAGE_NAME")
    public static let invalidDynamicLinkDomain = AuthErrorCode("INVALID_DYNAMIC_LINK_DOMAIN")
    public static let invalidHostingLinkDomain = AuthErrorCode("INVALID_HOSTING_LINK_DOMAIN")
    public static let emailNotFound = AuthErrorCode("EMAIL_NOT_FOUND")
    public static let userNotFound = AuthErrorCode("USER_NOT_FOUND")
    public static let invalidOobCode = AuthErrorCode("INVALID_OOB_CODE")
    public static let expiredOobCode = AuthErrorCode("EXPIRED_OOB_CODE")
    public static let weakPassword = AuthErrorCode("WEAK_PASSWORD")
    public static let userDisabled = AuthErrorCode("USER_DISABLED")
    public static let tooManyAttempts = AuthErrorCode("TOO_MANY_ATTEMPTS_TRY_LATER")
    public static let resetPasswordExceedLimit = AuthErrorCode("RESET_PASSWORD_EXCEED_LIMIT")
    public static let invalidEmail = AuthErrorCode("INVALID_EMAIL")
    public static let missingEmail = AuthErrorCode("MISSING_EMAIL")
    public static let emailExists = AuthErrorCode("EMAIL_EXISTS")
    public static let invalidPassword = AuthErrorCode("INVALID_PASSWORD")
    public static let invalidLoginCredentials = AuthErrorCode("INVALID_LOGIN_CREDENTIALS")
    public static let missingPassword = AuthErrorCode("MISSING_PASSWORD")
    public static let invalidIDToken = AuthErrorCode("INVALID_ID_TOKEN")
    public static let tokenExpired = AuthErrorCode("TOKEN_EXPIRED")
    public static let missingOobCode = AuthErrorCode("MISSING_OOB_CODE")
    public static let missingRequestType = AuthErrorCode("MISSING_REQ_TYPE")
    public static let invalidAPIKey = AuthErrorCode("INVALID_API_KEY")
    public static let invalidArgument = AuthErrorCode("INVALID_ARGUMENT")
    public static let insufficientPermission = AuthErrorCode("INSUFFICIENT_PERMISSION")
}

/// Why a transport call failed below the protocol: the user can retry these.
public enum NetworkFailure: Sendable, Hashable, Codable {
    case connectionRefused(host: String)
    case timedOut(seconds: Double)
    case dnsFailure(host: String)
    case tlsFailure(String)
    case httpStatus(Int, body: String)
    case malformedResponse(String)
    /// Injected by the fault decorator or a dropped connection.
    case connectionLost(String)
    /// The transport cannot do this (for example the simulated clock against production).
    case unsupported(String)
}

/// Every way an auth call can fail, as the flow sees it.
public enum AuthFailure: Error, Sendable, Hashable, Codable {
    /// The server answered with an error envelope; `detail` is the text after `CODE :`.
    case server(AuthErrorCode, detail: String?)
    case network(NetworkFailure)

    public var serverCode: AuthErrorCode? {
        if case .server(let code, _) = self { code } else { nil }
    }

    /// The wire `message` for a server error: `CODE` or `CODE : detail`.
    public var wireMessage: String {
        switch self {
        case .server(let code, let detail?): "\(code.rawValue) : \(detail)"
        case .server(let code, nil): code.rawValue
        case .network(let failure): "\(failure)"
        }
    }

    /// Splits a server `message` at the first `:` as the SDKs do.
    public static func fromWireMessage(_ message: String) -> AuthFailure {
        guard let colon = message.firstIndex(of: ":") else {
            return .server(AuthErrorCode(message.trimmingWhitespace()), detail: nil)
        }
        let code = message[..<colon].trimmingWhitespace()
        let detail = message[message.index(after: colon)...].trimmingWhitespace()
        return .server(AuthErrorCode(code), detail: detail.isEmpty ? nil : detail)
    }
}

/// Client-side validation errors raised by the SDKs before any request (docs/sdk-profiles.md).
public struct SettingsValidationError: Error, Sendable, Hashable, Codable {
    /// The JS SDK's `auth/...` code, e.g. `auth/invalid-continue-uri`.
    public var code: String
    /// The settings field at fault, e.g. `url`.
    public var field: String
    public var message: String
}
