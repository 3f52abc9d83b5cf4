import ActionFlowModel
import Foundation

// The `emulator` behaviour: the Firebase Auth Emulator's semantics, checks and validation order
// (firebase-tools `src/emulator/auth/operations.ts`), on the same accounts, codes and mailbox.
// It lowercases addresses, accepts any `x@y`, never expires codes, checks no continue-URL domain
// and sends no rate-limit errors; its links are `http://HOST:PORT/emulator/action?...`.
extension SimulatedProject {
    /// Where the emulator's links point when no server told the project its address.
    public static let defaultLinkOrigin = "http://127.0.0.1:9099"

    /// `http://HOST:PORT/emulator/action?mode=...&lang=en&oobCode=...&apiKey=fake-api-key[&continueUrl=...][&tenantId=...]`,
    /// encoded as JavaScript's `URLSearchParams` writes it.
    func emulatorLink(mode: String, oobCode: String, continueUrl: String?) -> String {
        var items: [(String, String)] = [("mode", mode), ("lang", "en"), ("oobCode", oobCode), ("apiKey", "fake-api-key")]
        if let continueUrl { items.append(("continueUrl", continueUrl)) }
        if let tenant { items.append(("tenantId", tenant.tenantId)) }
        let query = items.map { "\(PercentEncoding.formEncode($0.0))=\(PercentEncoding.formEncode($0.1))" }.joined(separator: "&")
        return "\(linkOrigin ?? Self.defaultLinkOrigin)/emulator/action?\(query)"
    }

    static func canonical(_ email: String) -> String { email.lowercased() }

    // MARK: signUp

    mutating func emulatorSignUp(_ request: SignUpRequest, caller: AuthCaller) throws(AuthFailure) -> SignInResponse {
        try checkAuthEnabled()
        var provider: String?
        let admin = caller == .admin
        if admin {
            if Self.nonEmpty(request.idToken) != nil, request.localId != nil {
                throw AuthFailure.server(.unexpectedParameter, detail: "User ID")
            }
            if let localId = Self.nonEmpty(request.localId), accounts[localId] != nil {
                throw AuthFailure.server(.duplicateLocalId, detail: nil)
            }
        } else {
            guard request.localId == nil else { throw AuthFailure.server(.unexpectedParameter, detail: "User ID") }
            if Self.nonEmpty(request.idToken) != nil || Self.nonEmpty(request.password) != nil || Self.nonEmpty(request.email) != nil {
                guard Self.nonEmpty(request.email) != nil else { throw AuthFailure.server(.missingEmail, detail: nil) }
                guard Self.nonEmpty(request.password) != nil else { throw AuthFailure.server(.missingPassword, detail: nil) }
                provider = "password"
                guard tenant?.allowPasswordSignup ?? true else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
            } else {
                provider = "anonymous"
                guard tenant?.enableAnonymousUser ?? true else { throw AuthFailure.server(.adminOnlyOperation, detail: nil) }
            }
        }
        var email: String?
        if let given = request.email, !given.isEmpty || provider != nil {
            guard Self.isEmulatorEmail(given) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
            let canonical = Self.canonical(given)
            guard account(email: canonical) == nil else { throw AuthFailure.server(.emailExists, detail: nil) }
            email = canonical
        }
        let password = Self.nonEmpty(request.password)
        if let password { try checkStrength(password) }
        let factors = try request.mfaInfo.map { (given) throws(AuthFailure) in try newEnrollments(given) }
        var account: Account
        if let idToken = Self.nonEmpty(request.idToken) {
            account = try tokenAccount(idToken).account
        } else {
            account = newAccount(localId: Self.nonEmpty(request.localId), email: nil, password: nil, displayName: nil, anonymous: provider == "anonymous")
        }
        if admin {
            account.displayName = request.displayName
            account.photoUrl = request.photoUrl
            account.emailVerified = request.emailVerified ?? false
            if request.disabled == true { account.disabled = true }
        } else if provider == "password" {
            account.displayName = request.displayName
            account.emailVerified = false
        }
        if let email { setEmail(&account, email) }
        if let password {
            account.password = password
            account.passwordUpdatedAt = clock.now
            stampValidSince(&account)
            account.anonymous = nil
        }
        if let factors { account.mfaInfo = factors }
        account.lastLoginAt = clock.now
        insert(account)
        guard let provider else {
            return SignInResponse(kind: "identitytoolkit#SignupNewUserResponse", localId: account.localId, email: account.email, displayName: account.displayName, idToken: nil, refreshToken: nil, expiresIn: nil)
        }
        return signInResponse(account, kind: "identitytoolkit#SignupNewUserResponse", provider: provider)
    }

