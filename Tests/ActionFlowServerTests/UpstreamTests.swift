import ActionFlowBackend
import ActionFlowLoad
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Logging
import TestSupport
import Testing

/// `serve --upstream HOST:PORT`: every request goes on unchanged to another Auth Emulator and the
/// client gets its answer, over real loopback sockets. The upstream here is `serve --as emulator`.
@Suite("serve --upstream forwards every request to another Auth Emulator", .serialized)
struct UpstreamTests {
    static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"
    static let sendOobCode = "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key"

    /// A forwarding server in front of `upstreamPort`, over a project of its own that must stay untouched.
    static func forwarder(to upstreamPort: Int) async throws -> (server: RunningEmulatorServer, api: EmulatorAPI) {
        var logger = Logger(label: "upstream-test")
        logger.logLevel = .critical
        let api = EmulatorAPI(configuration: try ProjectConfigLoader.loadDefault(), behaviour: .emulator)
        let forwarder = UpstreamForwarder(address: EmulatorAddress(host: "127.0.0.1", port: upstreamPort), timeoutSeconds: 5)
        let server = try await AuthEmulatorServer(api: api, host: "127.0.0.1", port: 0, logger: logger, upstream: forwarder).start()
        return (server, api)
    }

    static func call(_ port: Int, _ method: String, _ target: String, json: String = "") async throws -> LoopbackHTTPClient.Answer {
        try await DedicatedThread.run {
            let client = try LoopbackHTTPClient(port: port)
            defer { client.close() }
            return try client.exchange(method, target, json: json)
        }
    }

    @Test("the upstream answers: its accounts and codes, its errors byte for byte, its links naming the forwarding server")
    func forwardsTheWholeFlow() async throws {
        let upstream = try await ServeFixture.start(as: .emulator)
        defer { Task { await upstream.stop() } }
        let (server, api) = try await Self.forwarder(to: upstream.server.port)
        defer { Task { await server.stop() } }

        let created = try await Self.call(server.port, "POST", Self.signUp, json: #"{"email":"up@example.com","password":"secret-123"}"#)
        #expect(created.status == 200)
        let sent = try await Self.call(server.port, "POST", Self.sendOobCode, json: #"{"requestType":"PASSWORD_RESET","email":"up@example.com","continueUrl":"https://www.example.com/a"}"#)
        #expect(sent.status == 200)

        // The upstream holds the code; the forwarding server's own project never saw the account.
        let listing = try await Self.call(upstream.server.port, "GET", "/emulator/v1/projects/\(upstream.configuration.projectId)/oobCodes")
        let codes = try #require(listing.json?["oobCodes"] as? [[String: Any]])
        #expect(codes.map { $0["email"] as? String } == ["up@example.com"])
        let link = try #require(codes.first?["oobLink"] as? String)
        #expect(link.hasPrefix("http://127.0.0.1:\(server.port)/emulator/action?"), "the Host the client sent went on: \(link)")
        let local = await api.handle(APIRequest(method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", rawQuery: "key=fake-api-key",
                                                headers: ["content-type": "application/json"], body: Data(#"{"email":"up@example.com","password":"secret-123"}"#.utf8)))
        #expect(String(decoding: local.body, as: UTF8.self).contains("EMAIL_NOT_FOUND"))

        // An error is the upstream's, byte for byte.
        let wrongPassword = #"{"email":"up@example.com","password":"nope"}"#
        let viaForwarder = try await Self.call(server.port, "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key", json: wrongPassword)
        let direct = try await Self.call(upstream.server.port, "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key", json: wrongPassword)
        #expect(viaForwarder.status == 400)
        #expect(viaForwarder.body == direct.body)

        // The link's redirect reaches the client as the upstream sent it, not followed.
        // A reset at /emulator/action takes the new password in the query (handlers.ts).
        let target = String(link.dropFirst("http://127.0.0.1:\(server.port)".count)) + "&newPassword=new-secret-456"
        let opened = try await Self.call(server.port, "GET", target)
        #expect(opened.status == 303)
        #expect(opened.headers["location"] == "https://www.example.com/a")
    }

    @Test("an upstream that is not there: 502 in the emulator's error shape, naming it and why")
    func unreachableUpstream() async throws {
        // A port bound but never listened on: held for the test, so no other test's server
        // takes it, and every connection to it is refused.
        let refusing = try RefusingPort()
        let port = refusing.port
        let (server, _) = try await Self.forwarder(to: port)
        defer { Task { await server.stop() } }
        let answer = try await Self.call(server.port, "POST", Self.signUp, json: "{}")
        #expect(answer.status == 502)
        #expect(answer.isEmulatorError)
        let message = ((answer.json?["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message == "UPSTREAM_UNAVAILABLE : the upstream Auth Emulator at 127.0.0.1:\(port) refused the connection")
        withExtendedLifetime(refusing) {}
    }
}
