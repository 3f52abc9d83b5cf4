import Foundation
import Testing

/// firebase-tools `src/emulator/auth/emailLink.spec.ts` ("Auth Emulator: email link sign-in"),
/// the cases that need neither blocking functions nor phone sign-in, against
/// `serve --as emulator` on loopback.
@Suite("Auth Emulator spec port: email link sign-in (emailLink.spec.ts)")
struct EmailLinkSpecPortTests {
    static let signIn = "\(EmulatorSpec.v1)/accounts:signInWithEmailLink"

    @Test("should send OOB code to new emails and create account on sign-in")
    func newAccount() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let email = "alice@example.com"
        _ = try await api.createEmailSignInOob(email: email)
        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == email)
        #expect(oobs[0]["requestType"] as? String == "EMAIL_SIGNIN")

        // The returned oobCode can be redeemed to sign-in.
        let res = try await api.post(Self.signIn, ["oobCode": oobs[0]["oobCode"] as? String ?? "", "email": email])
        #expect(res.status == 200, "\(res)")
        let idToken = try #require(res.string("idToken"))
        #expect(res.string("email") == email)
        #expect(res["isNewUser"] as? Bool == true)
        let decoded = try #require(EmulatorSpec.decodeJWT(idToken), "JWT returned by emulator is invalid")
        #expect(decoded.header["alg"] as? String == "none")
        #expect(decoded.payload["user_id"] is String)
        #expect(decoded.payload["provider_id"] == nil)
        // The provider name is (confusingly) "password".
        #expect((decoded.payload["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")

        #expect(Set(try await api.getSigninMethods(email) ?? []) == ["emailLink"])
    }

    @Test("should sign an existing account in and enable email-link sign-in for them")
    func existingAccount() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "bob@example.com", password: "notasecret")
        let oob = try await api.createEmailSignInOob(email: user.email)
        let res = try await api.post(Self.signIn, ["email": user.email, "oobCode": oob.oobCode])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("localId") == user.localId)

        let info = try await api.getAccountInfoByIdToken(user.idToken)
        #expect(info["emailLinkSignin"] as? Bool == true)
        #expect(Set(try await api.getSigninMethods(user.email) ?? []) == ["password", "emailLink"])
    }

    @Test("should error on invalid oobCode")
    func invalidCode() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post(Self.signIn, ["email": "alice@example.com", "oobCode": "invalid"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_OOB_CODE")
    }

    @Test("should error if user is disabled")
    func disabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "bob@example.com", password: "notasecret")
        let oob = try await api.createEmailSignInOob(email: user.email)
        try await api.updateAccountByLocalId(user.localId, ["disableUser": true])
        let res = try await api.post(Self.signIn, ["email": user.email, "oobCode": oob.oobCode])
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_DISABLED")
    }

    @Test("should error if email mismatches")
    func mismatch() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let oob = try await api.createEmailSignInOob(email: "alice@example.com")
        let res = try await api.post(Self.signIn, ["email": "NOT-alice@example.com", "oobCode": oob.oobCode])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
    }

    @Test("should link existing account with idToken to new email")
    func linkWithIdToken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let oldEmail = "bob@example.com"
        let newEmail = "alice@example.com"
        let user = try await api.registerUser(email: oldEmail, password: "notasecret")
        let oob = try await api.createEmailSignInOob(email: newEmail)
        let res = try await api.post(Self.signIn, ["email": newEmail, "oobCode": oob.oobCode, "idToken": user.idToken])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("localId") == user.localId)
        #expect(res.string("email") == newEmail)
        #expect(Set(try await api.getSigninMethods(newEmail) ?? []) == ["password", "emailLink"])
        #expect(try await api.getSigninMethods(oldEmail)?.isEmpty == true)
    }

    @Test("should error if user to be linked is disabled")
    func linkDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        try await api.updateAccountByLocalId(user.localId, ["disableUser": true])
        let oob = try await api.createEmailSignInOob(email: user.email)
        let res = try await api.post(Self.signIn, ["email": user.email, "oobCode": oob.oobCode, "idToken": user.idToken])
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_DISABLED")
    }

    @Test("should error if auth is disabled")
    func authDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses(Self.signIn, settings: ["disableAuth": true], message: "PROJECT_DISABLED")
    }

    @Test("should error if email link sign in is disabled")
    func emailLinkDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses(Self.signIn, settings: ["disableAuth": false, "enableEmailLinkSignin": false], message: "OPERATION_NOT_ALLOWED")
    }

    @Test("should create account on sign-in with tenantId")
    func tenantAccount() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "enableEmailLinkSignin": true])
        let tenantId = try #require(tenant["tenantId"] as? String)
        let email = "alice@example.com"
        let oob = try await api.createEmailSignInOob(email: email, tenantId: tenantId)
        let res = try await api.post(Self.signIn, ["oobCode": oob.oobCode, "email": email, "tenantId": tenantId])
        #expect(res.status == 200, "\(res)")
        let localId = try #require(res.string("localId"))
        let user = try await api.getAccountInfoByLocalId(localId, tenantId: tenantId)
        #expect(user["tenantId"] as? String == tenantId)
    }
    /// helpers.ts `TEST_MFA_INFO`.
    static var testMfaInfo: [String: Any] { ["displayName": "Cell Phone", "phoneInfo": "+15555550100"] }

    @Test("should return pending credential if user has MFA")
    func pendingCredentialWithMfa() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret", mfaInfo: [Self.testMfaInfo])
        let oob = try await api.createEmailSignInOob(email: user.email)
        let res = try await api.post(Self.signIn, ["email": user.email, "oobCode": oob.oobCode, "idToken": user.idToken])
        #expect(res.status == 200, "\(res)")
        #expect(res["idToken"] == nil)
        #expect(res["refreshToken"] == nil)
        #expect(res.string("mfaPendingCredential") != nil)
        #expect((res["mfaInfo"] as? [Any])?.count == 1)
    }

    @Test("should return pending credential if user has MFA and enabled on tenant projects")
    func pendingCredentialWithMfaOnTenant() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "enableEmailLinkSignin": true, "allowPasswordSignup": true, "mfaConfig": ["state": "ENABLED"]])
        let tenantId = try #require(tenant["tenantId"] as? String)
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret", tenantId: tenantId, mfaInfo: [Self.testMfaInfo])
        let oob = try await api.createEmailSignInOob(email: user.email, tenantId: tenantId)
        let res = try await api.post(Self.signIn, ["email": user.email, "oobCode": oob.oobCode, "idToken": user.idToken, "tenantId": tenantId])
        #expect(res.status == 200, "\(res)")
        #expect(res["idToken"] == nil)
        #expect(res["refreshToken"] == nil)
        #expect(res.string("mfaPendingCredential") != nil)
        #expect((res["mfaInfo"] as? [Any])?.count == 1)
    }
}
