import ActionFlowModel
import Foundation

/// One out-of-band code the project issued, with everything needed to route and explain it later.
public struct IssuedOobCode: Sendable, Hashable, Codable {
    public var oobCode: String
    public var requestType: OobRequestType
    /// The address the code is about (and was mailed to).
    public var email: String
    /// VERIFY_AND_CHANGE_EMAIL: the address to switch to. RECOVER_EMAIL: the address to undo.
    public var newEmail: String?
    /// The account, or nil for an email-link sign-in to an address with no account yet.
    public var localId: String?
    /// The ActionCodeSettings the request carried (continue URL, apps, link domain).
    public var settings: ActionCodeSettings
    public var clientType: ClientPlatform?
    public var tenantId: String?
    /// The template language, also the link's `lang`.
    public var language: String
    /// The link the email carries.
    public var link: String
    public var issuedAt: Date
    public var expiresAt: Date
    public var consumedAt: Date?
    /// The mailbox message that carried it; nil when returned to an admin caller instead.
    public var mailID: String?
    /// REVERT_SECOND_FACTOR_ADDITION: the enrollment it removes.
    public var mfaEnrollmentId: String?
}

/// The simulated Firebase project: accounts, sessions, codes, mailbox and clock, with the
/// Identity Toolkit operations' semantics and error codes (docs/file-formats.md, "How the simulated project answers"), in one of two
/// behaviours (`ServeBehaviour`): `production` (the default, and the embedded transport's) or
/// exactly the Auth Emulator's (`SimulatedProject+Emulator.swift`).
///
/// A value type: every operation is a `mutating` method, so callers decide how to share it
/// (`EmbeddedTransport` keeps one behind a lock). Nothing here reads the wall clock or a
/// random source: the same calls on two fresh projects give the same ids, codes and mails. A
/// server tells the project the wall-clock time with `observe(wallClock:linkOrigin:)`; ID
/// tokens then carry times valid against it (see `tokenTimes`).
public struct SimulatedProject: Sendable, Equatable, Codable {
    public static let minimumPasswordLength = 6
    /// Seconds an ID token lives (`expiresIn`, and `exp - iat` unless the clocks disagree).
    public static let idTokenLifetime = 3600
    /// The emulator's placeholder project number (`project_id` of a token refresh).
    public static let projectNumber = "12345"

    public let configuration: ProjectConfiguration
    public private(set) var clock: SimulatedClock
    public private(set) var mailbox: [MailMessage] = []
    /// Every code issued, oldest first.
    public private(set) var issuedCodes: [IssuedOobCode] = []

    struct Account: Sendable, Hashable, Codable {
        var localId: String
        /// Nil for anonymous accounts.
        var email: String?
        var password: String?
        var displayName: String?
        var emailVerified: Bool
        var disabled: Bool
        var createdAt: Date
        var lastLoginAt: Date?
        var passwordUpdatedAt: Date?
        /// Tokens issued before this are revoked (`validSince` on the wire).
        var validSince: Date
        /// Bumped when sessions are revoked; a token remembers the generation it was issued in,
        /// so revocation works even within one clock second.
        var sessionGeneration: Int
        var photoUrl: String?
        /// The address before the first change (what RECOVER_EMAIL restores).
        var initialEmail: String?
        var emailLinkSignin: Bool?
        var lastRefreshAt: Date?
        var anonymous: Bool?
        /// `validSince` in seconds on the ID tokens' clock (see `tokenTimes`), compared with a
        /// token's `iat`; nil means `validSince` itself.
        var tokenValidSince: Int?
        /// Second factors, in enrollment order (an empty list once all are withdrawn).
        var mfaInfo: [MfaEnrollment]?
    }

    struct Session: Sendable, Hashable, Codable {
        var localId: String
        var generation: Int
        var provider: String?
        /// The token's `iat`.
        var issuedAt: Int?
    }

    struct RefreshRecord: Sendable, Hashable, Codable {
        var localId: String
        var provider: String
    }

    var accounts: [String: Account] = [:]
    var localIdByEmail: [String: String] = [:]
    var sessions: [String: Session] = [:]
    var codeIndex: [String: Int] = [:]
    /// Send times per lowercased address, for the rate limit.
    var sendTimes: [String: [Date]] = [:]
    var generator: SeededGenerator
    // Added after the session format's version 1: optional, so older session files still open.
    var storedBehaviour: ServeBehaviour?
    var storedOptions: EmulatorOptions?
    /// Set for a tenant's project.
    public private(set) var tenant: TenantSettings?
    /// The host's clock at the latest request (serve only).
    var wallClock: Date?
    /// `http://HOST:PORT` of the server, for the emulator's links.
    var linkOrigin: String?
    var refreshTokens: [String: RefreshRecord]?
    /// SMS codes "sent" for second factors and not yet used (`verificationCodes`).
    var phoneVerifications: [PhoneVerificationCode]?
    /// TOTP enrollments begun and not yet finished (production behaviour).
    var pendingTotpEnrollments: [PendingTotpEnrollment]?

    /// Set when a client restarted an emulator project with a configuration (`PUT .../config`):
    /// the users it lists were asked for, and a reset brings them back.
    var holdsPresetUsers: Bool?

    /// With `presetUsers` nil, a production project starts with its configuration's users and
    /// an emulator project or a tenant starts empty, as the emulator does.
    public init(configuration: ProjectConfiguration, behaviour: ServeBehaviour = .production, tenant: TenantSettings? = nil, presetUsers: Bool? = nil) {
        self.configuration = configuration
        clock = SimulatedClock(start: configuration.clockStart)
        let tenantSeed = tenant.map { "|tenant:\($0.tenantId)" } ?? ""
        generator = SeededGenerator(seedText: "\(configuration.projectId)|\(configuration.clockStart.timeIntervalSince1970)\(tenantSeed)")
        storedBehaviour = behaviour == .production ? nil : behaviour
        self.tenant = tenant
        holdsPresetUsers = presetUsers
        guard presetUsers ?? (behaviour == .production && tenant == nil) else { return }
        for preset in configuration.users {
            let localId = generator.alphanumericString(count: 28)
            let account = Account(
                localId: localId, email: preset.email, password: preset.password, displayName: preset.displayName,
                emailVerified: preset.emailVerified, disabled: preset.disabled, createdAt: clock.now,
                lastLoginAt: nil, passwordUpdatedAt: clock.now, validSince: clock.now, sessionGeneration: 0
            )
            insert(account)
        }
    }

    public var behaviour: ServeBehaviour { storedBehaviour ?? .production }
    var isEmulator: Bool { behaviour == .emulator }

