import ActionFlowBackend
import ActionFlowModel
@testable import ActionFlowTransport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Testing
import TestSupport

/// The REST transport aimed at a loopback port, as an emulator.
func loopbackTransport(host: String = "127.0.0.1", port: Int, timeout: TimeInterval) -> RESTTransport {
    RESTTransport(configuration: RESTTransportConfiguration(target: .emulator(host: host, port: port), apiKey: "fake-api-key", projectId: "demo-actionflow", timeout: timeout))
}

/// A server that misbehaves on purpose, to check that the REST transport turns each fault into a
/// clear, retryable `AuthFailure.network`.
struct MisbehavingServer {
    let running: Task<Void, any Error>
    let port: Int

    static func start(_ respond: @escaping @Sendable (Request) async throws -> Response) async throws -> MisbehavingServer {
        let (task, port) = try await LoopbackApplication.start(respond)
        return MisbehavingServer(running: task, port: port)
    }

    func stop() async {
        running.cancel()
        _ = try? await running.value
    }

    // Generous: a loaded machine must not turn a healthy answer into a timeout.
    func transport(timeout: TimeInterval = 10) -> RESTTransport {
        loopbackTransport(port: port, timeout: timeout)
    }

    static func reply(status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

extension RefusingPort {
    // Generous: a loaded machine must not turn a healthy answer into a timeout.
    func transport(timeout: TimeInterval = 10) -> RESTTransport {
        loopbackTransport(port: port, timeout: timeout)
    }
}

@Suite("REST transport faults")
struct FaultTests {
    let resetRequest = SendOobCodeRequest(requestType: .passwordReset, email: "ada@example.com")

    @Test("nothing listening: connection refused, naming the host")
    func connectionRefused() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        await #expect(throws: AuthFailure.network(.connectionRefused(host: "127.0.0.1:\(refusing.port)"))) {
            try await refusing.transport().sendOobCode(resetRequest, locale: nil)
        }
    }

