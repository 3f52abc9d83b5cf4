import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Testing

@Suite("serve: the Auth Emulator's HTTP surface")
struct EmulatorSurfaceTests {
    static let v1 = "/identitytoolkit.googleapis.com/v1"
    static let admin = ["Authorization": "Bearer owner", "Content-Type": "application/json"]

    @Test("admin paths: create a user, generate a reset link with returnOobLink, look the user up")
    func adminPaths() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let base = "\(Self.v1)/projects/demo-actionflow"

        let created = try await fixture.http("POST", "\(base)/accounts", body: #"{"email":"frank@example.com","password":"frank-password"}"#, headers: Self.admin)
        #expect(created.status == 200)
        let localId = try JSONDecoder().decode(SignInResponse.self, from: Data(created.body.utf8)).localId

        let link = try await fixture.http("POST", "\(base)/accounts:sendOobCode", body: #"{"requestType":"PASSWORD_RESET","email":"frank@example.com","returnOobLink":true,"continueUrl":"https://www.example.com/after"}"#, headers: Self.admin)
        #expect(link.status == 200)
        let response = try JSONDecoder().decode(SendOobCodeResponse.self, from: Data(link.body.utf8))
        let code = try #require(response.oobCode)
        #expect(try #require(response.oobLink).contains("oobCode%3D\(code)") || response.oobLink?.contains("oobCode=\(code)") == true)
        #expect(try await fixture.rest.mailbox().isEmpty, "admin links are returned, not mailed")

        let lookup = try await fixture.http("POST", "\(base)/accounts:lookup", body: #"{"localId":["\#(localId)"]}"#, headers: Self.admin)
        let users = try JSONDecoder().decode(LookupResponse.self, from: Data(lookup.body.utf8)).users
        #expect(users?.first?.email == "frank@example.com")

        // The returned code works for a client.
        let checked = try await fixture.rest.resetPassword(ResetPasswordRequest(oobCode: code))
        #expect(checked.email == "frank@example.com")
    }

    @Test("admin paths refuse callers without 'Bearer owner', and returnOobLink needs it on client paths too")
    func adminAuthorization() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let body = #"{"requestType":"PASSWORD_RESET","email":"alice@example.com","returnOobLink":true}"#
        let keyless = try await fixture.http("POST", "\(Self.v1)/projects/demo-actionflow/accounts:sendOobCode", body: body)
        #expect(keyless.status == 403, "no credential at all: production's missing API key")
        let scoped = try await fixture.http("POST", "\(Self.v1)/projects/demo-actionflow/accounts:sendOobCode?key=k", body: body)
        #expect(scoped.status == 401)
        #expect(ServeFixture.errorMessage(scoped.body)?.hasPrefix("UNAUTHENTICATED") == true)
        let client = try await fixture.http("POST", "\(Self.v1)/accounts:sendOobCode?key=k", body: body)
        #expect(client.status == 403)
        #expect(ServeFixture.errorMessage(client.body) == "INSUFFICIENT_PERMISSION")
        let lookup = try await fixture.http("POST", "\(Self.v1)/accounts:lookup?key=k", body: #"{"email":["alice@example.com"]}"#)
        #expect(ServeFixture.errorMessage(lookup.body)?.hasPrefix("MISSING_ID_TOKEN") == true)
    }

    @Test("any project id is created on demand, from the default project's configuration, as the emulator does")
    func otherProjects() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let empty = try await fixture.http("GET", "/emulator/v1/projects/other-project/oobCodes")
        #expect(empty.status == 200)
        #expect(empty.body == #"{"oobCodes":[]}"#)
        // The new project has the default configuration (so its preset users), and its own world.
        let sent = try await fixture.http("POST", "\(Self.v1)/projects/other-project/accounts:sendOobCode", body: #"{"requestType":"PASSWORD_RESET","email":"alice@example.com","returnOobLink":true}"#, headers: Self.admin)
        #expect(sent.status == 200)
        #expect(try JSONDecoder().decode(SendOobCodeResponse.self, from: Data(sent.body.utf8)).oobLink?.contains("other-project") == true)
        let listed = try await fixture.http("GET", "/emulator/v1/projects/other-project/oobCodes")
        #expect(try JSONDecoder().decode(EmulatorOobCodeList.self, from: Data(listed.body.utf8)).oobCodes.count == 1)
        let defaultList = try await fixture.http("GET", "/emulator/v1/projects/demo-actionflow/oobCodes")
        #expect(defaultList.body == #"{"oobCodes":[]}"#)
    }

    @Test("legacy v3 relyingparty paths of the iOS SDK run the v1 operations")
    func relyingParty() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let rp = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
        let signedIn = try await fixture.http("POST", "\(rp)/verifyPassword?key=k", body: #"{"email":"bob@example.com","password":"bob-password-1","returnSecureToken":true}"#)
        let token = try #require(try JSONDecoder().decode(SignInResponse.self, from: Data(signedIn.body.utf8)).idToken)
        let sent = try await fixture.http("POST", "\(rp)/getOobConfirmationCode?key=k", body: #"{"requestType":"VERIFY_EMAIL","idToken":"\#(token)"}"#)
        #expect(sent.status == 200)
        let code = try #require(try await fixture.rest.mailbox().last?.oobCode)
        let applied = try await fixture.http("POST", "\(rp)/setAccountInfo?key=k", body: #"{"oobCode":"\#(code)"}"#)
        #expect(applied.status == 200)
        let account = try await fixture.http("POST", "\(rp)/getAccountInfo?key=k", body: #"{"idToken":"\#(token)"}"#)
        #expect(try JSONDecoder().decode(LookupResponse.self, from: Data(account.body.utf8)).users?.first?.emailVerified == true)
        let unknown = try await fixture.http("POST", "\(rp)/noSuchCall", body: "{}")
        #expect(unknown.status == 404)
    }

    @Test("bad bodies get the emulator's error shape: malformed JSON, wrong types, missing fields, unknown requestType, too large")
    func badBodies() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let send = "\(Self.v1)/accounts:sendOobCode?key=k"
        let cases: [(body: String, status: Int, message: String)] = [
            ("{not json", 400, "INVALID_ARGUMENT : Invalid JSON payload received."),
            (#"{"requestType":"PASSWORD_RESET","email":{"at":42}}"#, 400, "INVALID_ARGUMENT : Invalid value at 'email'"),
            // A number where a string is expected is read as its digits, as the emulator reads it.
            (#"{"requestType":"PASSWORD_RESET","email":42}"#, 400, "INVALID_EMAIL"),
            (#"{"email":"alice@example.com"}"#, 400, "MISSING_REQ_TYPE"),
            (#"{"requestType":"SEND_ME_MONEY","email":"alice@example.com"}"#, 400, "INVALID_REQ_TYPE : unknown requestType"),
            (String(repeating: " ", count: EmulatorAPI.defaultMaxBodyBytes + 1) + "{}", 413, "PAYLOAD_TOO_LARGE : the request body exceeds \(EmulatorAPI.defaultMaxBodyBytes) bytes"),
        ]
        for item in cases {
            let answer = try await fixture.http("POST", send, body: item.body)
            #expect(answer.status == item.status)
            let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(answer.body.utf8))
            #expect(envelope.error.code == item.status)
            #expect(envelope.error.message == item.message)
            // Each item carries the whole message, as the emulator's errors do.
            #expect(envelope.error.errors.first?.message == item.message)
        }
        let missingOob = try await fixture.http("POST", "\(Self.v1)/accounts:resetPassword?key=k", body: "{}")
        #expect(ServeFixture.errorMessage(missingOob.body) == "MISSING_OOB_CODE")
        let unknownPath = try await fixture.http("GET", "/nowhere")
        #expect(unknownPath.status == 404)
        // The emulator's own 404 body.
        #expect(unknownPath.body == #"{"error":{"code":404,"errors":[{"message":"Not Found","reason":"notFound"}],"message":"Not Found","status":"NOT_FOUND"}}"# || ServeFixture.errorMessage(unknownPath.body) == "Not Found")
        let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(unknownPath.body.utf8))
        #expect(envelope.error.status == "NOT_FOUND")
        #expect(envelope.error.errors == [.init(message: "Not Found", reason: "notFound", domain: nil)])
    }

    @Test("oobCodes lists sent codes in the emulator's shape, and the clock endpoint drives expiry")
    func oobCodesAndClock() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "alice@example.com"), locale: nil)
        let listed = try await fixture.http("GET", "/emulator/v1/projects/demo-actionflow/oobCodes")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.body.utf8)) as? [String: Any])
        let entry = try #require((object["oobCodes"] as? [[String: Any]])?.first)
        #expect(entry["email"] as? String == "alice@example.com")
        #expect(entry["requestType"] as? String == "PASSWORD_RESET")
        let code = try #require(entry["oobCode"] as? String)
        #expect(code.count == 54)
        #expect((entry["oobLink"] as? String)?.contains(code) == true)

        let advanced = try await fixture.http("POST", "/emulator/v1/projects/demo-actionflow/clock", body: #"{"advanceSeconds":3601}"#)
        let clock = try JSONDecoder().decode(EmulatorClockState.self, from: Data(advanced.body.utf8))
        #expect(clock.date == fixture.configuration.clockStart.addingTimeInterval(3601))
        await #expect(throws: AuthFailure.server(.expiredOobCode, detail: "The action code has expired.")) {
            try await fixture.rest.resetPassword(ResetPasswordRequest(oobCode: code))
        }
    }

