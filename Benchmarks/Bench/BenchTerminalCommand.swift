import ActionFlowModel
import ArgumentParser
import CPseudoTerminal
import Foundation

/// `actionflow-bench terminal`: the interface in a pseudo-terminal, measured from outside beside
/// references built at bench time: cold start to first complete frame against the Swift floor of
/// `../shared/bench/swift_floor.swift`, key-to-frame latency through both user stories, and
/// peak memory after story 1 against the Swift floor's.
struct BenchTerminalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "First frame and peak memory against the Swift floor, key-to-frame latency (median, p99) through both user stories, bytes per focus move."
    )

    @Option(help: "Cold starts of each program (the median is reported).")
    var starts = 9

    @Option(help: "Key presses: both user stories, then moves between the inspector's panes.")
    var keys = 300

    @Option(help: ArgumentHelp("The Swift floor program's source, built here with swiftc -O.", valueName: "path"))
    var floor = "../shared/bench/swift_floor.swift"

    static let firstFrameTarget = 1.5
    static let memoryTarget = 1.5
    static let keyToFrameP99Target = 2.0

    func validate() throws {
        guard (1...200).contains(starts) else { throw ValidationError("--starts must be between 1 and 200, not \(starts)") }
        let minimum = StoryKeys.script.count
        guard (minimum...10_000).contains(keys) else { throw ValidationError("--keys must be between \(minimum) (both stories) and 10000, not \(keys)") }
    }

    func run() async throws {
        let binary = try ChildProcess.besideThis("actionflow")
        let references = try ReferencePrograms(floorSource: floor)
        defer { references.remove() }
        print("terminal (pseudo-terminal 100x30, TERM=xterm-256color)")
        #if DEBUG
        print("  note: debug build; build with -c release for representative figures")
        #endif

        // Alternating starts, so both programs see the same machine.
        var own: [Double] = []
        var floorStarts: [Double] = []
        var floorPeaks: [Double] = []
        for _ in 0..<starts {
            own.append(try PseudoTerminalSession.firstFrame([binary], marker: "quit").milliseconds)
            if let floorProgram = references.floor {
                let floorStart = try PseudoTerminalSession.firstFrame([floorProgram], marker: ReferencePrograms.floorMarker)
                floorStarts.append(floorStart.milliseconds)
                floorPeaks.append(Double(floorStart.peakKiB))
            }
        }
        var line = String(format: "  first frame (actionflow, no arguments)  median %.1f ms (%d starts each)", Self.percentile(own, 0.5), starts)
        if floorStarts.isEmpty {
            line += "; Swift floor not built: \(references.floorProblem ?? "")"
        } else {
            let ratio = Self.percentile(own, 0.5) / Self.percentile(floorStarts, 0.5)
            line += String(format: "; Swift floor %.1f ms; ratio %.2fx (target at most %.1fx: %@)",
                           Self.percentile(floorStarts, 0.5), ratio, Self.firstFrameTarget, ratio <= Self.firstFrameTarget ? "meets" : "above")
        }
        print(line)

        let stories = try StoryKeys.play([binary], keys: keys)
        let reference = try references.curses.map { try PseudoTerminalSession.reference([$0], marker: ReferencePrograms.cursesMarker, keys: 100) }
        let p99 = Self.percentile(stories.latencies, 0.99)
        var keyLine = String(format: "  key to frame  median %.2f ms, p99 %.2f ms (%d keys through both stories, %d drew nothing; target p99 under %.0f ms: %@)",
                             Self.percentile(stories.latencies, 0.5), p99, keys, stories.silentKeys, Self.keyToFrameP99Target, p99 < Self.keyToFrameP99Target ? "meets" : "above")
        if let reference {
            let referenceP99 = Self.percentile(reference.latencies, 0.99)
            keyLine += String(format: "; bare Swift + ncurses p99 %.2f ms; ratio %.2fx", referenceP99, p99 / max(0.001, referenceP99))
        }
        print(keyLine)
        let slowest = stories.timedKeys.sorted { $0.milliseconds > $1.milliseconds }.prefix(5)
        print("    slowest keys: " + slowest.map { String(format: "#%d %@ %.2f ms", $0.index, StoryKeys.name($0.key), $0.milliseconds) }.joined(separator: ", "))
        let focusMove = Self.percentile(stories.focusMoveBytes.map(Double.init), 0.5)
        let redraw = Self.percentile(stories.redrawBytes.map(Double.init), 0.5)
        print(String(format: "  bytes per focus move  median %.0f, max %d (two text fields; target under 400); a whole redraw %.0f; ratio %.3f",
                     focusMove, stories.focusMoveBytes.max() ?? 0, redraw, focusMove / max(1, redraw)))
        var memory = String(format: "  peak memory after story 1  %.2f MiB (VmHWM)", Double(stories.peakAfterStoryOneKiB) / 1024)
        if floorPeaks.isEmpty {
            memory += "; Swift floor not built: \(references.floorProblem ?? "")"
        } else {
            let floorPeak = Self.percentile(floorPeaks, 0.5)
            let ratio = Double(stories.peakAfterStoryOneKiB) / max(1, floorPeak)
            memory += String(format: "; Swift floor %.2f MiB (median of its starts); ratio %.2fx (target at most %.1fx: %@)",
                             floorPeak / 1024, ratio, Self.memoryTarget, ratio <= Self.memoryTarget ? "meets" : "above")
        }
        print(memory)
        var bothStories = String(format: "    after both stories %.2f MiB", Double(stories.peakKiB) / 1024)
        if let reference {
            bothStories += String(format: "; a bare Swift + ncurses program %.2f MiB", Double(reference.peakKiB) / 1024)
        }
        print(bothStories)
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

/// The keys of both user stories as a user types them, with what the screen shows once each is
/// done, then moves between the inspector's panes up to the number of keys asked for.
enum StoryKeys {
    struct Step {
        var key: String
        /// Text the screen shows after this key (checked, so a changed screen cannot go unnoticed).
        var shows: String?
        /// Moves focus between two text fields.
        var movesFocus = false
    }

    /// The arrows as xterm sends them in keypad mode, which the interface turns on.
    static let down = "\u{1B}OB"
    static let up = "\u{1B}OA"
    static let enter = "\r"
    static let pageDown = "\u{1B}[6~"
    static let pageUp = "\u{1B}[5~"

    /// A key as the bench output names it.
    static func name(_ key: String) -> String {
        switch key {
        case down: "Down"
        case up: "Up"
        case enter: "Enter"
        case pageDown: "PgDn"
        case pageUp: "PgUp"
        case "\t": "Tab"
        default: "'\(key)'"
        }
    }

    /// Every pane, each paged through and back. Paging, unlike the arrows, chooses no text field,
    /// so the digit that opens the next pane still switches panes rather than typing.
    static let tour: [Step] = (1...8).flatMap { tab in ["\(tab)", pageDown, pageDown, pageUp, pageUp].map { Step(key: $0) } } + [Step(key: "\t")]

    /// Keys of story 1, its tour of the panes included: the script's first part.
    static let storyOneKeys = storyOne.count

    private static let storyOne: [Step] = {
        var steps: [Step] = [Step(key: "1", shows: "to continue to /articles/42")]
        // Story 1: focus between the two fields, a wrong password, then the reset by email.
        for index in 0..<10 { steps.append(Step(key: index % 2 == 0 ? down : up, movesFocus: true)) }
        steps += [Step(key: down), Step(key: enter)] + "nope".map { Step(key: String($0)) }
        steps += [Step(key: enter), Step(key: enter, shows: "INVALID_PASSWORD")]
        steps += [Step(key: down), Step(key: enter, shows: "Send reset email"), Step(key: down), Step(key: enter, shows: "emailSent")]
        steps += [Step(key: "m", shows: "Inbox"), Step(key: enter), Step(key: enter, shows: "Choose a new password"), Step(key: enter)]
        steps += "correct-horse-battery".map { Step(key: String($0)) }
        steps += [Step(key: enter), Step(key: enter, shows: "Password reset · done")]
        return steps + tour
    }()

    static let script: [Step] = {
        var steps = storyOne
        // Story 2, which starts on a fresh world once confirmed: verify the email in the app, then subscribe.
        steps += [Step(key: "w"), Step(key: "3", shows: "Start a fresh story?"), Step(key: "y", shows: "Send verification email")]
        steps += [Step(key: enter, shows: "sendOobCode VERIFY_EMAIL"), Step(key: "m"), Step(key: enter), Step(key: enter, shows: "Subscribe now")]
        steps += [Step(key: enter, shows: "Subscribed with bob@example.com")]
        steps += tour
        return steps
    }()

    struct Result {
        var latencies: [Double] = []
        /// Each drawn key's milliseconds with its place in the script and the key, for finding slow paths.
        var timedKeys: [(index: Int, key: String, milliseconds: Double)] = []
        var silentKeys = 0
        var focusMoveBytes: [Int] = []
        /// Bytes of whole-screen redraws, the reference for a focus move's.
        var redrawBytes: [Int] = []
        var peakKiB = 0
        var peakAfterStoryOneKiB = 0
    }

    /// After the script: each pane in turn, down and back up.
    static let filler = (1...8).flatMap { ["\($0)", pageDown, pageUp] }

    /// Plays the script, then moves on through the panes up to `keys`. `command` starts the
    /// interface; `patience` multiplies every wait for the screen (see `PseudoTerminalSession`).
    static func play(_ command: [String], keys: Int, patience: Double = 1) throws -> Result {
        let session = try PseudoTerminalSession(command, patience: patience)
        defer { session.finish() }
        _ = try session.waitForText("quit", timeout: 10 * patience)
        session.drain(quiet: 0.2 * patience)
        var result = Result()
        for index in 0..<keys {
            let step = index < script.count ? script[index] : Step(key: filler[(index - script.count) % filler.count])
            let (count, milliseconds) = session.press(step.key)
            if let milliseconds {
                result.latencies.append(milliseconds)
                result.timedKeys.append((index + 1, step.key, milliseconds))
            } else {
                result.silentKeys += 1
            }
            if step.movesFocus { result.focusMoveBytes.append(count) }
            if let text = step.shows {
                guard let redrawBytes = session.shows(text) else {
                    throw BenchFailure(description: "key \(index + 1) of the stories: '\(text)' is not on the screen")
                }
                result.redrawBytes.append(redrawBytes)
            }
            if index + 1 == storyOneKeys { result.peakAfterStoryOneKiB = session.peakResidentKiB() }
        }
        result.peakKiB = session.peakResidentKiB()
        return result
    }
}

/// The reference programs, built with swiftc -O into a temporary folder: the Swift floor (its
/// source from ../shared/bench) and a bare Swift + ncurses program that fills the screen.
struct ReferencePrograms {
    static let floorMarker = "floor ready"
    static let cursesMarker = "curses reference ready"

    let folder: URL
    var floor: String?
    var floorProblem: String?
    var curses: String?
    var cursesProblem: String?

    /// The smallest Swift program that draws a full ncurses screen, then a line per key until q.
    static let cursesSource = """
    import CursesReference
    setlocale(LC_ALL, "")
    initscr()
    cbreak()
    noecho()
    keypad(reference_stdscr(), true)
    for row in 0..<reference_lines() {
        let text = row == 0 ? "\(cursesMarker)" : String(repeating: "x", count: Int(reference_cols()))
        mvaddstr(row, 0, text)
    }
    refresh()
    var presses = 0
    while getch() != Int32(UInt8(ascii: "q")) {
        presses += 1
        mvaddstr(1, 0, "key \\(presses)")
        refresh()
    }
    endwin()
    """

    static let cursesModule = """
    module CursesReference [system] {
        header "reference.h"
        link "ncursesw"
        export *
    }
    """

    static let cursesHeader = """
    #define _XOPEN_SOURCE_EXTENDED 1
    #define NCURSES_WIDECHAR 1
    #include <locale.h>
    #include <ncursesw/curses.h>
    static inline WINDOW *reference_stdscr(void) { return stdscr; }
    static inline int reference_lines(void) { return LINES; }
    static inline int reference_cols(void) { return COLS; }
    """

    init(floorSource: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-references-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: floorSource) {
            let output = folder.appendingPathComponent("swift_floor").path
            floorProblem = Self.swiftc([floorSource, "-o", output])
            if floorProblem == nil { floor = output }
        } else {
            floorProblem = "no source at \(floorSource) (--floor)"
        }
        let source = folder.appendingPathComponent("curses_reference.swift")
        try Data(Self.cursesSource.utf8).write(to: source)
        try Data(Self.cursesModule.utf8).write(to: folder.appendingPathComponent("module.modulemap"))
        try Data(Self.cursesHeader.utf8).write(to: folder.appendingPathComponent("reference.h"))
        let output = folder.appendingPathComponent("curses_reference").path
        cursesProblem = Self.swiftc([source.path, "-I", folder.path, "-o", output])
        if cursesProblem == nil { curses = output }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `swiftc -O`; returns why it failed, or nil.
    private static func swiftc(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-O"] + arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return "cannot run swiftc: \(error)"
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return nil }
        return "swiftc failed: " + String(decoding: message.prefix(300), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
    }
}

/// The interface running on a new pseudo-terminal, read and written from this process.
final class PseudoTerminalSession {
    private let pid: pid_t
    var processID: pid_t { pid }
    private let master: Int32
    private var output = [UInt8]()
    private let started = Date()
    /// How many times longer than usual to wait for the screen to settle: more for a program
    /// running under valgrind.
    private let patience: Double

    /// `command`: the program and its arguments.
    init(_ command: [String], width: Int = 100, height: Int = 30, environment extra: [String: String] = [:], patience: Double = 1) throws {
        self.patience = patience
        let binary = command[0]
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["TERM"] = "xterm-256color"
        environment["LC_ALL"] = "C.UTF-8"
        environment["NO_COLOR"] = nil
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var master: Int32 = -1
        pid = pty_spawn(binary, argv, envp, Int32(height), Int32(width), &master)
        guard pid > 0, master >= 0 else { throw BenchFailure(description: "cannot start \(binary) on a pseudo-terminal") }
        self.master = master
    }

    /// Forgets what was read so far: `waitForText` then looks only at what comes next.
    func discardOutput() {
        drain(quiet: 0)
        output.removeAll()
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Foundation.write(master, &bytes, bytes.count)
    }

    /// Reads until `text` has appeared; returns seconds since the start.
    func waitForText(_ text: String, timeout: Double) throws -> Double {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        // Where the text could begin that has not been looked at: a frame may arrive in one
        // read, and the text may be split between two.
        var unsearched = 0
        while Date() < deadline {
            let before = output.count
            guard read(timeout: 0.05) > 0 else { continue }
            // The buffer drops its oldest bytes when it grows large: then look at all it kept.
            if output.count < before { unsearched = 0 }
            if output[unsearched...].firstRange(of: needle) != nil { return Date().timeIntervalSince(started) }
            unsearched = max(0, output.count - needle.count + 1)
        }
        throw BenchFailure(description: "'\(text)' did not appear within \(timeout) s")
    }

    /// Reads until nothing arrives for `quiet` seconds; returns the bytes read and when the last came.
    @discardableResult
    func drain(quiet: Double) -> (count: Int, last: Date?) {
        var total = 0
        var last: Date?
        while true {
            let count = read(timeout: quiet)
            if count <= 0 { return (total, last) }
            total += count
            last = Date()
        }
    }

    private func read(timeout: Double) -> Int {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return 0 }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = Foundation.read(master, &buffer, buffer.count)
        if count > 0 {
            output += buffer[0..<count]
            if output.count > 1 << 20 { output.removeFirst(output.count - 65536) }
        }
        return max(0, count)
    }

    func finish() {
        write("q")
        var status: Int32 = 0
        for _ in 0..<100 {
            drain(quiet: 0.01 * patience)
            if waitpid(pid, &status, WNOHANG) == pid { break }
        }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Writes `key` and reads until the screen is quiet: the bytes drawn and the milliseconds
    /// from the key to the last of them (nil when nothing was drawn).
    func press(_ key: String) -> (bytes: Int, milliseconds: Double?) {
        let sent = Date()
        write(key)
        let (count, last) = drain(quiet: 0.03 * patience)
        return (count, last.map { $0.timeIntervalSince(sent) * 1000 })
    }

    /// Whether `text` is on the screen: Ctrl-L has the whole screen drawn again, and its text is
    /// read without the escape sequences (a diff alone may leave parts of a text unchanged).
    /// Returns the bytes of that whole redraw, or nil when the text is not there.
    func shows(_ text: String) -> Int? {
        output.removeAll()
        write("\u{0C}")
        let (count, _) = drain(quiet: 0.1 * patience)
        let drawn = String(decoding: output, as: UTF8.self)
            .replacingOccurrences(of: #"\x1B(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z])"#, with: "", options: .regularExpression)
        return drawn.contains(text) ? count : nil
    }

    /// The program's peak resident size so far (`VmHWM`), in KiB.
    func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Milliseconds from the start of `command` to `marker` on its screen, and its peak resident
    /// size then (KiB); then it is quit.
    static func firstFrame(_ command: [String], marker: String, environment: [String: String] = [:]) throws -> (milliseconds: Double, peakKiB: Int) {
        let session = try PseudoTerminalSession(command, environment: environment)
        defer { session.finish() }
        let milliseconds = try session.waitForText(marker, timeout: 10) * 1000
        return (milliseconds, session.peakResidentKiB())
    }

    /// A program that draws a line per key: its peak resident size once its first frame is
    /// drawn (KiB), then its key-to-frame latencies for `keys` keys.
    static func reference(_ command: [String], marker: String, keys: Int) throws -> (peakKiB: Int, latencies: [Double]) {
        let session = try PseudoTerminalSession(command)
        defer { session.finish() }
        _ = try session.waitForText(marker, timeout: 10)
        session.drain(quiet: 0.2)
        let peak = session.peakResidentKiB()
        let latencies = (0..<keys).compactMap { _ in session.press("j").milliseconds }
        return (peak, latencies)
    }
}
