import ActionFlowModel
import Foundation
import Testing

/// firebase-tools `src/emulator/auth/mfa.spec.ts` ("mfa enrollment") against
/// `serve --as emulator`. Not ported: the blocking function cases, and the phone first factor of
/// "ineligible" (an anonymous one stands in).
@Suite("Auth Emulator spec port: multi-factor enrollment and sign-in (mfa.spec.ts)")
struct MfaSpecPortTests {
    static let v2 = "/identitytoolkit.googleapis.com/v2"
    static let phoneNumber = "+15555550100"
    static let phoneNumberObfuscated = "+*******0100"

    /// helpers.ts `enrollPhoneMfa`: start, read the code from verificationCodes, finalize.
    static func enrollPhoneMfa(_ api: EmulatorSpec, idToken: String, phoneNumber: String) async throws -> (idToken: String, refreshToken: String) {
        let start = try await api.post("\(v2)/accounts/mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": phoneNumber]])
        try #require(start.status == 200, "\(start)")
        let sessionInfo = try #require((start["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let code = try #require(try await inspectVerificationCodes(api).first { $0["sessionInfo"] as? String == sessionInfo }?["code"] as? String)
        let finalize = try await api.post("\(v2)/accounts/mfaEnrollment:finalize", ["idToken": idToken, "phoneVerificationInfo": ["code": code, "sessionInfo": sessionInfo]])
        try #require(finalize.status == 200, "\(finalize)")
        return (finalize.string("idToken") ?? "", finalize.string("refreshToken") ?? "")
    }

    static func inspectVerificationCodes(_ api: EmulatorSpec) async throws -> [[String: Any]] {
        let res = try await api.request("GET", "/emulator/v1/projects/\(api.projectId)/verificationCodes")
        try #require(res.status == 200, "\(res)")
        return try #require(res["verificationCodes"] as? [[String: Any]])
    }

    static func firebaseClaims(_ idToken: String?) -> [String: Any] {
        (idToken.flatMap(EmulatorSpec.decodeJWT)?.payload["firebase"] as? [String: Any]) ?? [:]
    }

    @Test("should error if account does not have email verified")
    func unverifiedEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "unverified@example.com", password: "testing")
        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": Self.phoneNumber]])
        #expect(res.status == 400)
        #expect(res.errorMessage == "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
    }

    @Test("should allow phone enrollment for an existing account")
    func phoneEnrollment() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.signInWithEmailLink(email: "foo@example.com")
        let start = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": Self.phoneNumber]])
        #expect(start.status == 200, "\(start)")
        let sessionInfo = try #require((start["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)

        let codes = try await Self.inspectVerificationCodes(api)
        #expect(codes.count == 1)
        #expect(codes.first?["phoneNumber"] as? String == Self.phoneNumber)
        #expect(codes.first?["sessionInfo"] as? String == sessionInfo)
        let code = try #require(codes.first?["code"] as? String)

        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:finalize", ["idToken": user.idToken, "phoneVerificationInfo": ["code": code, "sessionInfo": sessionInfo]])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("refreshToken") != nil)

        let info = try await api.getAccountInfoByIdToken(user.idToken)
        let mfaInfo = try #require(info["mfaInfo"] as? [[String: Any]])
        #expect(mfaInfo.count == 1)
        #expect(mfaInfo.first?["phoneInfo"] as? String == Self.phoneNumber)
        let claims = Self.firebaseClaims(res.string("idToken"))
        #expect(claims["sign_in_second_factor"] as? String == "phone")
        #expect(claims["second_factor_identifier"] as? String == mfaInfo.first?["mfaEnrollmentId"] as? String)
        #expect(try await Self.inspectVerificationCodes(api).isEmpty, "a used code is gone")
    }

    @Test("should error if phoneEnrollmentInfo is not specified")
    func missingEnrollmentInfo() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.signInWithEmailLink(email: "foo@example.com")
        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("INVALID_ARGUMENT") == true)
    }

    @Test("should error if phoneNumber is invalid")
    func invalidPhoneNumber() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.signInWithEmailLink(email: "foo@example.com")
        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": "notaphonenumber"]])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("INVALID_PHONE_NUMBER") == true)
    }

    @Test("should error if phoneNumber is a duplicate")
    func duplicatePhoneNumber() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.signInWithEmailLink(email: "foo@example.com")
        _ = try await Self.enrollPhoneMfa(api, idToken: user.idToken, phoneNumber: Self.phoneNumber)
        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": Self.phoneNumber]])
        #expect(res.status == 400)
        #expect(res.errorMessage == "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
    }

    @Test("should error if sign-in method of idToken is ineligible for MFA (an anonymous first factor)")
    func ineligibleFirstFactor() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerAnonUser()
        try await api.updateAccountByLocalId(user.localId, ["email": "bob@example.com", "emailVerified": true])
        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550101"]])
        #expect(res.status == 400)
        #expect(res.errorMessage == "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
    }

    @Test("should error on mfaEnrollment:start, :finalize, :withdraw, mfaSignIn:start and :finalize if auth is disabled", arguments: [
        "accounts/mfaEnrollment:start", "accounts/mfaEnrollment:finalize", "accounts/mfaEnrollment:withdraw", "accounts/mfaSignIn:start", "accounts/mfaSignIn:finalize",
    ])
    func authDisabled(operation: String) async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": true])
        let res = try await api.post("\(Self.v2)/\(operation)", ["tenantId": tenant["tenantId"] as? String ?? ""])
        #expect(res.status == 400, "\(res)")
        #expect(res.errorMessage == "PROJECT_DISABLED")
    }

    @Test("should allow sign-in with pending credential for MFA-enabled user")
    func signInWithPendingCredential() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let (email, password) = ("foo@example.com", "abcdef")
        let user = try await api.registerUser(email: email, password: password)
        try await api.updateAccountByLocalId(user.localId, ["emailVerified": true])
        _ = try await Self.enrollPhoneMfa(api, idToken: user.idToken, phoneNumber: Self.phoneNumber)
        let beforeSignIn = try await api.getAccountInfoByLocalId(user.localId)
        // Where the spec ticks a fake clock: serve's timestamps are milliseconds of the wall clock.
        try await Task.sleep(for: .milliseconds(20))

        let first = try await api.post("\(EmulatorSpec.v1)/accounts:signInWithPassword", ["email": email, "password": password])
        #expect(first.status == 200, "\(first)")
        #expect(first["idToken"] == nil)
        #expect(first["refreshToken"] == nil)
        let pending = try #require(first.string("mfaPendingCredential"))
        let mfaInfo = try #require(first["mfaInfo"] as? [[String: Any]])
        #expect(mfaInfo.count == 1)
        #expect(mfaInfo.first?["phoneInfo"] as? String == Self.phoneNumberObfuscated)
        #expect(mfaInfo.first?["unobfuscatedPhoneInfo"] == nil, "not exposed right after the first factor")
        let enrollmentId = try #require(mfaInfo.first?["mfaEnrollmentId"] as? String)

        let afterFirstFactor = try await api.getAccountInfoByLocalId(user.localId)
        #expect(afterFirstFactor["lastLoginAt"] as? String == beforeSignIn["lastLoginAt"] as? String)
        #expect(afterFirstFactor["lastRefreshAt"] as? String == beforeSignIn["lastRefreshAt"] as? String)

        let start = try await api.post("\(Self.v2)/accounts/mfaSignIn:start", ["mfaEnrollmentId": enrollmentId, "mfaPendingCredential": pending])
        #expect(start.status == 200, "\(start)")
        let sessionInfo = try #require((start["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let code = try #require(try await Self.inspectVerificationCodes(api).first?["code"] as? String)
        // lastRefreshAt is written to the millisecond, as toISOString() writes it (operations.ts:2480):
        // wait past it, where the spec ticks its clock.
        let stamp = try #require(afterFirstFactor["lastRefreshAt"] as? String)
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(stamp)")
        try await Task.sleep(for: .milliseconds(20))

        let finalize = try await api.post("\(Self.v2)/accounts/mfaSignIn:finalize", ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
        #expect(finalize.status == 200, "\(finalize)")
        #expect(finalize.string("refreshToken") != nil)
        let claims = Self.firebaseClaims(finalize.string("idToken"))
        #expect(claims["sign_in_second_factor"] as? String == "phone")
        #expect(claims["second_factor_identifier"] as? String == enrollmentId)

        let afterMfa = try await api.getAccountInfoByLocalId(user.localId)
        #expect(afterMfa["lastLoginAt"] as? String != beforeSignIn["lastLoginAt"] as? String)
        #expect(afterMfa["lastRefreshAt"] as? String != beforeSignIn["lastRefreshAt"] as? String)
    }

    @Test("should allow withdrawing MFA for a user")
    func withdraw() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let first = try await api.signInWithEmailLink(email: "foo@example.com")
        let enrolled = try await Self.enrollPhoneMfa(api, idToken: first.idToken, phoneNumber: Self.phoneNumber)
        let mfaInfo = try #require(try await api.getAccountInfoByIdToken(enrolled.idToken)["mfaInfo"] as? [[String: Any]])
        #expect(mfaInfo.count == 1)
        let enrollmentId = try #require(mfaInfo.first?["mfaEnrollmentId"] as? String)

        let res = try await api.post("\(Self.v2)/accounts/mfaEnrollment:withdraw", ["idToken": enrolled.idToken, "mfaEnrollmentId": enrollmentId])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("refreshToken") != nil)
        let claims = Self.firebaseClaims(res.string("idToken"))
        #expect(!claims.isEmpty)
        #expect(claims["sign_in_second_factor"] == nil)
        #expect(claims["second_factor_identifier"] == nil)

        let after = try await api.getAccountInfoByIdToken(enrolled.idToken)
        #expect((after["mfaInfo"] as? [Any])?.isEmpty == true)
    }

    /// mfa.spec.ts:161-247 and :344-430: a tenant whose mfaConfig is off, or lists no PHONE_SMS,
    /// refuses all four SMS endpoints with OPERATION_NOT_ALLOWED (operations.ts:2043-2046...).
    @Test("should error on every SMS endpoint if MFA is disabled or phone SMS is not an enabled provider", arguments: [
        ["state": "DISABLED"], ["state": "ENABLED", "enabledProviders": ["PROVIDER_UNSPECIFIED"]],
    ] as [[String: any Sendable]])
    func tenantWithoutSMS(mfaConfig: [String: any Sendable]) async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "mfaConfig": mfaConfig])
        let tenantId = try #require(tenant["tenantId"] as? String)
        for endpoint in ["mfaEnrollment:start", "mfaEnrollment:finalize", "mfaSignIn:start", "mfaSignIn:finalize"] {
            let res = try await api.post("\(Self.v2)/accounts/\(endpoint)", ["tenantId": tenantId])
            #expect(res.status == 400, "\(endpoint): \(res)")
            #expect(res.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.", "\(endpoint)")
        }
    }

    /// operations.ts:3143-3159: a tenant created without mfaConfig has it off; one made by its
    /// first use has SMS on (state.ts:724-727); the tenant's JSON says which.
    @Test("a created tenant's MFA is off unless its mfaConfig turns SMS on; with it off, an account with a factor signs in on its password")
    func tenantMfaDefaults() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let created = try await api.registerTenant(api.projectId, ["allowPasswordSignup": true])
        let config = try #require(created["mfaConfig"] as? [String: Any])
        #expect(config["state"] as? String == "DISABLED")
        #expect((config["enabledProviders"] as? [String])?.isEmpty == true)

        let enabled = try await api.registerTenant(api.projectId, ["allowPasswordSignup": true, "mfaConfig": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"]]])
        let tenantId = try #require(enabled["tenantId"] as? String)
        let user = try await api.registerUser(email: "tenant-mfa@example.com", password: "testing", tenantId: tenantId)
        try await api.updateAccountByLocalId(user.localId, ["emailVerified": true, "tenantId": tenantId])
        let start = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "tenantId": tenantId, "phoneEnrollmentInfo": ["phoneNumber": Self.phoneNumber]])
        #expect(start.status == 200, "\(start)")

        // operations.ts:3208-3213: with MFA off, a factor on the account asks for nothing more.
        let off = try #require(created["tenantId"] as? String)
        _ = try await api.registerUser(email: "factor@example.com", password: "testing", tenantId: off, mfaInfo: [["phoneInfo": Self.phoneNumber]])
        let signIn = try await api.post("\(EmulatorSpec.v1)/accounts:signInWithPassword", ["email": "factor@example.com", "password": "testing", "tenantId": off])
        #expect(signIn.status == 200, "\(signIn)")
        #expect(signIn.string("idToken") != nil)
        #expect(signIn["mfaPendingCredential"] == nil)
    }
}

