@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

/// A capture played as a session: its calls in the Network pane and the narration, its action
/// links in the mailbox and the Link pane, replayable one step at a time, reviewed like any flow,
/// and saved without the capture's passwords or tokens.
@Suite("a HAR capture is a session: replay, export and the review read it")
struct CaptureSessionTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ActionFlowCommandTests/Fixtures/Captures")

    static func recording(_ name: String) throws -> SessionRecording {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: captures.appendingPathComponent(name)), project: project)
        return flow.recording(project: project, source: name)
    }

    @Test("the recorded emulator capture: nine calls in order in the Network pane and the narration, three links in the mailbox")
    func recordedCapture() throws {
        let recording = try Self.recording("serve-emulator.har")
        let session = recording.current
        #expect(session.capture == "serve-emulator.har")
        // Under the v1 request lines a live session records, so that export --format curl repeats them.
        #expect(session.exchanges.map(\.operation) == [.signUp, .signInWithPassword, .signInWithPassword, .sendOobCode, .sendOobCode, .sendOobCode, .signInWithPassword, .sendOobCode, .resetPassword])
        #expect(session.exchanges[0].request == "POST /v1/accounts:signUp?key=…(masked)")
        #expect(session.exchanges.map(\.status) == [200, 400, 400, 200, 200, 400, 400, 200, 200])
        #expect(session.narration.contains("sendOobCode (emulator) PASSWORD_RESET for ios@example.com: 400 Invalid content-type: application/x-www-form-urlencoded"),
                "the emulator refuses a form body")
        let script = CurlScript(title: "serve-emulator.har", session: session, revealsSecrets: false).script
        let commented = script.split(separator: "\n").filter { $0.hasPrefix("# ") && $0.dropFirst(2).first?.isNumber == true }
        #expect(commented.count == 9, "a curl command per captured call")
        #expect(script.contains("# entry 11: opens the resetPassword link: HTTP 400"), "and the link the capture opened")
        #expect(script.contains("a capture saved as a session keeps no value sent"), "a saved capture has nothing to reveal")
        let narration = session.narration
        #expect(narration.contains("signInWithPassword (v3 verifyPassword, emulator) for ios@example.com: 400 INVALID_PASSWORD"))
        #expect(narration.contains { $0.hasPrefix("action link: resetPassword link, listed by the emulator") })
        #expect(session.sentMail.map(\.to) == ["ios@example.com", "android@example.com", "bob@example.com"])
        #expect(session.sentMail.map(\.requestType) == [.passwordReset, .emailSignIn, .passwordReset])
        #expect(session.app.lastLink?.anatomy?.mode == "resetPassword")
        // Story 1 over the REST transport, as far as the emulator takes it: its code checked in the web widget.
        #expect(narration.contains("resetPassword (emulator) for bob@example.com, checking the code only (no new password): 200"))
        // The journal's times are the capture's.
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent("serve-emulator.har")), project: project)
        let first = try #require(flow.operations.first?.exchange.startedDateTime.flatMap(CapturedFlow.parseDate))
        #expect(session.journal.first?.at == first)
        #expect(session.exchanges.first?.startedAt == first)
    }

    @Test("a finding comes right after what it is about, so that a replay meets it at that step, as a live session shows it")
    func findingsInline() throws {
        let events = try Self.recording("serve-emulator.har").events
        let facts: [CapturedFact] = events.compactMap { if case .captured(let step) = $0 { step.fact } else { nil } }
        let finding = try #require(facts.firstIndex { if case .finding(let found, "operations[3]") = $0 { found.code == "continue-url.unauthorized" } else { false } })
        let calls = facts.indices.filter { if case .call = facts[$0] { true } else { false } }
        // After the fourth call, before the fifth.
        #expect(calls[3] < finding && finding < calls[4], "\(facts)")
    }

    @Test("replay steps through the capture and back: each position is the session at that entry")
    func replaySteps() throws {
        var replay = Replay(try Self.recording("serve-emulator.har"))
        replay.seek(to: 2)
        #expect(replay.session.exchanges.count == 2)
        #expect(replay.session.sentMail.isEmpty)
        replay.seek(to: replay.count)
        #expect(replay.session == replay.recording.current)
        replay.back()
        #expect(replay.position == replay.count - 1)
    }

    @Test("a saved capture holds no password or token the capture sent")
    func savedCaptureHasNoSecrets() throws {
        let encoded = String(decoding: try SessionFile.encode(try Self.recording("serve-emulator.har")), as: UTF8.self)
        for secret in ["secret-123", "wrong-password", "not-my-password", "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0"] {
            #expect(!encoded.contains(secret), "\(secret) is in the saved session")
        }
        let decoded = try SessionFile.decode(Data(encoded.utf8), path: "capture.json", transport: nil)
        #expect(decoded.current == (try Self.recording("serve-emulator.har")).current)
    }

    @Test("the review of a capture judges what the capture shows, not the tool's own project")
    func reviewOfACapture() throws {
        let session = try Self.recording("serve-emulator.har").current
        let checks = Dictionary(uniqueKeysWithValues: SecurityReview(session).checks.map { ($0.id, $0) })
        // The emulator sent an email with https://evil.example/after-reset, but it checks no
        // domain: the capture cannot show what production's check would do.
        #expect(checks["3.7.2"]?.verdict == .notShown)
        #expect(checks["3.7.2"]?.evidence.contains("evil.example") == true)
        #expect(checks["3.7.2"]?.evidence.contains("checks no authorized domain") == true)
        #expect(checks["6.3.8"]?.verdict == .notMet, "signInWithPassword answered EMAIL_NOT_FOUND")
        #expect(checks["6.3.6"]?.verdict == .notMet, "an EMAIL_SIGNIN link was sent")
        let markdown = ReviewReport(title: "serve-emulator.har", session: session).markdown
        #expect(markdown.contains("| continueUrl | `https://evil.example/after-reset` |"))
        #expect(markdown.contains("`continue-url.unauthorized`"))
    }

    @Test("hostile text in a capture is shown defused in the narration and the diagram")
    func hostileCapture() throws {
        let session = try Self.recording("production-hand-written.har").current
        let text = session.narration.joined(separator: "\n") + SequenceDiagram(session).mermaid
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
        #expect(text.contains("lookup"))
    }
}
