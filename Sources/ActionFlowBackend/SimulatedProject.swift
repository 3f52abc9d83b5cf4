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
}

/// The simulated Firebase project: accounts, sessions, codes, mailbox and clock, with the
/// Identity Toolkit operations' semantics and error codes (protocol.md section 3).
///
/// A value type: every operation is a `mutating` method, so callers decide how to share it
/// (`EmbeddedTransport` keeps one behind a lock). Nothing here reads the wall clock or a
/// random source: the same calls on two fresh projects give the same ids, codes and mails.
public struct SimulatedProject: Sendable, Equatable, Codable {
    public static let minimumPasswordLength = 6
    /// Seconds an ID token claims to live (`expiresIn`). Not enforced: the transport has no
    /// token refresh, which the SDKs would do silently.
    public static let idTokenLifetime = 3600

    public let configuration: ProjectConfiguration
    public private(set) var clock: SimulatedClock
    public private(set) var mailbox: [MailMessage] = []
    /// Every code issued, oldest first (the emulator's `oobCodes` listing).
    public private(set) var issuedCodes: [IssuedOobCode] = []

    struct Account: Sendable, Hashable, Codable {
        var localId: String
        var email: String
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
    }

    struct Session: Sendable, Hashable, Codable {
        var localId: String
        var generation: Int
    }

    private var accounts: [String: Account] = [:]
    private var localIdByEmail: [String: String] = [:]
    private var sessions: [String: Session] = [:]
    private var codeIndex: [String: Int] = [:]
    /// Send times per lowercased address, for the rate limit.
    private var sendTimes: [String: [Date]] = [:]
    private var generator: SeededGenerator