/// REVERT_SECOND_FACTOR_ADDITION, which production mails when a factor is enrolled (the
/// emulator issues none): over `serve --as production`'s API, end to end.
@Suite("serve --as production: a second factor's enrollment mails a link that removes it")
struct RevertSecondFactorTests {
    @Test("enroll by SMS, get the REVERT_SECOND_FACTOR_ADDITION mail, check its code (email, requestType, the factor), apply it: the factor is gone and sign-in needs one factor again; the code is then used")
    func revertAfterEnrollment() async throws {
        let serve = try await ServeFixture.start(as: .production)
        defer { Task { await serve.stop() } }
        let key = "?key=\(serve.configuration.apiKey)"
        func post(_ path: String, _ body: [String: Any]) async throws -> EmulatorSpec.Answer {
            let answer = try await serve.http("POST", path + key, body: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
            return EmulatorSpec.Answer(status: answer.status, body: answer.body, headers: answer.headers)
        }
        let v1 = EmulatorSpec.v1, v2 = MfaSpecPortTests.v2
        let signIn = try await post("\(v1)/accounts:signInWithPassword", ["email": "alice@example.com", "password": "alice-password-1", "returnSecureToken": true])
        let idToken = try #require(signIn.string("idToken"))
        let start = try await post("\(v2)/accounts/mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": MfaSpecPortTests.phoneNumber]])
        let sessionInfo = try #require((start["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let codes = try await serve.http("GET", "/emulator/v1/projects/\(serve.configuration.projectId)/verificationCodes")
        let code = try #require(((try JSONSerialization.jsonObject(with: Data(codes.body.utf8)) as? [String: Any])?["verificationCodes"] as? [[String: Any]])?.first?["code"] as? String)
        let enrolled = try await post("\(v2)/accounts/mfaEnrollment:finalize", ["idToken": idToken, "displayName": "Work phone", "phoneVerificationInfo": ["code": code, "sessionInfo": sessionInfo]])
        #expect(enrolled.status == 200, "\(enrolled)")

