import ActionFlowModel
import Foundation

/// A second factor enrolled on an account: an SMS number, as the emulator stores it, or (in
/// production behaviour) a TOTP secret.
struct MfaEnrollment: Sendable, Hashable, Codable {
    var mfaEnrollmentId: String
    var displayName: String?
    var phoneNumber: String?
    /// The TOTP secret's bytes, base32.
    var totpSecret: String?
    var enrolledAt: Date
}

/// A TOTP enrollment begun: its secret, for whom, until when.
struct PendingTotpEnrollment: Sendable, Hashable, Codable {
    var sessionInfo: String
    var localId: String
    var secret: String
    var deadline: Date
}

// Multi-factor enrollment and sign-in by SMS, as firebase-tools' Auth Emulator does them
// (`operations.ts:2038-2290`, `mfaPending` and the pending credential `:3044-3120`), in both
// behaviours. No SMS is sent: each code is listed at `GET .../verificationCodes`. The emulator's
// projects have SMS multi-factor enabled, and so do serve's.
extension SimulatedProject {
    /// First factors a second factor cannot follow (`operations.ts:151-156`).
    static let mfaIneligibleProviders: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com"]

    /// The project's multi-factor setting: a tenant's own, else SMS enabled.
    var mfaConfig: TenantMfaConfig { tenant?.mfaConfig ?? .implicit }

    /// SMS multi-factor is on: all four SMS endpoints need it (`operations.ts:2043-2046`,
    /// `:2096-2099`, `:2180-2183`, `:2226-2229`).
    func requireSMSMultiFactor() throws(AuthFailure) {
        guard mfaConfig.isEnabled, mfaConfig.enabledProviders.contains("PHONE_SMS") else {
            throw AuthFailure.server(.operationNotAllowed, detail: "SMS based MFA not enabled.")
        }
    }

    /// The codes "sent" and not yet used, oldest first.
    public var verificationCodes: [PhoneVerificationCode] { phoneVerifications ?? [] }

    /// `accounts/mfaEnrollment:start`: a code for `phoneEnrollmentInfo.phoneNumber`, for the
    /// signed-in user, whose address must be verified.
    public mutating func startMfaEnrollment(_ request: StartMfaEnrollmentRequest) throws(AuthFailure) -> StartMfaEnrollmentResponse {
        try checkAuthEnabled()
        let totp = request.phoneEnrollmentInfo == nil && request.totpEnrollmentInfo != nil && !isEmulator
        if !totp { try requireSMSMultiFactor() }
        let (user, _) = try secondFactorCandidate(request.idToken)
        guard user.emailVerified else {
            throw AuthFailure.server(AuthErrorCode("UNVERIFIED_EMAIL"), detail: "Need to verify email first before enrolling second factors.")
        }
        if totp {
            return StartMfaEnrollmentResponse(totpSessionInfo: startTotpEnrollment(for: user))
        }
        // The emulator knows SMS only: a TOTP request gets this too (`operations.ts:2060`; firebase-tools #6224).
        guard let info = request.phoneEnrollmentInfo else { throw AuthFailure.server(.invalidArgument, detail: "((Missing phoneEnrollmentInfo.))") }
        // Production, and the emulator, answer INVALID_PHONE_NUMBER for a missing number too.
        guard let phoneNumber = info.phoneNumber, phoneNumber.hasPrefix("+") else {
            throw AuthFailure.server(AuthErrorCode("INVALID_PHONE_NUMBER"), detail: "Invalid format.")
        }
        try refuseEnrolled(phoneNumber, of: user)
        return StartMfaEnrollmentResponse(phoneSessionInfo: PhoneSessionInfo(sessionInfo: sendCode(to: phoneNumber).sessionInfo))
    }

