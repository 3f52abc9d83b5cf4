import Foundation

// Identity Toolkit v1 request and response bodies (docs/file-formats.md, "How the simulated project answers"). Property names are the
// JSON field names; optional fields are omitted from the JSON when nil.

/// The operations the tool speaks, with their path below `/v1/` (or `/v2/`, see `version`).
public enum IdentityToolkitOperation: String, Sendable, Codable, CaseIterable {
    case signUp = "accounts:signUp"
    case signInWithPassword = "accounts:signInWithPassword"
    case sendOobCode = "accounts:sendOobCode"
    case resetPassword = "accounts:resetPassword"
    case update = "accounts:update"
    case lookup = "accounts:lookup"
    case signInWithEmailLink = "accounts:signInWithEmailLink"
    case startMfaEnrollment = "accounts/mfaEnrollment:start"
    case finalizeMfaEnrollment = "accounts/mfaEnrollment:finalize"

    /// The API version whose path holds the operation: multi-factor enrollment is v2 only.
    public var version: String {
        switch self {
        case .startMfaEnrollment, .finalizeMfaEnrollment: "v2"
        default: "v1"
        }
    }
}

public struct SignUpRequest: Sendable, Hashable, Codable {
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var emailVerified: Bool?
    public var returnSecureToken: Bool?
    /// Upgrades the signed-in (e.g. anonymous) user instead of creating one.
    public var idToken: String?
    /// Admin callers only: the new account's id.
    public var localId: String?
    public var photoUrl: String?
    /// Admin callers only.
    public var disabled: Bool?
    public var tenantId: String?
    public var targetProjectId: String?
    /// Second factors the new account starts with (`emulator` behaviour).
    public var mfaInfo: [MfaEnrollmentInput]?
    public init(email: String?, password: String?, displayName: String? = nil, emailVerified: Bool? = nil, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.returnSecureToken = returnSecureToken
    }
}

/// Response of sign up, sign in and email-link sign in.
public struct SignInResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public var localId: String
    public var email: String?
    public var displayName: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var registered: Bool?
    public var isNewUser: Bool?
    /// For an account with a second factor: no tokens yet, but this to finish with
    /// `mfaSignIn:start` and `:finalize`, and the factors (their numbers obfuscated).
    public var mfaPendingCredential: String?
    public var mfaInfo: [MfaEnrollmentRecord]?
    public init(kind: String? = nil, localId: String, email: String?, displayName: String? = nil, idToken: String?, refreshToken: String?, expiresIn: String?, registered: Bool? = nil, isNewUser: Bool? = nil) {
        self.kind = kind
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.registered = registered
        self.isNewUser = isNewUser
    }
}

public struct SignInWithPasswordRequest: Sendable, Hashable, Codable {
    public var email: String
    public var password: String
    /// Optional on the wire: the emulator and production answer with tokens either way.
    public var returnSecureToken: Bool?
    public var tenantId: String?
    public init(email: String, password: String, returnSecureToken: Bool? = true, tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
        self.tenantId = tenantId
    }
}

public struct SendOobCodeRequest: Sendable, Hashable, Codable {
    public var requestType: OobRequestType
    public var email: String?
    public var idToken: String?
    public var newEmail: String?
    public var continueUrl: String?
    public var iOSBundleId: String?
    public var iOSAppStoreId: String?
    public var androidPackageName: String?
    public var androidMinimumVersion: String?
    /// Sent only when true.
    public var androidInstallApp: Bool?
    /// Sent only when true.
    public var canHandleCodeInApp: Bool?
    public var dynamicLinkDomain: String?
    public var linkDomain: String?
    public var clientType: ClientPlatform?
    public var tenantId: String?
    /// Admin callers only: return `oobCode` and `oobLink` instead of only mailing them.
    public var returnOobLink: Bool?
    public var targetProjectId: String?

