import Foundation
import Testing

/// firebase-tools `src/emulator/auth/password.spec.ts` ("Auth Emulator: accounts:signInWithPassword"),
/// the cases without MFA or blocking functions, improved email privacy included, against
/// `serve --as emulator` on loopback.
@Suite("Auth Emulator spec port: accounts:signInWithPassword (password.spec.ts)")
struct PasswordSpecPortTests {
    static let signIn = "\(EmulatorSpec.v1)/accounts:signInWithPassword"

    static func enablePrivacy(_ api: EmulatorSpec) async throws {
        try await api.updateConfig(api.projectId, ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]], updateMask: "emailPrivacyConfig")
    }

    @Test("should issue tokens when email and password are valid")
    func issuesTokens() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post(Self.signIn, ["email": "alice@example.com", "password": "notasecret"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("localId") == user.localId)
        #expect(res.string("email") == "alice@example.com")
        #expect(res["registered"] as? Bool == true)
        #expect(res.string("refreshToken") != nil)
        let decoded = try #require(EmulatorSpec.decodeJWT(res.string("idToken") ?? ""), "JWT returned by emulator is invalid")
        #expect(decoded.header["alg"] as? String == "none")
        #expect(decoded.payload["user_id"] as? String == user.localId)
        #expect(decoded.payload["provider_id"] == nil)
        #expect((decoded.payload["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
    }

    @Test("should update lastLoginAt on successful login")
    func lastLoginAt() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let registering = Int(Date().timeIntervalSince1970 * 1000)
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let before = Int(try await api.getAccountInfoByLocalId(user.localId)["lastLoginAt"] as? String ?? "") ?? 0
        // The spec reads a frozen fake clock; on the wall clock, lastLoginAt is the moment of the
        // sign-up (between these two readings, however slow the machine), and moves.
        #expect((registering...Int(Date().timeIntervalSince1970 * 1000)).contains(before))
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await api.post(Self.signIn, ["email": "alice@example.com", "password": "notasecret"]).status == 200)
        let after = Int(try await api.getAccountInfoByLocalId(user.localId)["lastLoginAt"] as? String ?? "") ?? 0
        #expect(after > before)
    }

    @Test("should validate email address ignoring case")
    func ignoresCase() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post(Self.signIn, ["email": "AlIcE@exAMPle.COM", "password": "notasecret"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("localId") == user.localId)
    }

    @Test("should error if email or password is missing")
    func missingFields() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let noEmail = try await api.post(Self.signIn, ["password": "notasecret"])
        #expect(noEmail.status == 400)
        #expect(noEmail.errorMessage == "MISSING_EMAIL")
        let noPassword = try await api.post(Self.signIn, ["email": "nosuchuser@example.com"])
        #expect(noPassword.status == 400)
        #expect(noPassword.errorMessage == "MISSING_PASSWORD")
    }

    @Test("should error if email is invalid")
    func invalidEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for email in ["ill-formatted-email", ""] {
            let res = try await api.post(Self.signIn, ["email": email, "password": "notasecret"])
            #expect(res.status == 400)
            #expect(res.errorMessage == "INVALID_EMAIL")
        }
    }

    @Test("should error if email is not found")
    func notFound() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post(Self.signIn, ["email": "nosuchuser@example.com", "password": "notasecret"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "EMAIL_NOT_FOUND")
    }

    @Test("should error if email is not found with improved email privacy enabled")
    func notFoundPrivate() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await Self.enablePrivacy(api)
        let res = try await api.post(Self.signIn, ["email": "nosuchuser@example.com", "password": "notasecret"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_LOGIN_CREDENTIALS")
    }

    @Test("should error if password is wrong")
    func wrongPassword() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        // Passwords are case sensitive.
        let res = try await api.post(Self.signIn, ["email": "alice@example.com", "password": "NOTASECRET"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_PASSWORD")
    }

    @Test("should error if password is wrong with improved email privacy enabled")
    func wrongPasswordPrivate() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await Self.enablePrivacy(api)
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post(Self.signIn, ["email": "alice@example.com", "password": "NOTASECRET"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_LOGIN_CREDENTIALS")
    }

    @Test("should error if user is disabled")
    func disabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        try await api.updateAccountByLocalId(user.localId, ["disableUser": true])
        let res = try await api.post(Self.signIn, ["email": "alice@example.com", "password": "notasecret"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_DISABLED")
    }

    @Test("should error if auth is disabled")
    func authDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses(Self.signIn, settings: ["disableAuth": true], message: "PROJECT_DISABLED")
    }

    @Test("should error if password sign up is disabled")
    func passwordSignUpDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        try await api.expectTenantRefuses(Self.signIn, settings: ["disableAuth": false, "allowPasswordSignup": false], message: "PASSWORD_LOGIN_DISABLED")
    }
}
