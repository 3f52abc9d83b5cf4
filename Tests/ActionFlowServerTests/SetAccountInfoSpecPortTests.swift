import Foundation
import Testing

/// firebase-tools `src/emulator/auth/setAccountInfo.spec.ts` ("Auth Emulator: accounts:update"),
/// the cases about passwords, email changes, RECOVER_EMAIL, VERIFY_AND_CHANGE_EMAIL and tenant
/// links, against `serve --as emulator` on loopback.
@Suite("Auth Emulator spec port: accounts:update (setAccountInfo.spec.ts)")
struct SetAccountInfoSpecPortTests {
    static let update = "\(EmulatorSpec.v1)/accounts:update"

    @Test("should set password and issue new tokens")
    func setPassword() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let newPassword = "notasecreteither"
        let res = try await api.post(Self.update, ["idToken": user.idToken, "password": newPassword])
        #expect(res.status == 200, "\(res)")
        // Updating password causes new tokens to be issued.
        #expect(res.string("refreshToken") != nil)
        let decoded = try #require(EmulatorSpec.decodeJWT(res.string("idToken") ?? ""), "JWT returned by emulator is invalid")
        #expect(decoded.header["alg"] as? String == "none")
        #expect(decoded.payload["user_id"] as? String == user.localId)
        #expect((decoded.payload["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        // New password now works.
        #expect(try await api.signInWithPassword(email: user.email, password: newPassword).localId == user.localId)
    }

    @Test("should allow changing email of an existing user, and send out an oob to reset the email")
    func changeEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let (oldEmail, password, newEmail) = ("alice@example.com", "notasecret", "bob@example.com")
        let user = try await api.registerUser(email: oldEmail, password: password)
        let res = try await api.post(Self.update, ["idToken": user.idToken, "email": newEmail])
        #expect(res.status == 200, "\(res)")
        // Changing email causes new tokens to be issued.
        #expect(res.string("refreshToken") != nil)
        let decoded = try #require(EmulatorSpec.decodeJWT(res.string("idToken") ?? ""))
        #expect(decoded.header["alg"] as? String == "none")
        #expect(decoded.payload["user_id"] as? String == user.localId)
        #expect(decoded.payload["email"] as? String == newEmail)
        #expect((decoded.payload["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")

        // New email now works; the old one no longer does.
        #expect(try await api.signInWithPassword(email: newEmail, password: password).localId == user.localId)
        let old = try await api.post("\(EmulatorSpec.v1)/accounts:signInWithPassword", ["email": oldEmail, "password": password])
        #expect(old.status == 400)
        #expect(old.errorMessage == "EMAIL_NOT_FOUND")

        // An oob is sent to oldEmail.
        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == oldEmail)
        #expect(oobs[0]["requestType"] as? String == "RECOVER_EMAIL")
    }

    @Test("should disallow setting email to same as an existing user")
    func emailTaken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "bob@example.com", password: "notasecret")
        let anonymous = try await api.registerAnonUser()
        let exact = try await api.post(Self.update, ["idToken": anonymous.idToken, "email": "bob@example.com"])
        #expect(exact.status == 400)
        #expect(exact.errorMessage == "EMAIL_EXISTS")
        // Case variants of a same email address are also considered duplicates.
        let variant = try await api.post(Self.update, ["idToken": anonymous.idToken, "email": "BOB@example.com", "password": "notasecret"])
        #expect(variant.status == 400)
        #expect(variant.errorMessage == "EMAIL_EXISTS")
    }

    @Test("should set initialEmail for the user, after updating email")
    func initialEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post(Self.update, ["idToken": user.idToken, "email": "bob@example.com"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == "bob@example.com")
        let info = try await api.getAccountInfoByIdToken(user.idToken)
        #expect(info["initialEmail"] as? String == "alice@example.com")
    }

    @Test("should reset email when OOB flow is initiated, after updating user email")
    func recoverEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        #expect(try await api.post(Self.update, ["idToken": user.idToken, "email": "bob@example.com"]).status == 200)
        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == "alice@example.com")
        #expect(oobs[0]["requestType"] as? String == "RECOVER_EMAIL")
        // The returned oobCode can be redeemed; no idToken needed.
        let res = try await api.post(Self.update, ["oobCode": oobs[0]["oobCode"] as? String ?? ""])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == "alice@example.com")
        // Email is verified since this flow can only be initiated through a link sent to the user's email.
        #expect(res["emailVerified"] as? Bool == true)
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should disallow resetting an email if another user exists with the same email")
    func recoverEmailTaken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let bob = try await api.registerUser(email: "bob@example.com", password: "notasecret")
        let renamed = try await api.post(Self.update, ["idToken": bob.idToken, "email": "bob_new@example.com"])
        #expect(renamed.string("email") == "bob_new@example.com")
        _ = try await api.registerUser(email: "bob@example.com", password: "notasecreteither")
        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["requestType"] as? String == "RECOVER_EMAIL")
        let res = try await api.post(Self.update, ["oobCode": oobs[0]["oobCode"] as? String ?? ""])
        #expect(res.status == 400)
        #expect(res.errorMessage == "EMAIL_EXISTS")
    }

    @Test("should not set initial email or send OOB when anon user updates email")
    func anonymousEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let anonymous = try await api.registerAnonUser()
        let res = try await api.post(Self.update, ["idToken": anonymous.idToken, "email": "alice@example.com"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == "alice@example.com")
        #expect(try await api.inspectOobs().isEmpty)
        let info = try await api.getAccountInfoByIdToken(anonymous.idToken)
        #expect(info["initialEmail"] == nil)
    }

    @Test("should not update email if user is disabled")
    func disabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "bob@example.com", password: "notasecret")
        try await api.updateAccountByLocalId(user.localId, ["disableUser": true])
        let res = try await api.post(Self.update, ["idToken": user.idToken, "email": "alice@example.com"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_DISABLED")
    }

    @Test("should update email when OOB flow of VERIFY_AND_CHANGE_EMAIL is initiated")
    func verifyAndChange() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let sent = try await api.post("\(EmulatorSpec.v1)/accounts:sendOobCode", ["idToken": user.idToken, "newEmail": "bob@example.com", "requestType": "VERIFY_AND_CHANGE_EMAIL"])
        #expect(sent.status == 200, "\(sent)")
        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == "alice@example.com")
        #expect(oobs[0]["newEmail"] as? String == "bob@example.com")
        #expect(oobs[0]["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL")
        let res = try await api.post(Self.update, ["oobCode": oobs[0]["oobCode"] as? String ?? ""])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == "bob@example.com")
        #expect(res.string("newEmail") == "bob@example.com")
        #expect(res["emailVerified"] as? Bool == true)
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should disallow changing an email if another user exists with the same email")
    func verifyAndChangeTaken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let sent = try await api.post("\(EmulatorSpec.v1)/accounts:sendOobCode", ["idToken": user.idToken, "newEmail": "bob@example.com", "requestType": "VERIFY_AND_CHANGE_EMAIL"])
        #expect(sent.status == 200, "\(sent)")
        let oobs = try await api.inspectOobs()
        try #require(oobs.count == 1)
        _ = try await api.registerUser(email: "bob@example.com", password: "notasecreteither")
        let res = try await api.post(Self.update, ["oobCode": oobs[0]["oobCode"] as? String ?? ""])
        #expect(res.status == 400)
        #expect(res.errorMessage == "EMAIL_EXISTS")
        // oobCode is removed after redeemed.
        #expect(try await api.inspectOobs().isEmpty)
    }

    @Test("should invalidate old tokens after updating validSince or password")
    func invalidateOldTokens() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        // The spec ticks a fake clock 2 s before each update; serve revokes within the second.
        let second = try await api.post(Self.update, ["idToken": user.idToken, "password": "notasecreteither"])
        #expect(second.status == 200, "\(second)")
        let idToken2 = try #require(second.string("idToken"))
        try await api.expectIdTokenExpired(user.idToken)
        _ = try await api.getAccountInfoByIdToken(idToken2)

        // Any validSince value works: only the presence of the field matters.
        let third = try await api.post(Self.update, ["idToken": idToken2, "validSince": "0"])
        #expect(third.status == 200, "\(third)")
        let idToken3 = try #require(third.string("idToken"))
        try await api.expectIdTokenExpired(user.idToken)
        try await api.expectIdTokenExpired(idToken2)
        _ = try await api.getAccountInfoByIdToken(idToken3)
    }

    @Test("should set tenantId in oobLink")
    func tenantLink() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "allowPasswordSignup": true])
        let tenantId = try #require(tenant["tenantId"] as? String)
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret", tenantId: tenantId)
        let res = try await api.post(Self.update, ["idToken": user.idToken, "email": "bob@example.com", "tenantId": tenantId])
        #expect(res.status == 200, "\(res)")
        let oobs = try await api.inspectOobs(tenantId: tenantId)
        try #require(oobs.count == 1)
        #expect(oobs[0]["email"] as? String == "alice@example.com")
        #expect(oobs[0]["requestType"] as? String == "RECOVER_EMAIL")
        #expect((oobs[0]["oobLink"] as? String)?.contains(tenantId) == true)
    }
}