    /// The emulator's switches; enumeration protection starts as the configuration says
    /// (`production`) or off (`emulator`, as the emulator starts).
    public var options: EmulatorOptions {
        storedOptions ?? EmulatorOptions(allowDuplicateEmails: false, enableImprovedEmailPrivacy: isEmulator ? false : configuration.emailEnumerationProtection)
    }

    /// `PATCH .../config`: only the fields given change.
    public mutating func updateOptions(allowDuplicateEmails: Bool?, enableImprovedEmailPrivacy: Bool?) {
        var updated = options
        if let allowDuplicateEmails { updated.allowDuplicateEmails = allowDuplicateEmails }
        if let enableImprovedEmailPrivacy { updated.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy }
        storedOptions = updated
    }

    /// A tenant's switches change (v2 tenant PATCH).
    public mutating func updateTenant(_ settings: TenantSettings) {
        tenant = settings
    }

    /// Enumeration protection as it stands now.
    var protected: Bool { options.enableImprovedEmailPrivacy }

    // MARK: Clock and world

    public var now: Date { clock.now }

    @discardableResult
    public mutating func advanceClock(by seconds: TimeInterval) throws(AuthFailure) -> Date {
        try clock.advance(by: seconds)
        return clock.now
    }

    /// A server's reading of the wall clock and its own address, before each request. In
    /// `emulator` behaviour the project runs on the wall clock (the simulated clock follows it,
    /// never going back); in both, ID tokens are valid against it.
    public mutating func observe(wallClock: Date, linkOrigin: String?) {
        self.wallClock = wallClock
        if let linkOrigin { self.linkOrigin = linkOrigin }
        if isEmulator, wallClock > clock.now {
            try? clock.advance(by: wallClock.timeIntervalSince(clock.now))
        }
    }

    /// Back to the configuration's start: preset users, no sessions or codes, empty mailbox.
    /// The behaviour, tenant and link origin stay.
    public mutating func reset() {
        var fresh = SimulatedProject(configuration: configuration, behaviour: behaviour, tenant: tenant, presetUsers: holdsPresetUsers)
        fresh.adoptHostReadings(from: self)
        self = fresh
    }

    /// Takes over what the host told `other` (its address and wall clock).
    public mutating func adoptHostReadings(from other: SimulatedProject) {
        linkOrigin = other.linkOrigin
        if let wallClock = other.wallClock { observe(wallClock: wallClock, linkOrigin: nil) }
    }

    /// The emulator's `DELETE .../accounts`: every account goes; codes, the mailbox and the
    /// clock stay (a pending sign-in link may still create its account).
    public mutating func deleteAllAccounts() {
        accounts.removeAll()
        localIdByEmail.removeAll()
        // Their tokens now name no user either way: without their records, ID tokens still read
        // as USER_NOT_FOUND and refresh tokens as INVALID_REFRESH_TOKEN, as before.
        sessions.removeAll()
        if refreshTokens != nil { refreshTokens = [:] }
    }

    /// The settings a code was requested with (the Hosting link router needs them).
    public func settings(forOobCode code: String) -> ActionCodeSettings? {
        issuedCode(code)?.settings
    }

    public func issuedCode(_ code: String) -> IssuedOobCode? {
        storedIndex(of: code).map { issuedCodes[$0] }
    }

    /// Where `code` is in `issuedCodes`. Checked, not trusted: a session file holds the index.
    private func storedIndex(of code: String) -> Int? {
        guard let index = codeIndex[code], issuedCodes.indices.contains(index), issuedCodes[index].oobCode == code else { return nil }
        return index
    }

    /// Codes not used yet, oldest first (the emulator's `oobCodes` listing: it deletes a code
    /// when it is used).
    public var pendingCodes: [IssuedOobCode] {
        issuedCodes.filter { $0.consumedAt == nil }
    }

    /// The emulator forgets codes: `DELETE .../oobCodes` (serve's mailbox keeps the emails).
    public mutating func deleteAllCodes() {
        let now = clock.now
        for index in issuedCodes.indices where issuedCodes[index].consumedAt == nil {
            issuedCodes[index].consumedAt = now
        }
    }

    /// Every account, by `localId` (the emulator's `accounts:query` order).
    public var allUsers: [UserRecord] {
        accounts.values.sorted { $0.localId < $1.localId }.map(userRecord)
    }

    // MARK: Sign up and sign in

    public mutating func signUp(_ request: SignUpRequest) throws(AuthFailure) -> SignInResponse {
        try signUp(request, caller: .client)
    }

    /// A client creates an email account, or an anonymous one when it sends no email, password
    /// or `idToken`; with an `idToken` it upgrades that user (an anonymous one, say). Admins
    /// may choose the `localId`, leave out the password, and get no tokens back.
    public mutating func signUp(_ request: SignUpRequest, caller: AuthCaller) throws(AuthFailure) -> SignInResponse {
        if isEmulator { return try emulatorSignUp(request, caller: caller) }
        try checkAuthEnabled()
        let admin = caller == .admin
        if admin, let localId = Self.nonEmpty(request.localId) {
            guard Self.nonEmpty(request.idToken) == nil else { throw AuthFailure.server(.unexpectedParameter, detail: "User ID") }
            guard accounts[localId] == nil else { throw AuthFailure.server(.duplicateLocalId, detail: nil) }
        } else if !admin, request.localId != nil {
            throw AuthFailure.server(.unexpectedParameter, detail: "User ID")
        }
        let anonymous = !admin && Self.nonEmpty(request.email) == nil && request.password == nil && Self.nonEmpty(request.idToken) == nil
        if anonymous {
            guard tenant?.enableAnonymousUser ?? true else { throw AuthFailure.server(.adminOnlyOperation, detail: nil) }
            let account = newAccount(localId: nil, email: nil, password: nil, displayName: nil, anonymous: true)
            insert(account)
            return signInResponse(account, kind: "identitytoolkit#SignupNewUserResponse", provider: "anonymous", isNewUser: true)
        }
        var email: String?
        if admin {
            if let given = request.email { email = try validEmail(given) }
        } else {
            email = try validEmail(request.email)
        }
        let password = Self.nonEmpty(request.password)
        if !admin {
            guard password != nil else { throw AuthFailure.server(.missingPassword, detail: nil) }
            guard tenant?.allowPasswordSignup ?? true else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
        }
        if let password { try checkStrength(password) }
        var upgraded: Account?
        if let idToken = Self.nonEmpty(request.idToken) {
            upgraded = try tokenAccount(idToken).account
        }
        if let email, let existing = account(email: email), existing.localId != upgraded?.localId {
            throw Self.emailInUse
        }
        var account = upgraded ?? newAccount(localId: Self.nonEmpty(request.localId), email: nil, password: nil, displayName: nil, anonymous: false)
        if let email { setEmail(&account, email) }
        if let password {
            account.password = password
            account.passwordUpdatedAt = clock.now
            if upgraded != nil { stampValidSince(&account) }
        }
        account.anonymous = nil
        if let name = request.displayName { account.displayName = name }
        if let photo = request.photoUrl { account.photoUrl = photo }
        if admin {
            account.emailVerified = request.emailVerified ?? false
            if request.disabled == true { account.disabled = true }
        } else if upgraded == nil {
            account.emailVerified = request.emailVerified ?? false
        }
        account.lastLoginAt = clock.now
        insert(account)
        if admin {
            return SignInResponse(kind: "identitytoolkit#SignupNewUserResponse", localId: account.localId, email: account.email, displayName: account.displayName, idToken: nil, refreshToken: nil, expiresIn: nil)
        }
        return signInResponse(account, kind: "identitytoolkit#SignupNewUserResponse", provider: "password", isNewUser: upgraded == nil)
    }

