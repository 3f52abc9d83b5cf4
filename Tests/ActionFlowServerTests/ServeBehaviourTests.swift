import ActionFlowBackend
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Testing

/// `serve --as emulator|production` on loopback: what both behaviours share with the Auth
/// Emulator (status JSON, CORS, token refresh, REST mapping, the oobCodes listing, config) and
/// what the emulator behaviour drops (preset users, the simulated clock, domain checks, expiry).
@Suite("serve --as emulator|production: the Auth Emulator's surface")
struct ServeBehaviourTests {
    static let v1 = EmulatorSpec.v1
    static let behaviours: [ServeBehaviour] = [.emulator, .production]

    static func start(_ behaviour: ServeBehaviour) async throws -> EmulatorSpec {
        EmulatorSpec(fixture: try await ServeFixture.start(as: behaviour))
    }

    @Test("GET / answers the emulator's status JSON and says which behaviour is on", arguments: behaviours)
    func status(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let res = try await api.request("GET", "/")
        #expect(res.status == 200)
        #expect(res.headers["content-type"]?.hasPrefix("application/json") == true)
        let emulator = try #require(res["authEmulator"] as? [String: Any])
        #expect(emulator["ready"] as? Bool == true)
        #expect(emulator["docs"] as? String == "https://firebase.google.com/docs/emulator-suite")
        #expect(emulator["apiSpec"] as? String == "/emulator/openapi.json")
        #expect((res["actionflow"] as? [String: Any])?["behaviour"] as? String == behaviour.rawValue)
        let mailbox = try await api.request("GET", "/mailbox")
        #expect(mailbox.status == 200)
        #expect(mailbox.body.contains("<table>"))
    }

    @Test("unknown paths and methods answer the emulator's 404 body", arguments: behaviours)
    func notFound(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        for (method, path) in [("GET", "/nowhere"), ("GET", "\(Self.v1)/accounts:signUp"), ("POST", "\(Self.v1)/accounts:teleport")] {
            let res = try await api.request(method, path, headers: ["Origin": "http://app.test"])
            #expect(res.status == 404)
            #expect(res.error?["code"] as? Int == 404)
            #expect(res.errorMessage == "Not Found")
            #expect(res.error?["status"] as? String == "NOT_FOUND")
            #expect((res.error?["errors"] as? [[String: String]]) == [["message": "Not Found", "reason": "notFound"]])
            #expect(res.headers["access-control-allow-origin"] == "http://app.test")
        }
    }

    @Test("CORS on every response: the Origin reflected with Vary, preflights 204 for any path", arguments: behaviours)
    func cors(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let origin = "http://localhost:5173"
        let signUp = try await api.post("\(Self.v1)/accounts:signUp", ["email": "web@example.com", "password": "web-password"], headers: ["Origin": origin])
        #expect(signUp.status == 200, "\(signUp)")
        #expect(signUp.headers["access-control-allow-origin"] == origin)
        #expect(signUp.headers["vary"]?.contains("Origin") == true)
        #expect(signUp.headers["access-control-allow-credentials"] == nil, "cors({origin: true}) sends no credentials header")

        let failed = try await api.post("\(Self.v1)/accounts:signInWithPassword", ["email": "web@example.com", "password": "wrong-password"], headers: ["Origin": origin])
        #expect(failed.status == 400)
        #expect(failed.headers["access-control-allow-origin"] == origin, "a browser must be able to read the error")

        let preflight = try await api.request("OPTIONS", "\(Self.v1)/accounts:sendOobCode?key=fake-api-key", headers: [
            "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-client-version,x-firebase-gmpid",
        ])
        #expect(preflight.status == 204)
        #expect(preflight.body.isEmpty)
        #expect(preflight.headers["access-control-allow-origin"] == origin)
        #expect(preflight.headers["access-control-allow-methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(preflight.headers["access-control-allow-headers"] == "content-type,x-client-version,x-firebase-gmpid")
        #expect(preflight.headers["access-control-allow-private-network"] == nil, "only when asked for")
        let noOrigin = try await api.request("GET", "/")
        #expect(noOrigin.headers["access-control-allow-origin"] == nil)
    }