    // MARK: signInWithPassword

    mutating func emulatorSignInWithPassword(_ request: SignInWithPasswordRequest) throws(AuthFailure) -> SignInResponse {
        try checkAuthEnabled()
        guard tenant?.allowPasswordSignup ?? true else { throw AuthFailure.server(.passwordLoginDisabled, detail: nil) }
        guard Self.isEmulatorEmail(request.email) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
        guard !request.password.isEmpty else { throw AuthFailure.server(.missingPassword, detail: nil) }
        let email = Self.canonical(request.email)
        let failure: AuthErrorCode = protected ? .invalidLoginCredentials : .invalidPassword
        guard var account = account(email: email) else {
            throw AuthFailure.server(protected ? .invalidLoginCredentials : .emailNotFound, detail: nil)
        }
        guard !account.disabled else { throw AuthFailure.server(.userDisabled, detail: nil) }
        guard account.password != nil, account.password == request.password else { throw AuthFailure.server(failure, detail: nil) }
        if let pending = pendingSecondFactor(account, kind: "identitytoolkit#VerifyPasswordResponse", email: email, provider: "password", registered: true) {
            return pending
        }
        account.lastLoginAt = clock.now
        accounts[account.localId] = account
        let tokens = issueTokens(account, provider: "password")
        return SignInResponse(
            kind: "identitytoolkit#VerifyPasswordResponse", localId: account.localId, email: email, displayName: account.displayName,
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn, registered: true
        )
    }

    // MARK: sendOobCode

    /// The emulator's checks before it looks at the request type (firebase-tools
    /// `operations.ts:880-893`); the continue URL, if any.
    private func emulatorSendOobCodePreamble(_ request: SendOobCodeRequest, caller: AuthCaller) throws(AuthFailure) -> String? {
        try checkAuthEnabled()
        if request.returnOobLink == true, caller != .admin { throw AuthFailure.server(.insufficientPermission, detail: nil) }
        let continueUrl = Self.nonEmpty(request.continueUrl)
        if let continueUrl, !Self.isAbsoluteURI(continueUrl) {
            throw AuthFailure.server(.invalidContinueURI, detail: "((expected an absolute URI with valid scheme and host))")
        }
        return continueUrl
    }

    /// A request type the emulator's schema allows but its `sendOobCode` lacks (OLD_EMAIL_AGREE,
    /// NEW_EMAIL_ACCEPT): its 501 naming the type, after the same first checks
    /// (`operations.ts:952-953`). `request` is the rest of the body.
    public func emulatorRefuseRequestType(_ name: String, _ request: SendOobCodeRequest, caller: AuthCaller) throws(AuthFailure) {
        _ = try emulatorSendOobCodePreamble(request, caller: caller)
        throw AuthFailure.server(.notImplemented, detail: name)
    }

