import Foundation
import TestSupport
import Testing

/// `serve --inspect` in a real terminal, with a real client: the REST transport playing story 1
/// against it over loopback, call by call on screen, then `q`, the saved session and its export.
@Suite("serve --inspect in a real terminal (tmux)", .serialized, .onDedicatedThread)
struct ServeInspectEndToEndTests {
    static let marker = ServeProgramProcess.marker

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-e2e-inspect-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The port the interface's status line names.
    func port(_ tmux: TmuxSession) throws -> Int {
        tmux.waitFor(Self.marker)
        let screen = tmux.screen()
        let start = try #require(screen.range(of: Self.marker)).upperBound
        return try #require(Int(screen[start...].prefix { $0.isNumber }))
    }

    /// Story 1 played by the REST transport against the server at `port`.
    func playStory(port: Int) throws {
        let run = try Spawn.run(BuiltBinary.url.path, ["run", "password-reset-in-app", "--quiet", "--transport", "rest", "--emulator", "127.0.0.1:\(port)"], capture: true)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("PASS"), "\(run.output)")
    }

    @Test("at 80x24, a client's calls appear as they are answered; q stops the server and writes --save, which export draws")
    func watchesAndSaves() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(at: base) }
        let saved = base.appendingPathComponent("live.json").path
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["serve", "--inspect", "--port", "0", "--save", saved])
        let port = try port(tmux)
        tmux.waitFor("Live traffic", "● live", "So far: 0 calls")
        try playStory(port: port)
        try tmux.press("5")
        tmux.waitFor("Network", "sendOobCode 200", "resetPassword 200")
        try tmux.press("7")
        // The email serve itself sent, whole: its subject, not only a link found in the traffic.
        tmux.waitFor("Inbox · 1 message", "Reset your password for")
        try tmux.press("x")
        tmux.waitFor("live traffic is read-only")
        try tmux.press("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
        tmux.waitFor("stopped after", "saved")

        let recording = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved))) as? [String: Any])
        #expect(recording["format"] as? String == "actionflow-session")
        let events = try #require(recording["events"] as? [Any])
        #expect(events.count == (recording["times"] as? [Any])?.count)
        #expect(events.count >= 6, "the story's calls and its link")
        let diagram = try Spawn.run(BuiltBinary.url.path, ["export", saved, "--format", "mermaid"], capture: true)
        #expect(diagram.status == 0, "\(diagram.output)")
        #expect(diagram.output.contains("sequenceDiagram"))
        #expect(diagram.output.contains("sendOobCode"))
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(!text.contains("correct-horse"), "no password from the traffic in clear")
        // The saved session holds the mail serve sent, its link and so its continue URL.
        #expect(diagram.output.contains("continueUrl https://www.example.com/articles/42"), "\(diagram.output)")
        let report = try Spawn.run(BuiltBinary.url.path, ["export", saved, "--format", "markdown"], capture: true)
        #expect(report.output.contains("- To: `bob@example.com`"), "\(report.output)")
        #expect(!report.output.contains("No email was sent."))
    }

    @Test("with --upstream the calls go on to the other server, whose answers the client gets and the screen shows")
    func forwardsUpstream() throws {
        let upstream = try ServeProgramProcess(["serve", "--as", "production"])
        let upstreamPort = upstream.port

        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["serve", "--inspect", "--port", "0", "--upstream", "127.0.0.1:\(upstreamPort)"])
        let port = try port(tmux)
        try playStory(port: port)
        try tmux.press("5")
        tmux.waitFor("Network", "sendOobCode 200", "resetPassword 200", "→ 127.0.0.1:\(upstreamPort)")
        try tmux.press("4")
        tmux.waitFor("Link anatomy", "resetPassword")
        try tmux.press("q")
        #expect(tmux.waitForExit() == 0)
        // The upstream logs one line per request it answered: the story's calls reached it.
        let log = upstream.stop()
        #expect(log.contains("/identitytoolkit.googleapis.com/v1/accounts:sendOobCode 200"), "\(log)")
        #expect(log.contains("/identitytoolkit.googleapis.com/v1/accounts:resetPassword 200"), "\(log)")
    }
}
