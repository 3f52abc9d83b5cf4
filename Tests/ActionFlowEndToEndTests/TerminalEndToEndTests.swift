import Foundation
import TestSupport
import Testing

/// The built binary in a real terminal (tmux): stories played from the keyboard alone,
/// resizing, every way out, and hostile input.
@Suite("Real terminal (tmux)", .serialized, .onDedicatedThread)
struct TerminalEndToEndTests {
    /// From the welcome screen to the sign-in form of story 1.
    private func startStoryOne(_ tmux: TmuxSession, choice: String = "1") throws {
        tmux.waitFor("Passing state in email actions", "Free exploration")
        try tmux.press(choice)
        tmux.waitFor("Sign in", "to continue to /articles/42", "alice@example.com")
    }

    /// Story 1 from the refused password: forgot password, reset by email, back at the article, quit.
    private func resetAfterWrongPasswordAndQuit(_ tmux: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.press("Down", "Enter")
        tmux.waitFor("Forgot password", "Send reset email", sourceLocation: sourceLocation)
        try tmux.press("Down", "Enter")
        tmux.waitFor("· email sent", "sendOobCode PASSWORD_RESET", sourceLocation: sourceLocation)
        try tmux.finishResetFromInbox(also: ["alice@example.com ✓"], sourceLocation: sourceLocation)
        // The Sequence pane draws the flow just played, following its newest arrows.
        try tmux.pressShortcut("8")
        tmux.waitFor("Seq", "┬ Firebase Auth (demo-actionflow)", "│   ├──▶│", "│   │◀╌╌┤", "resumed at", sourceLocation: sourceLocation)
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0, sourceLocation: sourceLocation)
        tmux.expectTerminalRestored(sourceLocation: sourceLocation)
    }

    /// Story 1 up to its first failure: a wrong password refused.
    private func startStoryOneWithWrongPassword(_ tmux: TmuxSession, password: String = "nope") throws {
        try startStoryOne(tmux)
        try tmux.press("Down", "Enter")
        try tmux.type(password)
        try tmux.press("Enter", "Enter")
        tmux.waitFor("INVALID_PASSWORD")
    }

    @Test("Story 1 in the app: wrong password, reset by email, back at the article")
    func storyOneInApp() throws {
        let tmux = try TmuxSession()
        try startStoryOneWithWrongPassword(tmux, password: "not-my-password")
        try resetAfterWrongPasswordAndQuit(tmux)
    }

    @Test("c in the Network pane copies the exchange as curl through OSC 52, which tmux keeps as a buffer; the password stays masked")
    func copyExchangeAsCurl() throws {
        let tmux = try TmuxSession(width: 120, height: 36, configuration: ["set -g set-clipboard on"])
        try startStoryOneWithWrongPassword(tmux, password: "not-my-password")
        try tmux.pressShortcut("5")
        tmux.waitFor("Network · 1 exchange", "c copy as curl")
        try tmux.pressShortcut("c")
        tmux.waitFor("copied exchange 1 as curl (secrets masked)")
        let copied = try #require(tmux.newestBuffer())
        #expect(copied.hasPrefix("# 1. accounts:signInWithPassword: HTTP 400 INVALID_PASSWORD\n"), "\(copied)")
        #expect(copied.contains("\ncurl -sS "))
        #expect(copied.contains("\"password\":\"'\"$PASSWORD_1\"'\""))
        #expect(!copied.contains("not-my-password"))
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("Story 2 through the web widget: verify, Continue, reload, subscribe")
    func storyTwoWebWidget() throws {
        let tmux = try TmuxSession()
        tmux.waitFor("Free exploration")
        try tmux.press("4")
        tmux.waitFor("Verify your email", "bob@example.com")
        try tmux.press("Enter")
        tmux.waitFor("· email sent", "sendOobCode VERIFY_EMAIL")
        try tmux.tapLatestLink(subject: "Verify your email", then: ["web widget", "Continue", "handledInWebWidget"])
        try tmux.press("Enter")
        tmux.waitFor("The Newsletter", "I have verified: reload")
        try tmux.press("Down", "Enter")
        tmux.waitFor("Subscribe now", "bob@example.com ✓")
        try tmux.press("Enter")
        tmux.waitFor("Subscribed with bob@example.com", "The Newsletter  /subscribe")
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("Two devices side by side: reset asked for on the iPhone, done on the laptop's web widget, then signed in on the iPhone")
    func crossDeviceReset() throws {
        let tmux = try TmuxSession(width: 160, height: 48, arguments: ["--devices", "iphone,laptop"])
        tmux.waitFor("Free exploration")
        try tmux.press("6")
        tmux.waitFor("▶ iPhone · iOS 18", "laptop · Web browser", "d → laptop")
        // On the iPhone: Account, signed out: sign in first; type the email, then Forgot password.
        try tmux.press("Down", "Down", "Down", "Down", "Enter")
        tmux.waitFor("to continue to /account")
        try tmux.press("Enter")
        try tmux.type("bob@example.com")
        try tmux.press("Enter", "Escape", "Down", "Down", "Enter")
        tmux.waitFor("Forgot password", "Send reset email")
        try tmux.press("Down", "Enter")
        tmux.waitFor("· email sent", "On the iPhone: sendOobCode PASSWORD_RESET")
        // On the laptop: the same mailbox, the link opens the web widget.
        try tmux.pressShortcut("d")
        tmux.waitFor("▶ laptop · Web browser", "on the laptop", "d → iPhone")
        try tmux.tapLatestLink(subject: "Reset your password", then: ["web widget · /__/auth/action", "for bob@example.com", "On the laptop: web widget: valid PASSWORD_RESET code"])
        try tmux.press("Enter")
        try tmux.type("correct-horse-battery")
        try tmux.press("Enter", "Enter")
        tmux.waitFor("Password changed", "Continue")
        // The focus is on Continue once the password is saved.
        try tmux.press("Enter")
        tmux.waitFor("⌕ www.example.com/account", "the web app shows the continue URL's path (/account)")
        // Back on the iPhone: still signed out, still on its sign-in form; the new password works.
        try tmux.pressShortcut("d")
        tmux.waitFor("▶ iPhone · iOS 18", "on the iPhone │ signed out")
        try tmux.press("Up", "Up", "Enter")
        try tmux.type("correct-horse-battery")
        try tmux.press("Enter", "Enter")
        tmux.waitFor("The Newsletter  /account", "Password reset · done", "bob@example.com ✓", "On the iPhone: passwordReset complete: resumed at /account")
        // The laptop was not signed in by any of this.
        tmux.waitFor("⌕ www.example.com/account")
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("Keys typed ahead are neither lost nor applied to a stale screen")
    func typeAhead() throws {
        let tmux = try TmuxSession()
        tmux.waitFor("Free exploration")
        try tmux.press("1", "Down", "Enter")
        try tmux.type("typed-ahead")
        try tmux.press("Enter", "3")
        tmux.waitFor("Device", "Changes apply to the next tap", "Password  •••••••••••")
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("Resizing mid-flow re-lays out without losing state; too small says how large")
    func resize() throws {
        let tmux = try TmuxSession()
        try startStoryOneWithWrongPassword(tmux)
        try tmux.resize(width: 80, height: 24)
        tmux.waitFor("INVALID_PASSWORD", "Flow Set Dev Link Net Proj Mail Seq")
        #expect(tmux.screen().split(separator: "\n").allSatisfy { $0.count <= 80 })
        try tmux.resize(width: 60, height: 18)
        tmux.waitFor("Terminal too small", "at least 80×24")
        try tmux.resize(width: 160, height: 48)
        tmux.waitFor("INVALID_PASSWORD", "Flow  Settings  Device  Link", "to continue to /articles/42")
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("A resize storm mid-flow (200 sizes in 2 s, 1×1 to 400×120, keys among them) leaves a whole screen and the flow goes on")
    func resizeStorm() throws {
        let tmux = try TmuxSession()
        try startStoryOneWithWrongPassword(tmux)

        // Sizes from a fixed pseudo-random sequence, with both extremes and the usual ones.
        var seed: UInt64 = 12
        func next(_ range: ClosedRange<Int>) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
        }
        let fixed = [(1, 1), (400, 120), (80, 24), (79, 23), (2, 1), (1, 60), (300, 2), (160, 48)]
        let sizes = (0..<200).map { index in index % 5 == 0 ? fixed[(index / 5) % fixed.count] : (next(1...400), next(1...120)) }
        // Tab keys (harmless in any state) arrive during the storm; one typed while the
        // terminal is too small is dropped, as the screen then asks for a larger terminal.
        let keys: [Int: String] = [40: "2", 90: "5", 140: "4", 190: "3"]
        let started = Date()
        for (index, size) in sizes.enumerated() {
            try tmux.resize(width: size.0, height: size.1)
            if let key = keys[index] { try tmux.press(key) }
            let due = started.addingTimeInterval(Double(index + 1) * 0.01)
            if due > Date() { Thread.sleep(until: due) }
        }
        // The premise, not a speed target: the sizes came as a burst (each is a `tmux` process,
        // slower on a loaded machine), not spread out.
        let stormSeconds = Date().timeIntervalSince(started)
        #expect(stormSeconds < 15, "the storm took \(stormSeconds) s")
        try tmux.resize(width: 100, height: 30)
        tmux.waitFor("INVALID_PASSWORD", "Flow  Set  Dev  Link  Net  Proj  Mail  Seq")

        // Whole: the screen as drawn by diffs after the storm is the screen a full redraw gives.
        let settled = stableScreen(tmux)
        try tmux.press("C-l")
        Thread.sleep(forTimeInterval: 0.3)
        let redrawn = stableScreen(tmux)
        #expect(settled == redrawn, "stray characters after the storm:\n\(settled)\nredrawn:\n\(redrawn)")
        let lines = settled.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 30 && lines.allSatisfy { $0.count <= 100 })
        for line in lines[1..<28] {
            #expect(line.hasSuffix("│") || line.hasSuffix("╮") || line.hasSuffix("╯"), "row broken: \(line)")
        }
        // Keys act again at once, and the flow goes on from where it was (digits focus the
        // inspector; Tab goes back to the phone).
        try tmux.press("3")
        tmux.waitFor("Changes apply to the next tap")
        try tmux.press("1", "Tab")
        try resetAfterWrongPasswordAndQuit(tmux)
    }

    /// The screen once two captures 150 ms apart agree.
    private func stableScreen(_ tmux: TmuxSession) -> String {
        var previous = tmux.screen()
        for _ in 0..<40 {
            Thread.sleep(forTimeInterval: 0.15)
            let current = tmux.screen()
            if current == previous { return current }
            previous = current
        }
        return previous
    }

    @Test("Frames are drawn with the terminal's own strings: 256 colours, 8 colours, none with NO_COLOR, and vt100's delays are not printed",
          arguments: [("tmux-256color", false, "38;5;"), ("xterm", false, "\u{1B}[36m"), ("tmux-256color", true, nil), ("vt100", false, nil)] as [(String, Bool, String?)])
    func terminfoDrawing(term: String, noColor: Bool, colourSequence: String?) throws {
        // An empty NO_COLOR leaves colour on, whatever the environment the tests run in says.
        let tmux = try TmuxSession(environment: ["TERM": term, "NO_COLOR": noColor ? "1" : ""])
        try startStoryOne(tmux)
        tmux.waitFor("Flow  Set  Dev", "Email     alice@example.com")
        let styled = tmux.screenWithStyles()
        #expect(!tmux.screen().contains("$<"), "a terminfo delay was printed as text")
        if let colourSequence {
            #expect(styled.contains(colourSequence), "the frame has no colour in the form the terminal takes")
        } else {
            #expect(styled.range(of: #"\x1B\[(3[0-7]|4[0-7]|38;5;|48;5;)"#, options: .regularExpression) == nil, "colour was drawn where there should be none")
        }
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("Ctrl-C quits and restores the terminal")
    func controlC() throws {
        let tmux = try TmuxSession()
        try startStoryOne(tmux)
        try tmux.press("C-c")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
        #expect(!tmux.screen().contains("Flow  Set"), "the interface is still on the main screen")
    }

    @Test("SIGTERM ends the program with the terminal restored")
    func sigterm() throws {
        let tmux = try TmuxSession()
        try startStoryOne(tmux)
        let pid = try #require(tmux.pid)
        kill(pid, SIGTERM)
        #expect(tmux.waitForExit() == 128 + Int(SIGTERM), "the program ends by SIGTERM, as asked")
        tmux.expectTerminalRestored()
        #expect(!tmux.screen().contains("Flow  Set"))
    }

    @Test("SIGHUP and crash signals (SEGV, ABRT) still leave the terminal as it was found", arguments: [SIGHUP, SIGSEGV, SIGABRT])
    func otherSignals(signal: Int32) throws {
        let tmux = try TmuxSession()
        try startStoryOne(tmux)
        let pid = try #require(tmux.pid)
        kill(pid, signal)
        #expect(tmux.waitForExit() == 128 + Int(signal), "the program ends by the signal it got")
        tmux.expectTerminalRestored()
        #expect(!tmux.screen().contains("Flow  Set"), "the interface is still on the screen")
    }

    @Test("A crash on vt100 restores the terminal without printing terminfo's delays")
    func crashRestoreWithoutDelays() throws {
        let tmux = try TmuxSession(environment: ["TERM": "vt100"])
        try startStoryOne(tmux)
        let pid = try #require(tmux.pid)
        kill(pid, SIGSEGV)
        #expect(tmux.waitForExit() == 128 + Int(SIGSEGV))
        tmux.expectTerminalRestored()
        // vt100's sgr0 ends in the delay `$<2>`, which is for curses to wait, not to print.
        #expect(!tmux.screen().contains("$<"), "a terminfo delay was printed as text")
    }

    @Test("A hostile pasted email cannot move the cursor or break the frame")
    func hostileEmail() throws {
        let tmux = try TmuxSession()
        try startStoryOne(tmux)
        try tmux.press("Enter", "C-u")
        try tmux.paste("evil\u{1B}[2J\u{1B}[31m\u{1B}[10;10H@x.com\u{202E}moc.elgoog")
        try tmux.press("Enter")
        try tmux.type("pw")
        try tmux.press("Enter", "Enter")
        tmux.waitFor("INVALID_EMAIL", "signInWithPassword for")
        let screen = tmux.screen()
        #expect(screen.contains("evil␛[2J␛[31m␛[10;10H@x.com"))
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        // Both panes' right edges stay in place on every body row.
        for line in lines[1..<28] {
            #expect(line.hasSuffix("│") || line.hasSuffix("╮") || line.hasSuffix("╯"), "row broken: \(line)")
        }
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
    }

    @Test("A terminal type curses does not know (a newer terminal over ssh) is drawn with xterm-256color's capabilities, said once in the log and not on screen")
    func unknownTerminalType() throws {
        let tmux = try TmuxSession(environment: ["TERM": "xterm-newer-than-terminfo"])
        try startStoryOne(tmux)
        #expect(!tmux.screen().contains("not known"))
        try tmux.pressShortcut("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
        let logged = try String(contentsOf: tmux.directory.appendingPathComponent("log"), encoding: .utf8)
        let notices = logged.split(separator: "\n").filter { $0.contains("the terminal type 'xterm-newer-than-terminfo' is not known to curses: drawing with xterm-256color's capabilities") }
        #expect(notices.count == 1, "\(logged)")
    }

    @Test("The theme follows the background the terminal reports (tmux answers OSC 11 from its window style), unless --theme or NO_COLOR is given",
          arguments: [("colour231", [], [:], "light"), ("colour16", [], [:], "dark"), ("colour231", ["--theme", "dark"], [:], "dark"),
                      ("colour16", ["--theme", "light"], [:], "light"), ("colour231", [], ["NO_COLOR": "1"], "monochrome")]
            as [(String, [String], [String: String], String)])
    func themeFromBackground(background: String, arguments: [String], environment: [String: String], theme: String) throws {
        // An empty NO_COLOR leaves colour on, whatever the environment the tests run in says.
        let tmux = try TmuxSession(arguments: arguments, environment: ["NO_COLOR": ""].merging(environment) { $1 },
                                   configuration: ["set -g window-style bg=\(background)"])
        tmux.waitFor("Passing state in email actions", "Free exploration")
        // The welcome screen's introduction is muted text: grey 241 on white, 245 on black. The
        // first frame does not wait for the terminal's answer: it is recoloured when it comes.
        let introduction = "Reset a password, verify an email"
        var styled = tmux.screenWithStyles()
        let deadline = Date().addingTimeInterval(3)
        while theme == "light", !styled.contains("\u{1B}[38;5;241m\(introduction)"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            styled = tmux.screenWithStyles()
        }
        switch theme {
        case "light": #expect(styled.contains("\u{1B}[38;5;241m\(introduction)"), "\(styled)")
        case "dark": #expect(styled.contains("\u{1B}[38;5;245m\(introduction)"), "\(styled)")
        default: #expect(styled.range(of: #"\x1B\[(38;5;|48;5;)"#, options: .regularExpression) == nil, "\(styled)")
        }
        try tmux.press("q")
        #expect(tmux.waitForExit() == 0)
        tmux.expectTerminalRestored()
        // Asked only when neither --theme nor NO_COLOR decides.
        let log = tmux.file("log") ?? ""
        let asked = arguments.isEmpty && environment.isEmpty
        let reported = log.split(separator: "\n").first { $0.contains("terminal background") } ?? ""
        if asked {
            // Only a change of theme is worth a line: a black background keeps the dark theme the first frame had.
            #expect(background == "colour16" ? reported.isEmpty : reported.contains("background=#ffffff theme=light"), "\(log)")
        } else {
            #expect(reported.isEmpty && log.contains("background=not reported"), "\(log)")
        }
        #expect(!tmux.screen().contains("rgb:"), "the terminal's reply reached the screen")
    }

    @Test("Without a terminal it says so and points to the headless commands")
    func noTerminal() throws {
        for term in ["dumb", "xterm-256color"] {
            let result = try Spawn.run("/usr/bin/env", ["TERM=\(term)", BuiltBinary.url.path], capture: true)
            #expect(result.status == 1)
            #expect(result.output.contains("needs a terminal"))
            #expect(result.output.contains("actionflow inspect"))
        }
    }
}