    /// The account is disabled: checked before the password (as the emulator does), so a
    /// disabled user learns that whatever they typed.
    public mutating func signInWithPassword(_ request: SignInWithPasswordRequest) throws(AuthFailure) -> SignInResponse {
        if isEmulator { return try emulatorSignInWithPassword(request) }
        try checkAuthEnabled()
        guard tenant?.allowPasswordSignup ?? true else { throw AuthFailure.server(.passwordLoginDisabled, detail: nil) }
        let email = try validEmail(request.email)
        guard !request.password.isEmpty else { throw AuthFailure.server(.missingPassword, detail: nil) }
        let protected = self.protected
        guard var account = account(email: email) else {
            throw protected ? AuthFailure.server(.invalidLoginCredentials, detail: nil) : Self.emailNotFound
        }
        guard !account.disabled else { throw Self.userDisabled }
        guard account.password != nil, account.password == request.password else {
            throw protected ? AuthFailure.server(.invalidLoginCredentials, detail: nil)
                : AuthFailure.server(.invalidPassword, detail: "The password is invalid or the user does not have a password.")
        }
        if let pending = pendingSecondFactor(account, kind: "identitytoolkit#VerifyPasswordResponse", email: account.email, provider: "password", registered: true) {
            return pending
        }
        account.lastLoginAt = clock.now
        accounts[account.localId] = account
        return signInResponse(account, kind: "identitytoolkit#VerifyPasswordResponse", provider: "password", registered: true)
    }

    // MARK: Lookup

    /// By `idToken` (clients) or by `email` / `localId` (admin callers: the embedded project trusts them).
    public func lookup(_ request: LookupRequest) throws(AuthFailure) -> LookupResponse {
        try lookup(request, caller: .client)
    }

    /// `accounts:batchGet`, as the emulator answers it (`operations.ts:562-600`): accounts in
    /// `localId` order after `pageToken`, `maxResults` of them (20 when absent or 0, at most
    /// 1000, all for -1), and the last one's id as the next page token whenever the page is full.
    public func downloadAccounts(maxResults: Int?, after pageToken: String?) throws(AuthFailure) -> DownloadAccountResponse {
        try checkAuthEnabled()
        let limit = min(maxResults.flatMap { $0 == 0 ? nil : $0 } ?? 20, 1000)
        var page = accounts.values.filter { account in pageToken.map { account.localId > $0 } ?? true }.sorted { $0.localId < $1.localId }
        var nextPageToken: String?
        if limit >= 0, page.count >= limit {
            page = Array(page.prefix(limit))
            nextPageToken = page.last?.localId
        }
        return DownloadAccountResponse(users: page.map(userRecord), nextPageToken: nextPageToken)
    }

    public func lookup(_ request: LookupRequest, caller: AuthCaller) throws(AuthFailure) -> LookupResponse {
        try checkAuthEnabled()
        if isEmulator && caller == .admin {
            return LookupResponse(users: lookupByIds(request))
        }
        if let idToken = request.idToken {
            let account = try tokenAccount(idToken).account
            return LookupResponse(users: [userRecord(account)])
        }
        let emails = request.email ?? []
        let localIds = request.localId ?? []
        guard !emails.isEmpty || !localIds.isEmpty else { throw AuthFailure.server(.missingIDToken, detail: nil) }
        return LookupResponse(users: lookupByIds(request))
    }

    private func lookupByIds(_ request: LookupRequest) -> [UserRecord]? {
        var found: [UserRecord] = []
        for localId in request.localId ?? [] {
            if let account = accounts[localId], !found.contains(where: { $0.localId == account.localId }) { found.append(userRecord(account)) }
        }
        for email in request.email ?? [] {
            if let account = account(email: email), !found.contains(where: { $0.localId == account.localId }) {
                found.append(userRecord(account))
            }
        }
        // No `users` at all when nothing matched, as the emulator answers (firebase-admin needs it).
        return found.isEmpty ? nil : found
    }

    // MARK: sendOobCode

    public mutating func sendOobCode(_ request: SendOobCodeRequest, locale: String?) throws(AuthFailure) -> SendOobCodeResponse {
        try sendOobCode(request, locale: locale, caller: request.returnOobLink == true ? .admin : .client)
    }