    @Test("a server that never answers: timed out after the configured seconds, not a hang")
    func stallingServer() async throws {
        let server = try await MisbehavingServer.start { _ in
            try await Task.sleep(for: .seconds(30))
            return MisbehavingServer.reply(status: .ok, "{}")
        }
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        await #expect(throws: AuthFailure.network(.timedOut(seconds: 0.5))) {
            try await server.transport(timeout: 0.5).sendOobCode(resetRequest, locale: nil)
        }
        // Well before the server's 30 s: the client gave up on its own (a busy machine may be slow).
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("HTTP 500: an HTTP status failure carrying the body, even when it looks like an error envelope")
    func serverError() async throws {
        let body = #"{"error":{"code":500,"message":"INTERNAL_ERROR","errors":[]}}"#
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .internalServerError, body) }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.network(.httpStatus(500, body: body))) {
            try await server.transport().sendOobCode(resetRequest, locale: nil)
        }
    }

    @Test("a 200 whose body is not JSON: a malformed-response failure quoting the start of the body")
    func invalidJSON() async throws {
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .ok, "<html>proxy login</html>") }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.network(.malformedResponse("accounts:sendOobCode: the response is not JSON: <html>proxy login</html>"))) {
            try await server.transport().sendOobCode(resetRequest, locale: nil)
        }
    }

    @Test("a 200 that lacks a required field: a malformed-response failure naming the field")
    func missingField() async throws {
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .ok, #"{"email":"ada@example.com","idToken":"t"}"#) }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.network(.malformedResponse("accounts:signInWithPassword: the response lacks the field 'localId'"))) {
            try await server.transport().signInWithPassword(SignInWithPasswordRequest(email: "ada@example.com", password: "secret1"))
        }
    }

    @Test("a 4xx without the error envelope: an HTTP status failure, not a made-up server code")
    func clientErrorWithoutEnvelope() async throws {
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .notFound, "no such page") }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.network(.httpStatus(404, body: "no such page"))) {
            try await server.transport().lookup(LookupRequest(idToken: "t"))
        }
    }

    @Test("the error envelope maps to the server code and detail, as the embedded transport raises them")
    func errorEnvelope() async throws {
        let body = #"{"error":{"code":400,"message":"INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))","errors":[{"message":"INVALID_CONTINUE_URI","reason":"invalid","domain":"global"}]}}"#
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .badRequest, body) }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.server(.invalidContinueURI, detail: "((expected an absolute URI with valid scheme and host))")) {
            try await server.transport().sendOobCode(resetRequest, locale: nil)
        }
    }

    @Test("error items without a domain, as the emulator writes its 404 and 501, still map to the server code")
    func envelopeWithoutDomain() async throws {
        let body = #"{"error":{"code":400,"message":"EMAIL_NOT_FOUND","errors":[{"message":"EMAIL_NOT_FOUND","reason":"invalid"}],"status":"INVALID_ARGUMENT"}}"#
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .badRequest, body) }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.server(.emailNotFound, detail: nil)) {
            try await server.transport().sendOobCode(resetRequest, locale: nil)
        }
    }

    @Test("calls carry the SDKs' headers: X-Client-Version, and X-Firebase-gmpid and X-Ios-Bundle-Identifier when configured")
    func sdkHeaders() async throws {
        let seen = SeenHeaders()
        let server = try await MisbehavingServer.start { request in
            await seen.record(request.headers)
            return MisbehavingServer.reply(status: .ok, #"{"email":"ada@example.com"}"#)
        }
        defer { Task { await server.stop() } }
        _ = try await server.transport().sendOobCode(resetRequest, locale: nil)
        #expect(await seen.value("X-Client-Version") == RESTTransportConfiguration.defaultClientVersion)
        #expect(await seen.value("X-Firebase-gmpid") == nil)
        var configuration = server.transport().configuration
        configuration.appId = "1:1234567890:ios:abcdef"
        configuration.iOSBundleId = "com.example.ios"
        _ = try await RESTTransport(configuration: configuration).sendOobCode(resetRequest, locale: "fr")
        #expect(await seen.value("X-Firebase-gmpid") == "1:1234567890:ios:abcdef")
        #expect(await seen.value("X-Ios-Bundle-Identifier") == "com.example.ios")
        #expect(await seen.value("X-Firebase-Locale") == "fr")
    }

    @Test("each send is one request: a failed send is never retried behind the user's back")
    func sendIsNotRetried() async throws {
        let counter = RequestCounter()
        let server = try await MisbehavingServer.start { _ in
            await counter.increment()
            return MisbehavingServer.reply(status: .serviceUnavailable, "busy")
        }
        defer { Task { await server.stop() } }
        await #expect(throws: AuthFailure.network(.httpStatus(503, body: "busy"))) {
            try await server.transport().sendOobCode(resetRequest, locale: nil)
        }
        #expect(await counter.count == 1)
    }

    @Test("the request carries ?key=, X-Firebase-Locale and the protocol's JSON field names")
    func wireFormat() async throws {
        let seen = SeenRequest()
        let server = try await MisbehavingServer.start { request in
            var request = request
            let body = try await request.collectBody(upTo: 10_000)
            await seen.record(uri: request.uri.string, locale: request.headers[HTTPField.Name("X-Firebase-Locale")!], body: String(buffer: body))
            return MisbehavingServer.reply(status: .ok, #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"ada@example.com"}"#)
        }
        defer { Task { await server.stop() } }
        var settings = ActionCodeSettings(url: "https://www.example.com/checkout?cartId=1234", handleCodeInApp: true, iOSBundleID: "com.example.ios", linkDomain: "links.example.com")
        settings.androidPackageName = "com.example.android"
        settings.androidInstallIfNotAvailable = true
        settings.androidMinimumVersion = "12"
        let request = SendOobCodeRequest(requestType: .passwordReset, email: "ada@example.com", settings: settings, clientType: .iOS)
        let response = try await server.transport().sendOobCode(request, locale: "fr")
        #expect(response.email == "ada@example.com")
        #expect(await seen.uri == "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key")
        #expect(await seen.locale == "fr")
        let json = try #require(try JSONSerialization.jsonObject(with: Data((await seen.body).utf8)) as? [String: Any])
        #expect(json["requestType"] as? String == "PASSWORD_RESET")
        #expect(json["continueUrl"] as? String == "https://www.example.com/checkout?cartId=1234")
        #expect(json["iOSBundleId"] as? String == "com.example.ios")
        #expect(json["androidPackageName"] as? String == "com.example.android")
        #expect(json["androidInstallApp"] as? Bool == true)
        #expect(json["androidMinimumVersion"] as? String == "12")
        #expect(json["canHandleCodeInApp"] as? Bool == true)
        #expect(json["linkDomain"] as? String == "links.example.com")
        #expect(json["clientType"] as? String == "CLIENT_TYPE_IOS")
        #expect(json["returnOobLink"] == nil)
    }
}

