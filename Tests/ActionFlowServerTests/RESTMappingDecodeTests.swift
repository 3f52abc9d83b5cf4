import ActionFlowBackend
import ActionFlowModel
@testable import ActionFlowServer
import Foundation
import PropertyBased
import Testing

/// Bodies already in normal form decode straight from their bytes; every other body goes
/// through normalising. Both must give the same request or the same error.
@Suite struct RESTMappingDecodeTests {
    static func parse(_ json: String, contentType: String = "application/json") throws -> RESTMapping.Body {
        try RESTMapping.body(from: APIRequest(method: "POST", path: "/", headers: ["Content-Type": contentType], body: Data(json.utf8)))
    }

    /// What a decode gives, comparable: the request or the error.
    static func outcome<Wire: Decodable & Equatable>(_ decode: () throws(AuthFailure) -> Wire) -> Result<Wire, AuthFailure> {
        do throws(AuthFailure) { return .success(try decode()) } catch { return .failure(error) }
    }

    /// The same body decoded as `decode(_ body:)` does and through normalising alone.
    static func bothPaths<Wire: Decodable & Equatable>(_ json: String, as _: Wire.Type) throws -> (served: Result<Wire, AuthFailure>, normalised: Result<Wire, AuthFailure>) {
        let body = try parse(json)
        let normalised = try #require(IdentityToolkitMapping.normalise(try body.object()) as? [String: Any])
        return (outcome { () throws(AuthFailure) -> Wire in try RESTMapping.decode(body) },
                outcome { () throws(AuthFailure) -> Wire in try RESTMapping.decode(normalised) })
    }

    @Test("Bodies that normalising would change, or that the two parsers read differently, are not decoded from their bytes", arguments: [
        #"{"request_type":"EMAIL_SIGNIN","email":"a@example.com"}"#,
        #"{"requestType":6,"email":"a@example.com"}"#,
        #"{"requestType":"6","email":"a@example.com"}"#,
        #"{"requestType":"EMAIL_SIGNIN","clientType":2}"#,
        #"{"requestType":"OOB_REQ_TYPE_UNSPECIFIED"}"#,
        #"{"requestType":"PASSWORD_RESET","androidMinimumVersionCode":"12"}"#,
        #"{"requestType":"EMAIL_SIGNIN","email":42}"#,
        #"{"email":"first@example.com","email":"last@example.com"}"#,
        #"{"settings":{"a":true,"a":false}}"#,
        #"{"nested":[{"continue-url":"x"}]}"#,
    ])
    func notNormal(_ json: String) throws {
        #expect(try Self.parse(json).normalJSON == nil)
    }

    @Test("Canonical bodies are decoded from their bytes", arguments: [
        #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://www.example.com/finish","canHandleCodeInApp":true}"#,
        #"{ "idToken" : "a.b.c" , "email" : [ "x@example.com" ] }"#,
        #"{"email":"quote \" colon: \\ \"k\":","returnOobLink":false,"tenantId":null}"#,
    ])
    func normal(_ json: String) throws {
        #expect(try Self.parse(json).normalJSON != nil)
    }

