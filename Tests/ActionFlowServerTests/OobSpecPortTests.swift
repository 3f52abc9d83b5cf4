import Foundation
import Testing

/// firebase-tools `src/emulator/auth/oob.spec.ts` ("Auth Emulator: accounts:sendOobCode"), all
/// 22 cases, against `serve --as emulator` on loopback: the same requests and assertions, each
/// test named after the `it(...)` it ports.
@Suite("Auth Emulator spec port: accounts:sendOobCode (oob.spec.ts)")
struct OobSpecPortTests {
    static let v1 = EmulatorSpec.v1

    @Test("should generate OOB code for verify email")
    func generateVerifyEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        let registered = try await api.registerUser(email: user.email, password: user.password)

        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": registered.idToken, "requestType": "VERIFY_EMAIL"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == user.email)
        // These fields should not be set since returnOobLink is not set.
        #expect(res["oobCode"] == nil)
        #expect(res["oobLink"] == nil)

        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == user.email)
        #expect(oobs[0]["requestType"] as? String == "VERIFY_EMAIL")

        // The returned oobCode can be redeemed to verify the email.
        let applied = try await api.post("\(Self.v1)/accounts:update", ["oobCode": oobs[0]["oobCode"] as? String ?? ""])
        #expect(applied.status == 200, "\(applied)")
        #expect(applied.string("localId") == registered.localId)
        #expect(applied.string("email") == user.email)
        #expect(applied["emailVerified"] as? Bool == true)

        // oobCode is removed after redeemed.
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should return OOB code directly for requests with OAuth 2")
    func oauthReturnsCode() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        _ = try await api.registerUser(email: user.email, password: user.password)
        for body: [String: Any] in [
            ["email": user.email, "requestType": "PASSWORD_RESET", "returnOobLink": true],
            ["email": user.email, "requestType": "VERIFY_EMAIL", "returnOobLink": true],
            ["email": user.email, "newEmail": "bob@example.com", "requestType": "VERIFY_AND_CHANGE_EMAIL", "returnOobLink": true],
        ] {
            let res = try await api.post("\(Self.v1)/accounts:sendOobCode", body, owner: true)
            #expect(res.status == 200, "\(res)")
            #expect(res.string("email") == user.email)
            #expect(res.string("oobCode") != nil)
            #expect(res.string("oobLink") != nil)
        }
    }

    @Test("should return OOB code by idToken for OAuth 2 requests as well")
    func oauthByIdToken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        let registered = try await api.registerUser(email: user.email, password: user.password)
        for body: [String: Any] in [
            ["idToken": registered.idToken, "requestType": "VERIFY_EMAIL", "returnOobLink": true],
            ["email": user.email, "newEmail": "bob@example.com", "idToken": registered.idToken, "requestType": "VERIFY_AND_CHANGE_EMAIL", "returnOobLink": true],
        ] {
            let res = try await api.post("\(Self.v1)/accounts:sendOobCode", body, owner: true)
            #expect(res.status == 200, "\(res)")
            #expect(res.string("email") == user.email)
            #expect(res.string("oobCode") != nil)
            #expect(res.string("oobLink") != nil)
        }
    }

    @Test("should error when trying to verify email without idToken or email")
    func verifyWithoutIdTokenOrEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")

        let forged = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": "hoge", "requestType": "VERIFY_EMAIL"])
        #expect(forged.status == 400)
        #expect(forged.errorMessage == "INVALID_ID_TOKEN")

        // This causes a different error message to be returned, see below.
        let admin = try await api.post("\(Self.v1)/accounts:sendOobCode", ["returnOobLink": true, "requestType": "VERIFY_EMAIL"], owner: true)
        #expect(admin.status == 400)
        #expect(admin.errorMessage == "MISSING_EMAIL")

        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error when trying to verify email without idToken if not returnOobLink")
    func verifyWithoutIdTokenNotReturnOobLink() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        // email here is ignored because returnOobLink is not set.
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": user.email, "requestType": "VERIFY_EMAIL"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_ID_TOKEN")
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error when trying to verify email not associated with any user")
    func verifyUnknownUser() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "nosuchuser@example.com", "returnOobLink": true, "requestType": "VERIFY_EMAIL"], owner: true)
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_NOT_FOUND")
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error when verifying email for accounts without email")
    func verifyAnonymous() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let anonymous = try await api.registerAnonUser()
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": anonymous.idToken, "requestType": "VERIFY_EMAIL"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "MISSING_EMAIL")
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error if user is disabled")
    func disabledUser() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "foo@example.com", password: "foobar")
        try await api.updateAccountByLocalId(user.localId, ["disableUser": true])
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": user.email, "idToken": user.idToken, "requestType": "VERIFY_EMAIL"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_DISABLED")
    }

    @Test("should error when continueUrl is invalid")
    func invalidContinueUrl() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": user.idToken, "requestType": "VERIFY_EMAIL", "continueUrl": "noSchemeOrHost"])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("INVALID_CONTINUE_URI") == true)
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error if auth is disabled")
    func authDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses("\(Self.v1)/accounts:sendOobCode", settings: ["disableAuth": true], message: "PROJECT_DISABLED")
    }

    @Test("should error for email sign in if not enabled")
    func emailSignInNotEnabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "enableEmailLinkSignin": false])
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["tenantId": tenant["tenantId"] as? String ?? "", "email": "bob@example.com", "requestType": "EMAIL_SIGNIN"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "OPERATION_NOT_ALLOWED")
    }

    @Test("should generate OOB code for reset password")
    func generateResetPassword() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        let registered = try await api.registerUser(email: user.email, password: user.password)
        // The spec ticks a fake clock 2 s here so the token predates the reset; serve revokes
        // tokens issued before a reset even within the same second, so no wait is needed.

        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": user.email])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == user.email)
        #expect(res["oobCode"] == nil)
        #expect(res["oobLink"] == nil)

        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == user.email)
        #expect(oobs[0]["requestType"] as? String == "PASSWORD_RESET")

        let reset = try await api.post("\(Self.v1)/accounts:resetPassword", ["oobCode": oobs[0]["oobCode"] as? String ?? "", "newPassword": "notasecret2"])
        #expect(reset.status == 200, "\(reset)")
        #expect(reset.string("requestType") == "PASSWORD_RESET")
        #expect(reset.string("email") == user.email)

        // All old idTokens are invalidated.
        try await api.expectIdTokenExpired(registered.idToken)
    }

    @Test("should return purpose of oobCodes via resetPassword endpoint")
    func purposeOfCodes() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        let registered = try await api.registerUser(email: user.email, password: user.password)
        let newEmail = "bob@example.com"
        for body: [String: Any] in [
            ["requestType": "PASSWORD_RESET", "email": user.email],
            ["requestType": "VERIFY_EMAIL", "idToken": registered.idToken],
            ["email": newEmail, "requestType": "EMAIL_SIGNIN"],
            ["email": user.email, "newEmail": newEmail, "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": registered.idToken],
        ] {
            let res = try await api.post("\(Self.v1)/accounts:sendOobCode", body)
            #expect(res.status == 200, "\(res)")
        }
        let oobs = try await api.inspectOobs()
        #expect(oobs.count == 4)
        for oob in oobs {
            // If newPassword is not set, this API will just return the purpose
            // (requestType) of the code without consuming it.
            let res = try await api.post("\(Self.v1)/accounts:resetPassword", ["oobCode": oob["oobCode"] as? String ?? ""])
            #expect(res.status == 200, "\(res)")
            #expect(res.string("requestType") == oob["requestType"] as? String)
            if oob["requestType"] as? String == "EMAIL_SIGNIN" {
                // Do not reveal the email when inspecting an email sign-in oobCode.
                #expect(res["email"] == nil)
            } else {
                #expect(res.string("email") == oob["email"] as? String)
            }
            if oob["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL" {
                #expect(res.string("newEmail") == newEmail)
            }
        }
        // OOB codes are not consumed by the lookup above.
        #expect(try await api.inspectOobs().count == 4)
    }

    @Test("should error on resetPassword if auth is disabled")
    func resetPasswordAuthDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses("\(Self.v1)/accounts:resetPassword", settings: ["disableAuth": true], message: "PROJECT_DISABLED")
    }

    @Test("should error on resetPassword if password sign up is disabled")
    func resetPasswordSignUpDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses("\(Self.v1)/accounts:resetPassword", settings: ["disableAuth": false, "allowPasswordSignup": false], message: "PASSWORD_LOGIN_DISABLED")
    }

    @Test("should error when sending a password reset to non-existent user with improved email privacy disabled")
    func resetUnknownWithoutPrivacy() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": "PASSWORD_RESET", "returnOobLink": true], owner: true)
        #expect(res.status == 400)
        #expect(res.errorMessage == "EMAIL_NOT_FOUND")
    }

    @Test("should return email address when sending a password reset to non-existent user with improved email privacy enabled")
    func resetUnknownWithPrivacy() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.updateConfig(api.projectId, ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]], updateMask: "emailPrivacyConfig")
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": "PASSWORD_RESET", "returnOobLink": true], owner: true)
        #expect(res.status == 200, "\(res)")
        #expect(res.string("kind") == "identitytoolkit#GetOobConfirmationCodeResponse")
        #expect(res.string("email") == "alice@example.com")
    }

    @Test("should generate OOB code for verify and change email")
    func generateVerifyAndChange() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        let registered = try await api.registerUser(email: user.email, password: user.password)
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": user.email, "newEmail": "bob@example.com", "idToken": registered.idToken, "requestType": "VERIFY_AND_CHANGE_EMAIL"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("kind") == "identitytoolkit#GetOobConfirmationCodeResponse")
        #expect(res.string("email") == user.email)
        #expect(res["oobCode"] == nil)
        #expect(res["oobLink"] == nil)

        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == user.email)
        #expect(oobs[0]["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL")

        let applied = try await api.post("\(Self.v1)/accounts:update", ["oobCode": oobs[0]["oobCode"] as? String ?? ""])
        #expect(applied.status == 200, "\(applied)")
        #expect(applied.string("localId") == registered.localId)
        #expect(applied.string("email") == "bob@example.com")
        #expect(applied["emailVerified"] as? Bool == true)

        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error when trying to verify and change email without idToken or email or newEmail")
    func verifyAndChangeMissingFields() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = (email: "alice@example.com", password: "notasecret")
        _ = try await api.registerUser(email: user.email, password: user.password)
        let cases: [(body: [String: Any], owner: Bool, message: String)] = [
            (["newEmail": "bob@example.com", "requestType": "VERIFY_AND_CHANGE_EMAIL"], false, "MISSING_ID_TOKEN"),
            (["email": user.email, "requestType": "VERIFY_AND_CHANGE_EMAIL"], false, "MISSING_NEW_EMAIL"),
            (["newEmail": "bob@example.com", "returnOobLink": true, "requestType": "VERIFY_AND_CHANGE_EMAIL"], true, "MISSING_EMAIL"),
            (["email": user.email, "returnOobLink": true, "requestType": "VERIFY_AND_CHANGE_EMAIL"], true, "MISSING_NEW_EMAIL"),
        ]
        for item in cases {
            let res = try await api.post("\(Self.v1)/accounts:sendOobCode", item.body, owner: item.owner)
            #expect(res.status == 400)
            #expect(res.errorMessage == item.message)
        }
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error when trying to verify and change email without idToken if not returnOobLink")
    func verifyAndChangeWithoutIdToken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": user.email, "newEmail": "bob@example.com", "requestType": "VERIFY_AND_CHANGE_EMAIL"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "MISSING_ID_TOKEN")
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error when trying to verify and change email not associated with any user")
    func verifyAndChangeUnknownUser() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "nosuchuser@example.com", "newEmail": "bob@example.com", "returnOobLink": true, "requestType": "VERIFY_AND_CHANGE_EMAIL"], owner: true)
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_NOT_FOUND")
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should error if newEmail is already associated to another user")
    func newEmailTaken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let another = try await api.registerUser(email: "bob@example.com", password: "notasecret")
        let client = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": user.idToken, "email": user.email, "newEmail": another.email, "requestType": "VERIFY_AND_CHANGE_EMAIL"])
        #expect(client.status == 400)
        #expect(client.errorMessage == "EMAIL_EXISTS")
        let admin = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": user.email, "newEmail": another.email, "returnOobLink": true, "requestType": "VERIFY_AND_CHANGE_EMAIL"], owner: true)
        #expect(admin.status == 400)
        #expect(admin.errorMessage == "EMAIL_EXISTS")
        #expect(try await api.inspectOobs().isEmpty)
    }
}