    /// The emulator's order: INSUFFICIENT_PERMISSION (`returnOobLink` from a client),
    /// INVALID_CONTINUE_URI, then per request type: EMAIL_SIGNIN needs `email`; PASSWORD_RESET
    /// needs `email` of an account (EMAIL_NOT_FOUND, or a silent success with improved email
    /// privacy); VERIFY_EMAIL and VERIFY_AND_CHANGE_EMAIL take the user from `idToken`, or from
    /// `email` for admins with `returnOobLink` (USER_NOT_FOUND); VERIFY_AND_CHANGE_EMAIL needs
    /// `newEmail` first and refuses one in use (EMAIL_EXISTS). Other types: 501.
    mutating func emulatorSendOobCode(_ request: SendOobCodeRequest, locale: String?, caller: AuthCaller) throws(AuthFailure) -> SendOobCodeResponse {
        let continueUrl = try emulatorSendOobCodePreamble(request, caller: caller)
        let admin = request.returnOobLink == true
        let idToken = Self.nonEmpty(request.idToken)
        var email: String
        var newEmail: String?
        var user: Account?
        let mode: String
        switch request.requestType {
        case .emailSignIn:
            guard tenant?.enableEmailLinkSignin ?? true else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
            mode = "signIn"
            guard let given = Self.nonEmpty(request.email) else { throw AuthFailure.server(.missingEmail, detail: nil) }
            email = Self.canonical(given)
            user = account(email: email)
        case .passwordReset:
            mode = "resetPassword"
            guard let given = Self.nonEmpty(request.email) else { throw AuthFailure.server(.missingEmail, detail: nil) }
            email = Self.canonical(given)
            user = account(email: email)
            if user == nil {
                if protected { return SendOobCodeResponse(email: email) }
                throw AuthFailure.server(.emailNotFound, detail: nil)
            }
        case .verifyEmail:
            mode = "verifyEmail"
            // An empty token is parsed (and refused) as the emulator parses it.
            (user, email) = try emulatorSubject(request, admin: admin, idToken: idToken ?? "")
        case .verifyAndChangeEmail:
            mode = "verifyAndChangeEmail"
            guard let target = Self.nonEmpty(request.newEmail) else { throw AuthFailure.server(.missingNewEmail, detail: nil) }
            newEmail = Self.canonical(target)
            (user, email) = try emulatorSubject(request, admin: admin, idToken: idToken)
            if let newEmail, account(email: newEmail) != nil { throw AuthFailure.server(.emailExists, detail: nil) }
        default:
            throw AuthFailure.server(.notImplemented, detail: request.requestType.rawValue)
        }

        let language = locale.flatMap(MailTemplates.language(for:)) ?? configuration.defaultLocale
        let oobCode = generator.urlSafeString(count: 54)
        let link = emulatorLink(mode: mode, oobCode: oobCode, continueUrl: continueUrl)
        var settingsRequest = request
        settingsRequest.continueUrl = continueUrl
        var issued = IssuedOobCode(
            oobCode: oobCode, requestType: request.requestType, email: email, newEmail: newEmail, localId: user?.localId,
            settings: Self.settings(of: settingsRequest), clientType: request.clientType, tenantId: tenant?.tenantId,
            language: language, link: link, issuedAt: clock.now, expiresAt: .distantFuture, consumedAt: nil, mailID: nil
        )
        if admin {
            store(issued)
            return SendOobCodeResponse(email: email, oobCode: oobCode, oobLink: link)
        }
        issued.mailID = deliver(request.requestType, to: newEmail ?? email, email: email, newEmail: newEmail, link: link, language: language, oobCode: oobCode)
        store(issued)
        return SendOobCodeResponse(email: email)
    }

    /// Whose address a verification is for: the `email` an admin names with `returnOobLink`
    /// and no token (USER_NOT_FOUND), else the signed-in user (MISSING_ID_TOKEN without a token).
    private func emulatorSubject(_ request: SendOobCodeRequest, admin: Bool, idToken: String?) throws(AuthFailure) -> (Account, String) {
        if admin && Self.nonEmpty(idToken) == nil {
            guard let given = Self.nonEmpty(request.email) else { throw AuthFailure.server(.missingEmail, detail: nil) }
            let email = Self.canonical(given)
            guard let found = account(email: email) else { throw AuthFailure.server(.userNotFound, detail: nil) }
            return (found, email)
        }
        guard let idToken else { throw AuthFailure.server(.missingIDToken, detail: nil) }
        let found = try tokenAccount(idToken).account
        guard let address = found.email else { throw AuthFailure.server(.missingEmail, detail: nil) }
        return (found, address)
    }

    // MARK: accounts:update

