import Foundation

/// An Identity Toolkit operation with its wire request: what a transport performs.
public enum AuthCall: Sendable, Hashable, Codable {
    case signUp(SignUpRequest)
    case signInWithPassword(SignInWithPasswordRequest)
    /// `locale` travels as the `X-Firebase-Locale` header.
    case sendOobCode(SendOobCodeRequest, locale: String?)
    /// Checks the code when `newPassword` is nil, confirms the reset otherwise.
    case resetPassword(ResetPasswordRequest)
    case update(UpdateAccountRequest)
    case lookup(LookupRequest)
    case signInWithEmailLink(SignInWithEmailLinkRequest)
    /// v2 `accounts/mfaEnrollment:start`: a code sent by SMS to enroll a second factor.
    case startMfaEnrollment(StartMfaEnrollmentRequest)
    /// v2 `accounts/mfaEnrollment:finalize`: the factor enrolled with its code; new tokens.
    case finalizeMfaEnrollment(FinalizeMfaEnrollmentRequest)

    public var operation: IdentityToolkitOperation {
        switch self {
        case .signUp: .signUp
        case .signInWithPassword: .signInWithPassword
        case .sendOobCode: .sendOobCode
        case .resetPassword: .resetPassword
        case .update: .update
        case .lookup: .lookup
        case .signInWithEmailLink: .signInWithEmailLink
        case .startMfaEnrollment: .startMfaEnrollment
        case .finalizeMfaEnrollment: .finalizeMfaEnrollment
        }
    }

    /// The request body as it goes on the wire.
    public var request: any Encodable & Sendable {
        switch self {
        case .signUp(let request): request
        case .signInWithPassword(let request): request
        case .sendOobCode(let request, _): request
        case .resetPassword(let request): request
        case .update(let request): request
        case .lookup(let request): request
        case .signInWithEmailLink(let request): request
        case .startMfaEnrollment(let request): request
        case .finalizeMfaEnrollment(let request): request
        }
    }

    /// The `X-Firebase-Locale` header the call carries.
    public var locale: String? {
        if case .sendOobCode(_, let locale) = self { locale } else { nil }
    }
}

/// A successful reply, by response type.
public enum AuthReply: Sendable, Hashable, Codable {
    case signedIn(SignInResponse)
    case oobCodeSent(SendOobCodeResponse)
    case passwordReset(ResetPasswordResponse)
    case updated(UpdateAccountResponse)
    case lookedUp(LookupResponse)
    case mfaEnrollmentStarted(StartMfaEnrollmentResponse)
    case mfaEnrolled(MfaTokensResponse)

    /// The response body as it comes off the wire.
    public var response: any Encodable & Sendable {
        switch self {
        case .signedIn(let response): response
        case .oobCodeSent(let response): response
        case .passwordReset(let response): response
        case .updated(let response): response
        case .lookedUp(let response): response
        case .mfaEnrollmentStarted(let response): response
        case .mfaEnrolled(let response): response
        }
    }
}

/// A call with its reply, typed per operation, so that every handler covers every call.
public enum CallReply: Sendable, Hashable {
    case signUp(SignUpRequest, SignInResponse)
    case signInWithPassword(SignInWithPasswordRequest, SignInResponse)
    case sendOobCode(SendOobCodeRequest, locale: String?, SendOobCodeResponse)
    case resetPassword(ResetPasswordRequest, ResetPasswordResponse)
    case update(UpdateAccountRequest, UpdateAccountResponse)
    case lookup(LookupRequest, LookupResponse)
    case signInWithEmailLink(SignInWithEmailLinkRequest, SignInResponse)
    case startMfaEnrollment(StartMfaEnrollmentRequest, StartMfaEnrollmentResponse)
    case finalizeMfaEnrollment(FinalizeMfaEnrollmentRequest, MfaTokensResponse)

    /// Pairs a call with its reply; nil when the reply is of another operation's type.
    public init?(_ call: AuthCall, _ reply: AuthReply) {
        switch (call, reply) {
        case (.signUp(let request), .signedIn(let response)): self = .signUp(request, response)
        case (.signInWithPassword(let request), .signedIn(let response)): self = .signInWithPassword(request, response)
        case (.sendOobCode(let request, let locale), .oobCodeSent(let response)): self = .sendOobCode(request, locale: locale, response)
        case (.resetPassword(let request), .passwordReset(let response)): self = .resetPassword(request, response)
        case (.update(let request), .updated(let response)): self = .update(request, response)
        case (.lookup(let request), .lookedUp(let response)): self = .lookup(request, response)
        case (.signInWithEmailLink(let request), .signedIn(let response)): self = .signInWithEmailLink(request, response)
        case (.startMfaEnrollment(let request), .mfaEnrollmentStarted(let response)): self = .startMfaEnrollment(request, response)
        case (.finalizeMfaEnrollment(let request), .mfaEnrolled(let response)): self = .finalizeMfaEnrollment(request, response)
        default: return nil
        }
    }

    /// The call that was answered.
    public var call: AuthCall {
        switch self {
        case .signUp(let request, _): .signUp(request)
        case .signInWithPassword(let request, _): .signInWithPassword(request)
        case .sendOobCode(let request, let locale, _): .sendOobCode(request, locale: locale)
        case .resetPassword(let request, _): .resetPassword(request)
        case .update(let request, _): .update(request)
        case .lookup(let request, _): .lookup(request)
        case .signInWithEmailLink(let request, _): .signInWithEmailLink(request)
        case .startMfaEnrollment(let request, _): .startMfaEnrollment(request)
        case .finalizeMfaEnrollment(let request, _): .finalizeMfaEnrollment(request)
        }
    }
}

/// A request or response body of whichever operation, encoded as the wire carries it.
public struct WireBody: Encodable, Sendable {
    public let value: any Encodable & Sendable

    public init(_ value: any Encodable & Sendable) {
        self.value = value
    }

    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
