import ActionFlowBackend
import ActionFlowLoad
import Foundation
import Testing

/// Where serve used to answer otherwise than firebase-tools' Auth Emulator (or, in `production`
/// behaviour, than production): CORS framing, redirect encoding, request types the emulator
/// lacks, JSON nulls and API keys. Each case cites the rule it follows.
@Suite("serve answers at the edges as the emulator (and production) do")
struct EmulatorEdgeTests {
    static let v1 = EmulatorSpec.v1

    @Test("a CORS preflight is 204 with Content-Length: 0 and no Content-Type, as the cors middleware sends it; the connection stays usable", arguments: ServeBehaviour.allCases)
    func preflightFraming(behaviour: ServeBehaviour) async throws {
        let serve = try await ServeFixture.start(as: behaviour)
        defer { Task { await serve.stop() } }
        let port = serve.server.port
        let (preflight, next) = try await DedicatedThread.run {
            let client = try LoopbackHTTPClient(port: port)
            let preflight = try client.exchange("OPTIONS", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", headers: [
                ("Origin", "http://app.test"), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "content-type,x-client-version"),
            ])
            return (preflight, try client.exchange("GET", "/"))
        }
        #expect(preflight.status == 204)
        #expect(preflight.headers["content-length"] == "0")
        #expect(preflight.headers["content-type"] == nil)
        #expect(preflight.headers["access-control-allow-origin"] == "http://app.test")
        #expect(preflight.headers["access-control-allow-headers"] == "content-type,x-client-version")
        #expect(next.status == 200, "the next request on the connection is read where it starts")
    }

    @Test("/emulator/action's 303 percent-encodes the continue URL in Location and in the body alike, keeping escapes already there (encodeurl)")
    func redirectEncoding() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        _ = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let sent = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": "VERIFY_EMAIL", "returnOobLink": true], owner: true)
        let code = try #require(sent.string("oobCode"))
        // continueUrl decodes to: https://app.test/done?note=a b&name=é&bad=%zz&kept=%2F
        let continueUrl = "https%3A%2F%2Fapp.test%2Fdone%3Fnote%3Da%20b%26name%3D%C3%A9%26bad%3D%25zz%26kept%3D%252F"
        let port = api.fixture.server.port
        // Read off the socket: a URL session drops a redirect's body.
        let res = try await DedicatedThread.run {
            try LoopbackHTTPClient(port: port).exchange("GET", "/emulator/action?mode=verifyEmail&oobCode=\(code)&apiKey=fake-api-key&continueUrl=\(continueUrl)")
        }
        let expected = "https://app.test/done?note=a%20b&name=%C3%A9&bad=%25zz&kept=%2F"
        #expect(res.status == 303)
        #expect(res.headers["location"] == expected)
        #expect(String(decoding: res.body, as: UTF8.self) == "See Other. Redirecting to \(expected)")
    }

    @Test("OLD_EMAIL_AGREE and NEW_EMAIL_ACCEPT (or 2 and 3) get the emulator's 501 naming the type, after its earlier checks", arguments: [
        ("OLD_EMAIL_AGREE", "OLD_EMAIL_AGREE"), ("NEW_EMAIL_ACCEPT", "NEW_EMAIL_ACCEPT"), (2, "OLD_EMAIL_AGREE"), (3, "NEW_EMAIL_ACCEPT"),
    ] as [(any Sendable, String)])
    func unimplementedRequestTypes(requestType: any Sendable, name: String) async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": requestType])
        #expect(res.status == 501, "\(res)")
        #expect(res.errorMessage == name)
        #expect(res.error?["status"] as? String == "NOT_IMPLEMENTED")
        // operations.ts:888-893 comes first: a relative continue URL is refused before the type.
        let relative = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": requestType, "continueUrl": "/relative"])
        #expect(relative.status == 400)
        #expect(relative.errorMessage?.hasPrefix("INVALID_CONTINUE_URI") == true, "\(relative)")
    }

    @Test("a request type outside the enum gets the emulator's schema error", arguments: ["BOGUS", 9] as [any Sendable])
    func requestTypeOutsideTheEnum(requestType: any Sendable) async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "alice@example.com", "requestType": requestType])
        #expect(res.status == 400, "\(res)")
        #expect(res.errorMessage == "Invalid JSON payload received. /requestType must be equal to one of the allowed values")
        #expect(res.error?["status"] as? String == "INVALID_ARGUMENT")
    }

    @Test("--as emulator: a JSON null is refused as the emulator's schema validation refuses it, naming the field and its type")
    func nullsRefusedAsTheEmulator() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        // The JS SDK's updateProfile(user, {displayName: null}); pyrebase4 sends photoUrl: null.
        let profile = try await api.post("\(Self.v1)/accounts:update", ["idToken": user.idToken, "displayName": NSNull(), "photoUrl": NSNull(), "returnSecureToken": true])
        #expect(profile.status == 400, "\(profile)")
        #expect(profile.errorMessage == "Invalid JSON payload received. /displayName must be string", "the first in the schema's order")
        #expect(profile.error?["status"] as? String == "INVALID_ARGUMENT")
        let boolean = try await api.post("\(Self.v1)/accounts:signUp", ["email": "bob@example.com", "password": "notasecret", "returnSecureToken": NSNull()])
        #expect(boolean.errorMessage == "Invalid JSON payload received. /returnSecureToken must be boolean", "\(boolean)")
        let array = try await api.post("\(Self.v1)/accounts:lookup", ["localId": NSNull()], owner: true)
        #expect(array.errorMessage == "Invalid JSON payload received. /localId must be array", "\(array)")
        // Nothing was changed.
        #expect(try await api.getAccountInfoByIdToken(user.idToken)["displayName"] == nil)
    }

    @Test("--as emulator: a null or a wrong type at any depth is named by its JSON pointer, as ajv names it; a number passes where a string is read", arguments: [
        (#"{"email":"n@example.com","password":"notasecret","mfaInfo":[{"phoneInfo":null}]}"#, "/mfaInfo/0/phoneInfo must be string"),
        (#"{"email":"n@example.com","password":"notasecret","mfaInfo":"+15555550100"}"#, "/mfaInfo must be array"),
        (#"{"email":"n@example.com","password":"notasecret","mfaInfo":[null]}"#, "/mfaInfo/0 must be object"),
        (#"{"email":"n@example.com","password":"notasecret","displayName":["Nia"]}"#, "/displayName must be string"),
        (#"{"email":"n@example.com","password":"notasecret","returnSecureToken":"yes"}"#, "/returnSecureToken must be boolean"),
        (#"{"email":"n@example.com","password":"notasecret","displayName":7}"#, nil),
    ] as [(String, String?)])
    func nestedAndWrongTypes(body: String, refusal: String?) async throws {
        let serve = try await ServeFixture.start(as: .emulator)
        defer { Task { await serve.stop() } }
        let res = try await serve.http("POST", "\(Self.v1)/accounts:signUp?key=fake-api-key", body: body, headers: ["content-type": "application/json"])
        if let refusal {
            #expect(res.status == 400, "\(res.body)")
            #expect(ServeFixture.errorMessage(res.body) == "Invalid JSON payload received. \(refusal)")
        } else {
            #expect(res.status == 200, "\(res.body)")
        }
    }

    @Test("--as emulator: a body of more than 2,048 values is not probed null by null; its nulls read as absent")
    func hugeBodiesAreNotProbed() async throws {
        let serve = try await ServeFixture.start(as: .emulator)
        defer { Task { await serve.stop() } }
        var fields = (0..<3000).map { "\"unread\($0)\":null" }
        fields += [#""email":"many@example.com""#, #""password":"notasecret""#, #""displayName":null"#]
        let res = try await serve.http("POST", "\(Self.v1)/accounts:signUp?key=fake-api-key", body: "{\(fields.joined(separator: ","))}", headers: ["content-type": "application/json"])
        #expect(res.status == 200, "\(res.body)")
        let small = try await serve.http("POST", "\(Self.v1)/accounts:signUp?key=fake-api-key", body: #"{"email":"few@example.com","password":"notasecret","displayName":null}"#, headers: ["content-type": "application/json"])
        #expect(ServeFixture.errorMessage(small.body) == "Invalid JSON payload received. /displayName must be string")
    }

    @Test("--as production: JSON nulls read as absent fields, as production reads them")
    func nullsAcceptedAsProduction() async throws {
        let serve = try await ServeFixture.start(as: .production)
        defer { Task { await serve.stop() } }
        let signIn = try await serve.http("POST", "\(Self.v1)/accounts:signInWithPassword?key=k", body: #"{"email":"bob@example.com","password":"bob-password-1","returnSecureToken":true}"#)
        let idToken = try #require(EmulatorSpec.Answer(status: signIn.status, body: signIn.body, headers: signIn.headers).string("idToken"))
        let res = try await serve.http("POST", "\(Self.v1)/accounts:update?key=k", body: #"{"idToken":"\#(idToken)","displayName":null,"photoUrl":null,"returnSecureToken":true}"#)
        #expect(res.status == 200, "\(res.body)")
    }

    @Test("--as production: a client call without an API key is refused with production's 403, one with any key is served")
    func productionWantsAnAPIKey() async throws {
        let serve = try await ServeFixture.start(as: .production)
        defer { Task { await serve.stop() } }
        let body = #"{"email":"bob@example.com","password":"bob-password-1","returnSecureToken":true}"#
        let keyless = try await serve.http("POST", "\(Self.v1)/accounts:signInWithPassword", body: body)
        #expect(keyless.status == 403)
        #expect(ServeFixture.errorMessage(keyless.body) == "The request is missing a valid API key.")
        #expect(keyless.body.contains(#""status":"PERMISSION_DENIED""#))
        let refresh = try await serve.http("POST", "/securetoken.googleapis.com/v1/token", body: #"{"grant_type":"refresh_token","refresh_token":"x"}"#)
        #expect(refresh.status == 403)
        let keyed = try await serve.http("POST", "\(Self.v1)/accounts:signInWithPassword", body: body, headers: ["X-Goog-Api-Key": "any-key"])
        #expect(keyed.status == 200)
    }

    @Test("--as production: a verification link for an unknown address is USER_NOT_FOUND, a reset link EMAIL_NOT_FOUND, as production answers")
    func productionUnknownRecipients() async throws {
        let serve = try await ServeFixture.start(as: .production)
        defer { Task { await serve.stop() } }
        let admin = ["Authorization": "Bearer owner"]
        let verify = try await serve.http("POST", "\(Self.v1)/projects/demo-actionflow/accounts:sendOobCode", body: #"{"requestType":"VERIFY_EMAIL","email":"nobody@example.com","returnOobLink":true}"#, headers: admin)
        #expect(verify.status == 400)
        #expect(ServeFixture.errorMessage(verify.body) == "USER_NOT_FOUND")
        let reset = try await serve.http("POST", "\(Self.v1)/projects/demo-actionflow/accounts:sendOobCode", body: #"{"requestType":"PASSWORD_RESET","email":"nobody@example.com","returnOobLink":true}"#, headers: admin)
        #expect(ServeFixture.errorMessage(reset.body)?.hasPrefix("EMAIL_NOT_FOUND") == true)
    }
}