        let mail = try #require(try await serve.rest.mailbox().last)
        #expect(mail.requestType == .revertSecondFactorAddition)
        #expect(mail.to == "alice@example.com")
        #expect(mail.link.contains("revertSecondFactorAddition"))
        let oobCode = try #require(mail.oobCode)

        let checked = try await post("\(v1)/accounts:resetPassword", ["oobCode": oobCode])
        #expect(checked.string("requestType") == "REVERT_SECOND_FACTOR_ADDITION")
        #expect(checked.string("email") == "alice@example.com")
        let factor = try #require(checked["mfaInfo"] as? [String: Any])
        #expect(factor["displayName"] as? String == "Work phone")
        #expect(factor["phoneInfo"] as? String == MfaSpecPortTests.phoneNumberObfuscated)

        // Two factors now: a first factor alone gets a pending credential.
        let pending = try await post("\(v1)/accounts:signInWithPassword", ["email": "alice@example.com", "password": "alice-password-1"])
        #expect(pending.string("mfaPendingCredential") != nil)
        #expect(pending["idToken"] == nil)

        // The link opens serve's web action handler, which applies the code on load.
        let query = try #require(URLComponents(string: try LinkInspector.inspect(mail.link, authorizedDomains: serve.configuration.authorizedDomains).actionURL)?.percentEncodedQuery)
        let page = try await serve.http("GET", "/__/auth/action?\(query)")
        #expect(page.status == 200)
        #expect(page.body.contains("The second sign-in step was removed"))
        let after = try await post("\(v1)/accounts:signInWithPassword", ["email": "alice@example.com", "password": "alice-password-1", "returnSecureToken": true])
        #expect(after.string("idToken") != nil, "one factor again: \(after)")
        let lookup = try await post("\(v1)/accounts:lookup", ["idToken": after.string("idToken") ?? ""])
        #expect(((lookup["users"] as? [[String: Any]])?.first?["mfaInfo"] as? [Any])?.isEmpty == true)
        let again = try await post("\(v1)/accounts:update", ["oobCode": oobCode])
        #expect(again.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
    }

    @Test("--as emulator issues no REVERT_SECOND_FACTOR_ADDITION code, as the emulator (operations.ts:2141)")
    func emulatorIssuesNone() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.signInWithEmailLink(email: "foo@example.com")
        _ = try await MfaSpecPortTests.enrollPhoneMfa(api, idToken: user.idToken, phoneNumber: MfaSpecPortTests.phoneNumber)
        #expect(try await api.inspectOobs().allSatisfy { $0["requestType"] as? String != "REVERT_SECOND_FACTOR_ADDITION" })
    }
}