    /// `setAccountInfo` as the emulator runs it: clients need `idToken` or `oobCode`
    /// (INVALID_REQ_TYPE otherwise), admins `localId` (MISSING_LOCAL_ID). Codes are applied
    /// without expiry; an email change by the user sends a RECOVER_EMAIL link to the first address.
    mutating func emulatorUpdate(_ request: UpdateAccountRequest, caller: AuthCaller) throws(AuthFailure) -> UpdateAccountResponse {
        try checkAuthEnabled()
        let admin = caller == .admin
        let idToken = Self.nonEmpty(request.idToken)
        let oobCode = Self.nonEmpty(request.oobCode)
        if !admin {
            guard idToken != nil || oobCode != nil else { throw AuthFailure.server(.invalidRequestType, detail: "Unsupported request parameters.") }
        } else {
            guard Self.nonEmpty(request.localId) != nil else { throw AuthFailure.server(.missingLocalID, detail: nil) }
        }
        var account: Account
        var provider: String?
        var newEmail: String?
        var isEmailUpdate = false
        var validSinceChanged = false
        if let oobCode {
            guard let code = issuedCode(oobCode), code.consumedAt == nil else { throw AuthFailure.server(.invalidOobCode, detail: nil) }
            switch code.requestType {
            case .verifyEmail:
                consume(code)
                provider = "password"
                guard let found = self.account(email: code.email) else { throw AuthFailure.server(.invalidOobCode, detail: nil) }
                account = found
                account.emailVerified = true
                if account.email != code.email { setEmail(&account, code.email) }
            case .verifyAndChangeEmail:
                consume(code)
                guard let found = self.account(email: code.email) else { throw AuthFailure.server(.invalidOobCode, detail: nil) }
                guard let target = code.newEmail else { throw AuthFailure.server(.invalidOobCode, detail: nil) }
                guard self.account(email: target) == nil else { throw AuthFailure.server(.emailExists, detail: nil) }
                account = found
                if target != account.email {
                    setEmail(&account, target)
                    account.emailVerified = true
                    newEmail = target
                }
            case .recoverEmail:
                consume(code)
                guard let found = code.localId.flatMap({ accounts[$0] }), found.initialEmail?.lowercased() == code.email.lowercased() else {
                    throw AuthFailure.server(.invalidOobCode, detail: nil)
                }
                guard self.account(email: code.email) == nil else { throw AuthFailure.server(.emailExists, detail: nil) }
                account = found
                if code.email != account.email {
                    setEmail(&account, code.email)
                    account.emailVerified = true
                }
            default:
                throw AuthFailure.server(.notImplemented, detail: code.requestType.rawValue)
            }
        } else {
            if let idToken {
                let signedIn = try tokenAccount(idToken)
                account = signedIn.account
                provider = signedIn.provider
                guard request.disableUser == nil else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
            } else {
                guard let localId = Self.nonEmpty(request.localId) else { throw AuthFailure.server(.missingLocalID, detail: nil) }
                guard let found = accounts[localId] else { throw AuthFailure.server(.userNotFound, detail: nil) }
                account = found
            }
            if let given = Self.nonEmpty(request.email) {
                guard Self.isEmulatorEmail(given) else { throw AuthFailure.server(.invalidEmail, detail: nil) }
                let canonical = Self.canonical(given)
                newEmail = canonical
                if canonical != account.email {
                    guard self.account(email: canonical) == nil else { throw AuthFailure.server(.emailExists, detail: nil) }
                    if provider != "anonymous", let old = account.email, account.initialEmail == nil {
                        account.initialEmail = old
                    }
                    setEmail(&account, canonical)
                    account.emailVerified = false
                    isEmailUpdate = true
                }
            }
            if let password = Self.nonEmpty(request.password) {
                try checkStrength(password)
                account.password = password
                account.passwordUpdatedAt = clock.now
                account.anonymous = nil
                provider = "password"
            }
            // The emulator revokes by `validSince` in seconds. serve revokes every earlier token
            // on a password change or an explicit `validSince`, even of the same second; an email
            // change issues new tokens but revokes none (the emulator's own tests read the user
            // with the old token right after, which only its frozen test clock makes reliable).
            if Self.nonEmpty(request.password) != nil || request.validSince != nil {
                revokeSessions(&account)
                validSinceChanged = true
            } else if isEmailUpdate {
                validSinceChanged = true
            }
            if let name = request.displayName { account.displayName = name }
            if let photo = request.photoUrl { account.photoUrl = photo }
            if admin {
                if let disable = request.disableUser { account.disabled = disable }
                if let verified = request.emailVerified { account.emailVerified = verified }
                if let validSince = request.validSince { applyAdminValidSince(validSince, to: &account) }
            }
            for attribute in request.deleteAttribute ?? [] {
                switch attribute {
                case "DISPLAY_NAME": account.displayName = nil
                case "PHOTO_URL": account.photoUrl = nil
                case "PASSWORD": account.password = nil
                case "EMAIL":
                    setEmail(&account, nil)
                    account.emailLinkSignin = nil
                default: break
                }
            }
        }
        accounts[account.localId] = account
        if provider != "anonymous", isEmailUpdate, let initial = account.initialEmail {
            issueRecoverEmail(account: account, oldEmail: initial, language: configuration.defaultLocale)
        }
        var response = UpdateAccountResponse(localId: account.localId, email: account.email, emailVerified: account.emailVerified)
        response.providerUserInfo = providerInfo(account)
        response.displayName = account.displayName
        response.photoUrl = account.photoUrl
        response.newEmail = newEmail
        response.passwordHash = userRecord(account).passwordHash
        if validSinceChanged, let provider {
            let tokens = issueTokens(account, provider: provider)
            response.idToken = tokens.idToken
            response.refreshToken = tokens.refreshToken
            response.expiresIn = tokens.expiresIn
        }
        return response
    }

