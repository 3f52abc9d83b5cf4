import Foundation
import TestSupport
import Testing

/// Where `swift build` put the `actionflow` binary: next to the test bundle.
enum BuiltBinary {
    static var url: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("actionflow"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("actionflow"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/actionflow"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}

/// Runs a program and waits for it with posix_spawn and waitpid (no run loop involved).
enum Spawn {
    /// Copies a program to run it from elsewhere.
    static func copyProgram(from source: URL, to destination: URL) throws {
        try SpawnedChild.writeProgram(try Data(contentsOf: source), to: destination)
    }

    /// Runs a program to its end: its exit status, and with `capture` its output and errors.
    /// Without, both go to /dev/null: a tmux server it starts lives on and would hold a pipe open.
    static func run(_ path: String, _ arguments: [String], capture: Bool) throws -> (status: Int32, output: String) {
        let finished = try SpawnedChild.start(path, arguments, discardsOutput: !capture, errors: capture ? .intoOutput : .discarded).finishBlocking()
        return (finished.status, String(decoding: finished.output, as: UTF8.self))
    }
}

struct TmuxError: Error, CustomStringConvertible {
    var description: String
}

/// A private tmux server (its own socket) running the built binary in a pane of a fixed size.
/// The wrapper shell records `stty -a` before and after, and the exit status.
final class TmuxSession {
    let socket: String
    let directory: URL
    private static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "tmux"

    /// `configuration`: tmux commands for the server, run before the program starts
    /// (`set -g window-style bg=colour231` is the background tmux reports to an OSC 11 query).
    init(width: Int = 100, height: Int = 30, arguments: [String] = [], environment: [String: String] = [:], configuration: [String] = []) throws {
        socket = "actionflow-test-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let binary = BuiltBinary.url.path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw TmuxError(description: "the actionflow binary is not built at \(binary); run `swift build` first")
        }
        let env = (["LC_ALL": "C.UTF-8", "TERM": "tmux-256color"].merging(environment) { $1 }).map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let args = (arguments + ["--log-file", directory.appendingPathComponent("log").path]).map { "'\($0)'" }.joined(separator: " ")
        let d = directory.path
        let script = "stty -a > '\(d)/before'; sh -c 'echo $$ > \"\(d)/pid\"; exec env \(env.replacingOccurrences(of: "'", with: "")) \"\(binary)\" \(args.replacingOccurrences(of: "'", with: ""))'; echo $? > '\(d)/status'; stty -a > '\(d)/after'; echo ACTIONFLOW-EXITED; sleep 600"
        // The server this starts keeps its output descriptors open: give it none of ours.
        let configurationFile = directory.appendingPathComponent("tmux.conf")
        try configuration.map { $0 + "\n" }.joined().write(to: configurationFile, atomically: true, encoding: .utf8)
        try run(["-f", configurationFile.path, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "main", script], capture: false)
    }

    deinit {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    private func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let result = try Spawn.run(Self.tmux, ["-u", "-L", socket] + arguments, capture: capture)
        if result.status != 0 { throw TmuxError(description: "tmux \(arguments.joined(separator: " ")): \(result.output)") }
        return result.output
    }

    /// Named keys (`Enter`, `Down`, `C-c`, `Escape`) as tmux knows them.
    func press(_ keys: String...) throws { try run(["send-keys", "-t", "main"] + keys) }

    /// Presses shortcut keys; first Esc when a text field has the keys (the key bar then says
    /// "type into …", or "leave field" while it is edited), since letters typed there go into it.
    func pressShortcut(_ keys: String...) throws {
        // A frame reaches tmux in pieces, and the key bar, drawn last, tells who has the keys:
        // until the screen holds still, the bar may be the previous screen's.
        var shown = screen()
        let drawn = Date().addingTimeInterval(5)
        while Date() < drawn {
            Thread.sleep(forTimeInterval: 0.1)
            let again = screen()
            if again == shown, Self.showsKeyBar(again) { break }
            shown = again
        }
        if Self.fieldHasKeys(shown) {
            // Alone, and seen to take effect: Esc and a letter close together read as Alt-letter.
            try press("Escape")
            let deadline = Date().addingTimeInterval(5)
            while Self.fieldHasKeys(screen()), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        }
        try run(["send-keys", "-t", "main"] + keys)
    }

    private static func fieldHasKeys(_ screen: String) -> Bool {
        screen.contains(" type into ") || screen.contains(" leave field ")
    }

    /// Whether a key bar is on screen: every one ends with `q quit`, or offers a way out of a
    /// field, a prompt or a question; a terminal too small for the interface shows none.
    private static func showsKeyBar(_ screen: String) -> Bool {
        ["q quit", " leave field ", " cancel ", " keep it ", "Terminal too small"].contains { screen.contains($0) }
    }

    /// Literal text, typed.
    func type(_ text: String) throws { try run(["send-keys", "-t", "main", "-l", text]) }

    /// Text pasted the way a terminal pastes (bracketed, when the program asked for it).
    func paste(_ text: String) throws {
        try run(["set-buffer", "-b", "clip", text])
        try run(["paste-buffer", "-p", "-d", "-b", "clip", "-t", "main"])
    }

    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
    }

    func screen() -> String { (try? run(["capture-pane", "-p", "-t", "main"])) ?? "" }

    /// The screen with its colours and attributes, as tmux's own escape sequences.
    func screenWithStyles() -> String { (try? run(["capture-pane", "-p", "-e", "-t", "main"])) ?? "" }

    /// Waits until every text is on screen; on timeout records the screen as it was.
    @discardableResult
    func waitFor(_ texts: String..., timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        waitFor(texts, timeout: timeout, sourceLocation: sourceLocation)
    }

    @discardableResult
    func waitFor(_ texts: [String], timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var shown = ""
        while Date() < deadline {
            shown = screen()
            if texts.allSatisfy({ shown.contains($0) }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("Timed out after \(timeout) s waiting for \(texts). Screen:\n\(shown)", sourceLocation: sourceLocation)
        return false
    }

    /// tmux's newest paste buffer: with `set-clipboard on`, what a program copied with OSC 52.
    func newestBuffer() -> String? { try? run(["show-buffer"]) }

    func file(_ name: String) -> String? {
        try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    var pid: Int32? { file("pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }

    /// Waits for the program to end; returns its exit status as the shell saw it.
    func waitForExit(timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
        guard waitFor("ACTIONFLOW-EXITED", timeout: timeout, sourceLocation: sourceLocation) else { return nil }
        return file("status").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The terminal settings after the program ended are those it found (the window size aside,
    /// which a resize changes on purpose).
    func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) {
        func modes(_ text: String?) -> String? {
            text?.replacingOccurrences(of: #"rows \d+; columns \d+;"#, with: "", options: .regularExpression)
        }
        let before = modes(file("before"))
        let after = modes(file("after"))
        #expect(before != nil && before == after, "stty -a differs:\nbefore:\n\(before ?? "-")\nafter:\n\(after ?? "-")", sourceLocation: sourceLocation)
    }
}

extension TmuxSession {
    /// Opens the mailbox, the newest message (its subject starts with `subject`) and taps its
    /// link; `then` names what the screen shows after.
    func tapLatestLink(subject: String, then: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try pressShortcut("m")
        waitFor("Inbox", subject, sourceLocation: sourceLocation)
        try press("Enter")
        waitFor("Tap the link", sourceLocation: sourceLocation)
        try press("Enter")
        waitFor(then, sourceLocation: sourceLocation)
    }

    /// Story 1 from the inbox on: tap the reset link, choose a password, land on the article;
    /// `also` names more text the final screen shows.
    func finishResetFromInbox(also: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tapLatestLink(subject: "Reset your password", then: ["Choose a new password", "enteringNewPassword"], sourceLocation: sourceLocation)
        try press("Enter")
        try type("correct-horse-battery")
        try press("Enter", "Enter")
        waitFor(["How continue URLs carry state", "The Newsletter  /articles/42", "Password reset · done"] + also, sourceLocation: sourceLocation)
    }
}

/// `actionflow-serve serve ... --port 0` started beside the tests, with the port its banner names.
final class ServeProgramProcess {
    let process: SpawnedChild
    let port: Int
    /// What it printed up to the port.
    private(set) var banner = ""
    static let marker = "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:"

    init(_ arguments: [String]) throws {
        let program = BuiltBinary.url.deletingLastPathComponent().appendingPathComponent("actionflow-serve")
        process = try SpawnedChild.start(program.path, arguments + ["--port", "0"], errors: .discarded)
        // The banner names the port: "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT".
        var banner = ""
        while !banner.contains(Self.marker) || !banner[banner.range(of: Self.marker)!.upperBound...].contains("\n") {
            let chunk = process.readOutput()
            guard !chunk.isEmpty else { throw TmuxError(description: "serve ended before its banner: \(banner)") }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        self.banner = banner
        guard let port = Int(banner[banner.range(of: Self.marker)!.upperBound...].prefix { $0.isNumber }) else {
            throw TmuxError(description: "no port in serve's banner: \(banner)")
        }
        self.port = port
    }

    /// Stops it; everything it printed. Once stopped, nothing more.
    func stop() -> String {
        guard !stopped else { return "" }
        stopped = true
        process.terminate()
        return banner + String(decoding: process.finishBlocking().output, as: UTF8.self)
    }

    private var stopped = false

    deinit { _ = stop() }
}