    public init(configuration: ProjectConfiguration) {
        self.configuration = configuration
        clock = SimulatedClock(start: configuration.clockStart)
        generator = SeededGenerator(seedText: "\(configuration.projectId)|\(configuration.clockStart.timeIntervalSince1970)")
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

    // MARK: Clock and world

    public var now: Date { clock.now }

    @discardableResult
    public mutating func advanceClock(by seconds: TimeInterval) throws(AuthFailure) -> Date {
        try clock.advance(by: seconds)
        return clock.now
    }

    /// Back to the configuration's start: preset users, no sessions or codes, empty mailbox.
    public mutating func reset() {
        self = SimulatedProject(configuration: configuration)
    }

    /// The settings a code was requested with (the Hosting link router needs them).
    public func settings(forOobCode code: String) -> ActionCodeSettings? {
        issuedCode(code)?.settings
    }

    public func issuedCode(_ code: String) -> IssuedOobCode? {
        codeIndex[code].map { issuedCodes[$0] }
    }

    /// An account as `accounts:lookup` shows it, for admin views.
    public func user(email: String) -> UserRecord? {
        localIdByEmail[email.lowercased()].flatMap { accounts[$0] }.map(userRecord)
    }

    // MARK: Sign up and sign in

    public mutating func signUp(_ request: SignUpRequest) throws(AuthFailure) -> SignInResponse {
        let email = try validEmail(request.email)
        guard let password = request.password, !password.isEmpty else { throw AuthFailure.server(.missingPassword, detail: nil) }
        try checkStrength(password)
        guard localIdByEmail[email.lowercased()] == nil else {
            throw AuthFailure.server(.emailExists, detail: "The email address is already in use by another account.")
        }
        let account = Account(
            localId: generator.alphanumericString(count: 28), email: email, password: password,
            displayName: request.displayName, emailVerified: request.emailVerified ?? false, disabled: false,
            createdAt: clock.now, lastLoginAt: clock.now, passwordUpdatedAt: clock.now, validSince: clock.now, sessionGeneration: 0
        )
        insert(account)
        return signInResponse(account, kind: "identitytoolkit#SignupNewUserResponse", isNewUser: true)
    }

    public mutating func signInWithPassword(_ request: SignInWithPasswordRequest) throws(AuthFailure) -> SignInResponse {
        let email = try validEmail(request.email)
        guard !request.password.isEmpty else { throw AuthFailure.server(.missingPassword, detail: nil) }
        let protected = configuration.emailEnumerationProtection
        guard var account = account(email: email) else {
            throw protected ? AuthFailure.server(.invalidLoginCredentials, detail: nil)
                : AuthFailure.server(.emailNotFound, detail: "There is no user record corresponding to this identifier. The user may have been deleted.")
        }
        guard account.password == request.password else {
            throw protected ? AuthFailure.server(.invalidLoginCredentials, detail: nil)
                : AuthFailure.server(.invalidPassword, detail: "The password is invalid or the user does not have a password.")
        }
        guard !account.disabled else { throw Self.userDisabled }
        account.lastLoginAt = clock.now
        accounts[account.localId] = account
        return signInResponse(account, kind: "identitytoolkit#VerifyPasswordResponse", registered: true)
    }

    // MARK: Lookup

    /// By `idToken` (clients) or by `email` / `localId` (admin callers: the embedded project trusts them).
    public func lookup(_ request: LookupRequest) throws(AuthFailure) -> LookupResponse {
        if let idToken = request.idToken {
            let account = try sessionAccount(idToken)
            return LookupResponse(users: [userRecord(account)])
        }
        let emails = request.email ?? []
        let localIds = request.localId ?? []
        guard !emails.isEmpty || !localIds.isEmpty else { throw AuthFailure.server(.missingIDToken, detail: nil) }
        var found: [UserRecord] = []
        for localId in localIds {
            if let account = accounts[localId] { found.append(userRecord(account)) }
        }
        for email in emails {
            if let account = account(email: email), !found.contains(where: { $0.localId == account.localId }) {
                found.append(userRecord(account))
            }
        }
        return LookupResponse(users: found.isEmpty ? nil : found)
    }

    // MARK: sendOobCode

    /// Validates in this order, first failure wins:
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
    public mutating func sendOobCode(_ request: SendOobCodeRequest, locale: String?) throws(AuthFailure) -> SendOobCodeResponse {
        // The SDKs never send empty strings; treat any that arrive as absent, in checks and links alike.
        let request = Self.withoutEmptyFields(request)
        let type = request.requestType
        guard [.passwordReset, .verifyEmail, .emailSignIn, .verifyAndChangeEmail].contains(type) else {
            throw AuthFailure.server(.invalidRequestType, detail: "\(type.rawValue) cannot be requested with sendOobCode")
        }
        let admin = request.returnOobLink == true
        let recipient = try recipient(of: request, admin: admin)
        try checkContinueURL(request)
        try checkApps(request)
        let linkDomain = try configuration.mobileLinkDomain(for: request)

        // The account: with enumeration protection, unknown and disabled addresses "succeed" silently.
        let protected = configuration.emailEnumerationProtection
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
                user = try sessionAccount(idToken)
            } else if admin, let adminEmail = request.email {
                guard let found = account(email: try validEmail(adminEmail)) else { throw Self.emailNotFound }
                user = found
            } else {
                throw AuthFailure.server(.missingIDToken, detail: nil)
            }
            guard request.requestType == .verifyAndChangeEmail else { return Recipient(account: user, email: user.email) }
            guard let newEmail = request.newEmail else { throw AuthFailure.server(.missingNewEmail, detail: nil) }
            guard EmailSyntax.isValid(newEmail) else { throw AuthFailure.server(.invalidNewEmail, detail: nil) }
            guard account(email: newEmail) == nil else {
                throw AuthFailure.server(.emailExists, detail: "The email address is already in use by another account.")
            }
            return Recipient(account: user, email: user.email, newEmail: newEmail)
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

    /// With only `oobCode`: checks the code without consuming it. With `newPassword`: confirms a
    /// password reset (consumes; PASSWORD_RESET codes only; WEAK_PASSWORD under 6 characters;
    /// marks the email verified; revokes every session issued before).
    public mutating func resetPassword(_ request: ResetPasswordRequest) throws(AuthFailure) -> ResetPasswordResponse {
        let code = try usableCode(request.oobCode)
        guard let newPassword = request.newPassword else {
            let (email, newEmail) = code.requestType == .recoverEmail ? (code.newEmail ?? code.email, code.email) : (code.email, code.newEmail)
            return ResetPasswordResponse(email: email, newEmail: newEmail, requestType: code.requestType)
        }
        guard code.requestType == .passwordReset else {
            throw AuthFailure.server(.invalidOobCode, detail: "a \(code.requestType.rawValue) code cannot reset a password")
        }
        try checkStrength(newPassword)
        var account = try codeAccount(code)
        account.password = newPassword
        account.emailVerified = true
        account.passwordUpdatedAt = clock.now
        revokeSessions(&account)
        accounts[account.localId] = account
        consume(code)
        return ResetPasswordResponse(email: account.email, requestType: .passwordReset)
    }

    /// With `oobCode`: applies a VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL code
    /// (consumes it). Otherwise an account update by `idToken` (the user) or `localId` (admin).
    public mutating func update(_ request: UpdateAccountRequest) throws(AuthFailure) -> UpdateAccountResponse {
        if let oobCode = request.oobCode {
            return try applyCode(oobCode)
        }
        var account: Account
        var bySession = false
        if let idToken = Self.nonEmpty(request.idToken) {
            account = try sessionAccount(idToken)
            bySession = true
        } else if let localId = Self.nonEmpty(request.localId) {
            guard let found = accounts[localId] else { throw AuthFailure.server(.userNotFound, detail: nil) }
            account = found
        } else {
            throw AuthFailure.server(.missingIDToken, detail: nil)
        }
        if let email = request.email {
            guard EmailSyntax.isValid(email) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
            if let other = self.account(email: email), other.localId != account.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            localIdByEmail[account.email.lowercased()] = nil
            account.email = email
            account.emailVerified = false
            localIdByEmail[email.lowercased()] = account.localId
        }
        var passwordChanged = false
        if let password = request.password {
            try checkStrength(password)
            account.password = password
            account.passwordUpdatedAt = clock.now
            revokeSessions(&account)
            passwordChanged = true
        }
        if let verified = request.emailVerified { account.emailVerified = verified }
        if let disable = request.disableUser { account.disabled = disable }
        accounts[account.localId] = account
        var response = UpdateAccountResponse(localId: account.localId, email: account.email, emailVerified: account.emailVerified)
        if bySession && (passwordChanged || request.returnSecureToken == true) {
            response.idToken = issueIDToken(account)
            response.refreshToken = generator.urlSafeString(count: 64)
            response.expiresIn = String(Self.idTokenLifetime)
        }
        return response
    }

    /// Signs in with an EMAIL_SIGNIN code (consumes it). The email must match the code's;
    /// a new address gets an account; the email counts as verified.
    public mutating func signInWithEmailLink(_ request: SignInWithEmailLinkRequest) throws(AuthFailure) -> SignInResponse {
        let email = try validEmail(request.email)
        let code = try usableCode(request.oobCode)
        guard code.requestType == .emailSignIn else {
            throw AuthFailure.server(.invalidOobCode, detail: "a \(code.requestType.rawValue) code cannot sign in")
        }
        guard code.email.lowercased() == email.lowercased() else {
            throw AuthFailure.server(.invalidEmail, detail: "The email provided does not match the sign-in email address.")
        }
        var isNewUser = false
        var account: Account
        if let existing = self.account(email: email) {
            guard !existing.disabled else { throw Self.userDisabled }
            account = existing
        } else {
            account = Account(
                localId: generator.alphanumericString(count: 28), email: code.email, password: nil, displayName: nil,
                emailVerified: true, disabled: false, createdAt: clock.now, lastLoginAt: nil, passwordUpdatedAt: nil,
                validSince: clock.now, sessionGeneration: 0
            )
            isNewUser = true
        }
        account.emailVerified = true
        account.lastLoginAt = clock.now
        insert(account)
        consume(code)
        return signInResponse(account, kind: "identitytoolkit#EmailLinkSigninResponse", isNewUser: isNewUser)
    }

    // MARK: Internals

    static let userDisabled = AuthFailure.server(.userDisabled, detail: "The user account has been disabled by an administrator.")
    static let emailNotFound = AuthFailure.server(.emailNotFound, detail: "There is no user record corresponding to this identifier. The user may have been deleted.")

    private mutating func applyCode(_ oobCode: String) throws(AuthFailure) -> UpdateAccountResponse {
        let code = try usableCode(oobCode)
        guard [.verifyEmail, .verifyAndChangeEmail, .recoverEmail].contains(code.requestType) else {
            throw AuthFailure.server(.invalidOobCode, detail: "a \(code.requestType.rawValue) code cannot be applied")
        }
        var account = try codeAccount(code)
        switch code.requestType {
        case .verifyAndChangeEmail:
            guard let newEmail = code.newEmail else { throw AuthFailure.server(.invalidOobCode, detail: nil) }
            if let other = self.account(email: newEmail), other.localId != account.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            let oldEmail = account.email
            changeEmail(&account, to: newEmail)
            consume(code)
            // As Firebase does: the old address gets a RECOVER_EMAIL link to undo the change.
            issueRecoverEmail(account: account, oldEmail: oldEmail, language: code.language)
        case .recoverEmail:
            if let other = self.account(email: code.email), other.localId != account.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            changeEmail(&account, to: code.email)
            consume(code)
        default:
            account.emailVerified = true
            accounts[account.localId] = account
            consume(code)
        }
        return UpdateAccountResponse(localId: account.localId, email: account.email, emailVerified: account.emailVerified)
    }

    private mutating func changeEmail(_ account: inout Account, to email: String) {
        localIdByEmail[account.email.lowercased()] = nil
        account.email = email
        account.emailVerified = true
        localIdByEmail[email.lowercased()] = account.localId
        accounts[account.localId] = account
    }

    private mutating func issueRecoverEmail(account: Account, oldEmail: String, language: String) {
        let oobCode = generator.urlSafeString(count: 54)
        let request = SendOobCodeRequest(requestType: .recoverEmail, email: oldEmail)
        let link = ActionLinkBuilder.emailLink(for: request, oobCode: oobCode, lang: language, project: configuration, linkDomain: configuration.defaultHostingDomain)
        var issued = IssuedOobCode(
            oobCode: oobCode, requestType: .recoverEmail, email: oldEmail, newEmail: account.email, localId: account.localId,
            settings: ActionCodeSettings(), clientType: nil, tenantId: nil, language: language, link: link,
            issuedAt: clock.now, expiresAt: clock.now.addingTimeInterval(configuration.codeLifetimes.lifetime(for: .recoverEmail)),
            consumedAt: nil, mailID: nil
        )
        issued.mailID = deliver(.recoverEmail, to: oldEmail, email: oldEmail, newEmail: account.email, link: link, language: language, oobCode: oobCode)
        store(issued)
    }

    /// The code if it exists, is unused and has not expired.
    private func usableCode(_ oobCode: String) throws(AuthFailure) -> IssuedOobCode {
        guard !oobCode.isEmpty else { throw AuthFailure.server(.missingOobCode, detail: nil) }
        guard let code = issuedCode(oobCode) else {
            throw AuthFailure.server(.invalidOobCode, detail: "The action code is invalid. This can happen if the code is malformed, expired, or has already been used.")
        }
        guard code.consumedAt == nil else {
            throw AuthFailure.server(.invalidOobCode, detail: "The action code has already been used.")
        }
        guard clock.now < code.expiresAt else {
            throw AuthFailure.server(.expiredOobCode, detail: "The action code has expired.")
        }
        return code
    }

    private func codeAccount(_ code: IssuedOobCode) throws(AuthFailure) -> Account {
        guard let localId = code.localId, let account = accounts[localId] else { throw Self.emailNotFound }
        guard !account.disabled else { throw Self.userDisabled }
        return account
    }

    private mutating func consume(_ code: IssuedOobCode) {
        guard let index = codeIndex[code.oobCode] else { return }
        issuedCodes[index].consumedAt = clock.now
    }

    private mutating func store(_ code: IssuedOobCode) {
        codeIndex[code.oobCode] = issuedCodes.count
        issuedCodes.append(code)
    }

    private mutating func deliver(_ type: OobRequestType, to recipient: String, email: String, newEmail: String?, link: String, language: String, oobCode: String) -> String {
        let id = "mail-\(mailbox.count + 1)"
        let text = MailTemplates.compose(type, language: language, appName: configuration.projectId, email: email, newEmail: newEmail, link: link)
        mailbox.append(MailMessage(
            id: id, to: recipient, subject: text.subject, body: text.body, link: link,
            requestType: type, locale: language, sentAt: clock.now, oobCode: oobCode
        ))
        return id
    }

    private static func settings(of request: SendOobCodeRequest) -> ActionCodeSettings {
        ActionCodeSettings(
            url: request.continueUrl, handleCodeInApp: request.canHandleCodeInApp == true, iOSBundleID: request.iOSBundleId,
            androidPackageName: request.androidPackageName, androidInstallIfNotAvailable: request.androidInstallApp == true,
            androidMinimumVersion: request.androidMinimumVersion, dynamicLinkDomain: request.dynamicLinkDomain, linkDomain: request.linkDomain
        )
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private func validEmail(_ email: String?) throws(AuthFailure) -> String {
        guard let email = Self.nonEmpty(email) else { throw AuthFailure.server(.missingEmail, detail: nil) }
        guard EmailSyntax.isValid(email) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
        return email
    }

    private func checkStrength(_ password: String) throws(AuthFailure) {
        guard password.count >= Self.minimumPasswordLength else {
            throw AuthFailure.server(.weakPassword, detail: "Password should be at least \(Self.minimumPasswordLength) characters")
        }
    }

    private func account(email: String) -> Account? {
        localIdByEmail[email.lowercased()].flatMap { accounts[$0] }
    }

    private mutating func insert(_ account: Account) {
        accounts[account.localId] = account
        localIdByEmail[account.email.lowercased()] = account.localId
    }

    private mutating func revokeSessions(_ account: inout Account) {
        account.validSince = clock.now
        account.sessionGeneration += 1
    }

    private func sessionAccount(_ idToken: String) throws(AuthFailure) -> Account {
        guard let session = sessions[idToken], let account = accounts[session.localId] else {
            throw AuthFailure.server(.invalidIDToken, detail: nil)
        }
        guard session.generation == account.sessionGeneration else {
            throw AuthFailure.server(.tokenExpired, detail: "The user's credential is no longer valid. The user must sign in again.")
        }
        guard !account.disabled else { throw Self.userDisabled }
        return account
    }

    private mutating func signInResponse(_ account: Account, kind: String, registered: Bool? = nil, isNewUser: Bool? = nil) -> SignInResponse {
        SignInResponse(
            kind: kind, localId: account.localId, email: account.email, displayName: account.displayName,
            idToken: issueIDToken(account), refreshToken: generator.urlSafeString(count: 64),
            expiresIn: String(Self.idTokenLifetime), registered: registered, isNewUser: isNewUser
        )
    }

    /// An unsigned JWT like the Auth Emulator's (`alg: none`), remembered as a session.
    private mutating func issueIDToken(_ account: Account) -> String {
        let issuedAt = Int(clock.now.timeIntervalSince1970)
        let payload = """
        {"iss":"https://securetoken.google.com/\(configuration.projectId)","aud":"\(configuration.projectId)",\
        "auth_time":\(issuedAt),"user_id":"\(account.localId)","sub":"\(account.localId)","iat":\(issuedAt),\
        "exp":\(issuedAt + Self.idTokenLifetime),"email":"\(account.email)","email_verified":\(account.emailVerified),\
        "sid":"\(generator.alphanumericString(count: 10))"}
        """
        let token = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + Self.base64URL(payload) + "."
        sessions[token] = Session(localId: account.localId, generation: account.sessionGeneration)
        return token
    }

    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Unpadded base64url, as JWTs use.
    static func base64URL(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = min(3, bytes.count - index)
            var value = UInt32(bytes[index]) << 16
            if chunk > 1 { value |= UInt32(bytes[index + 1]) << 8 }
            if chunk > 2 { value |= UInt32(bytes[index + 2]) }
            for position in 0...chunk {
                out.append(base64URLAlphabet[Int((value >> UInt32(18 - 6 * position)) & 63)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func userRecord(_ account: Account) -> UserRecord {
        UserRecord(
            localId: account.localId, email: account.email, emailVerified: account.emailVerified,
            displayName: account.displayName, disabled: account.disabled,
            createdAt: Self.milliseconds(account.createdAt), lastLoginAt: account.lastLoginAt.map(Self.milliseconds),
            passwordUpdatedAt: account.passwordUpdatedAt.map { ($0.timeIntervalSince1970 * 1000).rounded() },
            validSince: String(Int(account.validSince.timeIntervalSince1970))
        )
    }

    private static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}
