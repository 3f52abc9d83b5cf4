import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

/// The interface `serve --inspect` opens: traffic comes in as `.observed`, keys only look.
@MainActor
@Suite("The interface watching live traffic")
struct WatchingInterfaceTests {
    static let base = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:"

    static func exchange(_ method: String, _ url: String, request: String = "", status: Int = 200, response: String) -> CapturedExchange {
        CapturedExchange(entry: 0, startedDateTime: nil, time: 2, method: method, url: url, requestHeaders: ["content-type": "application/json"],
                         requestBody: Data(request.utf8), status: status, responseHeaders: ["content-type": "application/json"], responseBody: Data(response.utf8))
    }

    static let send = exchange("POST", base + "sendOobCode?key=k", request: #"{"requestType":"PASSWORD_RESET","email":"ana@example.com","continueUrl":"https://www.example.com/cart"}"#,
                               response: #"{"email":"ana@example.com"}"#)
    static let listing = exchange("GET", "http://127.0.0.1:9099/emulator/v1/projects/demo-actionflow/oobCodes",
                                  response: #"{"oobCodes":[{"email":"ana@example.com","oobCode":"c1","oobLink":"http://127.0.0.1:9099/emulator/action?mode=resetPassword&oobCode=c1&apiKey=k&lang=en","requestType":"PASSWORD_RESET"}]}"#)

    func watching() throws -> (LoopHarness, LiveCapture) {
        let capture = LiveCapture(project: try ProjectConfigLoader.loadDefault(), source: "serve --inspect")
        return (LoopHarness(Interface(watching: capture.start, colorMode: .full256, width: 80, height: 24, notice: "listening: export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099")), capture)
    }

    @Test("at 80x24 it says it is live; each call and link shows as it comes, in the phone, the Network pane and the mailbox")
    func showsTraffic() throws {
        var (loop, capture) = try watching()
        #expect(loop.screen.contains("Live traffic"))
        #expect(loop.headerLine.contains("● live"))
        #expect(loop.statusLine.contains("FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099"))
        loop.send(.observed(capture.read(Self.send, at: Date())))
        loop.send(.observed(capture.read(Self.listing, at: Date())))
        #expect(loop.screen.contains("So far: 1 call, 1 action link."))
        loop.keys(.tab, .character("5"))
        #expect(loop.screen.contains("#1 sendOobCode 200"))
        loop.keys(.character("7"))
        #expect(loop.screen.contains("Inbox · 1 message"))
    }

    @Test("keys that would change the session say it is read-only and what works; q quits")
    func readOnly() throws {
        let (loop, _) = try watching()
        loop.keys(.character("x"))
        #expect(loop.statusLine.contains("live traffic is read-only"))
        loop.keys(.character("q"))
        #expect(loop.commands.contains(.quit))
    }

    @Test("thousands of calls: the interface keeps the latest, counts the rest, and says so")
    func staysBounded() throws {
        var (loop, capture) = try watching()
        for _ in 0..<5_000 {
            _ = loop.model.update(.observed(capture.read(Self.send, at: Date())), panes: loop.panes)
        }
        loop.draw()
        #expect(loop.model.driver.events.count < Interface.watchedEvents + Interface.forgottenAtOnce)
        #expect(loop.model.session.journal.count <= Interface.watchedEvents + Interface.forgottenAtOnce)
        #expect(loop.screen.contains("So far: 5000 calls"), "\(loop.screen)")
        let counted = loop.model.session.earlier?.calls["sendOobCode 200"] ?? 0
        #expect(counted + loop.model.session.journal.count == 5_000, "every call is kept or counted")
        loop.keys(.tab, .character("1"))
        #expect(loop.screen.contains("earlier facts summarised"))
    }

    @Test("hostile text in live traffic reaches no terminal: escapes and bidi controls are shown inert, secrets masked")
    func hostileTraffic() throws {
        var (loop, capture) = try watching()
        let hostile = Self.exchange("POST", Self.base + "sendOobCode?key=k",
                                    request: #"{"requestType":"PASSWORD_RESET","email":"\u001b]52;c;ZXZpbA==\u0007mallory\u202e@example.com","continueUrl":"https://www.example.com/\u001b[2J?oobCode=SECRETCODE123"}"#,
                                    status: 400, response: #"{"error":{"code":400,"message":"EMAIL_NOT_FOUND \u001b[31m : \u009b2J"}}"#)
        loop.send(.observed(capture.read(hostile, at: Date())))
        loop.keys(.tab)
        for tab in ["1", "5", "8"] {
            loop.keys(.character(Character(tab)))
            let screen = loop.screen
            #expect(!screen.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E }, "tab \(tab)")
            #expect(!screen.contains("SECRETCODE123"), "tab \(tab)")
        }
    }
}