    /// `accounts/mfaEnrollment:finalize`: the code checked, the factor enrolled, new tokens that
    /// name it.
    public mutating func finalizeMfaEnrollment(_ request: FinalizeMfaEnrollmentRequest) throws(AuthFailure) -> MfaTokensResponse {
        try checkAuthEnabled()
        if !(request.phoneVerificationInfo == nil && request.totpVerificationInfo != nil && !isEmulator) { try requireSMSMultiFactor() }
        var (user, provider) = try secondFactorCandidate(request.idToken)
        let enrollmentId = newEnrollmentId(avoiding: user.mfaInfo ?? [])
        if request.phoneVerificationInfo == nil, let totp = request.totpVerificationInfo, !isEmulator {
            let secret = try finishTotpEnrollment(totp, for: user)
            user.mfaInfo = (user.mfaInfo ?? []) + [MfaEnrollment(mfaEnrollmentId: enrollmentId, displayName: request.displayName, totpSecret: secret, enrolledAt: clock.now)]
        } else {
            guard let verification = request.phoneVerificationInfo else {
                throw AuthFailure.server(.invalidArgument, detail: "((Missing phoneVerificationInfo.))")
            }
            let phoneNumber = try useCode(verification)
            try refuseEnrolled(phoneNumber, of: user)
            user.mfaInfo = (user.mfaInfo ?? []) + [MfaEnrollment(mfaEnrollmentId: enrollmentId, displayName: request.displayName, phoneNumber: phoneNumber, enrolledAt: clock.now)]
        }
        accounts[user.localId] = user
        // Production mails a link that removes the factor again; the emulator does not
        // (`operations.ts:2141`, "TODO: Generate OOB code for reverting enrollment").
        if !isEmulator, let email = user.email {
            issueNotice(.revertSecondFactorAddition, mode: "revertSecondFactorAddition", account: user, email: email, newEmail: nil, language: configuration.defaultLocale, mfaEnrollmentId: enrollmentId)
        }
        let tokens = issueTokens(user, provider: provider, secondFactor: enrollmentId)
        return MfaTokensResponse(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }

    /// `accounts/mfaEnrollment:withdraw`: the factor removed, new tokens without one.
    public mutating func withdrawMfa(_ request: WithdrawMfaRequest) throws(AuthFailure) -> MfaTokensResponse {
        try checkAuthEnabled()
        guard let idToken = Self.nonEmpty(request.idToken) else { throw AuthFailure.server(.missingIDToken, detail: nil) }
        var (user, provider) = try tokenAccount(idToken)
        let notFound = AuthFailure.server(AuthErrorCode("MFA_ENROLLMENT_NOT_FOUND"), detail: nil)
        guard let factors = user.mfaInfo else { throw notFound }
        let remaining = factors.filter { $0.mfaEnrollmentId != request.mfaEnrollmentId }
        guard remaining.count < factors.count else { throw notFound }
        user.mfaInfo = remaining
        accounts[user.localId] = user
        let tokens = issueTokens(user, provider: provider)
        return MfaTokensResponse(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }

    /// `accounts/mfaSignIn:start`: a code for the factor named, after a first factor.
    public mutating func startMfaSignIn(_ request: StartMfaSignInRequest) throws(AuthFailure) -> StartMfaSignInResponse {
        try checkAuthEnabled()
        try requireSMSMultiFactor()
        guard let pending = Self.nonEmpty(request.mfaPendingCredential) else {
            throw AuthFailure.server(AuthErrorCode("MISSING_MFA_PENDING_CREDENTIAL"), detail: "Request does not have MFA pending credential.")
        }
        guard let enrollmentId = Self.nonEmpty(request.mfaEnrollmentId) else {
            throw AuthFailure.server(AuthErrorCode("MISSING_MFA_ENROLLMENT_ID"), detail: "No second factor identifier is provided.")
        }
        let (user, _) = try pendingCredentialAccount(pending)
        guard let enrollment = user.mfaInfo?.first(where: { $0.mfaEnrollmentId == enrollmentId }) else {
            throw AuthFailure.server(AuthErrorCode("MFA_ENROLLMENT_NOT_FOUND"), detail: nil)
        }
        // A TOTP factor has no start: the code is already in the authenticator app
        // (`api/authentication/mfa.ts:88-90`). The emulator's words for a factor without a number (`operations.ts:2203`).
        guard let phoneNumber = enrollment.phoneNumber else { throw AuthFailure.server(.invalidArgument, detail: "MFA provider not supported!") }
        return StartMfaSignInResponse(phoneResponseInfo: PhoneSessionInfo(sessionInfo: sendCode(to: phoneNumber).sessionInfo))
    }

    /// `accounts/mfaSignIn:finalize`: the code checked, the sign-in finished with tokens that name
    /// the factor. The iOS SDK sends the obfuscated number, which the emulator also accepts.
    public mutating func finalizeMfaSignIn(_ request: FinalizeMfaSignInRequest) throws(AuthFailure) -> MfaTokensResponse {
        try checkAuthEnabled()
        if !(request.phoneVerificationInfo == nil && request.totpVerificationInfo != nil && !isEmulator) { try requireSMSMultiFactor() }
        // MISSING_CREDENTIAL here, where :start says MISSING_MFA_PENDING_CREDENTIAL: production's
        // inconsistency, which the emulator copies.
        guard let pending = Self.nonEmpty(request.mfaPendingCredential) else {
            throw AuthFailure.server(AuthErrorCode("MISSING_CREDENTIAL"), detail: "Please set MFA Pending Credential.")
        }
        let enrollment: MfaEnrollment?
        var (user, provider): (Account, String)
        if request.phoneVerificationInfo == nil, let totp = request.totpVerificationInfo, !isEmulator {
            (user, provider) = try pendingCredentialAccount(pending)
            enrollment = try totpFactor(totp, enrollmentId: request.mfaEnrollmentId, of: user)
        } else {
            guard let verification = request.phoneVerificationInfo else {
                throw AuthFailure.server(.invalidArgument, detail: "MFA provider not supported!")
            }
            let phoneNumber = try useCode(verification)
            (user, provider) = try pendingCredentialAccount(pending)
            enrollment = user.mfaInfo?.first { $0.phoneNumber == phoneNumber || $0.phoneNumber.map(Self.obfuscated) == phoneNumber }
        }
        user.lastLoginAt = clock.now
        accounts[user.localId] = user
        guard let enrollment else { throw AuthFailure.server(AuthErrorCode("MFA_ENROLLMENT_NOT_FOUND"), detail: nil) }
        guard !user.disabled else { throw AuthFailure.server(.userDisabled, detail: nil) }
        let tokens = issueTokens(user, provider: provider, secondFactor: enrollment.mfaEnrollmentId)
        return MfaTokensResponse(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }

    /// A first factor's answer for an account with a second factor: no tokens, no sign-in time,
    /// but a pending credential and the factors with their numbers obfuscated
    /// (`operations.ts:3044-3070`). Nil for an account without one.
    func pendingSecondFactor(_ account: Account, kind: String, email: String?, provider: String, registered: Bool? = nil, isNewUser: Bool? = nil) -> SignInResponse? {
        // A project with multi-factor off signs such an account in on its first factor (`operations.ts:3208-3213`).
        guard mfaConfig.isEnabled, let factors = account.mfaInfo, !factors.isEmpty else { return nil }
        var payload: [String: Any] = [
            "_AuthEmulatorMfaPendingCredential": "DO NOT MODIFY", "localId": account.localId,
            "signInProvider": provider, "projectId": configuration.projectId,
        ]
        if let tenant { payload["tenantId"] = tenant.tenantId }
        let json = JSONOutput.string(plain: payload, format: .wire) ?? "{}"
        var response = SignInResponse(kind: kind, localId: account.localId, email: email, idToken: nil, refreshToken: nil, expiresIn: nil, registered: registered, isNewUser: isNewUser)
        response.mfaPendingCredential = Data(json.utf8).base64EncodedString()
        response.mfaInfo = factors.map { Self.record($0, obfuscating: true) }
        return response
    }

    /// An enrollment on the wire: in a lookup whole, after a first factor obfuscated.
    static func record(_ enrollment: MfaEnrollment, obfuscating: Bool) -> MfaEnrollmentRecord {
        MfaEnrollmentRecord(
            mfaEnrollmentId: enrollment.mfaEnrollmentId, displayName: enrollment.displayName, enrolledAt: enrollment.enrolledAt.iso8601MillisecondStamp,
            phoneInfo: obfuscating ? enrollment.phoneNumber.map(obfuscated) : enrollment.phoneNumber,
            unobfuscatedPhoneInfo: obfuscating ? nil : enrollment.phoneNumber,
            totpInfo: enrollment.totpSecret == nil ? nil : TotpMarker()
        )
    }

    /// All but the last four digits replaced by `*` (`operations.ts:3085-3097`).
    static func obfuscated(_ phoneNumber: String) -> String {
        var digitsSeen = 0
        let kept = phoneNumber.reversed().map { character -> Character in
            guard character.isASCII, character.isNumber else { return character }
            digitsSeen += 1
            return digitsSeen > 4 ? "*" : character
        }
        return String(kept.reversed())
    }

    /// `signUp`'s `mfaInfo`: each number checked, repeats dropped, new ids drawn
    /// (`getMfaEnrollmentsFromRequest`, `operations.ts:2725-2754`).
    mutating func newEnrollments(_ given: [MfaEnrollmentInput]) throws(AuthFailure) -> [MfaEnrollment] {
        var enrollments: [MfaEnrollment] = []
        for factor in given {
            guard let phoneNumber = factor.phoneInfo, phoneNumber.hasPrefix("+") else {
                throw AuthFailure.server(AuthErrorCode("INVALID_MFA_PHONE_NUMBER"), detail: "Invalid format.")
            }
            guard !enrollments.contains(where: { $0.phoneNumber == phoneNumber }) else { continue }
            enrollments.append(MfaEnrollment(mfaEnrollmentId: newEnrollmentId(avoiding: enrollments), displayName: factor.displayName, phoneNumber: phoneNumber, enrolledAt: clock.now))
        }
        return enrollments
    }

    // MARK: TOTP (production behaviour)

    /// How long a begun TOTP enrollment waits for its first code (not published; assumed).
    static let totpEnrollmentWindow: TimeInterval = 5 * 60

    /// A new 160-bit secret (RFC 4226's recommended length) for `user`, kept until the deadline.
    private mutating func startTotpEnrollment(for user: Account) -> TotpSessionInfo {
        let secret = TimeBasedCode.base32(Data((0..<20).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        let pending = PendingTotpEnrollment(sessionInfo: generator.urlSafeString(count: 226), localId: user.localId, secret: secret, deadline: clock.now.addingTimeInterval(Self.totpEnrollmentWindow))
        pendingTotpEnrollments = (pendingTotpEnrollments ?? []).filter { $0.deadline > clock.now } + [pending]
        return TotpSessionInfo(sharedSecretKey: secret, verificationCodeLength: TimeBasedCode.digits, hashingAlgorithm: "SHA1",
                               periodSec: TimeBasedCode.period, sessionInfo: pending.sessionInfo, finalizeEnrollmentTime: pending.deadline.iso8601MillisecondStamp)
    }

    /// The secret of the begun enrollment `verification` names, once its code is right. The
    /// errors are the SMS factor's (assumed: production's TOTP errors are not published).
    private mutating func finishTotpEnrollment(_ verification: TotpVerificationInfo, for user: Account) throws(AuthFailure) -> String {
        guard let code = Self.nonEmpty(verification.verificationCode) else { throw AuthFailure.server(AuthErrorCode("MISSING_CODE"), detail: nil) }
        guard let sessionInfo = Self.nonEmpty(verification.sessionInfo) else { throw AuthFailure.server(AuthErrorCode("MISSING_SESSION_INFO"), detail: nil) }
        guard let index = pendingTotpEnrollments?.firstIndex(where: { $0.sessionInfo == sessionInfo && $0.localId == user.localId && $0.deadline > clock.now }),
              let pending = pendingTotpEnrollments?[index] else {
            throw AuthFailure.server(AuthErrorCode("INVALID_SESSION_INFO"), detail: nil)
        }
        guard let secret = TimeBasedCode.bytes(base32: pending.secret), TimeBasedCode.accepts(code, secret: secret, at: clock.now) else {
            throw AuthFailure.server(AuthErrorCode("INVALID_CODE"), detail: nil)
        }
        pendingTotpEnrollments?.remove(at: index)
        return pending.secret
    }

    /// The TOTP factor `enrollmentId` names, once the code is right for it now.
    private func totpFactor(_ verification: TotpVerificationInfo, enrollmentId: String?, of user: Account) throws(AuthFailure) -> MfaEnrollment {
        guard let enrollmentId = Self.nonEmpty(enrollmentId) else {
            throw AuthFailure.server(AuthErrorCode("MISSING_MFA_ENROLLMENT_ID"), detail: "No second factor identifier is provided.")
        }
        guard let code = Self.nonEmpty(verification.verificationCode) else { throw AuthFailure.server(AuthErrorCode("MISSING_CODE"), detail: nil) }
        guard let enrollment = user.mfaInfo?.first(where: { $0.mfaEnrollmentId == enrollmentId }), let encoded = enrollment.totpSecret else {
            throw AuthFailure.server(AuthErrorCode("MFA_ENROLLMENT_NOT_FOUND"), detail: nil)
        }
        guard let secret = TimeBasedCode.bytes(base32: encoded), TimeBasedCode.accepts(code, secret: secret, at: clock.now) else {
            throw AuthFailure.server(AuthErrorCode("INVALID_CODE"), detail: nil)
        }
        return enrollment
    }

    // MARK: Pieces

    /// 28 characters, as the emulator's `newRandomId(28, existingIds)`.
    private mutating func newEnrollmentId(avoiding existing: [MfaEnrollment]) -> String {
        var id = generator.alphanumericString(count: 28)
        while existing.contains(where: { $0.mfaEnrollmentId == id }) { id = generator.alphanumericString(count: 28) }
        return id
    }

    /// The signed-in user of `idToken`, if its first factor may have a second.
    private func secondFactorCandidate(_ idToken: String?) throws(AuthFailure) -> (Account, String) {
        guard let idToken = Self.nonEmpty(idToken) else { throw AuthFailure.server(.missingIDToken, detail: nil) }
        let (user, provider) = try tokenAccount(idToken)
        guard !Self.mfaIneligibleProviders.contains(provider) else {
            throw AuthFailure.server(AuthErrorCode("UNSUPPORTED_FIRST_FACTOR"), detail: "MFA is not available for the given first factor.")
        }
        return (user, provider)
    }

    private func refuseEnrolled(_ phoneNumber: String, of user: Account) throws(AuthFailure) {
        if (user.mfaInfo ?? []).contains(where: { $0.phoneNumber == phoneNumber }) {
            throw AuthFailure.server(AuthErrorCode("SECOND_FACTOR_EXISTS"), detail: "Phone number already enrolled as second factor for this account.")
        }
    }

    /// A new code for `phoneNumber` (`state.ts:486-495`: a 226-character session, 6 digits).
    private mutating func sendCode(to phoneNumber: String) -> PhoneVerificationCode {
        let digits = (0..<6).map { _ in String(generator.next() % 10) }.joined()
        let sent = PhoneVerificationCode(code: digits, phoneNumber: phoneNumber, sessionInfo: generator.urlSafeString(count: 226))
        phoneVerifications = (phoneVerifications ?? []) + [sent]
        return sent
    }

    /// The number a code was sent to, the code used up (`operations.ts:2657-2664`).
    private mutating func useCode(_ verification: PhoneVerificationInfo) throws(AuthFailure) -> String {
        guard let code = Self.nonEmpty(verification.code) else { throw AuthFailure.server(AuthErrorCode("MISSING_CODE"), detail: nil) }
        guard let sessionInfo = Self.nonEmpty(verification.sessionInfo) else { throw AuthFailure.server(AuthErrorCode("MISSING_SESSION_INFO"), detail: nil) }
        guard let index = phoneVerifications?.firstIndex(where: { $0.sessionInfo == sessionInfo }), let sent = phoneVerifications?[index] else {
            throw AuthFailure.server(AuthErrorCode("INVALID_SESSION_INFO"), detail: nil)
        }
        guard sent.code == code else { throw AuthFailure.server(AuthErrorCode("INVALID_CODE"), detail: nil) }
        phoneVerifications?.remove(at: index)
        return sent.phoneNumber
    }

    /// The account and first factor a pending credential names (`operations.ts:3099-3125`).
    private func pendingCredentialAccount(_ credential: String) throws(AuthFailure) -> (Account, String) {
        let invalid = AuthFailure.server(AuthErrorCode("((Invalid phoneVerificationInfo.mfaPendingCredential.))"), detail: nil)
        guard let data = Data(base64Encoded: credential),
              let payload = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              payload["_AuthEmulatorMfaPendingCredential"] != nil else { throw invalid }
        let mismatch = AuthFailure.server(AuthErrorCode("INVALID_PROJECT_ID"), detail: "Project ID does not match MFA pending credential.")
        guard payload["projectId"] as? String == configuration.projectId else { throw mismatch }
        if let tenant, payload["tenantId"] as? String != tenant.tenantId { throw mismatch }
        guard let localId = payload["localId"] as? String, let user = accounts[localId] else {
            throw AuthFailure.server(AuthErrorCode("((User in pendingCredentialPayload does not exist.))"), detail: nil)
        }
        return (user, payload["signInProvider"] as? String ?? "password")
    }
}
