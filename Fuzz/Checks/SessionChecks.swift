import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import ActionFlowTUI
import Foundation

/// The session file loader, and what is done with a loaded session. Invariants:
/// - a refused file gets one terminal-safe reason;
/// - a loaded session saves and loads back equal;
/// - it goes on: events reduce without a crash, and every tab of the interface draws whole,
///   terminal-safe frames of it;
/// - its curl script, masked or not, holds nothing a terminal obeys, and a command per exchange;
/// - its diagram and review report hold nothing a terminal obeys, and its cast is written.
enum SessionChecks {
    static func check(_ data: Data) async -> [String] {
        var violations = Violations()
        let recording: SessionRecording
        do {
            recording = try SessionFile.decode(data, path: "fuzz.json", transport: nil)
        } catch {
            if let bad = ScreenSafety.firstForbidden(in: error.description) {
                violations.fail("the error \(ScreenSafety.describe(error.description)) holds \(bad)")
            }
            return violations.list
        }
        checkRoundTrip(recording, into: &violations)
        checkCurlScript(recording.current, into: &violations)
        checkReviewExports(recording, into: &violations)
        var driver = SessionDriver(recording, remote: nil)
        var ui = UIState(colorMode: .full256)
        ui.mode = .main
        checkFrames(driver.session, ui: &ui, into: &violations)
        let message = driver.session.inbox.last?.id ?? "none"
        for event: AppEvent in [.mailboxOpened, .messageOpened(id: message), .linkTapped(messageID: message), .continueTapped, .clockAdvanceRequested(seconds: 3600)] {
            await driver.send(event)
        }
        checkFrames(driver.session, ui: &ui, into: &violations)
        checkRoundTrip(SessionRecording(driver), into: &violations)
        return violations.list
    }

    static func checkRoundTrip(_ recording: SessionRecording, into violations: inout Violations) {
        do {
            let again = try SessionFile.decode(SessionFile.encode(recording), path: "again.json", transport: recording.transport)
            violations.expect(again == recording, "a session saved and loaded back is different")
        } catch {
            violations.fail("a session does not save and load back: \(error)")
        }
    }

    static func checkCurlScript(_ session: Session, into violations: inout Violations) {
        let repeatable = session.exchanges.filter { $0.operation != nil }.count
        for reveal in [false, true] {
            let script = CurlScript(title: "fuzz", session: session, revealsSecrets: reveal).script
            violations.expectSafeLines(script, of: "the curl script")
            let commands = script.split(separator: "\n").filter { $0.hasPrefix("curl ") }.count
            violations.expect(commands == repeatable, "the curl script has \(commands) commands for \(repeatable) exchanges")
        }
    }

    static func checkReviewExports(_ recording: SessionRecording, into violations: inout Violations) {
        let drawing = SessionExport.Drawing(columns: 41, rows: 12)
        for format in [SessionExport.Format.mermaid, .markdown] {
            let text = SessionExport.text(format, recording: recording, title: "fuzz", drawing: drawing)
            violations.expectSafeLines(text, of: "the \(format.rawValue) export")
        }
        // A cast is terminal output by design: it only has to be written.
        let cast = SessionExport.text(.cast, recording: recording, title: "fuzz", drawing: drawing)
        violations.expect(cast.hasPrefix("{"), "the cast export has no asciicast header")
        // No text of the session becomes markup: the deck has its one script and one picture a step.
        let deck = SessionExport.text(.html, recording: recording, title: "fuzz </svg><script>", drawing: drawing)
        let steps = Replay(recording).stepCount + 1
        violations.expect(deck.components(separatedBy: "<script").count == 2, "the deck has a script it did not write")
        violations.expect(deck.components(separatedBy: "</svg>").count == steps + 1, "the deck's pictures do not close once a step")
    }

    static func checkFrames(_ session: Session, ui: inout UIState, into violations: inout Violations) {
        for tab in InspectorTab.allCases {
            ui.tab = tab
            for (width, height) in [(100, 30), (41, 12)] {
                let frame = MainView.render(session: session, ui: ui, transport: session.isEmbedded ? "embedded" : "rest", width: width, height: height)
                TextChecks.checkRows(frame, text: "the \(tab) tab", into: &violations)
            }
        }
    }
}