    /// Production behaviour validates in this order, first failure wins:
    /// 1. request type can be sent (INVALID_REQ_TYPE for RECOVER_EMAIL and the like);
    /// 2. who: `email` for PASSWORD_RESET and EMAIL_SIGNIN (MISSING_EMAIL, INVALID_EMAIL), `idToken`
    ///    for VERIFY_EMAIL and VERIFY_AND_CHANGE_EMAIL (MISSING_ID_TOKEN, INVALID_ID_TOKEN,
    ///    TOKEN_EXPIRED; admin callers with `returnOobLink` may give `email` instead), `newEmail`
    ///    (MISSING_NEW_EMAIL, INVALID_NEW_EMAIL, EMAIL_EXISTS);
    /// 3. continue URL: INVALID_CONTINUE_URI, UNAUTHORIZED_DOMAIN, or MISSING_CONTINUE_URI for EMAIL_SIGNIN;
    /// 4. apps: MISSING_IOS_BUNDLE_ID, MISSING_ANDROID_PACKAGE_NAME;
    /// 5. link domain: INVALID_HOSTING_LINK_DOMAIN, INVALID_DYNAMIC_LINK_DOMAIN;
    /// 6. the account: EMAIL_NOT_FOUND, USER_DISABLED (with enumeration protection both succeed
    ///    silently and nothing is sent);
    /// 7. rate limit per address: RESET_PASSWORD_EXCEED_LIMIT for resets, else TOO_MANY_ATTEMPTS_TRY_LATER.
    /// Then the code is issued and mailed in the locale's language (or returned, not mailed, with `returnOobLink`).
    /// The emulator behaviour follows the emulator instead (`emulatorSendOobCode`).
    public mutating func sendOobCode(_ request: SendOobCodeRequest, locale: String?, caller: AuthCaller) throws(AuthFailure) -> SendOobCodeResponse {
        if isEmulator { return try emulatorSendOobCode(request, locale: locale, caller: caller) }
        try checkAuthEnabled()
        // The SDKs never send empty strings; treat any that arrive as absent, in checks and links alike.
        var request = Self.withoutEmptyFields(request)
        if let tenant { request.tenantId = tenant.tenantId }
        let type = request.requestType
        guard [.passwordReset, .verifyEmail, .emailSignIn, .verifyAndChangeEmail].contains(type) else {
            throw AuthFailure.server(.invalidRequestType, detail: "\(type.rawValue) cannot be requested with sendOobCode")
        }
        if type == .emailSignIn, tenant?.enableEmailLinkSignin == false { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
        let admin = request.returnOobLink == true
        let recipient = try recipient(of: request, admin: admin)
        try checkContinueURL(request)
        try checkApps(request)
        let linkDomain = try configuration.mobileLinkDomain(for: request)

        // The account: with enumeration protection, unknown and disabled addresses "succeed" silently.
        let protected = self.protected
        if recipient.account?.disabled == true {
            if protected { return SendOobCodeResponse(email: recipient.email) }
            throw Self.userDisabled
        }
        if recipient.account == nil && type == .passwordReset {
            if protected { return SendOobCodeResponse(email: recipient.email) }
            throw Self.emailNotFound
        }
        // Admin links are not mailed and do not count towards the rate limit.
        if !admin { try countEmail(to: recipient.email, type: type) }

        let language = locale.flatMap(MailTemplates.language(for:)) ?? configuration.defaultLocale
        let oobCode = generator.urlSafeString(count: 54)
        let link = ActionLinkBuilder.emailLink(for: request, oobCode: oobCode, lang: language, project: configuration, linkDomain: linkDomain)
        var issued = IssuedOobCode(
            oobCode: oobCode, requestType: type, email: recipient.email, newEmail: recipient.newEmail, localId: recipient.account?.localId,
            settings: Self.settings(of: request), clientType: request.clientType, tenantId: request.tenantId,
            language: language, link: link, issuedAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(configuration.codeLifetimes.lifetime(for: type)), consumedAt: nil, mailID: nil
        )
        if admin {
            store(issued)
            return SendOobCodeResponse(email: recipient.email, oobCode: oobCode, oobLink: link)
        }
        // An email change is confirmed from the new address.
        let mailTo = recipient.newEmail ?? recipient.email
        issued.mailID = deliver(type, to: mailTo, email: recipient.email, newEmail: recipient.newEmail, link: link, language: language, oobCode: oobCode)
        store(issued)
        return SendOobCodeResponse(email: recipient.email)
    }

    private struct Recipient {
        /// Nil for an address without an account (email-link sign-in creates it; resets fail).
        var account: Account?
        var email: String
        var newEmail: String?
    }

    /// Who a code is for: by `email` for resets and sign-in links, by the signed-in user's
    /// `idToken` otherwise (admin callers may name the `email`).
    private func recipient(of request: SendOobCodeRequest, admin: Bool) throws(AuthFailure) -> Recipient {
        switch request.requestType {
        case .passwordReset, .emailSignIn:
            let email = try validEmail(request.email)
            return Recipient(account: account(email: email), email: email)
        default:
            let user: Account
            if let idToken = request.idToken {
                user = try tokenAccount(idToken).account
            } else if admin, let adminEmail = request.email {
                // USER_NOT_FOUND, not a reset's EMAIL_NOT_FOUND: firebase-admin-python
                // `_auth_client.py:456,477` (PR #550) and the emulator (`operations.ts:927,945`).
                guard let found = account(email: try validEmail(adminEmail)) else { throw AuthFailure.server(.userNotFound, detail: nil) }
                user = found
            } else {
                throw AuthFailure.server(.missingIDToken, detail: nil)
            }
            guard let userEmail = user.email else { throw AuthFailure.server(.missingEmail, detail: nil) }
            guard request.requestType == .verifyAndChangeEmail else { return Recipient(account: user, email: userEmail) }
            guard let newEmail = request.newEmail else { throw AuthFailure.server(.missingNewEmail, detail: nil) }
            guard EmailSyntax.isValid(newEmail) else { throw AuthFailure.server(.invalidNewEmail, detail: nil) }
            guard account(email: newEmail) == nil else {
                throw Self.emailInUse
            }
            return Recipient(account: user, email: userEmail, newEmail: newEmail)
        }
    }

    private func checkContinueURL(_ request: SendOobCodeRequest) throws(AuthFailure) {
        guard let continueURL = request.continueUrl else {
            if request.requestType == .emailSignIn {
                throw AuthFailure.server(.missingContinueURI, detail: "A continue URL must be provided in the request.")
            }
            return
        }
        let verdict = ContinueURLPolicy.check(continueURL, authorizedDomains: configuration.authorizedDomains)
        if let code = verdict.errorCode {
            throw AuthFailure.server(code, detail: verdict.explanation)
        }
    }

    private func checkApps(_ request: SendOobCodeRequest) throws(AuthFailure) {
        if request.iOSAppStoreId != nil && request.iOSBundleId == nil {
            throw AuthFailure.server(.missingIOSBundleID, detail: "An iOS Bundle ID must be provided if an App Store ID is provided.")
        }
        if request.androidPackageName == nil && (request.androidInstallApp == true || request.androidMinimumVersion != nil) {
            throw AuthFailure.server(.missingAndroidPackageName, detail: "An Android Package Name must be provided if the Android App is required to be installed.")
        }
    }

    /// Counts one email to `address`, or refuses it beyond the (assumed) rate limit.
    private mutating func countEmail(to address: String, type: OobRequestType) throws(AuthFailure) {
        let key = address.lowercased()
        let limit = configuration.rateLimit
        let windowStart = clock.now.addingTimeInterval(-limit.windowSeconds)
        var recent = (sendTimes[key] ?? []).filter { $0 > windowStart }
        guard recent.count < limit.maxEmails else {
            throw AuthFailure.server(type == .passwordReset ? .resetPasswordExceedLimit : .tooManyAttempts,
                                     detail: "\(recent.count) emails to this address in the last \(Int(limit.windowSeconds)) s (assumed limit)")
        }
        recent.append(clock.now)
        sendTimes[key] = recent
    }

    private static func withoutEmptyFields(_ request: SendOobCodeRequest) -> SendOobCodeRequest {
        var cleaned = request
        cleaned.email = nonEmpty(request.email)
        cleaned.idToken = nonEmpty(request.idToken)
        cleaned.newEmail = nonEmpty(request.newEmail)
        cleaned.continueUrl = nonEmpty(request.continueUrl)
        cleaned.iOSBundleId = nonEmpty(request.iOSBundleId)
        cleaned.iOSAppStoreId = nonEmpty(request.iOSAppStoreId)
        cleaned.androidPackageName = nonEmpty(request.androidPackageName)
        cleaned.androidMinimumVersion = nonEmpty(request.androidMinimumVersion)
        cleaned.dynamicLinkDomain = nonEmpty(request.dynamicLinkDomain)
        cleaned.linkDomain = nonEmpty(request.linkDomain)
        cleaned.tenantId = nonEmpty(request.tenantId)
        return cleaned
    }

    // MARK: Codes

    /// With only `oobCode`: checks the code without consuming it, answering as the emulator does
    /// per request type (no `email` for EMAIL_SIGNIN codes, which the user must type; for
    /// RECOVER_EMAIL the address being restored). With `newPassword`: confirms a password reset
    /// (consumes; PASSWORD_RESET codes only; WEAK_PASSWORD under 6 characters; marks the email
    /// verified; revokes every session issued before).
    public mutating func resetPassword(_ request: ResetPasswordRequest) throws(AuthFailure) -> ResetPasswordResponse {
        try checkAuthEnabled()
        guard tenant?.allowPasswordSignup ?? true else { throw AuthFailure.server(.passwordLoginDisabled, detail: nil) }
        let code = try usableCode(request.oobCode)
        // The emulator reads an empty `newPassword` as none (a check); production refuses it as weak.
        if let newPassword = isEmulator ? Self.nonEmpty(request.newPassword) : request.newPassword {
            guard code.requestType == .passwordReset else {
                throw AuthFailure.server(.invalidOobCode, detail: isEmulator ? nil : "a \(code.requestType.rawValue) code cannot reset a password")
            }
            try checkStrength(newPassword)
            var account: Account
            if isEmulator {
                consume(code)
                guard let found = code.localId.flatMap({ accounts[$0] }) ?? self.account(email: code.email) else {
                    throw AuthFailure.server(.invalidOobCode, detail: nil)
                }
                account = found
            } else {
                account = try codeAccount(code)
                consume(code)
            }
            account.password = newPassword
            account.emailVerified = true
            account.passwordUpdatedAt = clock.now
            revokeSessions(&account)
            accounts[account.localId] = account
        }
        var response = ResetPasswordResponse(
            email: code.requestType == .emailSignIn ? nil : code.email,
            newEmail: code.requestType == .recoverEmail ? nil : code.newEmail,
            requestType: code.requestType
        )
        // The factor a revert removes (the JS SDK's checkActionCode requires it:
        // firebase-js-sdk `packages/auth/src/core/strategies/email_and_password.ts:207-208`).
        if code.requestType == .revertSecondFactorAddition, let id = code.mfaEnrollmentId,
           let enrollment = code.localId.flatMap({ accounts[$0] })?.mfaInfo?.first(where: { $0.mfaEnrollmentId == id }) {
            response.mfaInfo = Self.record(enrollment, obfuscating: true)
        }
        return response
    }

    public mutating func update(_ request: UpdateAccountRequest) throws(AuthFailure) -> UpdateAccountResponse {
        try update(request, caller: request.localId != nil && request.idToken == nil && request.oobCode == nil ? .admin : .client)
    }

    /// With `oobCode`: applies a VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL code
    /// (consumes it). Otherwise an account update by `idToken` (the user) or `localId` (admin).
    /// A user changing their own address gets a RECOVER_EMAIL link at the old one, as the
    /// emulator sends it.
    public mutating func update(_ request: UpdateAccountRequest, caller: AuthCaller) throws(AuthFailure) -> UpdateAccountResponse {
        if isEmulator { return try emulatorUpdate(request, caller: caller) }
        try checkAuthEnabled()
        if let oobCode = request.oobCode {
            return try applyCode(oobCode)
        }
        var account: Account
        var provider: String?
        if let idToken = Self.nonEmpty(request.idToken) {
            (account, provider) = try tokenAccount(idToken)
        } else if let localId = Self.nonEmpty(request.localId) {
            guard let found = accounts[localId] else { throw AuthFailure.server(.userNotFound, detail: nil) }
            account = found
        } else {
            throw AuthFailure.server(.missingIDToken, detail: nil)
        }
        let bySession = provider != nil
        var emailChangedFrom: String?
        if let email = request.email {
            guard EmailSyntax.isValid(email) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
            if let other = self.account(email: email), other.localId != account.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            if email != account.email {
                if account.anonymous != true, let old = account.email {
                    if account.initialEmail == nil { account.initialEmail = old }
                    emailChangedFrom = old
                }
                setEmail(&account, email)
                account.emailVerified = false
            }
        }
        var passwordChanged = false
        if let password = request.password {
            try checkStrength(password)
            account.password = password
            account.passwordUpdatedAt = clock.now
            account.anonymous = nil
            revokeSessions(&account)
            passwordChanged = true
        }
        if let name = request.displayName { account.displayName = name }
        if let photo = request.photoUrl { account.photoUrl = photo }
        for attribute in request.deleteAttribute ?? [] {
            switch attribute {
            case "DISPLAY_NAME": account.displayName = nil
            case "PHOTO_URL": account.photoUrl = nil
            default: break
            }
        }
        if let verified = request.emailVerified { account.emailVerified = verified }
        if let disable = request.disableUser { account.disabled = disable }
        if caller == .admin, let validSince = request.validSince { applyAdminValidSince(validSince, to: &account) }
        accounts[account.localId] = account
        var response = UpdateAccountResponse(localId: account.localId, email: account.email, emailVerified: account.emailVerified)
        response.displayName = account.displayName
        response.photoUrl = account.photoUrl
        response.providerUserInfo = providerInfo(account)
        if bySession && (passwordChanged || request.returnSecureToken == true) {
            let tokens = issueTokens(account, provider: passwordChanged ? "password" : provider ?? "password")
            response.idToken = tokens.idToken
            response.refreshToken = tokens.refreshToken
            response.expiresIn = tokens.expiresIn
        }
        if emailChangedFrom != nil, let initial = account.initialEmail {
            issueRecoverEmail(account: account, oldEmail: initial, language: configuration.defaultLocale)
        }
        return response
    }

    /// Signs in with an EMAIL_SIGNIN code (consumes it). The email must match the code's;
    /// a new address gets an account; the email counts as verified. With an `idToken`, the code
    /// links the address to that user (EMAIL_EXISTS when another account has it).
    public mutating func signInWithEmailLink(_ request: SignInWithEmailLinkRequest) throws(AuthFailure) -> SignInResponse {
        if isEmulator { return try emulatorSignInWithEmailLink(request) }
        try checkAuthEnabled()
        guard tenant?.enableEmailLinkSignin ?? true else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
        let linking = try Self.nonEmpty(request.idToken).map { (token) throws(AuthFailure) in try tokenAccount(token).account }
        let email = try validEmail(request.email)
        let code = try usableCode(request.oobCode)
        guard code.requestType == .emailSignIn else {
            throw AuthFailure.server(.invalidOobCode, detail: "a \(code.requestType.rawValue) code cannot sign in")
        }
        guard code.email.lowercased() == email.lowercased() else {
            throw AuthFailure.server(.invalidEmail, detail: "The email provided does not match the sign-in email address.")
        }
        let byEmail = self.account(email: email)
        var isNewUser = false
        var account: Account
        if let existing = linking ?? byEmail {
            guard !existing.disabled else { throw Self.userDisabled }
            if let linking, let byEmail, linking.localId != byEmail.localId {
                throw Self.emailInUse
            }
            account = existing
            if account.email?.lowercased() != code.email.lowercased() { setEmail(&account, code.email) }
        } else {
            account = newAccount(localId: nil, email: code.email, password: nil, displayName: nil, anonymous: false)
            isNewUser = true
        }
        account.emailVerified = true
        account.emailLinkSignin = true
        account.anonymous = nil
        consume(code)
        if let pending = pendingSecondFactor(account, kind: "identitytoolkit#EmailLinkSigninResponse", email: account.email, provider: "password", isNewUser: isNewUser) {
            insert(account)
            return pending
        }
        account.lastLoginAt = clock.now
        insert(account)
        return signInResponse(account, kind: "identitytoolkit#EmailLinkSigninResponse", provider: "password", isNewUser: isNewUser)
    }

    // MARK: Accounts (both behaviours, as the emulator)

    /// `accounts:createAuthUri`, what `fetchSignInMethodsForEmail` calls: the sign-in methods of
    /// an address, or nothing about it with enumeration protection.
    public mutating func createAuthUri(_ request: CreateAuthUriRequest) throws(AuthFailure) -> CreateAuthUriResponse {
        try checkAuthEnabled()
        let sessionId = Self.nonEmpty(request.sessionId) ?? generator.alphanumericString(count: 27)
        if request.providerId != nil {
            throw AuthFailure.server(.notImplemented, detail: "Sign-in with IDP is not yet supported.")
        }
        guard let identifier = Self.nonEmpty(request.identifier) else { throw AuthFailure.server(.missingIdentifier, detail: nil) }
        guard let continueUri = Self.nonEmpty(request.continueUri) else { throw AuthFailure.server(.missingContinueURI, detail: nil) }
        guard Self.isEmulatorEmail(identifier) else { throw AuthFailure.server(.invalidIdentifier, detail: nil) }
        guard Self.isAbsoluteURI(continueUri) else { throw AuthFailure.server(.invalidContinueURI, detail: nil) }
        if protected {
            return CreateAuthUriResponse(registered: nil, allProviders: nil, sessionId: sessionId, signinMethods: nil)
        }
        var providers: [String] = []
        var methods: [String] = []
        let user = account(email: identifier)
        if let user, user.password != nil || user.emailLinkSignin == true {
            providers.append("password")
            if user.password != nil { methods.append("password") }
            if user.emailLinkSignin == true { methods.append("emailLink") }
        }
        return CreateAuthUriResponse(registered: user != nil, allProviders: providers, sessionId: sessionId, signinMethods: methods)
    }

    /// `accounts:delete`: the user by `idToken`, or by `localId` for admins.
    public mutating func deleteAccount(_ request: DeleteAccountRequest, caller: AuthCaller) throws(AuthFailure) -> DeleteAccountResponse {
        try checkAuthEnabled()
        let account: Account
        if caller == .admin {
            guard let localId = Self.nonEmpty(request.localId) else { throw AuthFailure.server(.missingLocalID, detail: nil) }
            guard let found = accounts[localId] else { throw AuthFailure.server(.userNotFound, detail: nil) }
            account = found
        } else {
            guard let idToken = Self.nonEmpty(request.idToken) else { throw AuthFailure.server(.missingIDToken, detail: nil) }
            account = try tokenAccount(idToken).account
        }
        remove(account)
        return DeleteAccountResponse()
    }

    /// `accounts:query` for admin listings: every account, by `localId` (no paging, as the emulator).
    public func queryAccounts(_ request: QueryAccountsRequest) throws(AuthFailure) -> QueryAccountsResponse {
        try checkAuthEnabled()
        if let expression = request.expression, !expression.isEmpty {
            throw AuthFailure.server(.notImplemented, detail: "expression is not implemented.")
        }
        if request.returnUserInfo == false {
            return QueryAccountsResponse(recordsCount: String(accounts.count), userInfo: nil)
        }
        if let limit = request.limit, !limit.isEmpty, limit != "0" {
            throw AuthFailure.server(.notImplemented, detail: "limit is not implemented.")
        }
        if let offset = request.offset, !offset.isEmpty, offset != "0" {
            throw AuthFailure.server(.notImplemented, detail: "offset is not implemented.")
        }
        if let sortBy = request.sortBy, !["USER_ID", "SORT_BY_FIELD_UNSPECIFIED"].contains(sortBy) {
            throw AuthFailure.server(.notImplemented, detail: "Only sorting by USER_ID is implemented.")
        }
        var users = allUsers
        if request.order == "DESC" { users.reverse() }
        return QueryAccountsResponse(recordsCount: String(users.count), userInfo: users)
    }

    // MARK: Internals

    static let userDisabled = AuthFailure.server(.userDisabled, detail: "The user account has been disabled by an administrator.")
    static let emailNotFound = AuthFailure.server(.emailNotFound, detail: "There is no user record corresponding to this identifier. The user may have been deleted.")
    static let emailInUse = AuthFailure.server(.emailExists, detail: "The email address is already in use by another account.")

    func checkAuthEnabled() throws(AuthFailure) {
        if tenant?.disableAuth == true { throw AuthFailure.server(.projectDisabled, detail: nil) }
    }

    /// The checks an operation makes before reading its body (the emulator's first
    /// assertions): PROJECT_DISABLED, then PASSWORD_LOGIN_DISABLED or OPERATION_NOT_ALLOWED.
    /// `operation` is the v1 name, `accounts:resetPassword`.
    public func checkAvailable(_ operation: String) throws(AuthFailure) {
        try checkAuthEnabled()
        switch operation {
        case "accounts:resetPassword", "accounts:signInWithPassword":
            guard tenant?.allowPasswordSignup ?? true else { throw AuthFailure.server(.passwordLoginDisabled, detail: nil) }
        case "accounts:signInWithEmailLink":
            guard tenant?.enableEmailLinkSignin ?? true else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
        default:
            break
        }
    }

    private mutating func applyCode(_ oobCode: String) throws(AuthFailure) -> UpdateAccountResponse {
        let code = try usableCode(oobCode)
        guard [.verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition].contains(code.requestType) else {
            throw AuthFailure.server(.invalidOobCode, detail: "a \(code.requestType.rawValue) code cannot be applied")
        }
        var account = try codeAccount(code)
        var newEmail: String?
        switch code.requestType {
        case .verifyAndChangeEmail:
            guard let target = code.newEmail else { throw AuthFailure.server(.invalidOobCode, detail: nil) }
            if let other = self.account(email: target), other.localId != account.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            let oldEmail = code.email
            if account.initialEmail == nil { account.initialEmail = oldEmail }
            changeEmail(&account, to: target)
            consume(code)
            newEmail = target
            // As Firebase does: the old address gets a RECOVER_EMAIL link to undo the change.
            issueRecoverEmail(account: account, oldEmail: oldEmail, language: code.language)
        case .recoverEmail:
            if let other = self.account(email: code.email), other.localId != account.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            changeEmail(&account, to: code.email)
            consume(code)
        case .revertSecondFactorAddition:
            account.mfaInfo = account.mfaInfo?.filter { $0.mfaEnrollmentId != code.mfaEnrollmentId }
            accounts[account.localId] = account
            consume(code)
        default:
            account.emailVerified = true
            accounts[account.localId] = account
            consume(code)
        }
        var response = UpdateAccountResponse(localId: account.localId, email: account.email, emailVerified: account.emailVerified)
        response.newEmail = newEmail
        response.displayName = account.displayName
        response.providerUserInfo = providerInfo(account)
        return response
    }

    mutating func changeEmail(_ account: inout Account, to email: String) {
        setEmail(&account, email)
        account.emailVerified = true
        accounts[account.localId] = account
    }

    /// Moves `account` to `email` in the address index (the caller stores the account).
    mutating func setEmail(_ account: inout Account, _ email: String?) {
        if let old = account.email, localIdByEmail[old.lowercased()] == account.localId {
            localIdByEmail[old.lowercased()] = nil
        }
        account.email = email
        if let email { localIdByEmail[email.lowercased()] = account.localId }
    }

    /// A RECOVER_EMAIL code for `oldEmail`, mailed there. Its `newEmail` is the address being undone.
    mutating func issueRecoverEmail(account: Account, oldEmail: String, language: String) {
        issueNotice(.recoverEmail, mode: "recoverEmail", account: account, email: oldEmail, newEmail: account.email, language: language)
    }

    /// An email the project sends on its own after a change, with a link that undoes it
    /// (RECOVER_EMAIL, REVERT_SECOND_FACTOR_ADDITION).
    mutating func issueNotice(_ type: OobRequestType, mode: String, account: Account, email: String, newEmail: String?, language: String, mfaEnrollmentId: String? = nil) {
        let oobCode = generator.urlSafeString(count: 54)
        var request = SendOobCodeRequest(requestType: type, email: email)
        request.tenantId = tenant?.tenantId
        let link = isEmulator
            ? emulatorLink(mode: mode, oobCode: oobCode, continueUrl: nil)
            : ActionLinkBuilder.emailLink(for: request, oobCode: oobCode, lang: language, project: configuration, linkDomain: configuration.defaultHostingDomain)
        var issued = IssuedOobCode(
            oobCode: oobCode, requestType: type, email: email, newEmail: newEmail, localId: account.localId,
            settings: ActionCodeSettings(), clientType: nil, tenantId: tenant?.tenantId, language: language, link: link,
            issuedAt: clock.now, expiresAt: clock.now.addingTimeInterval(configuration.codeLifetimes.lifetime(for: type)),
            consumedAt: nil, mailID: nil
        )
        issued.mfaEnrollmentId = mfaEnrollmentId
        issued.mailID = deliver(type, to: email, email: email, newEmail: newEmail, link: link, language: language, oobCode: oobCode)
        store(issued)
    }

    /// The code if it exists, is unused and (in production behaviour) has not expired.
    func usableCode(_ oobCode: String) throws(AuthFailure) -> IssuedOobCode {
        guard !oobCode.isEmpty else { throw AuthFailure.server(.missingOobCode, detail: nil) }
        guard let code = issuedCode(oobCode) else {
            throw AuthFailure.server(.invalidOobCode, detail: isEmulator ? nil : "The action code is invalid. This can happen if the code is malformed, expired, or has already been used.")
        }
        guard code.consumedAt == nil else {
            throw AuthFailure.server(.invalidOobCode, detail: isEmulator ? nil : "The action code has already been used.")
        }
        guard isEmulator || clock.now < code.expiresAt else {
            throw AuthFailure.server(.expiredOobCode, detail: "The action code has expired.")
        }
        return code
    }

    private func codeAccount(_ code: IssuedOobCode) throws(AuthFailure) -> Account {
        guard let localId = code.localId, let account = accounts[localId] else { throw Self.emailNotFound }
        guard !account.disabled else { throw Self.userDisabled }
        return account
    }

    mutating func consume(_ code: IssuedOobCode) {
        guard let index = storedIndex(of: code.oobCode) else { return }
        issuedCodes[index].consumedAt = clock.now
    }

    mutating func store(_ code: IssuedOobCode) {
        codeIndex[code.oobCode] = issuedCodes.count
        issuedCodes.append(code)
    }

    mutating func deliver(_ type: OobRequestType, to recipient: String, email: String, newEmail: String?, link: String, language: String, oobCode: String) -> String {
        let id = "mail-\(mailbox.count + 1)"
        let text = MailTemplates.compose(type, language: language, appName: configuration.projectId, email: email, newEmail: newEmail, link: link, requestedAt: clock.now)
        mailbox.append(MailMessage(
            id: id, to: recipient, subject: text.subject, body: text.body, link: link,
            requestType: type, locale: language, sentAt: clock.now, oobCode: oobCode
        ))
        return id
    }

    static func settings(of request: SendOobCodeRequest) -> ActionCodeSettings {
        ActionCodeSettings(
            url: request.continueUrl, handleCodeInApp: request.canHandleCodeInApp == true, iOSBundleID: request.iOSBundleId,
            androidPackageName: request.androidPackageName, androidInstallIfNotAvailable: request.androidInstallApp == true,
            androidMinimumVersion: request.androidMinimumVersion, dynamicLinkDomain: request.dynamicLinkDomain, linkDomain: request.linkDomain
        )
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private func validEmail(_ email: String?) throws(AuthFailure) -> String {
        guard let email = Self.nonEmpty(email) else { throw AuthFailure.server(.missingEmail, detail: nil) }
        guard EmailSyntax.isValid(email) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
        return email
    }

    /// The emulator's email check: something, one `@`, something.
    static func isEmulatorEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// What JavaScript's `new URL(text)` accepts, near enough: a scheme, and for web schemes a host.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme, !scheme.isEmpty else { return false }
        if ["http", "https", "ws", "wss", "ftp"].contains(scheme.lowercased()) {
            return !(components.host ?? "").isEmpty
        }
        return true
    }

    func checkStrength(_ password: String) throws(AuthFailure) {
        guard password.count >= Self.minimumPasswordLength else {
            throw AuthFailure.server(.weakPassword, detail: "Password should be at least \(Self.minimumPasswordLength) characters")
        }
    }

    func account(email: String) -> Account? {
        localIdByEmail[email.lowercased()].flatMap { accounts[$0] }
    }

    mutating func insert(_ account: Account) {
        accounts[account.localId] = account
        if let email = account.email { localIdByEmail[email.lowercased()] = account.localId }
    }

    mutating func remove(_ account: Account) {
        accounts[account.localId] = nil
        if let email = account.email, localIdByEmail[email.lowercased()] == account.localId {
            localIdByEmail[email.lowercased()] = nil
        }
    }

    mutating func newAccount(localId: String?, email: String?, password: String?, displayName: String?, anonymous: Bool) -> Account {
        Account(
            localId: localId ?? generator.alphanumericString(count: 28), email: email, password: password, displayName: displayName,
            emailVerified: false, disabled: false, createdAt: clock.now, lastLoginAt: clock.now,
            passwordUpdatedAt: password == nil ? nil : clock.now, validSince: clock.now, sessionGeneration: 0,
            anonymous: anonymous ? true : nil
        )
    }

    /// Every token issued so far is revoked, even those of this very second.
    mutating func revokeSessions(_ account: inout Account) {
        stampValidSince(&account)
        // A tag compared for equality: a session file's largest number wraps instead of trapping.
        account.sessionGeneration &+= 1
    }

    /// `validSince` is now, on the simulated clock and on the tokens' clock.
    func stampValidSince(_ account: inout Account) {
        account.validSince = clock.now
        account.tokenValidSince = tokenTimes().issuedAt
    }

    /// An admin's `validSince` (firebase-admin's revokeRefreshTokens sends the wall clock's
    /// seconds), on the tokens' clock. A number that is no time the clock can show is taken as
    /// now, as the emulator takes every value (firebase-tools `operations.ts:1172-1173`).
    func applyAdminValidSince(_ text: String, to account: inout Account) {
        guard let seconds = Double(text) else { return }
        guard SimulatedClock.range.contains(Date(timeIntervalSince1970: seconds)) else { return stampValidSince(&account) }
        account.validSince = Date(timeIntervalSince1970: seconds)
        account.tokenValidSince = Int(seconds)
    }

    /// `validSince` on the wire: seconds, on the clock ID tokens' `iat` uses.
    static func wireValidSince(_ account: Account) -> Int {
        account.tokenValidSince ?? account.validSince.wholeSecondsSince1970
    }

    mutating func signInResponse(_ account: Account, kind: String, provider: String, registered: Bool? = nil, isNewUser: Bool? = nil) -> SignInResponse {
        let tokens = issueTokens(account, provider: provider)
        return SignInResponse(
            kind: kind, localId: account.localId, email: account.email, displayName: account.displayName,
            idToken: tokens.idToken, refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn, registered: registered, isNewUser: isNewUser
        )
    }

    func providerInfo(_ account: Account) -> [ProviderUserInfo] {
        guard let email = account.email, account.password != nil || account.emailLinkSignin == true else { return [] }
        return [ProviderUserInfo(providerId: "password", rawId: email, federatedId: email, email: email, displayName: account.displayName, photoUrl: account.photoUrl)]
    }

    /// The emulator's fake salt: `fakeSalt` and 20 letters, here derived from the account so
    /// that the main generator's sequence (codes, ids) does not depend on lookups.
    func salt(_ account: Account) -> String {
        var derived = SeededGenerator(seedText: "\(account.localId)|\(account.sessionGeneration)|\(account.passwordUpdatedAt?.timeIntervalSince1970 ?? 0)")
        return "fakeSalt" + derived.alphanumericString(count: 20)
    }

    func userRecord(_ account: Account) -> UserRecord {
        var record = UserRecord(
            localId: account.localId, email: account.email, emailVerified: account.emailVerified,
            displayName: account.displayName, disabled: account.disabled,
            createdAt: Self.milliseconds(account.createdAt), lastLoginAt: account.lastLoginAt.map(Self.milliseconds),
            passwordUpdatedAt: account.passwordUpdatedAt.map { ($0.timeIntervalSince1970 * 1000).rounded() },
            validSince: String(Self.wireValidSince(account))
        )
        record.photoUrl = account.photoUrl
        record.providerUserInfo = providerInfo(account)
        if let password = account.password {
            let salt = salt(account)
            record.salt = salt
            record.passwordHash = "fakeHash:salt=\(salt):password=\(password)"
        }
        record.emailLinkSignin = account.emailLinkSignin
        record.tenantId = tenant?.tenantId
        record.lastRefreshAt = account.lastRefreshAt?.iso8601MillisecondStamp
        record.initialEmail = account.initialEmail
        record.mfaInfo = account.mfaInfo.map { $0.map { Self.record($0, obfuscating: false) } }
        return record
    }

    static func milliseconds(_ date: Date) -> String {
        String(date.millisecondsSince1970)
    }
}