    @Test("emulator behaviour: no preset users, any email link without a continue URL, no domain check, codes never expire")
    func emulatorDropsProductionChecks() async throws {
        let api = try await Self.start(.emulator)
        defer { Task { await api.stop() } }
        let presets = try await api.post("\(Self.v1)/accounts:signInWithPassword", ["email": "alice@example.com", "password": "alice-password-1"])
        #expect(presets.errorMessage == "EMAIL_NOT_FOUND")
        let noContinue = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "dave@example.com", "requestType": "EMAIL_SIGNIN"])
        #expect(noContinue.status == 200, "\(noContinue)")
        let anyDomain = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "dave@example.com", "requestType": "EMAIL_SIGNIN", "continueUrl": "https://evil.example.net/x", "canHandleCodeInApp": true])
        #expect(anyDomain.status == 200, "\(anyDomain)")
        for _ in 0..<8 {
            #expect(try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "dave@example.com", "requestType": "EMAIL_SIGNIN"]).status == 200, "no rate limit")
        }
        let oobs = try await api.inspectOobs()
        #expect(oobs.count == 10)
        #expect(oobs.allSatisfy { ($0["oobLink"] as? String)?.hasPrefix("\(api.fixture.origin)/emulator/action?mode=signIn&lang=en&oobCode=") == true })
        // The simulated clock is the wall clock here: advancing it a week expires nothing.
        _ = try await api.request("POST", "/emulator/v1/projects/\(api.projectId)/clock", json: ["advanceSeconds": 7 * 86_400])
        let code = try #require(oobs.last?["oobCode"] as? String)
        let signedIn = try await api.post("\(Self.v1)/accounts:signInWithEmailLink", ["email": "dave@example.com", "oobCode": code])
        #expect(signedIn.status == 200, "\(signedIn)")
        // An unknown type is the emulator's 501.
        let recover = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "dave@example.com", "requestType": "RECOVER_EMAIL"])
        #expect(recover.status == 501)
        #expect(recover.errorMessage == "RECOVER_EMAIL")
        #expect(recover.error?["status"] as? String == "NOT_IMPLEMENTED")
        // returnOobLink from a client is the emulator's INSUFFICIENT_PERMISSION, HTTP 400.
        let notAdmin = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "dave@example.com", "requestType": "EMAIL_SIGNIN", "returnOobLink": true])
        #expect(notAdmin.status == 400)
        #expect(notAdmin.errorMessage == "INSUFFICIENT_PERMISSION")
        // INVALID_CONTINUE_URI comes before the recipient checks.
        let order = try await api.post("\(Self.v1)/accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "continueUrl": "nope"])
        #expect(order.errorMessage == "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
    }

    @Test("a form body on an Identity Toolkit method: the emulator refuses its content type before anything else, as its OpenAPI routing does; production reads the form")
    func formBodies() async throws {
        let fields = ["requestType": "PASSWORD_RESET", "email": "alice@example.com"]
        let emulator = try await Self.start(.emulator)
        let refused = try await emulator.request("POST", "\(Self.v1)/accounts:sendOobCode", query: ["key": "fake-api-key"], form: fields, headers: ["Origin": "http://app.test"])
        await emulator.stop()
        #expect(refused.status == 400)
        #expect(refused.errorMessage == "Invalid content-type: application/x-www-form-urlencoded")
        #expect((refused.error?["errors"] as? [[String: String]]) == [["message": "Invalid content-type: application/x-www-form-urlencoded", "reason": "unknown"]])
        #expect(refused.error?["status"] == nil, "the emulator's BadRequestError has no status name")
        #expect(refused.headers["access-control-allow-origin"] == "http://app.test")
        let withoutKey = try await Self.start(.emulator)
        let first = try await withoutKey.request("POST", "\(Self.v1)/accounts:sendOobCode", form: fields)
        await withoutKey.stop()
        #expect(first.errorMessage == "Invalid content-type: application/x-www-form-urlencoded", "checked before the API key")
        let production = try await Self.start(.production)
        let read = try await production.request("POST", "\(Self.v1)/accounts:sendOobCode", query: ["key": "fake-api-key"], form: fields)
        // Android's integer type arrives in a form as text, like every field there.
        let numbered = try await production.request("POST", "\(Self.v1)/accounts:sendOobCode", query: ["key": "fake-api-key"], form: ["requestType": "1", "email": "alice@example.com"])
        await production.stop()
        #expect(read.status == 200, "\(read)")
        #expect(numbered.status == 200, "\(numbered)")
    }

    @Test("ID tokens: the emulator's claims, unsigned, iat and exp valid against the wall clock", arguments: behaviours)
    func tokens(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "tok@example.com", password: "token-password", displayName: "Tok")
        let decoded = try #require(EmulatorSpec.decodeJWT(user.idToken))
        #expect(decoded.header["alg"] as? String == "none")
        #expect(user.idToken.hasSuffix("."))
        let claims = decoded.payload
        let now = Int(Date().timeIntervalSince1970)
        let iat = try #require(claims["iat"] as? Int)
        let exp = try #require(claims["exp"] as? Int)
        #expect(iat <= now + 1)
        #expect(exp > now + 3000)
        #expect(claims["iss"] as? String == "https://securetoken.google.com/\(api.projectId)")
        #expect(claims["aud"] as? String == api.projectId)
        #expect(claims["sub"] as? String == user.localId)
        #expect(claims["user_id"] as? String == user.localId)
        #expect(claims["email"] as? String == "tok@example.com")
        #expect(claims["email_verified"] as? Bool == false)
        #expect(claims["name"] as? String == "Tok")
        let firebase = try #require(claims["firebase"] as? [String: Any])
        #expect(firebase["sign_in_provider"] as? String == "password")
        #expect((firebase["identities"] as? [String: [String]])?["email"] == ["tok@example.com"])
        if behaviour == .emulator {
            #expect(abs(iat - now) <= 2, "the emulator runs on the wall clock")
        }
        // Any well-formed unsigned token of an existing user is accepted.
        let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
        let body = try JSONSerialization.data(withJSONObject: ["user_id": user.localId, "sub": user.localId, "iat": now + 5, "firebase": ["sign_in_provider": "password"]]).base64EncodedString()
        let crafted = "\(header).\(body)."
        let looked = try await api.getAccountInfoByIdToken(crafted)
        #expect(looked["email"] as? String == "tok@example.com")
    }

    @Test("token refresh after verifying: the new ID token says email_verified", arguments: behaviours)
    func refreshAfterVerify(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "verify@example.com", password: "verify-password")
        _ = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": user.idToken, "requestType": "VERIFY_EMAIL"])
        let code = try #require(try await api.inspectOobs().first?["oobCode"] as? String)
        #expect(try await api.post("\(Self.v1)/accounts:update", ["oobCode": code]).status == 200)
        #expect(try await api.inspectOobs().isEmpty, "used codes leave the listing")
        for body in [["grant_type": "refresh_token", "refresh_token": user.refreshToken]] {
            let form = try await api.request("POST", "/securetoken.googleapis.com/v1/token", query: ["key": "fake-api-key"], form: body)
            let json = try await api.request("POST", "/securetoken.googleapis.com/v1/token", query: ["key": "fake-api-key"], json: body)
            for res in [form, json] {
                #expect(res.status == 200, "\(res)")
                let token = try #require(res.string("id_token"))
                #expect(EmulatorSpec.decodeJWT(token)?.payload["email_verified"] as? Bool == true)
                #expect(res.string("user_id") == user.localId)
            }
        }
    }

    @Test("Android requests: snake_case keys, integer enums, numbers as strings, androidMinimumVersionCode", arguments: behaviours)
    func android(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", [
            "request_type": 6, "email": "droid@example.com", "continue_url": "https://www.example.com/finish",
            "can_handle_code_in_app": true, "android_package_name": "com.example.android", "android_install_app": true,
            "android_minimum_version": 12, "client_type": 2,
        ])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("email") == "droid@example.com")
        let oob = try #require(try await api.inspectOobs().first)
        #expect(oob["requestType"] as? String == "EMAIL_SIGNIN")
        if behaviour == .production {
            // Read like androidMinimumVersion: without a package name it is refused.
            let code = try await api.post("\(Self.v1)/accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "alice@example.com", "androidMinimumVersionCode": "12"])
            #expect(code.errorMessage?.hasPrefix("MISSING_ANDROID_PACKAGE_NAME") == true)
        }
    }

    @Test("oobCodes: pending only, admin codes included, newEmail for changes; DELETE oobCodes empties it", arguments: behaviours)
    func oobCodes(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "list@example.com", password: "list-password")
        let admin = try await api.post("\(Self.v1)/accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "list@example.com", "returnOobLink": true], owner: true)
        #expect(admin.status == 200, "\(admin)")
        _ = try await api.post("\(Self.v1)/accounts:sendOobCode", ["idToken": user.idToken, "requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "list2@example.com"])
        let listed = try await api.inspectOobs()
        #expect(listed.map { $0["requestType"] as? String } == ["PASSWORD_RESET", "VERIFY_AND_CHANGE_EMAIL"])
        #expect(listed[0]["oobCode"] as? String == admin.string("oobCode"))
        #expect(listed[1]["email"] as? String == "list@example.com")
        #expect(listed[1]["newEmail"] as? String == "list2@example.com")
        let deleted = try await api.request("DELETE", "/emulator/v1/projects/\(api.projectId)/oobCodes")
        #expect(deleted.status == 200)
        #expect(try await api.inspectOobs().isEmpty)
        let used = try await api.post("\(Self.v1)/accounts:resetPassword", ["oobCode": admin.string("oobCode") ?? "", "newPassword": "whatever-1"])
        #expect(used.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
    }

    @Test("emulator config toggles enumeration protection: INVALID_LOGIN_CREDENTIALS, silent resets, createAuthUri says nothing", arguments: behaviours)
    func improvedPrivacy(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "priv@example.com", password: "priv-password")
        #expect(try await api.getSigninMethods("priv@example.com") == ["password"])
        try await api.updateProjectConfig(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
        let config = try await api.request("GET", "/emulator/v1/projects/\(api.projectId)/config")
        #expect((config["emailPrivacyConfig"] as? [String: Bool])?["enableImprovedEmailPrivacy"] == true)
        let wrong = try await api.post("\(Self.v1)/accounts:signInWithPassword", ["email": "priv@example.com", "password": "nope-nope"])
        #expect(wrong.errorMessage == "INVALID_LOGIN_CREDENTIALS")
        let unknown = try await api.post("\(Self.v1)/accounts:signInWithPassword", ["email": "nobody@example.com", "password": "nope-nope"])
        #expect(unknown.errorMessage == "INVALID_LOGIN_CREDENTIALS")
        let silent = try await api.post("\(Self.v1)/accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"])
        #expect(silent.status == 200)
        #expect(try await api.inspectOobs().isEmpty)
        #expect(try await api.getSigninMethods("priv@example.com") == nil)
    }

    @Test("accounts: anonymous sign-up then upgrade, admin sign-up with localId, delete, query", arguments: behaviours)
    func accounts(_ behaviour: ServeBehaviour) async throws {
        let api = try await Self.start(behaviour)
        defer { Task { await api.stop() } }
        let anonymous = try await api.registerAnonUser()
        let anonClaims = try #require(EmulatorSpec.decodeJWT(anonymous.idToken)?.payload)
        #expect(anonClaims["provider_id"] as? String == "anonymous")
        let upgraded = try await api.post("\(Self.v1)/accounts:update", ["idToken": anonymous.idToken, "email": "up@example.com", "password": "up-password", "returnSecureToken": true])
        #expect(upgraded.status == 200, "\(upgraded)")
        #expect(upgraded.string("localId") == anonymous.localId)
        let signedIn = try await api.signInWithPassword(email: "up@example.com", password: "up-password")
        #expect(signedIn.localId == anonymous.localId)

        let created = try await api.post("\(Self.v1)/projects/\(api.projectId)/accounts", ["localId": "admin-made-1", "email": "made@example.com"], owner: true)
        #expect(created.status == 200, "\(created)")
        #expect(created.string("localId") == "admin-made-1")
        #expect(created["idToken"] == nil)
        let info = try await api.getAccountInfoByLocalId("admin-made-1")
        #expect(info["email"] as? String == "made@example.com")
        #expect(info["passwordHash"] == nil)
        let withPassword = try await api.getAccountInfoByLocalId(anonymous.localId)
        #expect((withPassword["passwordHash"] as? String)?.hasSuffix(":password=up-password") == true)
        #expect((withPassword["providerUserInfo"] as? [[String: Any]])?.first?["providerId"] as? String == "password")

        let query = try await api.post("\(Self.v1)/projects/\(api.projectId)/accounts:query", [:], owner: true)
        #expect(query.status == 200, "\(query)")
        let count = behaviour == .emulator ? 2 : 5
        #expect(query.string("recordsCount") == String(count))
        #expect((query["userInfo"] as? [[String: Any]])?.count == count)

        let deleted = try await api.post("\(Self.v1)/accounts:delete", ["idToken": signedIn.idToken])
        #expect(deleted.status == 200, "\(deleted)")
        #expect(deleted.string("kind") == "identitytoolkit#DeleteAccountResponse")
        try await api.expectUserNotExistsForIdToken(signedIn.idToken)
        let legacy = try await api.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/deleteAccount", ["localId": "admin-made-1"], owner: true)
        #expect(legacy.status == 200, "\(legacy)")
    }

    @Test("PUT config reads clockStart as ISO 8601 (or milliseconds), never as seconds since 2001")
    func putConfigDates() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let encoder = WireDates.encoder()
        var configuration = fixture.configuration
        configuration.clockStart = Date(timeIntervalSince1970: 1_800_000_000)
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(configuration)) as? [String: Any])
        #expect(object["clockStart"] as? String == "2027-01-15T08:00:00Z")
        let put = try await fixture.http("PUT", "/emulator/v1/projects/demo-actionflow/config", body: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self), headers: ["Content-Type": "application/json"])
        #expect(put.status == 200, "\(put.body)")
        #expect(try JSONDecoder().decode(EmulatorClockState.self, from: Data(put.body.utf8)).date == configuration.clockStart)
        object["clockStart"] = "1800000000000"
        let millis = try await fixture.http("PUT", "/emulator/v1/projects/demo-actionflow/config", body: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        #expect(try JSONDecoder().decode(EmulatorClockState.self, from: Data(millis.body.utf8)).date == configuration.clockStart)
        object["clockStart"] = 1_800_000_000_000
        let number = try await fixture.http("PUT", "/emulator/v1/projects/demo-actionflow/config", body: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        #expect(try JSONDecoder().decode(EmulatorClockState.self, from: Data(number.body.utf8)).date == configuration.clockStart)
        // The REST transport sends ISO 8601 too.
        #expect(try await fixture.rest.applyProject(configuration) == configuration.clockStart)
    }

    @Test("numbers far past the clock's range are refused or taken as the emulator takes them, and serve keeps answering")
    func farNumbers() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let project = "/emulator/v1/projects/demo-actionflow"
        let owner = ["Authorization": "Bearer owner"]
        var object = try #require(try JSONSerialization.jsonObject(with: WireDates.encoder().encode(fixture.configuration)) as? [String: Any])
        object["clockStart"] = 1e300
        let config = try await fixture.http("PUT", "\(project)/config", body: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        #expect(config.status == 400)
        #expect(config.body.contains("clockStart: expected a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"), "\(config.body)")
        let advanced = try await fixture.http("POST", "\(project)/clock", body: #"{"advanceSeconds":1e300}"#)
        #expect(advanced.status == 400)
        #expect(advanced.body.contains("the simulated clock stops at 9999-12-31T23:59:59Z"), "\(advanced.body)")
        // batchGet's maxResults is `Math.min(Math.floor(n) || 20, 1000)` (operations.ts:568).
        let listed = try await fixture.http("GET", "/identitytoolkit.googleapis.com/v1/projects/demo-actionflow/accounts:batchGet?maxResults=1e300", headers: owner)
        #expect(listed.status == 200, "\(listed.body)")
        let signedUp = try await fixture.rest.signUp(SignUpRequest(email: "far@example.com", password: "far-password"))
        let update = #"{"localId":"\#(signedUp.localId)","validSince":"1e300"}"#
        let revoked = try await fixture.http("POST", "/identitytoolkit.googleapis.com/v1/projects/demo-actionflow/accounts:update", body: update, headers: owner)
        #expect(revoked.status == 200, "\(revoked.body)")
        let signedIn = try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "far@example.com", password: "far-password"))
        #expect(signedIn.localId == signedUp.localId)
    }
}