    @Test("DELETE accounts removes the users only, as the emulator does; serve's POST reset restores the project's start")
    func resetEndpoint() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let notFound = AuthFailure.server(.emailNotFound, detail: "There is no user record corresponding to this identifier. The user may have been deleted.")
        _ = try await fixture.rest.signUp(SignUpRequest(email: "gina@example.com", password: "gina-password"))
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: "hal@example.com", continueUrl: "https://www.example.com/finish"), locale: nil)
        let deleted = try await fixture.http("DELETE", "/emulator/v1/projects/demo-actionflow/accounts")
        #expect(deleted.status == 200)
        #expect(deleted.body == "{}")
        await #expect(throws: notFound) {
            try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "gina@example.com", password: "gina-password"))
        }
        // No preset users come back; the codes stay.
        await #expect(throws: notFound) {
            try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "alice@example.com", password: "alice-password-1"))
        }
        #expect(try await fixture.rest.mailbox().count == 1)

        let reset = try await fixture.http("POST", "/emulator/v1/projects/demo-actionflow/reset")
        #expect(reset.status == 200)
        #expect(try await fixture.rest.mailbox().isEmpty)
        _ = try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "alice@example.com", password: "alice-password-1"))
    }

    @Test("a client can restart serve's world with another project configuration; the project id stays")
    func applyProject() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        var changed = fixture.configuration
        changed.authorizedDomains.append("shop.example.org")
        changed.clockStart = changed.clockStart.addingTimeInterval(86_400)
        #expect(try await fixture.rest.applyProject(changed) == changed.clockStart)
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "alice@example.com", continueUrl: "https://shop.example.org/cart"), locale: nil)
        #expect(try await fixture.rest.mailbox().count == 1)

        var legacyWithoutDomain = changed
        legacyWithoutDomain.mobileLinkStyle = .firebaseDynamicLinkDomain
        legacyWithoutDomain.dynamicLinkDomains = []
        legacyWithoutDomain.codeLifetimes.passwordReset = 0
        await #expect(throws: AuthFailure.server(.invalidArgument, detail: "mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains; codeLifetimes.passwordReset: expected a duration above 0, got 0")) {
            try await fixture.rest.applyProject(legacyWithoutDomain)
        }
        #expect(try await fixture.rest.mailbox().count == 1, "a refused configuration leaves the world running")

        var renamed = fixture.configuration
        renamed.projectId = "someone-else"
        await #expect(throws: AuthFailure.server(.invalidArgument, detail: "this server keeps project id 'demo-actionflow'")) {
            try await fixture.rest.applyProject(renamed)
        }
    }

    @Test("REST against a server without serve's clock: clock calls fail as unsupported, the rest works")
    func plainEmulatorHasNoClock() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let plain = RESTTransport(configuration: fixture.rest.configuration, servesClock: false)
        #expect(!plain.capabilities.controlsClock)
        #expect(plain.capabilities.listsMailbox)
        let production = RESTTransport(configuration: RESTTransportConfiguration(target: .production, apiKey: "AIza-test", projectId: "p"))
        #expect(production.capabilities == TransportCapabilities(listsMailbox: false, controlsClock: false, resetsWorld: false))
        await #expect(throws: AuthFailure.network(.unsupported("a production project's email goes to a real inbox: paste the link from there"))) {
            try await production.mailbox()
        }
        await #expect(throws: AuthFailure.network(.unsupported("a production project runs on real time: there is no clock to advance"))) {
            try await production.advanceClock(by: 60)
        }
    }
}