    public init(requestType: OobRequestType, email: String? = nil, idToken: String? = nil, newEmail: String? = nil, continueUrl: String? = nil, iOSBundleId: String? = nil, iOSAppStoreId: String? = nil, androidPackageName: String? = nil, androidMinimumVersion: String? = nil, androidInstallApp: Bool? = nil, canHandleCodeInApp: Bool? = nil, dynamicLinkDomain: String? = nil, linkDomain: String? = nil, clientType: ClientPlatform? = nil, tenantId: String? = nil, returnOobLink: Bool? = nil, targetProjectId: String? = nil) {
        self.requestType = requestType
        self.email = email
        self.idToken = idToken
        self.newEmail = newEmail
        self.continueUrl = continueUrl
        self.iOSBundleId = iOSBundleId
        self.iOSAppStoreId = iOSAppStoreId
        self.androidPackageName = androidPackageName
        self.androidMinimumVersion = androidMinimumVersion
        self.androidInstallApp = androidInstallApp
        self.canHandleCodeInApp = canHandleCodeInApp
        self.dynamicLinkDomain = dynamicLinkDomain
        self.linkDomain = linkDomain
        self.clientType = clientType
        self.tenantId = tenantId
        self.returnOobLink = returnOobLink
        self.targetProjectId = targetProjectId
    }

    /// The request an SDK sends for these settings: booleans only when true, empty strings kept
    /// out (the SDKs reject them before sending; see `ActionCodeSettings` validation).
    public init(requestType: OobRequestType, email: String?, idToken: String? = nil, settings: ActionCodeSettings?, clientType: ClientPlatform) {
        self.init(requestType: requestType, email: email, idToken: idToken, clientType: clientType)
        guard let settings else { return }
        continueUrl = settings.url
        iOSBundleId = settings.iOSBundleID
        androidPackageName = settings.androidPackageName
        androidMinimumVersion = settings.androidMinimumVersion
        androidInstallApp = settings.androidInstallIfNotAvailable ? true : nil
        canHandleCodeInApp = settings.handleCodeInApp ? true : nil
        dynamicLinkDomain = settings.dynamicLinkDomain
        linkDomain = settings.linkDomain
    }
}

public struct SendOobCodeResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public var email: String?
    public var oobCode: String?
    public var oobLink: String?
    public init(kind: String? = "identitytoolkit#GetOobConfirmationCodeResponse", email: String?, oobCode: String? = nil, oobLink: String? = nil) {
        self.kind = kind
        self.email = email
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}

/// `accounts:resetPassword`: with only `oobCode` it checks the code; with `newPassword` it consumes it.
public struct ResetPasswordRequest: Sendable, Hashable, Codable {
    public var oobCode: String
    public var newPassword: String?
    public var tenantId: String?
    public init(oobCode: String, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }
}

public struct ResetPasswordResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public var email: String?
    public var newEmail: String?
    public var requestType: OobRequestType?
    /// REVERT_SECOND_FACTOR_ADDITION: the factor the code removes.
    public var mfaInfo: MfaEnrollmentRecord?
    public init(kind: String? = "identitytoolkit#ResetPasswordResponse", email: String?, newEmail: String? = nil, requestType: OobRequestType?) {
        self.kind = kind
        self.email = email
        self.newEmail = newEmail
        self.requestType = requestType
    }
}

/// `accounts:update`: the tool uses it to apply a code (verify email, recover email).
public struct UpdateAccountRequest: Sendable, Hashable, Codable {
    public var oobCode: String?
    public var idToken: String?
    public var localId: String?
    public var email: String?
    public var password: String?
    public var disableUser: Bool?
    public var emailVerified: Bool?
    public var returnSecureToken: Bool?
    public var displayName: String?
    public var photoUrl: String?
    /// Admin callers: seconds since 1970 before which tokens are revoked.
    public var validSince: String?
    /// `DISPLAY_NAME`, `PHOTO_URL`, `PASSWORD`, `EMAIL`.
    public var deleteAttribute: [String]?
    public var tenantId: String?
    public var targetProjectId: String?
    public init(oobCode: String? = nil, idToken: String? = nil, localId: String? = nil, email: String? = nil, password: String? = nil, disableUser: Bool? = nil, emailVerified: Bool? = nil, returnSecureToken: Bool? = nil) {
        self.oobCode = oobCode
        self.idToken = idToken
        self.localId = localId
        self.email = email
        self.password = password
        self.disableUser = disableUser
        self.emailVerified = emailVerified
        self.returnSecureToken = returnSecureToken
    }
}

