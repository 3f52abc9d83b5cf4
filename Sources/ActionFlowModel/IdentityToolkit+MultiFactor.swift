import Foundation

// Identity Toolkit v2 multi-factor requests and responses, as the Auth Emulator's `apiSpec.ts`
// names them (`GoogleCloudIdentitytoolkitV2StartMfaEnrollmentRequest` and the rest): SMS, and
// TOTP as the JS SDK sends it (firebase-js-sdk `packages/auth/src/api/account_management/mfa.ts:114-165`,
// `packages/auth/src/api/authentication/mfa.ts:88-99`).

/// `totpEnrollmentInfo` and `totpInfo`: an empty object that names the factor.
public struct TotpMarker: Sendable, Hashable, Codable {
    public init() {}
}

public struct TotpVerificationInfo: Sendable, Hashable, Codable {
    /// Enrollment only: the session `mfaEnrollment:start` gave.
    public var sessionInfo: String?
    public var verificationCode: String?
}

/// What `mfaEnrollment:start` answers for TOTP: the secret for the authenticator app.
public struct TotpSessionInfo: Sendable, Hashable, Codable {
    /// Base32, as an `otpauth://` URI carries it (`mfa/assertions/totp.ts:269`).
    public var sharedSecretKey: String
    public var verificationCodeLength: Int
    public var hashingAlgorithm: String
    public var periodSec: Int
    public var sessionInfo: String
    /// ISO 8601: the JS SDK reads it with `new Date(...)` (`mfa/assertions/totp.ts:235`).
    public var finalizeEnrollmentTime: String
    public init(sharedSecretKey: String, verificationCodeLength: Int, hashingAlgorithm: String, periodSec: Int, sessionInfo: String, finalizeEnrollmentTime: String) {
        self.sharedSecretKey = sharedSecretKey
        self.verificationCodeLength = verificationCodeLength
        self.hashingAlgorithm = hashingAlgorithm
        self.periodSec = periodSec
        self.sessionInfo = sessionInfo
        self.finalizeEnrollmentTime = finalizeEnrollmentTime
    }
}

public struct PhoneEnrollmentInfo: Sendable, Hashable, Codable {
    public var phoneNumber: String?
    public init(phoneNumber: String?) { self.phoneNumber = phoneNumber }
}

public struct PhoneVerificationInfo: Sendable, Hashable, Codable {
    public var sessionInfo: String?
    public var code: String?
    public init(sessionInfo: String?, code: String?) {
        self.sessionInfo = sessionInfo
        self.code = code
    }
}

/// `POST /v2/accounts/mfaEnrollment:start`.
public struct StartMfaEnrollmentRequest: Sendable, Hashable, Codable {
    public var idToken: String?
    public var phoneEnrollmentInfo: PhoneEnrollmentInfo?
    public var totpEnrollmentInfo: TotpMarker?
    public var tenantId: String?
    public init(idToken: String?, phoneEnrollmentInfo: PhoneEnrollmentInfo? = nil, totpEnrollmentInfo: TotpMarker? = nil, tenantId: String? = nil) {
        self.idToken = idToken
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
        self.totpEnrollmentInfo = totpEnrollmentInfo
        self.tenantId = tenantId
    }
}

/// `POST /v2/accounts/mfaEnrollment:finalize`.
public struct FinalizeMfaEnrollmentRequest: Sendable, Hashable, Codable {
    public var idToken: String?
    public var displayName: String?
    public var phoneVerificationInfo: PhoneVerificationInfo?
    public var totpVerificationInfo: TotpVerificationInfo?
    public var tenantId: String?
    public init(idToken: String?, displayName: String? = nil, phoneVerificationInfo: PhoneVerificationInfo? = nil, totpVerificationInfo: TotpVerificationInfo? = nil, tenantId: String? = nil) {
        self.idToken = idToken
        self.displayName = displayName
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
        self.tenantId = tenantId
    }
}

/// `POST /v2/accounts/mfaEnrollment:withdraw`.
public struct WithdrawMfaRequest: Sendable, Hashable, Codable {
    public var idToken: String?
    public var mfaEnrollmentId: String?
    public var tenantId: String?
}