@Test("an Auth Emulator without serve's clock: advancing fails as unsupported, and connect() does not offer the clock")
func emulatorWithoutClock() async throws {
    let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .notFound, "Not Found") }
    defer { Task { await server.stop() } }
    let transport = await RESTTransport.connect(configuration: server.transport().configuration)
    #expect(!transport.capabilities.controlsClock)
    await #expect(throws: AuthFailure.network(.unsupported("the Auth Emulator at http://127.0.0.1:\(server.port) has no simulated clock (actionflow serve has one)"))) {
        try await transport.advanceClock(by: 60)
    }
    await #expect(throws: AuthFailure.network(.unsupported("the Auth Emulator at http://127.0.0.1:\(server.port) takes its configuration from firebase.json (actionflow serve takes it from here)"))) {
        try await transport.applyProject(try ProjectConfigLoader.loadDefault())
    }
}

@Test("a real Auth Emulator's oobCodes (no text, no times) become mailbox messages with stable times and the simulated project's texts")
func plainEmulatorMailbox() async throws {
    let listing = #"{"oobCodes":[{"email":"ada@example.com","oobCode":"CODE1","oobLink":"http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=fr&oobCode=CODE1&apiKey=fake-api-key","requestType":"PASSWORD_RESET"},{"email":"ada@example.com","oobCode":"CODE2","oobLink":"http://127.0.0.1:9099/emulator/action?mode=signIn&oobCode=CODE2","requestType":"SOMETHING_NEW"}]}"#
    let server = try await MisbehavingServer.start { request in
        request.uri.path == "/emulator/v1/projects/demo-actionflow/oobCodes"
            ? MisbehavingServer.reply(status: .ok, listing)
            : MisbehavingServer.reply(status: .notFound, "Not Found")
    }
    defer { Task { await server.stop() } }
    let transport = server.transport()
    let first = try await transport.mailbox()
    #expect(first.count == 1, "a request type this tool does not know is left out")
    let message = try #require(first.first)
    #expect(message.id == "CODE1")
    #expect(message.oobCode == "CODE1")
    #expect(message.subject == "Réinitialisez votre mot de passe pour demo-actionflow", "the email's language is the link's")
    #expect(message.body.hasPrefix("Bonjour,\n\nCliquez sur ce lien pour réinitialiser le mot de passe demo-actionflow de votre compte ada@example.com."))
    #expect(message.body.contains(message.link))
    #expect(message.locale == "fr")
    let embedded = EmbeddedTransport(configuration: try ProjectConfigLoader.loadDefault())
    _ = try await embedded.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "alice@example.com"), locale: "fr")
    #expect(try await embedded.mailbox().first?.subject == "Réinitialisez votre mot de passe pour demo-actionflow", "the same text the simulated project sends")
    try await Task.sleep(for: .milliseconds(20))
    #expect(try await transport.mailbox().first?.sentAt == message.sentAt, "polling again keeps the time it was first seen")
}

actor RequestCounter {
    private(set) var count = 0
    func increment() { count += 1 }
}

actor SeenRequest {
    private(set) var uri = ""
    private(set) var locale: String?
    private(set) var body = ""
    func record(uri: String, locale: String?, body: String) {
        self.uri = uri
        self.locale = locale
        self.body = body
    }
}