public struct UpdateAccountResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public var localId: String?
    public var email: String?
    public var emailVerified: Bool?
    /// VERIFY_AND_CHANGE_EMAIL codes and email changes: the address now in use.
    public var newEmail: String?
    public var displayName: String?
    public var photoUrl: String?
    public var providerUserInfo: [ProviderUserInfo]?
    public var passwordHash: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public init(kind: String? = "identitytoolkit#SetAccountInfoResponse", localId: String?, email: String?, emailVerified: Bool?, idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil) {
        self.kind = kind
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// `accounts:lookup`: by `idToken` (clients) or by `email` / `localId` (admin callers).
public struct LookupRequest: Sendable, Hashable, Codable {
    public var idToken: String?
    public var email: [String]?
    public var localId: [String]?
    public var tenantId: String?
    public var targetProjectId: String?
    public init(idToken: String? = nil, email: [String]? = nil, localId: [String]? = nil) {
        self.idToken = idToken
        self.email = email
        self.localId = localId
    }
}

public struct UserRecord: Sendable, Hashable, Codable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var disabled: Bool?
    /// Milliseconds since 1970, as a string on the wire.
    public var createdAt: String?
    public var lastLoginAt: String?
    /// Milliseconds since 1970 (a number on the wire).
    public var passwordUpdatedAt: Double?
    /// Seconds since 1970: tokens issued before this are revoked.
    public var validSince: String?
    public var photoUrl: String?
    /// One entry per sign-in provider (`password` for email accounts, none for anonymous ones).
    public var providerUserInfo: [ProviderUserInfo]?
    /// The emulator's fake format, `fakeHash:salt=SALT:password=PASSWORD` (it hides nothing).
    public var passwordHash: String?
    public var salt: String?
    /// The account has signed in with an email link.
    public var emailLinkSignin: Bool?
    public var tenantId: String?
    /// ISO 8601.
    public var lastRefreshAt: String?
    /// The first address, before any change (what RECOVER_EMAIL restores).
    public var initialEmail: String?
    /// Enrolled second factors.
    public var mfaInfo: [MfaEnrollmentRecord]?
    public init(localId: String, email: String?, emailVerified: Bool?, displayName: String? = nil, disabled: Bool? = nil, createdAt: String? = nil, lastLoginAt: String? = nil, passwordUpdatedAt: Double? = nil, validSince: String? = nil) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.disabled = disabled
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.passwordUpdatedAt = passwordUpdatedAt
        self.validSince = validSince
    }
}

public struct LookupResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public var users: [UserRecord]?
    public init(kind: String? = "identitytoolkit#GetAccountInfoResponse", users: [UserRecord]?) {
        self.kind = kind
        self.users = users
    }
}

public struct SignInWithEmailLinkRequest: Sendable, Hashable, Codable {
    public var email: String
    public var oobCode: String
    public var idToken: String?
    public var tenantId: String?
    public init(email: String, oobCode: String, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
}

/// One sign-in provider of an account, as `accounts:lookup` lists it.
public struct ProviderUserInfo: Sendable, Hashable, Codable {
    public var providerId: String
    public var rawId: String?
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public init(providerId: String, rawId: String?, federatedId: String?, email: String?, displayName: String? = nil, photoUrl: String? = nil) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
    }
}

/// `accounts:delete` (v3 `deleteAccount`): by `idToken` (the user) or `localId` (admin).
public struct DeleteAccountRequest: Sendable, Hashable, Codable {
    public var idToken: String?
    public var localId: String?
    public var tenantId: String?
    public var targetProjectId: String?
}

