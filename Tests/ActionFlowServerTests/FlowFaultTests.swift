import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Hummingbird
import Testing
import TestSupport

/// The app flow over a REST transport whose server misbehaves: each fault ends in a banner the
/// user can retry from, nothing stays busy, and nothing is sent twice on its own.
@Suite("flow over REST: faults end in a recoverable state")
struct FlowFaultTests {
    enum Fault: String, CaseIterable, Sendable {
        case notListening, stalls, status500, invalidJSON, missingFields
    }

    static func driver(_ transport: any AuthTransport) throws -> SessionDriver {
        let project = try ProjectConfigLoader.loadDefault()
        let app = AppState(device: .iPhone, settings: ActionCodeSettings(url: "https://www.example.com/checkout?cartId=1234", iOSBundleID: "com.example.ios"))
        return SessionDriver(session: .remote(project: project, app: app, now: nil), runner: .remote(RemoteEffects(transport: transport, apiKey: project.apiKey)))
    }

    @Test("a reset request that fails offers retry", arguments: Fault.allCases)
    func faultIsRecoverable(_ fault: Fault) async throws {
        let sends = RequestCounter()
        let server = try await MisbehavingServer.start { _ in
            await sends.increment()
            switch fault {
            case .notListening: return MisbehavingServer.reply(status: .ok, "{}")
            case .stalls:
                try await Task.sleep(for: .seconds(30))
                return MisbehavingServer.reply(status: .ok, "{}")
            case .status500: return MisbehavingServer.reply(status: .internalServerError, "upstream exploded")
            case .invalidJSON: return MisbehavingServer.reply(status: .ok, "<html>captive portal</html>")
            case .missingFields: return MisbehavingServer.reply(status: .ok, "[1, 2, 3]")
            }
        }
        defer { Task { await server.stop() } }
        let refusing = fault == .notListening ? try RefusingPort() : nil
        defer { withExtendedLifetime(refusing) {} }
        // The stalling server needs a timeout well below its 30 s, yet long enough for a loaded
        // machine to deliver the request first; the others answer at once.
        let timeout: TimeInterval = fault == .stalls ? 5 : 10
        let transport = refusing?.transport(timeout: timeout) ?? server.transport(timeout: timeout)

        var driver = try Self.driver(transport)
        await driver.send(.passwordResetRequested(email: "alice@example.com"))
        let state = driver.session.app
        let banner = try #require(state.banner, "a failure must show a banner")
        #expect(banner.code == nil, "a network failure has no server code")
        guard case .call(.sendOobCode(let request, _), .app)? = banner.retry else {
            Issue.record("the banner offers no retry of the send: \(String(describing: banner.retry))")
            return
        }
        #expect(request.email == "alice@example.com")
        #expect(state.busy.isEmpty, "nothing may stay busy: \(state.busy)")
        // The server counts a request when its handler runs, which a loaded machine may delay
        // past the client's timeout: wait for it, then a little longer for any repeat.
        let expected = fault == .notListening ? 0 : 1
        let deadline = ContinuousClock.now + .seconds(10)
        while await sends.count < expected, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(200))
        let sent = await sends.count
        #expect(sent == expected, "a send is never repeated automatically: \(sent) sends")
        #expect(!UntrustedText.needsSanitizing(banner.message))
    }

    @Test("retry after the server recovers: the email is sent once more, and only then")
    func retryAfterRecovery() async throws {
        let sends = RequestCounter()
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        // In front of serve: the first send fails with 503, every other call passes through.
        let proxy = try await MisbehavingServer.start { request in
            if request.uri.path.hasSuffix("accounts:sendOobCode") {
                await sends.increment()
                if await sends.count == 1 { return MisbehavingServer.reply(status: .serviceUnavailable, "try later") }
            }
            var request = request
            let body = try await request.collectBody(upTo: 65_536)
            // Path and query: serve wants the API key the client sent.
            let answer = try await fixture.http(request.method.rawValue, request.uri.description, body: String(buffer: body))
            return MisbehavingServer.reply(status: .init(code: answer.status), answer.body)
        }
        defer { Task { await proxy.stop() } }

        var driver = try Self.driver(proxy.transport())
        await driver.send(.passwordResetRequested(email: "alice@example.com"))
        #expect(driver.session.app.banner?.retry != nil)
        #expect(try await fixture.rest.mailbox().isEmpty)

        await driver.send(.retryTapped)
        #expect(driver.session.app.banner == nil)
        #expect(await sends.count == 2)
        let mail = try await fixture.rest.mailbox()
        #expect(mail.count == 1)
        #expect(mail.first?.to == "alice@example.com")
    }
}
