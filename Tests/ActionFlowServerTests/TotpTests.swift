import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

/// TOTP second factors. `serve --as production` enrolls and signs in with them as the JS SDK calls
/// production (`api/account_management/mfa.ts:114-165`, `api/authentication/mfa.ts:88-99`), the
/// codes computed here as an authenticator app would; `--as emulator` refuses them as the Auth
/// Emulator does, which knows SMS only (`operations.ts:2060`, `:2234`; firebase-tools #6224).
@Suite("TOTP second factors: production enrolls and signs in with them, the emulator refuses them")
struct TotpTests {
    static let v2 = "/identitytoolkit.googleapis.com/v2"

    @Test("RFC 6238's SHA-1 test vectors, cut to six digits; base32 both ways")
    func codes() {
        let secret = Data("12345678901234567890".utf8)
        #expect(TimeBasedCode.code(secret: secret, at: Date(timeIntervalSince1970: 59)) == "287082")
        #expect(TimeBasedCode.code(secret: secret, at: Date(timeIntervalSince1970: 1_111_111_109)) == "081804")
        #expect(TimeBasedCode.code(secret: secret, at: Date(timeIntervalSince1970: 2_000_000_000)) == "279037")
        #expect(TimeBasedCode.base32(secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(TimeBasedCode.bytes(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == secret)
        #expect(TimeBasedCode.bytes(base32: "not base32!") == nil)
        #expect(TimeBasedCode.accepts("287082", secret: secret, at: Date(timeIntervalSince1970: 59 + 30)), "the step before is accepted")
        #expect(!TimeBasedCode.accepts("287082", secret: secret, at: Date(timeIntervalSince1970: 59 + 90)))
    }

    static func serverNow(_ api: EmulatorSpec) async throws -> Date {
        let clock = try await api.request("GET", "/emulator/v1/projects/\(api.projectId)/clock")
        let millis = try #require(clock["nowMillis"] as? Double)
        return Date(timeIntervalSince1970: millis / 1000)
    }

    @Test("production: start gives a base32 secret, a right code enrolls the factor, a wrong one is refused; sign-in then needs the factor's code")
    func productionEnrollsAndSignsIn() async throws {
        let api = EmulatorSpec(fixture: try await ServeFixture.start(as: .production))
        defer { Task { await api.stop() } }
        let user = try await api.signInWithPassword(email: "alice@example.com", password: "alice-password-1")

        let start = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "totpEnrollmentInfo": [String: Any]()])
        #expect(start.status == 200, "\(start)")
        let session = try #require(start["totpSessionInfo"] as? [String: Any])
        #expect(session["hashingAlgorithm"] as? String == "SHA1")
        #expect(session["verificationCodeLength"] as? Int == 6)
        #expect(session["periodSec"] as? Int == 30)
        let secret = try #require((session["sharedSecretKey"] as? String).flatMap { TimeBasedCode.bytes(base32: $0) })
        #expect(secret.count == 20)
        let sessionInfo = try #require(session["sessionInfo"] as? String)

        let now = try await Self.serverNow(api)
        let wrongCode = TimeBasedCode.code(secret: secret, at: now, step: 5)
        let refused = try await api.post("\(Self.v2)/accounts/mfaEnrollment:finalize", ["idToken": user.idToken, "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": wrongCode]])
        #expect(refused.status == 400)
        #expect(refused.errorMessage == "INVALID_CODE")

        let finalize = try await api.post("\(Self.v2)/accounts/mfaEnrollment:finalize", ["idToken": user.idToken, "displayName": "Authenticator", "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": TimeBasedCode.code(secret: secret, at: now)]])
        #expect(finalize.status == 200, "\(finalize)")

        // The password alone no longer signs in: the factor is named, as a TOTP one.
        let first = try await api.post("\(EmulatorSpec.v1)/accounts:signInWithPassword", ["email": "alice@example.com", "password": "alice-password-1"])
        #expect(first.status == 200)
        #expect(first["idToken"] == nil)
        let pending = try #require(first.string("mfaPendingCredential"))
        let factor = try #require((first["mfaInfo"] as? [[String: Any]])?.first)
        #expect(factor["totpInfo"] is [String: Any])
        #expect(factor["phoneInfo"] == nil)
        let enrollmentId = try #require(factor["mfaEnrollmentId"] as? String)

        let noStart = try await api.post("\(Self.v2)/accounts/mfaSignIn:start", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId])
        #expect(noStart.status == 400, "TOTP sign-in has no start phase")

        let wrong = try await api.post("\(Self.v2)/accounts/mfaSignIn:finalize", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "totpVerificationInfo": ["verificationCode": wrongCode]])
        #expect(wrong.errorMessage == "INVALID_CODE")
        let signedIn = try await api.post("\(Self.v2)/accounts/mfaSignIn:finalize", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "totpVerificationInfo": ["verificationCode": TimeBasedCode.code(secret: secret, at: try await Self.serverNow(api))]])
        #expect(signedIn.status == 200, "\(signedIn)")
        #expect(MfaSpecPortTests.firebaseClaims(signedIn.string("idToken"))["second_factor_identifier"] as? String == enrollmentId)
    }

    @Test("production: a begun enrollment ends after its deadline")
    func enrollmentDeadline() async throws {
        let api = EmulatorSpec(fixture: try await ServeFixture.start(as: .production))
        defer { Task { await api.stop() } }
        let user = try await api.signInWithPassword(email: "alice@example.com", password: "alice-password-1")
        let start = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "totpEnrollmentInfo": [String: Any]()])
        let session = try #require(start["totpSessionInfo"] as? [String: Any])
        let secret = try #require((session["sharedSecretKey"] as? String).flatMap { TimeBasedCode.bytes(base32: $0) })
        let advanced = try await api.post("/emulator/v1/projects/\(api.projectId)/clock", ["advanceSeconds": 600], key: false)
        #expect(advanced.status == 200, "\(advanced)")
        let late = try await api.post("\(Self.v2)/accounts/mfaEnrollment:finalize", ["idToken": user.idToken, "totpVerificationInfo": ["sessionInfo": session["sessionInfo"] as? String ?? "", "verificationCode": TimeBasedCode.code(secret: secret, at: try await Self.serverNow(api))]])
        #expect(late.errorMessage == "INVALID_SESSION_INFO", "\(late)")
    }

    @Test("the emulator knows SMS only: a TOTP enrollment gets its Missing phoneEnrollmentInfo, a TOTP sign-in its MFA provider not supported!")
    func emulatorRefuses() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "totp@example.com", password: "testing")
        try await api.updateAccountByLocalId(user.localId, ["emailVerified": true])
        let start = try await api.post("\(Self.v2)/accounts/mfaEnrollment:start", ["idToken": user.idToken, "totpEnrollmentInfo": [String: Any]()])
        #expect(start.status == 400)
        #expect(start.errorMessage == "INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))")
        let finalize = try await api.post("\(Self.v2)/accounts/mfaSignIn:finalize", ["mfaPendingCredential": "x", "mfaEnrollmentId": "y", "totpVerificationInfo": ["verificationCode": "123456"]])
        #expect(finalize.errorMessage == "INVALID_ARGUMENT : MFA provider not supported!")
    }
}