    // MARK: signInWithEmailLink

    mutating func emulatorSignInWithEmailLink(_ request: SignInWithEmailLinkRequest) throws(AuthFailure) -> SignInResponse {
        try checkAuthEnabled()
        guard tenant?.enableEmailLinkSignin ?? true else { throw AuthFailure.server(.operationNotAllowed, detail: nil) }
        let fromToken = try Self.nonEmpty(request.idToken).map { (token) throws(AuthFailure) in try tokenAccount(token).account }
        guard !request.email.isEmpty else { throw AuthFailure.server(.missingEmail, detail: nil) }
        let email = Self.canonical(request.email)
        guard !request.oobCode.isEmpty else { throw AuthFailure.server(.missingOobCode, detail: nil) }
        guard let code = issuedCode(request.oobCode), code.consumedAt == nil, code.requestType == .emailSignIn else {
            throw AuthFailure.server(.invalidOobCode, detail: nil)
        }
        guard email == code.email else {
            throw AuthFailure.server(.invalidEmail, detail: "The email provided does not match the sign-in email address.")
        }
        consume(code)
        let fromEmail = self.account(email: email)
        var account: Account
        let isNewUser: Bool
        if let existing = fromToken ?? fromEmail {
            guard !existing.disabled else { throw AuthFailure.server(.userDisabled, detail: nil) }
            if let fromToken, let fromEmail, fromToken.localId != fromEmail.localId {
                throw AuthFailure.server(.emailExists, detail: nil)
            }
            account = existing
            isNewUser = false
        } else {
            account = newAccount(localId: nil, email: nil, password: nil, displayName: nil, anonymous: false)
            isNewUser = true
        }
        setEmail(&account, email)
        account.emailVerified = true
        account.emailLinkSignin = true
        account.anonymous = nil
        // operations.ts:1545-1549: the user is written, then a second factor is asked for.
        if let pending = pendingSecondFactor(account, kind: "identitytoolkit#EmailLinkSigninResponse", email: email, provider: "password", isNewUser: isNewUser) {
            insert(account)
            return pending
        }
        account.lastLoginAt = clock.now
        insert(account)
        // `setEmail` above: the account's email is `email`.
        return signInResponse(account, kind: "identitytoolkit#EmailLinkSigninResponse", provider: "password", isNewUser: isNewUser)
    }
}