/// `POST /v2/accounts/mfaSignIn:start`.
public struct StartMfaSignInRequest: Sendable, Hashable, Codable {
    public var mfaPendingCredential: String?
    public var mfaEnrollmentId: String?
    public var tenantId: String?
}

/// `POST /v2/accounts/mfaSignIn:finalize`.
public struct FinalizeMfaSignInRequest: Sendable, Hashable, Codable {
    public var mfaPendingCredential: String?
    public var phoneVerificationInfo: PhoneVerificationInfo?
    /// TOTP sign-in has no start: the factor is named here.
    public var mfaEnrollmentId: String?
    public var totpVerificationInfo: TotpVerificationInfo?
    public var tenantId: String?
}

/// Where the "SMS" code was sent: `phoneSessionInfo` (enrollment) or `phoneResponseInfo` (sign-in).
public struct PhoneSessionInfo: Sendable, Hashable, Codable {
    public var sessionInfo: String
    public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
}

public struct StartMfaEnrollmentResponse: Sendable, Hashable, Codable {
    public var phoneSessionInfo: PhoneSessionInfo?
    public var totpSessionInfo: TotpSessionInfo?
    public init(phoneSessionInfo: PhoneSessionInfo? = nil, totpSessionInfo: TotpSessionInfo? = nil) {
        self.phoneSessionInfo = phoneSessionInfo
        self.totpSessionInfo = totpSessionInfo
    }
}

public struct StartMfaSignInResponse: Sendable, Hashable, Codable {
    public var phoneResponseInfo: PhoneSessionInfo
    public init(phoneResponseInfo: PhoneSessionInfo) { self.phoneResponseInfo = phoneResponseInfo }
}

/// The tokens a finished enrollment, withdrawal or second-factor sign-in returns.
public struct MfaTokensResponse: Sendable, Hashable, Codable {
    public var idToken: String
    public var refreshToken: String
    public init(idToken: String, refreshToken: String) {
        self.idToken = idToken
        self.refreshToken = refreshToken
    }
}

/// An enrolled second factor on the wire (`GoogleCloudIdentitytoolkitV1MfaEnrollment`):
/// `phoneInfo` obfuscated after a first factor, whole in a lookup (with `unobfuscatedPhoneInfo`).
public struct MfaEnrollmentRecord: Sendable, Hashable, Codable {
    public var mfaEnrollmentId: String
    public var displayName: String?
    /// ISO 8601.
    public var enrolledAt: String
    public var phoneInfo: String?
    public var unobfuscatedPhoneInfo: String?
    /// A TOTP factor (`mfa/mfa_info.ts:53` tells the kinds apart by it).
    public var totpInfo: TotpMarker?
    public init(mfaEnrollmentId: String, displayName: String?, enrolledAt: String, phoneInfo: String?, unobfuscatedPhoneInfo: String?, totpInfo: TotpMarker? = nil) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneInfo = phoneInfo
        self.unobfuscatedPhoneInfo = unobfuscatedPhoneInfo
        self.totpInfo = totpInfo
    }
}

/// A code "sent" by SMS, as `GET /emulator/v1/projects/P/verificationCodes` lists it.
public struct PhoneVerificationCode: Sendable, Hashable, Codable {
    public var code: String
    public var phoneNumber: String
    public var sessionInfo: String
    public init(code: String, phoneNumber: String, sessionInfo: String) {
        self.code = code
        self.phoneNumber = phoneNumber
        self.sessionInfo = sessionInfo
    }
}

/// A second factor given with `signUp`'s `mfaInfo`: a number, and optionally a name and id.
public struct MfaEnrollmentInput: Sendable, Hashable, Codable {
    public var phoneInfo: String?
    public var displayName: String?
    public var mfaEnrollmentId: String?
}

/// `GET projects/P/accounts:batchGet` (firebase-admin's `list_users`, the legacy `downloadAccount`).
public struct DownloadAccountResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public var users: [UserRecord]
    public var nextPageToken: String?
    public init(users: [UserRecord], nextPageToken: String?) {
        kind = "identitytoolkit#DownloadAccountResponse"
        self.users = users
        self.nextPageToken = nextPageToken
    }
}