public struct DeleteAccountResponse: Sendable, Hashable, Codable {
    public var kind: String?
    public init(kind: String? = "identitytoolkit#DeleteAccountResponse") { self.kind = kind }
}

/// `accounts:createAuthUri`: what `fetchSignInMethodsForEmail` calls.
public struct CreateAuthUriRequest: Sendable, Hashable, Codable {
    public var identifier: String?
    public var continueUri: String?
    public var providerId: String?
    public var sessionId: String?
    public var tenantId: String?
}

public struct CreateAuthUriResponse: Sendable, Hashable, Codable {
    public var kind: String?
    /// Absent with enumeration protection (improved email privacy).
    public var registered: Bool?
    public var allProviders: [String]?
    public var sessionId: String?
    public var signinMethods: [String]?
    public init(kind: String? = "identitytoolkit#CreateAuthUriResponse", registered: Bool?, allProviders: [String]?, sessionId: String?, signinMethods: [String]?) {
        self.kind = kind
        self.registered = registered
        self.allProviders = allProviders
        self.sessionId = sessionId
        self.signinMethods = signinMethods
    }
}

/// `projects/PROJECT/accounts:query` (admin listing).
public struct QueryAccountsRequest: Sendable, Hashable, Codable {
    public var returnUserInfo: Bool?
    public var limit: String?
    public var offset: String?
    public var expression: [String]?
    public var order: String?
    public var sortBy: String?
    public var tenantId: String?
    public var targetProjectId: String?
}

public struct QueryAccountsResponse: Sendable, Hashable, Codable {
    public var recordsCount: String
    public var userInfo: [UserRecord]?
    public init(recordsCount: String, userInfo: [UserRecord]?) {
        self.recordsCount = recordsCount
        self.userInfo = userInfo
    }
}

/// `POST /securetoken.googleapis.com/v1/token` (form or JSON body; `grant_type` and
/// `refresh_token` arrive snake_case and are read camelCase, as the emulator does).
public struct GrantTokenRequest: Sendable, Hashable, Codable {
    public var grantType: String?
    public var refreshToken: String?
}

public struct GrantTokenResponse: Sendable, Hashable, Codable {
    public var id_token: String
    public var access_token: String
    public var expires_in: String
    public var refresh_token: String
    public var token_type: String
    public var user_id: String
    public var project_id: String
    public init(idToken: String, expiresIn: String, refreshToken: String, userId: String, projectNumber: String) {
        id_token = idToken
        access_token = idToken
        expires_in = expiresIn
        refresh_token = refreshToken
        token_type = "Bearer"
        user_id = userId
        project_id = projectNumber
    }
}

/// The error envelope: `{"error":{"code":400,"message":"CODE : detail","errors":[...]}}`, as the
/// Auth Emulator's `ApiError` writes it: every item carries the full message; `status` (the
/// Google API status name) and an item's `domain` appear only for some errors, so both are
/// optional when reading.
public struct ErrorEnvelope: Sendable, Hashable, Codable {
    public struct Body: Sendable, Hashable, Codable {
        public struct Item: Sendable, Hashable, Codable {
            public var message: String
            public var reason: String?
            public var domain: String?

            public init(message: String, reason: String?, domain: String?) {
                self.message = message
                self.reason = reason
                self.domain = domain
            }
        }
        public var code: Int
        public var message: String
        public var errors: [Item]
        public var status: String?
        public init(code: Int, message: String, errors: [Item], status: String? = nil) {
            self.code = code
            self.message = message
            self.errors = errors
            self.status = status
        }
    }
    public var error: Body

    public init(error: Body) { self.error = error }

    /// An assertion failure as the emulator reports it (`BadRequestError`): `reason: invalid`,
    /// `domain: global`, no `status` unless one is given.
    public init(httpStatus: Int = 400, failure code: AuthErrorCode, detail: String?, status: String? = nil) {
        let message = detail.map { "\(code.rawValue) : \($0)" } ?? code.rawValue
        error = Body(code: httpStatus, message: message, errors: [.init(message: message, reason: "invalid", domain: "global")], status: status)
    }
}
