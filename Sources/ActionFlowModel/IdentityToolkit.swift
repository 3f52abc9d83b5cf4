import Foundation

// Identity Toolkit v1 request and response bodies (protocol.md section 3). Property names are the
// JSON field names; optional fields are omitted from the JSON when nil.

/// The v1 operations the tool speaks, with their path below `/v1/`.
public enum IdentityToolkitOperation: String, Sendable, Codable, CaseIterable {
    case signUp = "accounts:signUp"
    case signInWithPassword = "accounts:signInWithPassword"
    case sendOobCode = "accounts:sendOobCode"
    case resetPassword = "accounts:resetPassword"
    case update = "accounts:update"
    case lookup = "accounts:lookup"
    case signInWithEmailLink = "accounts:signInWithEmailLink"
}

public struct SignUpRequest: Sendable, Hashable, Codable {
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var emailVerified: Bool?
    public var returnSecureToken: Bool?
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
    public var returnSecureToken: Bool
    public init(email: String, password: String, returnSecureToken: Bool = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
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
    public init(email: String, oobCode: String, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
}

/// The error envelope: `{"error":{"code":400,"message":"CODE : detail","errors":[...]}}`.
public struct ErrorEnvelope: Sendable, Hashable, Codable {
    public struct Body: Sendable, Hashable, Codable {
        public struct Item: Sendable, Hashable, Codable {
            public var message: String
            public var reason: String
            public var domain: String
        }
        public var code: Int
        public var message: String
        public var errors: [Item]
    }
    public var error: Body

    public init(httpStatus: Int = 400, failure code: AuthErrorCode, detail: String?) {
        let message = detail.map { "\(code.rawValue) : \($0)" } ?? code.rawValue
        error = Body(code: httpStatus, message: message, errors: [.init(message: code.rawValue, reason: "invalid", domain: "global")])
    }
}