    @Test("The normal-form check reads keys as keys, not strings that look like them", arguments: [
        (#"{"a":"b:c","d" : ["e", "f:"], "g":{"h\"":"i"}}"#, false),
        (#"{"a":"b_c:","d":["e-f", "g_h:"]}"#, true),
        (#"{"a":{"b":"x"},"c":{"b":"y"}}"#, true),
        (#"{"a":{"b":"x","b":"y"}}"#, false),
        (#"{"requestType":"OOB\u005fREQ_TYPE_UNSPECIFIED"}"#, false),
        (#"{"email":"a\u0040example.com"}"#, false),
        (#"["a", "b"]"#, false),
        (#"{"a":"unterminated"#, true),
    ])
    func looksNormal(_ json: String, normal: Bool) {
        #expect(RESTMapping.looksNormal(Data(json.utf8)) == normal)
    }

    @Test("An object with more keys than are compared for repeats goes the general way, and decodes the same")
    func manyKeys() throws {
        func object(_ count: Int) -> String { "{" + (0..<count).map { #""k\#($0)":"v""# }.joined(separator: ",") + #","email":"a@example.com"}"# }
        #expect(RESTMapping.looksNormal(Data(object(RESTMapping.maxKeysCompared - 1).utf8)))
        #expect(!RESTMapping.looksNormal(Data(object(RESTMapping.maxKeysCompared).utf8)))
        let (served, normalised) = try Self.bothPaths(object(500), as: LookupRequest.self)
        #expect(served == normalised)
    }

    @Test("A body in normal form gives the routing fields in the same parse as the request")
    func routingFields() throws {
        let body = try Self.parse(#"{"idToken":"a.b.c","tenantId":"t-1","email":["x@example.com"]}"#)
        let normal = try #require(RESTMapping.decodeNormal(body, as: LookupRequest.self))
        #expect(normal.wire.idToken == "a.b.c")
        #expect(normal.routing.idToken == "a.b.c" && normal.routing.tenantId == "t-1" && normal.routing.targetProjectId == nil)
        let general = RESTMapping.RoutingFields(try body.object())
        #expect(general.idToken == "a.b.c" && general.tenantId == "t-1" && general.targetProjectId == nil)
        #expect(RESTMapping.decodeNormal(try Self.parse(#"{"idToken":7}"#), as: LookupRequest.self) == nil)
        #expect(RESTMapping.decodeNormal(try Self.parse(#"{"idToken":"a" "#), as: LookupRequest.self) == nil)
    }

    @Test("The same request in the SDKs' form and in Android's form decodes to the same value")
    func canonicalAndAndroidForms() throws {
        let canonical = try Self.parse(#"{"requestType":"EMAIL_SIGNIN","email":"droid@example.com","continueUrl":"https://www.example.com/finish","canHandleCodeInApp":true,"androidPackageName":"com.example.android","androidMinimumVersion":"12","clientType":"CLIENT_TYPE_ANDROID"}"#)
        let android = try Self.parse(#"{"request_type":6,"email":"droid@example.com","continue_url":"https://www.example.com/finish","can_handle_code_in_app":true,"android_package_name":"com.example.android","android_minimum_version_code":12,"client_type":2}"#)
        #expect(canonical.normalJSON != nil)
        #expect(android.normalJSON == nil)
        let fromCanonical: SendOobCodeRequest = try RESTMapping.decode(canonical)
        let fromAndroid: SendOobCodeRequest = try RESTMapping.decode(android)
        #expect(fromCanonical == fromAndroid)
        #expect(fromCanonical.requestType == .emailSignIn && fromCanonical.androidMinimumVersion == "12")

        let lookup: LookupRequest = try RESTMapping.decode(try Self.parse(#"{"idToken":"a.b.c","email":["x@example.com"]}"#))
        let snakeLookup: LookupRequest = try RESTMapping.decode(try Self.parse(#"{"id_token":"a.b.c","email":["x@example.com"]}"#))
        #expect(lookup == snakeLookup && lookup.idToken == "a.b.c")
    }

    @Test("Errors name the same field and code whichever path a body takes")
    func sameErrors() throws {
        for json in [#"{"email":"a@example.com"}"#, #"{"requestType":"NOT_A_TYPE"}"#, #"{"requestType":"EMAIL_SIGNIN","canHandleCodeInApp":"yes"}"#, #"{"requestType":"EMAIL_SIGNIN","email":["a"]}"#] {
            let (served, normalised) = try Self.bothPaths(json, as: SendOobCodeRequest.self)
            #expect(served == normalised, "\(json)")
            guard case .failure = served else { Issue.record("\(json) decoded"); continue }
        }
        #expect(try Self.bothPaths(#"{"email":"a@example.com"}"#, as: SendOobCodeRequest.self).served == .failure(.server(.missingRequestType, detail: nil)))
    }

    @Test("An ID token's tenant is found whether or not its payload spells the key plainly")
    func tenantClaim() {
        func token(_ payload: String) -> String {
            [#"{"alg":"none"}"#, payload].map { Data($0.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }.joined(separator: ".") + ".sig"
        }
        #expect(SimulatedProject.tenantClaim(ofJWT: token(#"{"firebase":{"tenant":"t-1"},"sub":"u"}"#)) == "t-1")
        #expect(SimulatedProject.tenantClaim(ofJWT: token(#"{"firebase":{"\u0074enant":"t-2"}}"#)) == "t-2")
        #expect(SimulatedProject.tenantClaim(ofJWT: token(#"{"firebase":{"sign_in_provider":"password"},"sub":"u"}"#)) == nil)
        #expect(SimulatedProject.tenantClaim(ofJWT: token(#"{"iss":"https:\/\/securetoken.google.com\/p","firebase":{"tenant":"t-3"}}"#)) == "t-3")
        #expect(SimulatedProject.tenantClaim(ofJWT: "not-a-token") == nil)
        #expect(SimulatedProject.tenantClaim(ofJWT: "é" + token(#"{"firebase":{"tenant":"t-4"}}"#)) == nil)
    }

    /// One field of a generated body, picked by a number: its key (camelCase or snake_case)
    /// and one of its values (canonical, integer enums, numbers, escapes, wrong types).
    static let fields: [(camel: String, snake: String, values: [String])] = [
        ("requestType", "request_type", [#""EMAIL_SIGNIN""#, "6", #""OOB_REQ_TYPE_UNSPECIFIED""#, "0", #""NOT_A_TYPE""#, #""PASSWORD_RESET""#, #""1""#, #""06""#, #""9""#]),
        ("email", "email", [#""a@example.com""#, #""q \"u\" \u00e9:\\ é""#, "42", "null", "1.5e3", "true"]),
        ("continueUrl", "continue_url", [#""https://www.example.com/finish?x=1&y=2""#, #""https:\/\/www.example.com\/a""#, "{}"]),
        ("canHandleCodeInApp", "can_handle_code_in_app", ["true", "false", #""yes""#, "1"]),
        ("androidMinimumVersion", "android_minimum_version", [#""12""#, "12"]),
        ("androidMinimumVersionCode", "android_minimum_version_code", [#""13""#, "13"]),
        ("clientType", "client_type", [#""CLIENT_TYPE_WEB""#, "2", "9", #""3""#]),
        ("returnOobLink", "return_oob_link", ["true", "false", "null"]),
        ("tenantId", "tenant_id", [#""tenant-1""#, "7"]),
        ("idToken", "id_token", [#""a.b.c""#]),
        ("unknownExtra", "unknown_extra", [#"{"nested_key":[1,"a",{"k":"v","k":"w"}]}"#, #"["x",{"inner":true}]"#]),
    ]

    /// The fields of a generated body, in order, repeats included: each number picks a field, a
    /// key style and a value.
    static func json(_ script: [Int]) -> String {
        let pairs = script.map { choice -> String in
            let field = fields[choice % fields.count]
            let variant = choice / fields.count
            let key = variant % 2 == 0 ? field.camel : field.snake
            return "\"\(key)\": \(field.values[(variant / 2) % field.values.count])"
        }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    @Test("Generated bodies decode to the same request or error through both paths")
    func generatedBodiesAgree() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...(Self.fields.count * 12)).array(of: 0...8)) { script in
            let json = Self.json(script)
            guard let send = try? Self.bothPaths(json, as: SendOobCodeRequest.self),
                  let lookup = try? Self.bothPaths(json, as: LookupRequest.self) else {
                Issue.record("\(json) did not parse")
                return
            }
            #expect(send.served == send.normalised, "\(json)")
            #expect(lookup.served == lookup.normalised, "\(json)")
            if let body = try? Self.parse(json), let normal = RESTMapping.decodeNormal(body, as: LookupRequest.self),
               let object = try? IdentityToolkitMapping.normalise(body.object()) as? [String: Any] {
                let general = RESTMapping.RoutingFields(object)
                #expect([normal.routing.idToken, normal.routing.tenantId, normal.routing.targetProjectId] == [general.idToken, general.tenantId, general.targetProjectId], "\(json)")
            }
        }
    }
}
