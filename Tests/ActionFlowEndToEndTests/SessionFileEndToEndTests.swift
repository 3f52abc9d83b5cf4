import Foundation
import TestSupport
import Testing

/// Session files with the built binary in a real terminal: killed mid-flow and reopened,
/// prepared headless and opened, and a corrupt file refused untouched.
@Suite("Session files in a real terminal (tmux)", .serialized, .onDedicatedThread)
final class SessionFileEndToEndTests {
    /// The test's folder: it outlives the test's tmux sessions, and is removed once the test ends.
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-e2e-session-\(UUID().uuidString.prefix(8))")

    deinit { try? FileManager.default.removeItem(at: base) }

    func folder() throws -> URL {
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base
    }

    @Test("killed with SIGKILL after the email was sent, the reopened session has it, and its link completes the flow at /articles/42")
    func survivesKill() throws {
        let path = try folder().appendingPathComponent("demo.json").path
        do {
            let tmux = try TmuxSession(arguments: ["--session", path])
            tmux.waitFor("Passing state in email actions", "Free exploration")
            try tmux.press("1")
            tmux.waitFor("Sign in", "to continue to /articles/42")
            try tmux.press("Down", "Down", "Down", "Enter")
            tmux.waitFor("We email a link that brings you", "Send reset email")
            try tmux.press("Down", "Enter")
            tmux.waitFor("· email sent", "sendOobCode PASSWORD_RESET")
            let pid = try #require(tmux.pid)
            #expect(kill(pid, SIGKILL) == 0)
            // The wrapper shell records the status once the program is gone (a killed program
            // leaves the screen as it was, so the screen cannot tell). The shell creates the
            // file before it writes the line.
            let deadline = Date().addingTimeInterval(10)
            while tmux.file("status")?.hasSuffix("\n") != true, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(tmux.file("status")?.hasPrefix("137") == true, "killed by SIGKILL")
        }
        let reopened = try TmuxSession(arguments: ["--session", path])
        reopened.waitFor("· email sent", "sendOobCode PASSWORD_RESET", "Sign in")
        try reopened.finishResetFromInbox()
        try reopened.pressShortcut("q")
        #expect(reopened.waitForExit() == 0)
        reopened.expectTerminalRestored()
    }

    @Test("a session prepared with run --save opens in the interface at the saved screen, mid-flow")
    func preparedHeadless() throws {
        let directory = try folder()
        let scenario = directory.appendingPathComponent("prepare.yaml")
        try """
        name: prepared for the review
        settings: {handleCodeInApp: true, iOSBundleID: com.example.ios}
        steps:
          - open: /articles/42
          - forgotPassword
          - requestPasswordReset: alice@example.com
          - expect: {mailbox: 1, flowStep: emailSent}
        """.write(to: scenario, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("prepared.json").path
        let run = try Spawn.run(BuiltBinary.url.path, ["run", scenario.path, "--quiet", "--save", path], capture: true)
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: path))
        let tmux = try TmuxSession(arguments: ["--session", path])
        tmux.waitFor("Sign in", "· email sent", "mailbox: 1 new, 1 in all")
        try tmux.finishResetFromInbox()
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("a corrupt session file is refused with the reason, and left byte for byte as it was")
    func corruptFileRefused() throws {
        let path = try folder().appendingPathComponent("corrupt.json").path
        let corrupt = Data("{\"format\": \"actionflow-session\", \"version\": 1, \"transport\": \"embedded\", \"start\": {\"wor".utf8)
        try corrupt.write(to: URL(fileURLWithPath: path))
        let tmux = try TmuxSession(width: 240, arguments: ["--session", path])
        tmux.waitFor("session file", "is not JSON, or is cut short")
        #expect(tmux.waitForExit() == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == corrupt)
        let headless = try Spawn.run(BuiltBinary.url.path, ["run", "password-reset-in-app", "--save", path], capture: true)
        #expect(headless.status == 2)
        #expect(headless.output.contains("already exists: add --force to replace it"), "\(headless.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == corrupt, "run --save never writes over a file without --force")
    }
}

/// Replays and presenter stepping, in a real terminal.
@Suite("Replay in a real terminal (tmux)", .serialized, .onDedicatedThread)
struct ReplayEndToEndTests {
    @Test("replay: n plays the next step with the world's replies, b steps back, g plays to the end at /articles/42; the replay changes nothing")
    func replayScenario() throws {
        let tmux = try TmuxSession(arguments: ["replay", "password-reset-in-app", "--speed", "50"])
        tmux.waitFor("replay password-reset-in-app", "step 0/")
        try tmux.press("n")
        tmux.waitFor("step 1/", "step 1: Opens /articles/42 in the app")
        try tmux.press("n")
        tmux.waitFor("step 2/")
        try tmux.press("b")
        tmux.waitFor("step 1/")
        try tmux.press("m")
        tmux.waitFor("a replay is read-only")
        try tmux.press("g")
        tmux.waitFor("The Newsletter  /articles/42", "step 8/8", "passwordReset complete: resumed at /articles/42", timeout: 20)
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("replay: Enter on a field types nothing into it, the keys after it still step and quit, and the key bar offers no reset")
    func replayDoesNotTrap() throws {
        let tmux = try TmuxSession(arguments: ["replay", "password-reset-in-app", "--speed", "50"])
        tmux.waitFor("replay password-reset-in-app", "step 0/")
        try tmux.press("n", "n")
        tmux.waitFor("step 2/")
        try tmux.press("Enter")
        tmux.waitFor("a replay is read-only")
        #expect(!tmux.screen().contains("R reset"))
        try tmux.press("b")
        tmux.waitFor("step 1/")
        try tmux.press("n")
        tmux.waitFor("step 2/")
        #expect(!tmux.screen().contains("bn"), "keys went into a field")
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("presenter: b steps back a scenario step, rebuilding the session")
    func presenterStepsBack() throws {
        let tmux = try TmuxSession(arguments: ["--scenario", "password-reset-in-app"])
        // The opening card tells the story; n begins, and each n plays an action with its checks.
        tmux.waitFor("▶ Password reset in app", "step 0/8", "User story 1 on an iPhone", "n begin")
        try tmux.press("n")
        tmux.waitFor("next (n): Opens /articles/42 in the app")
        try tmux.press("n")
        tmux.waitFor("step 1/8", "Sign in", "✓ on the sign-in screen")
        try tmux.press("n")
        tmux.waitFor("step 2/8", "INVALID_PASSWORD", "bob@example.com", "✓ refused: INVALID_PASSWORD")
        try tmux.press("b")
        tmux.waitFor("step 1/8")
        #expect(!tmux.screen().contains("INVALID_PASSWORD"), "the failed sign-in is undone")
        // The header names the step now on screen, not the scenario.
        #expect(tmux.screen().contains("Opens /articles/42 in the app"))
        // q in an unfinished presentation asks; y quits.
        try tmux.pressShortcut("q")
        tmux.waitFor("End the presentation?")
        try tmux.press("y")
        #expect(tmux.waitForExit() == 0)
    }
}
