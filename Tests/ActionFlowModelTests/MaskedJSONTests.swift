import ActionFlowModel
import Foundation
import Testing

/// The Network pane's bodies, written straight from the value, must read exactly as they did
/// through `JSONEncoder` and `JSONSerialization`.
@Suite struct MaskedJSONTests {
    /// The bodies as `JSONEncoder` then `maskJSON` write them.
    private func reference(_ value: some Encodable) throws -> String {
        SecretMasking.maskJSON(try JSONEncoder().encode(value))
    }

    private func expectSame(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = SecretMasking.maskedJSON(value)
        #expect(direct == (try reference(value)), sourceLocation: sourceLocation)
    }

    static let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=ABCDEFGHIJKLMNOP&apiKey=fake-api-key-demo&continueUrl=https%3A%2F%2Fwww.example.com%2Fa%3Fb%3D1&lang=en"
    /// Quotes, backslashes, slashes, every kind of control character, DEL, non-ASCII and bidi.
    static let hostile = "\"q\" \\ / \u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}\u{1F}\u{7F} é שלום \u{202E}👩‍💻"

    @Test("Every request and reply of a flow reads as before, secrets masked alike")
    func wireBodies() throws {
        try expectSame(SignInWithPasswordRequest(email: "bob@example.com", password: "not-my-password"))
        try expectSame(SignInResponse(kind: "identitytoolkit#VerifyPasswordResponse", localId: "u1", email: "bob@example.com", idToken: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSJ9.", refreshToken: "refresh-token-123456", expiresIn: "3600", registered: true))
        try expectSame(SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com", continueUrl: "https://www.example.com/articles/42", iOSBundleId: "com.example.ios", canHandleCodeInApp: true, clientType: .iOS, returnOobLink: false))
        try expectSame(SendOobCodeResponse(email: "bob@example.com", oobCode: "ABCDEFGHIJKLMNOP", oobLink: Self.link))
        try expectSame(ResetPasswordRequest(oobCode: "ABCDEFGHIJKLMNOP", newPassword: "correct-horse-battery"))
        try expectSame(ResetPasswordResponse(email: "bob@example.com", requestType: .passwordReset))
        try expectSame(UpdateAccountRequest(oobCode: "ABCDEFGHIJKLMNOP", emailVerified: true))
        try expectSame(UpdateAccountResponse(localId: "u1", email: "bob@example.com", emailVerified: false))
        try expectSame(LookupRequest(idToken: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSJ9.", email: ["a@example.com", "b@example.com"], localId: []))
        try expectSame(LookupResponse(users: [
            UserRecord(localId: "u1", email: "bob@example.com", emailVerified: true, createdAt: "1700000000000", passwordUpdatedAt: 1_700_000_000_000),
            UserRecord(localId: "u2", email: nil, emailVerified: nil, passwordUpdatedAt: 1.5),
        ]))
        try expectSame(LookupResponse(users: []))
        try expectSame(SignInWithEmailLinkRequest(email: "bob@example.com", oobCode: "ABCDEFGHIJKLMNOP"))
        try expectSame(ErrorEnvelope(error: .init(code: 400, message: "INVALID_PASSWORD", errors: [.init(message: "INVALID_PASSWORD", reason: "invalid", domain: "global")])))
    }

    @Test("Hostile text, links inside values, keys needing order and plain values come out alike")
    func hostileValues() throws {
        try expectSame(SendOobCodeResponse(email: Self.hostile, oobLink: Self.hostile + Self.link))
        try expectSame(["b10": Self.link, "b9": "x", "B1": "y", "a": Self.hostile, "password": "hunter22-secret", "apiKey": "fake-api-key-demo", "oobCode": ""])
        try expectSame(["key": ["AIzaSyDemoActionflowKey", Self.link], "list": []])
        try expectSame(Self.link)
        try expectSame([1, 2, 3])
        try expectSame(["flag": true, "other": false])
        try expectSame(["small": 0.25, "whole": 42.0, "negative": -3.75])
    }
}

/// Token payloads, written on every sign-in by `JSONOutput.string(plain:format:)`.
@Suite struct PlainJSONTests {
    /// `.sortedKeys, .withoutEscapingSlashes`.
    static let tokens = JSONOutput.Format(sortedKeys: true)

    /// `JSONEncoder`'s writing of a document, with `format`'s options.
    static func encoded(_ value: JSONValue, _ formatting: JSONEncoder.OutputFormatting) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("Claims and records read as JSONEncoder writes them with sorted keys, every value kept")
    func sameAsEncoder() throws {
        let objects: [[String: Any]] = [
            ["iss": "https://securetoken.google.com/demo", "aud": "demo", "auth_time": 1_768_467_600, "user_id": "u1", "sub": "u1",
             "iat": 1_768_467_600, "exp": 1_768_471_200, "email_verified": false, "email": "bob@example.com", "sid": "abcdefghij",
             "firebase": ["identities": ["email": ["bob@example.com"]], "sign_in_provider": "password", "tenant": "t1"] as [String: Any]],
            ["_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": "u1", "provider": "password", "extraClaims": [String: Any](), "projectId": "demo", "tenantId": "t"],
            ["Zeta": 1, "a10": 1, "a9": 2, "A1": 3, "a_b": 4, "a1": 5, "name": "a/b\u{1}\u{1F}\"\\é \u{202E}", "list": [Any](), "flags": [true, false]],
        ]
        for object in objects {
            let written = try #require(JSONOutput.string(plain: object, format: Self.tokens))
            // The same document read back, in JSONEncoder's key order.
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(written.utf8)) == JSONValue(plain: object))
            #expect(written == (try Self.encoded(try JSONDecoder().decode(JSONValue.self, from: Data(written.utf8)), [.sortedKeys, .withoutEscapingSlashes])))
        }
        #expect(JSONOutput.string(plain: ["Zeta": 1, "a10": 1, "a9": 2, "A1": 3, "a_b": 4, "a1": 5], format: Self.tokens) == #"{"A1":3,"Zeta":1,"a1":5,"a10":1,"a9":2,"a_b":4}"#)
        #expect(JSONOutput.string(plain: ["date": Date()], format: Self.tokens) == nil, "values JSON has no form for are refused")
    }

    /// The parsed document as JSONEncoder writes it, pretty with sorted keys.
    private func foundation(_ json: String) throws -> String {
        try Self.encoded(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)), [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    @Test("A parsed body with nothing to mask reads as JSONEncoder writes it: Booleans, 0 and 1, negatives, null, nesting, empty containers, slashes, hostile text, and a fraction")
    func parsedBodiesAsFoundationWritesThem() throws {
        let hostile = String(decoding: try JSONSerialization.data(withJSONObject: [MaskedJSONTests.hostile], options: [.fragmentsAllowed]), as: UTF8.self)
        for json in [
            #"{"emailVerified":true,"disabled":false,"count":0,"one":1,"minus":-42,"big":9007199254740993,"none":null}"#,
            #"{"users":[{"providerUserInfo":[{"providerId":"password","rawId":"a@example.com"}],"createdAt":"1800000000000","lastLoginAt":"1"}],"kind":"identitytoolkit#GetAccountInfoResponse"}"#,
            #"{"empty":{},"list":[],"nested":[[1,[true,null]],{"z":"/a/b","a":"https:\/\/x.example\/p"}]}"#,
            #"{"hostile":\#(hostile),"Zebra":1,"apple":2,"_under":3,"Ärger":4}"#,
            #"{"expiresIn":"3600","fraction":0.5,"exponent":1e-7}"#,
            #"[1,true,"x",null]"#,
        ] {
            #expect(SecretMasking.maskJSON(Data(json.utf8)) == (try foundation(json)), "\(json)")
        }
    }
}
