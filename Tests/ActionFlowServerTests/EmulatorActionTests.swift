import Foundation
import Testing

/// `GET /emulator/action`, which has no spec tests upstream: written from firebase-tools'
/// `handlers.ts`, against `serve --as emulator` on loopback, following the links the emulator
/// hands out.
@Suite("serve --as emulator: /emulator/action as handlers.ts answers it")
struct EmulatorActionTests {
    static let v1 = EmulatorSpec.v1

    /// The path and query of an emulator link, to request on this server.
    static func local(_ link: String) throws -> String {
        let components = try #require(URLComponents(string: link))
        return components.path + "?" + (components.percentEncodedQuery ?? "")
    }

    static func authEmulator(_ answer: EmulatorSpec.Answer) -> [String: String] {
        (answer["authEmulator"] as? [String: String]) ?? [:]
    }

    @Test("links are http://HOST:PORT/emulator/action?mode&lang=en&oobCode&apiKey=fake-api-key&continueUrl, for this server")
    func linkShape() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "Alice@Example.com", "requestType": "PASSWORD_RESET", "returnOobLink": true, "continueUrl": "https://app.test/done?x=1"], owner: true)
        let link = try #require(res.string("oobLink"))
        let code = try #require(res.string("oobCode"))
        #expect(link == "\(api.fixture.origin)/emulator/action?mode=resetPassword&lang=en&oobCode=\(code)&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fapp.test%2Fdone%3Fx%3D1")
        #expect(res.string("email") == "alice@example.com", "the emulator lowercases addresses")
        #expect(code.count == 54)
    }

    @Test("apiKey and oobCode are required; an unknown mode is refused")
    func requiredParameters() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let noKey = try await api.request("GET", "/emulator/action?mode=verifyEmail&oobCode=x")
        #expect(noKey.status == 400)
        #expect(Self.authEmulator(noKey)["error"] == "missing apiKey query parameter")
        let noCode = try await api.request("GET", "/emulator/action?mode=verifyEmail&apiKey=k")
        #expect(noCode.status == 400)
        #expect(Self.authEmulator(noCode)["error"] == "missing oobCode query parameter")
        let badMode = try await api.request("GET", "/emulator/action?mode=dance&apiKey=k&oobCode=x")
        #expect(badMode.status == 400)
        #expect(Self.authEmulator(badMode)["error"] == "Invalid mode")
    }

    @Test("resetPassword: asks for newPassword, refuses the placeholder, applies it, then 303 to continueUrl; a used link is refused")
    func resetPassword() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        _ = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": "PASSWORD_RESET", "continueUrl": "https://app.test/after-reset"])
        let link = try #require(try await api.inspectOobs().first?["oobLink"] as? String)

        let ask = try await api.request("GET", try Self.local(link))
        #expect(ask.status == 400)
        #expect(Self.authEmulator(ask)["error"] == "missing newPassword query parameter")
        #expect(Self.authEmulator(ask)["instructions"] == "To reset the password for alice@example.com, send an HTTP GET request to the following URL.")
        #expect(Self.authEmulator(ask)["urlTemplate"] == link + "&newPassword=NEW_PASSWORD_HERE")

        let placeholder = try await api.request("GET", try Self.local(link) + "&newPassword=NEW_PASSWORD_HERE")
        #expect(placeholder.status == 400)
        #expect(Self.authEmulator(placeholder)["error"] == "newPassword must be something other than 'NEW_PASSWORD_HERE'")

        let applied = try await api.request("GET", try Self.local(link) + "&newPassword=brand-new-secret")
        #expect(applied.status == 303)
        #expect(applied.headers["location"] == "https://app.test/after-reset")
        _ = try await api.signInWithPassword(email: "alice@example.com", password: "brand-new-secret")

        let used = try await api.request("GET", try Self.local(link) + "&newPassword=another-secret")
        #expect(used.status == 400)
        #expect(Self.authEmulator(used)["error"] == "Your request to reset your password has expired or the link has already been used.")
    }

    @Test("resetPassword without continueUrl answers JSON; a weak password is the API's error")
    func resetPasswordJSON() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": "PASSWORD_RESET", "returnOobLink": true], owner: true)
        let link = try Self.local(try #require(res.string("oobLink")))
        let weak = try await api.request("GET", link + "&newPassword=123")
        #expect(weak.status == 400)
        #expect(weak.errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
        let done = try await api.request("GET", link + "&newPassword=brand-new-secret")
        #expect(done.status == 200)
        #expect(Self.authEmulator(done) == ["success": "The password has been successfully updated.", "email": "alice@example.com"])
    }

    @Test("verifyEmail applies the code then 303s to continueUrl; verifyAndChangeEmail answers the new address; used links are refused")
    func verifyAndChange() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        _ = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": user.idToken, "requestType": "VERIFY_EMAIL", "continueUrl": "https://app.test/verified"])
        let verifyLink = try #require(try await api.inspectOobs().first?["oobLink"] as? String)
        let verified = try await api.request("GET", try Self.local(verifyLink))
        #expect(verified.status == 303)
        #expect(verified.headers["location"] == "https://app.test/verified")
        #expect(try await api.getAccountInfoByIdToken(user.idToken)["emailVerified"] as? Bool == true)
        let again = try await api.request("GET", try Self.local(verifyLink))
        #expect(again.status == 400)
        #expect(Self.authEmulator(again)["error"] == "Your request to verify your email has expired or the link has already been used.")

        _ = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": user.idToken, "requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "alice2@example.com"])
        let change = try #require(try await api.inspectOobs().first { $0["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL" })
        #expect(change["email"] as? String == "alice@example.com")
        #expect(change["newEmail"] as? String == "alice2@example.com")
        let changed = try await api.request("GET", try Self.local(try #require(change["oobLink"] as? String)))
        #expect(changed.status == 200)
        #expect(Self.authEmulator(changed) == ["success": "The email has been successfully changed.", "newEmail": "alice2@example.com"])
    }

    @Test("signIn does not use the code: 303 to continueUrl with the link's parameters; 400 without continueUrl")
    func signIn() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "dave@example.com", "requestType": "EMAIL_SIGNIN", "continueUrl": "https://app.test/finish?cart=7"])
        let oob = try #require(try await api.inspectOobs().first)
        let link = try #require(oob["oobLink"] as? String)
        let code = try #require(oob["oobCode"] as? String)
        let redirected = try await api.request("GET", try Self.local(link))
        #expect(redirected.status == 303)
        #expect(redirected.headers["location"] == "https://app.test/finish?cart=7&mode=signIn&lang=en&oobCode=\(code)&apiKey=fake-api-key")
        #expect(try await api.inspectOobs().count == 1, "the code is still pending: the app signs in with it")

        let withoutContinue = try await api.request("GET", "/emulator/action?mode=signIn&oobCode=\(code)&apiKey=fake-api-key")
        #expect(withoutContinue.status == 400)
        #expect(Self.authEmulator(withoutContinue)["error"] == "Missing continueUrl query parameter")
    }

    @Test("recoverEmail: a user's email change sends RECOVER_EMAIL to the first address; the link restores it")
    func recoverEmail() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let updated = try await api.post("\(Self.v1)/accounts:update", ["idToken": user.idToken, "email": "alice.new@example.com"])
        #expect(updated.status == 200, "\(updated)")
        let recover = try #require(try await api.inspectOobs().first { $0["requestType"] as? String == "RECOVER_EMAIL" })
        #expect(recover["email"] as? String == "alice@example.com")
        #expect(recover["newEmail"] == nil)
        let link = try #require(recover["oobLink"] as? String)
        let restored = try await api.request("GET", try Self.local(link))
        #expect(restored.status == 200)
        #expect(Self.authEmulator(restored) == ["success": "The email has been successfully reset.", "email": "alice@example.com"])
        let used = try await api.request("GET", try Self.local(link))
        #expect(used.status == 400)
        #expect(Self.authEmulator(used)["error"] == "Requested mode does not match the OOB code provided.")
    }
}