@Suite("serve's link domains serve their association files")
struct SiteAssociationOverServeTests {
    @Test("apple-app-site-association and assetlinks.json list the project's apps, by the Host when it is a link domain of the project")
    func wellKnownFiles() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let apple = try await fixture.http("GET", "/.well-known/apple-app-site-association")
        #expect(apple.status == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(apple.body.utf8)) as? [String: Any])
        let details = try #require((object["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(details.first?["appIDs"] as? [String] == ["ABCDE12345.com.example.ios"])
        #expect((details.first?["components"] as? [[String: String]])?.first?["/"] == "/__/auth/links")
        let dynamic = try await fixture.http("GET", "/.well-known/apple-app-site-association", headers: ["Host": "example.page.link"])
        #expect(dynamic.body.contains(#""/" : "/*""#), "a Dynamic Links domain claims every path")
        let android = try await fixture.http("GET", "/.well-known/assetlinks.json")
        let statements = try #require(try JSONSerialization.jsonObject(with: Data(android.body.utf8)) as? [[String: Any]])
        let target = try #require(statements.first?["target"] as? [String: Any])
        #expect(target["package_name"] as? String == "com.example.android")
        #expect((target["sha256_cert_fingerprints"] as? [String])?.first?.hasPrefix("FA:C6:17") == true)
    }
}
