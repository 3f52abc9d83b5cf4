import ActionFlowBackend
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What the ported Auth Emulator spec tests (firebase-tools `src/emulator/auth/*.spec.ts`) need:
/// `serve --as emulator` on a loopback port, the same requests the specs send with supertest,
/// and the helpers of their `testing/helpers.ts`. Each spec's `PROJECT_ID` is serve's default
/// project; `fake-api-key` is the specs' key.
struct EmulatorSpec {
    let fixture: ServeFixture

    static func start() async throws -> EmulatorSpec {
        EmulatorSpec(fixture: try await ServeFixture.start(as: .emulator))
    }

    func stop() async { await fixture.stop() }

    var projectId: String { fixture.configuration.projectId }
    static let v1 = "/identitytoolkit.googleapis.com/v1"

    struct Answer: CustomStringConvertible {
        var status: Int
        var body: String
        var headers: [String: String]
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:] }
        var error: [String: Any]? { json["error"] as? [String: Any] }
        var errorMessage: String? { error?["message"] as? String }
        subscript(key: String) -> Any? { json[key] }
        func string(_ key: String) -> String? { json[key] as? String }
        var description: String { "\(status) \(body)" }
    }

    /// A session that does not follow redirects, to see the 303s of `/emulator/action`.
    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }
    static let plainSession = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

    /// One request as supertest sends it: `json` is sent as JSON, `form` as a form.
    func request(_ method: String, _ path: String, query: [String: String] = [:], json: Any? = nil, form: [String: String]? = nil, headers: [String: String] = [:]) async throws -> Answer {
        var components = try #require(URLComponents(string: fixture.origin + path))
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let form {
            request.httpBody = Data(form.sorted { $0.key < $1.key }.map { "\(PercentEncoding.formEncode($0.key))=\(PercentEncoding.formEncode($0.value))" }.joined(separator: "&").utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.plainSession.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Answer(status: http.statusCode, body: String(decoding: data, as: UTF8.self), headers: fields)
    }

    /// `.post(path).query({key: "fake-api-key"}).send(body)`, or with `.set("Authorization", "Bearer owner")`.
    func post(_ path: String, _ body: [String: Any], key: Bool = true, owner: Bool = false, headers: [String: String] = [:]) async throws -> Answer {
        var headers = headers
        if owner { headers["Authorization"] = "Bearer owner" }
        return try await request("POST", path, query: key && !owner ? ["key": "fake-api-key"] : [:], json: body, headers: headers)
    }

    // MARK: testing/helpers.ts

    struct User {
        var idToken: String
        var localId: String
        var refreshToken: String
        var email: String
    }

    func registerUser(email: String, password: String, displayName: String? = nil, tenantId: String? = nil, mfaInfo: [[String: Any]]? = nil) async throws -> User {
        var body: [String: Any] = ["email": email, "password": password]
        if let displayName { body["displayName"] = displayName }
        if let tenantId { body["tenantId"] = tenantId }
        if let mfaInfo { body["mfaInfo"] = mfaInfo }
        let res = try await post("\(Self.v1)/accounts:signUp", body)
        try #require(res.status == 200, "\(res)")
        return User(idToken: res.string("idToken") ?? "", localId: res.string("localId") ?? "", refreshToken: res.string("refreshToken") ?? "", email: res.string("email") ?? "")
    }

    func registerAnonUser() async throws -> User {
        let res = try await post("\(Self.v1)/accounts:signUp", ["returnSecureToken": true])
        try #require(res.status == 200, "\(res)")
        return User(idToken: res.string("idToken") ?? "", localId: res.string("localId") ?? "", refreshToken: res.string("refreshToken") ?? "", email: "")
    }

    func signInWithEmailLink(email: String, idTokenToLink: String? = nil) async throws -> User {
        let oob = try await createEmailSignInOob(email: email)
        var body: [String: Any] = ["email": email, "oobCode": oob.oobCode]
        if let idTokenToLink { body["idToken"] = idTokenToLink }
        let res = try await post("\(Self.v1)/accounts:signInWithEmailLink", body)
        return User(idToken: res.string("idToken") ?? "", localId: res.string("localId") ?? "", refreshToken: res.string("refreshToken") ?? "", email: email)
    }

    func signInWithPassword(email: String, password: String) async throws -> User {
        let res = try await post("\(Self.v1)/accounts:signInWithPassword", ["email": email, "password": password])
        try #require(res.status == 200, "\(res)")
        return User(idToken: res.string("idToken") ?? "", localId: res.string("localId") ?? "", refreshToken: res.string("refreshToken") ?? "", email: res.string("email") ?? "")
    }

    func expectUserNotExistsForIdToken(_ idToken: String, tenantId: String? = nil) async throws {
        var body: [String: Any] = ["idToken": idToken]
        if let tenantId { body["tenantId"] = tenantId }
        let res = try await post("\(Self.v1)/accounts:lookup", body)
        #expect(res.status == 400, "\(res)")
        #expect(res.errorMessage == "USER_NOT_FOUND")
    }

    func expectIdTokenExpired(_ idToken: String) async throws {
        let res = try await post("\(Self.v1)/accounts:lookup", ["idToken": idToken])
        #expect(res.status == 400, "\(res)")
        #expect(res.errorMessage == "TOKEN_EXPIRED")
    }

    func getAccountInfoByIdToken(_ idToken: String, tenantId: String? = nil) async throws -> [String: Any] {
        var body: [String: Any] = ["idToken": idToken]
        if let tenantId { body["tenantId"] = tenantId }
        let res = try await post("\(Self.v1)/accounts:lookup", body)
        try #require(res.status == 200, "\(res)")
        let users = try #require(res["users"] as? [[String: Any]])
        try #require(users.count == 1)
        return users[0]
    }

    func getAccountInfoByLocalId(_ localId: String, tenantId: String? = nil) async throws -> [String: Any] {
        var body: [String: Any] = ["localId": [localId]]
        if let tenantId { body["tenantId"] = tenantId }
        let res = try await post("\(Self.v1)/accounts:lookup", body, owner: true)
        try #require(res.status == 200, "\(res)")
        let users = try #require(res["users"] as? [[String: Any]])
        try #require(users.count == 1)
        return users[0]
    }

    func inspectOobs(tenantId: String? = nil) async throws -> [[String: Any]] {
        let path = tenantId.map { "/emulator/v1/projects/\(projectId)/tenants/\($0)/oobCodes" } ?? "/emulator/v1/projects/\(projectId)/oobCodes"
        let res = try await request("GET", path)
        try #require(res.status == 200, "\(res)")
        return try #require(res["oobCodes"] as? [[String: Any]])
    }

    func createEmailSignInOob(email: String, tenantId: String? = nil) async throws -> (oobCode: String, oobLink: String) {
        var body: [String: Any] = ["email": email, "requestType": "EMAIL_SIGNIN", "returnOobLink": true]
        if let tenantId { body["tenantId"] = tenantId }
        let res = try await post("\(Self.v1)/accounts:sendOobCode", body, owner: true)
        try #require(res.status == 200, "\(res)")
        return (res.string("oobCode") ?? "", res.string("oobLink") ?? "")
    }

    func getSigninMethods(_ email: String) async throws -> [String]? {
        let res = try await post("\(Self.v1)/accounts:createAuthUri", ["continueUri": "http://example.com/", "identifier": email])
        try #require(res.status == 200, "\(res)")
        return res["signinMethods"] as? [String]
    }

    func updateProjectConfig(_ config: [String: Any]) async throws {
        let res = try await request("PATCH", "/emulator/v1/projects/\(projectId)/config", json: config, headers: ["Authorization": "Bearer owner"])
        try #require(res.status == 200, "\(res)")
    }

    func updateAccountByLocalId(_ localId: String, _ fields: [String: Any]) async throws {
        let res = try await post("\(Self.v1)/accounts:update", fields.merging(["localId": localId]) { $1 }, owner: true)
        try #require(res.status == 200, "\(res)")
    }

    func deleteAccount(_ body: [String: Any]) async throws -> String? {
        let res = try await post("\(Self.v1)/accounts:delete", body)
        try #require(res.status == 200, "\(res)")
        #expect(res.error == nil)
        return res.string("kind")
    }

    func registerTenant(_ projectId: String, _ tenant: [String: Any]) async throws -> [String: Any] {
        let res = try await request("POST", "/identitytoolkit.googleapis.com/v2/projects/\(projectId)/tenants", query: ["key": "fake-api-key"], json: tenant, headers: ["Authorization": "Bearer owner"])
        try #require(res.status == 200, "\(res)")
        return res.json
    }

    /// The specs' "should error if … is disabled" cases: a tenant registered with `settings`,
    /// then a request naming only that tenant, refused with `message` (contained in the error).
    func expectTenantRefuses(_ path: String, settings: [String: Any], message: String) async throws {
        let tenant = try await registerTenant(projectId, settings)
        let res = try await post(path, ["tenantId": tenant["tenantId"] as? String ?? ""])
        #expect(res.status == 400, "\(res)")
        #expect(res.errorMessage?.contains(message) == true, "\(res)")
    }

    func updateConfig(_ projectId: String, _ config: [String: Any], updateMask: String? = nil) async throws {
        let res = try await request("PATCH", "/identitytoolkit.googleapis.com/v2/projects/\(projectId)/config", query: updateMask.map { ["updateMask": $0] } ?? [:], json: config, headers: ["Authorization": "Bearer owner"])
        try #require(res.status == 200, "\(res)")
    }

    /// The claims of an unsigned JWT, as `jsonwebtoken.decode` reads them.
    static func decodeJWT(_ token: String) -> (header: [String: Any], payload: [String: Any])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        func part(_ text: Substring) -> [String: Any]? {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
        guard let header = part(parts[0]), let payload = part(parts[1]) else { return nil }
        return (header, payload)
    }
}