@Suite("REST transport: TLS and DNS failures")
struct TLSAndDNSFailureTests {
    @Test("a TLS handshake with a server that speaks plain HTTP fails as a TLS failure, not a hang or a crash")
    func tlsHandshakeFailure() async throws {
        let server = try await MisbehavingServer.start { _ in MisbehavingServer.reply(status: .ok, "{}") }
        defer { Task { await server.stop() } }
        let transport = server.transport()
        // The HTTP client's own outcome for https:// to a plain HTTP port on loopback.
        var caught: (any Error)?
        do {
            _ = try await HTTPClientExchange.exchange(method: "GET", url: "https://127.0.0.1:\(server.port)/", headers: [:], body: nil, backstopSeconds: 5)
        } catch {
            caught = error
        }
        let failure = transport.networkFailure(from: try #require(caught))
        guard case .tlsFailure(let message) = failure else {
            Issue.record("expected a TLS failure, got \(failure)")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test("over real sockets: a host that does not resolve, a connection closed unanswered, and a reply that is not HTTP each get their own failure")
    func realSocketFailures() async throws {
        let unresolvable = loopbackTransport(host: "nonexistent.invalid", port: 9099, timeout: 10)
        await #expect(throws: AuthFailure.network(.dnsFailure(host: "nonexistent.invalid:9099"))) {
            try await unresolvable.lookup(LookupRequest(idToken: "t"))
        }
        let closing = try RawReplyServer(reply: [])
        await #expect(throws: AuthFailure.network(.connectionLost("127.0.0.1:\(closing.port) closed the connection before answering"))) {
            try await loopbackTransport(port: closing.port, timeout: 10).lookup(LookupRequest(idToken: "t"))
        }
        let notHTTP = try RawReplyServer(reply: Array("SSH-2.0-OpenSSH_9.2\r\nnot http\r\n\r\n".utf8))
        defer { withExtendedLifetime((closing, notHTTP)) {} }
        await #expect(throws: AuthFailure.network(.malformedResponse("127.0.0.1:\(notHTTP.port) sent a reply that is not valid HTTP"))) {
            try await loopbackTransport(port: notHTTP.port, timeout: 10).lookup(LookupRequest(idToken: "t"))
        }
    }

    @Test("DNS, refused, timed-out and dropped connections map to their own cases", arguments: [
        (HTTPClientExchange.Outcome.dnsFailure, NetworkFailure.dnsFailure(host: "127.0.0.1:9")),
        (.connectionRefused, .connectionRefused(host: "127.0.0.1:9")),
        (.timedOut, .timedOut(seconds: 2)),
        (.connectionLost, .connectionLost("127.0.0.1:9 closed the connection before answering")),
        (.notHTTP, .malformedResponse("127.0.0.1:9 sent a reply that is not valid HTTP")),
    ])
    func mapping(outcome: HTTPClientExchange.Outcome, expected: NetworkFailure) {
        let transport = RESTTransport(configuration: RESTTransportConfiguration(target: .emulator(host: "127.0.0.1", port: 9), apiKey: "k", projectId: "p", timeout: 2))
        #expect(transport.networkFailure(outcome, message: "") == expected)
    }

    @Test("the engine's words reach the screen with the host, the API key masked and control characters gone")
    func engineMessageIsSanitized() {
        let transport = RESTTransport(configuration: RESTTransportConfiguration(target: .production, apiKey: "k", projectId: "p"))
        let hostile = "certificate refused for https://identitytoolkit.googleapis.com/v1/accounts:lookup?key=AIzaSECRET\u{1B}[2J\u{07}"
        for outcome in [HTTPClientExchange.Outcome.tlsFailure, .otherFailure] {
            let failure = transport.networkFailure(outcome, message: hostile)
            let text: String
            switch failure {
            case .tlsFailure(let message), .connectionLost(let message): text = message
            default:
                Issue.record("\(outcome) gave \(failure)")
                continue
            }
            #expect(text.hasPrefix("identitytoolkit.googleapis.com: certificate refused"))
            #expect(!text.contains("AIzaSECRET"))
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
        }
    }
}

/// The headers of the latest request a test server saw.
actor SeenHeaders {
    private var headers = HTTPFields()
    func record(_ fields: HTTPFields) { headers = fields }
    func value(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}

/// A loopback TCP server that answers every connection with fixed bytes (none: it just closes)
/// once the request has arrived, on a thread of its own, until it is released.
final class RawReplyServer: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32

    init(reply: [UInt8]) throws {
        (descriptor, port) = try RefusingPort.boundLoopbackSocket()
        guard listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        let listening = descriptor
        Thread.detachNewThread {
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 65536)
                _ = read(connection, &request, request.count)
                _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
