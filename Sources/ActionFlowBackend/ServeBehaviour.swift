import ActionFlowModel
import Foundation

/// How a simulated project answers. `actionflow serve --as` picks one; the embedded transport is
/// always `production`.
public enum ServeBehaviour: String, Sendable, Hashable, Codable, CaseIterable {
    /// The richer simulation: Hosting or Dynamic Links links to the project's action handler,
    /// authorized domains, code expiry and a rate limit on the simulated clock, preset users.
    case production
    /// Exactly the Firebase Auth Emulator: no preset users, the wall clock, links to
    /// `http://HOST:PORT/emulator/action`, none of the checks it lacks, its error codes and
    /// validation order.
    case emulator
}

/// Who sent a request: an app with an API key, or an administrator (`Bearer owner`, a Google
/// service-account token). Some operations take other fields, or check less, for admins.
public enum AuthCaller: Sendable, Hashable {
    case client
    case admin
}

/// The Auth Emulator's per-project switches (`GET`/`PATCH /emulator/v1/projects/P/config`).
public struct EmulatorOptions: Sendable, Hashable, Codable {
    /// Reported and kept; only federated sign-in, which this tool lacks, would use it.
    public var allowDuplicateEmails: Bool
    /// Email enumeration protection: sign-in failures become INVALID_LOGIN_CREDENTIALS, resets
    /// to unknown addresses succeed silently, `createAuthUri` reveals nothing.
    public var enableImprovedEmailPrivacy: Bool

    public init(allowDuplicateEmails: Bool, enableImprovedEmailPrivacy: Bool) {
        self.allowDuplicateEmails = allowDuplicateEmails
        self.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy
    }
}

/// A tenant of a project (Identity Platform multi-tenancy): its own users and codes, with these
/// switches. Tenants named in a request are created on demand with everything enabled, as the
/// emulator does.
public struct TenantSettings: Sendable, Hashable, Codable {
    public var tenantId: String
    public var displayName: String?
    public var allowPasswordSignup: Bool
    public var disableAuth: Bool
    public var enableAnonymousUser: Bool
    public var enableEmailLinkSignin: Bool
    /// Nil for a tenant made by its first use, which the emulator makes with SMS multi-factor
    /// enabled (`state.ts:724-727`).
    public var mfaConfig: TenantMfaConfig?

    public init(tenantId: String, displayName: String? = nil, allowPasswordSignup: Bool = true, disableAuth: Bool = false, enableAnonymousUser: Bool = true, enableEmailLinkSignin: Bool = true) {
        self.tenantId = tenantId
        self.displayName = displayName
        self.allowPasswordSignup = allowPasswordSignup
        self.disableAuth = disableAuth
        self.enableAnonymousUser = enableAnonymousUser
        self.enableEmailLinkSignin = enableEmailLinkSignin
    }
}

/// A tenant's `mfaConfig` (`GoogleCloudIdentitytoolkitAdminV2MultiFactorAuthConfig`).
public struct TenantMfaConfig: Sendable, Hashable, Codable {
    /// `DISABLED`, `ENABLED` or `MANDATORY`.
    public var state: String
    /// `PHONE_SMS` is the one provider the emulator knows.
    public var enabledProviders: [String]

    public init(state: String, enabledProviders: [String]) {
        self.state = state
        self.enabledProviders = enabledProviders
    }

    /// What a tenant made by its first use has.
    public static let implicit = TenantMfaConfig(state: "ENABLED", enabledProviders: ["PHONE_SMS"])

    var isEnabled: Bool { state == "ENABLED" || state == "MANDATORY" }
}

extension AuthErrorCode {
    public static let projectDisabled = AuthErrorCode("PROJECT_DISABLED")
    public static let operationNotAllowed = AuthErrorCode("OPERATION_NOT_ALLOWED")
    public static let passwordLoginDisabled = AuthErrorCode("PASSWORD_LOGIN_DISABLED")
    public static let adminOnlyOperation = AuthErrorCode("ADMIN_ONLY_OPERATION")
    public static let unexpectedParameter = AuthErrorCode("UNEXPECTED_PARAMETER")
    public static let duplicateLocalId = AuthErrorCode("DUPLICATE_LOCAL_ID")
    public static let missingIdentifier = AuthErrorCode("MISSING_IDENTIFIER")
    public static let invalidIdentifier = AuthErrorCode("INVALID_IDENTIFIER")
    public static let tenantIdMismatch = AuthErrorCode("TENANT_ID_MISMATCH")
    public static let missingGrantType = AuthErrorCode("MISSING_GRANT_TYPE")
    public static let invalidGrantType = AuthErrorCode("INVALID_GRANT_TYPE")
    public static let missingRefreshToken = AuthErrorCode("MISSING_REFRESH_TOKEN")
    public static let invalidRefreshToken = AuthErrorCode("INVALID_REFRESH_TOKEN")
    /// The emulator's 501: the operation or request type is not implemented; the detail is the
    /// emulator's whole message.
    public static let notImplemented = AuthErrorCode("NOT_IMPLEMENTED")
}
