import CNcurses
import CTerminalSupport
import Foundation

/// Why the full-screen interface cannot start here.
public struct TerminalUnavailable: Error, CustomStringConvertible, Sendable {
    public var reason: String
    public var description: String {
        "actionflow: \(reason)\nThe interactive interface needs a terminal. Without one, use the headless commands: "
            + "`actionflow inspect LINK`, `actionflow matrix`, `actionflow run SCENARIO`, "
            + "`actionflow export FILE --format mermaid|markdown` (see `actionflow --help`)."
    }

    /// Checks what can be checked before touching the terminal: a tty on both ends and a usable TERM.
    public static func check(environment: [String: String], stdinIsTTY: Bool, stdoutIsTTY: Bool) -> TerminalUnavailable? {
        if !stdinIsTTY || !stdoutIsTTY {
            return TerminalUnavailable(reason: "standard input and output are not a terminal.")
        }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" || term == "unknown" {
            return TerminalUnavailable(reason: "TERM is \(term.isEmpty ? "not set" : "'\(term)'"), which cannot draw a full-screen interface.")
        }
        return nil
    }
}

/// What the input loop hands back.
public enum TerminalInput: Sendable, Equatable {
    case keys([Key])
    /// SIGINT, SIGTERM or SIGHUP arrived.
    case terminate(signal: Int32)
    /// SIGTSTP arrived (or Ctrl-Z was pressed): suspend, then redraw.
    case suspend
    /// Something else (a finished effect) woke the loop.
    case wake
    case timeout
}

/// The one owner of the real terminal: sets curses up, restores the terminal on every way out
/// (normal exit, termination signals, crash signals), suspends on Ctrl-Z and draws frame diffs.
/// Every curses call happens on the main actor.
@MainActor
public final class CursesTerminal: TerminalDriver {
    public private(set) var colorMode: ColorMode = .monochrome
    private var screen: Frame?
    private var colorPairs: [ColorPairKey: Int16] = [:]
    private var decoder = KeyDecoder()
    private var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    private var started = false
    private let monochromeRequested: Bool
    private let environment: [String: String]
    private var savedStandardError: Int32 = -1
    /// Bytes that stop mouse reporting and bracketed paste, written on every exit path.
    private static let modesOff = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l"

    private struct ColorPairKey: Hashable {
        var foreground: Int16
        var background: Int16
    }

    /// The variables the terminal reads, looked up one by one: copying the whole environment
    /// into a dictionary costs the first frame more than a millisecond.
    public static var environment: [String: String] {
        var variables: [String: String] = [:]
        for name in ["TERM", "NO_COLOR"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    public init(monochrome: Bool, environment: [String: String] = CursesTerminal.environment) {
        self.monochromeRequested = monochrome
        self.environment = environment
    }

    public var width: Int { Int(cn_cols()) }
    public var height: Int { Int(cn_lines()) }

    /// A descriptor that wakes the input loop when a byte is written to it (for finished effects).
    public var wakeDescriptor: Int32 { wakePipe.write }

    /// Enters full-screen mode. `errorLog` receives anything written to standard error meanwhile,
    /// so no stray text lands on the screen.
    public func start(errorLog: String?) throws(TerminalUnavailable) {
        if let problem = TerminalUnavailable.check(environment: environment, stdinIsTTY: isatty(0) == 1, stdoutIsTTY: isatty(1) == 1) {
            throw problem
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TerminalUnavailable(reason: "cannot create a pipe: \(String(cString: strerror(errno))).") }
        wakePipe = (fds[0], fds[1])
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)

        setlocale(LC_ALL, "")
        // Box drawing and wide characters need UTF-8 even when the locale does not say so.
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        ts_save_terminal(1)
        // Before curses starts, so curses leaves these signals to us.
        ts_install_signal_handlers(wakePipe.write)
        guard newterm(nil, cn_stdout(), cn_stdin()) != nil else {
            ts_remove_signal_handlers()
            throw TerminalUnavailable(reason: "the terminal type '\(environment["TERM"] ?? "")' is not known to curses.")
        }
        started = true
        // Until curses has been left and resumed once, it takes itself for a terminfo program and
        // flushes after every cursor move: a frame would reach the terminal in a dozen writes.
        // Leaving and resuming before anything is drawn gets one write per frame.
        endwin()
        refresh()
        redirectStandardError(to: errorLog)
        raw()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        nodelay(cn_stdscr(), true)
        set_escdelay(25)
        // Nor does curses look for typed keys between the lines of an update (and flush there):
        // keys are read between frames, and each frame goes out whole.
        typeahead(-1)
        curs_set(0)
        leaveok(cn_stdscr(), false)
        if has_colors() {
            start_color()
            use_default_colors()
        }
        colorMode = ColorMode.choose(environment: environment, monochromeRequested: monochromeRequested, terminalColors: has_colors() ? Int(cn_colors()) : 0)
        mousemask(cn_button1_pressed() | cn_button4_pressed() | cn_button5_pressed(), nil)
        mouseinterval(0)
        writeRaw("\u{1B}[?2004h")
        ts_set_restore_sequence(Self.restoreSequence())
    }

    /// Leaves full-screen mode: main screen, cooked mode, cursor visible. Safe to call twice.
    public func stop() {
        guard started else { return }
        started = false
        writeRaw(Self.modesOff)
        curs_set(1)
        endwin()
        restoreStandardError()
        ts_remove_signal_handlers()
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Suspends like a shell job (Ctrl-Z); returns after `fg` with the screen marked for a full redraw.
    public func suspend() {
        writeRaw(Self.modesOff)
        endwin()
        ts_suspend_self()
        writeRaw("\u{1B}[?2004h")
        refresh()
        invalidate()
    }

    public func invalidate() {
        screen = nil
        clearok(cn_stdscr(), true)
    }

    public func present(_ frame: Frame) {
        let runs = FrameDiff.runs(from: screen, to: frame)
        for run in runs { draw(run) }
        if let cursor = frame.cursor, cursor.x < frame.width, cursor.y < frame.height {
            curs_set(1)
            move(Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        refresh()
        screen = frame
    }

    /// Waits up to `timeout` milliseconds for input, a signal or a wake-up.
    public func nextInput(timeout milliseconds: Int32) -> TerminalInput {
        if let signal = pendingSignal() { return signal }
        var units = readAvailableUnits()
        if units.isEmpty {
            var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, milliseconds)
            if let signal = pendingSignal() { return signal }
            var woke = false
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                drainWakePipe()
                woke = true
            }
            units = readAvailableUnits()
            if units.isEmpty { return woke ? .wake : .timeout }
        }
        // A paste can span reads: keep reading briefly until it ends.
        var keys = decoder.feed(units)
        var waited = 0
        while decoder.isInsidePaste, waited < 500 {
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 10)
            waited += 10
            keys += decoder.feed(readAvailableUnits())
        }
        return .keys(keys)
    }

    /// Whether a key, a signal or a finished effect is waiting (without reading it).
    public var hasPendingInput: Bool {
        var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        return poll(&descriptors, 2, 0) > 0
    }

    /// Waits up to `timeout` milliseconds for a wake-up only, leaving typed keys unread.
    public func waitForWake(timeout milliseconds: Int32) {
        var descriptor = pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, milliseconds) > 0 { drainWakePipe() }
    }

    private func pendingSignal() -> TerminalInput? {
        if ts_take_pending_suspend() != 0 { return .suspend }
        let signal = ts_take_pending_signal()
        return signal != 0 ? .terminate(signal: signal) : nil
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakePipe.read, &buffer, buffer.count) > 0 {}
    }

    private func readAvailableUnits() -> [InputUnit] {
        var units: [InputUnit] = []
        while units.count < 4096 {
            var character: wint_t = 0
            let result = wget_wch(cn_stdscr(), &character)
            if result == cn_key_code_yes() {
                if let unit = functionUnit(Int32(character)) { units.append(unit) }
            } else if result == cn_err() {
                break
            } else {
                units.append(.code(UInt32(character)))
            }
        }
        return units
    }

    private func functionUnit(_ code: Int32) -> InputUnit? {
        switch code {
        case KEY_UP: return .functionKey(.up)
        case KEY_DOWN: return .functionKey(.down)
        case KEY_LEFT: return .functionKey(.left)
        case KEY_RIGHT: return .functionKey(.right)
        case KEY_HOME: return .functionKey(.home)
        case KEY_END: return .functionKey(.end)
        case KEY_PPAGE: return .functionKey(.pageUp)
        case KEY_NPAGE: return .functionKey(.pageDown)
        case KEY_BACKSPACE: return .functionKey(.backspace)
        case KEY_DC: return .functionKey(.delete)
        case KEY_BTAB: return .functionKey(.backTab)
        case KEY_ENTER: return .functionKey(.enter)
        case KEY_RESIZE:
            invalidate()
            return .resize
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            if event.bstate & cn_button4_pressed() != 0 { return .mouse(x: Int(event.x), y: Int(event.y), button: .scrollUp) }
            if event.bstate & cn_button5_pressed() != 0 { return .mouse(x: Int(event.x), y: Int(event.y), button: .scrollDown) }
            return .mouse(x: Int(event.x), y: Int(event.y), button: .left)
        case KEY_F0 + 1...KEY_F0 + 12:
            return .functionKey(.function(Int(code - KEY_F0)))
        default:
            return nil
        }
    }

    private func draw(_ run: FrameDiff.Run) {
        var x = run.x
        var index = 0
        // One buffer for the run's pieces of one style each, not an array per cell.
        var text: [wchar_t] = []
        text.reserveCapacity(run.cells.count + 1)
        while index < run.cells.count {
            let style = run.cells[index].style
            text.removeAll(keepingCapacity: true)
            let startX = x
            while index < run.cells.count, run.cells[index].style == style {
                for scalar in run.cells[index].text.unicodeScalars {
                    text.append(wchar_t(bitPattern: scalar.value))
                }
                index += 1
                x += 1
            }
            let (attributes, pair) = cursesAttributes(style)
            attr_set(attributes, pair, nil)
            text.append(0)
            mvaddwstr(Int32(run.y), Int32(startX), text)
        }
        attr_set(0, 0, nil)
    }

    private func cursesAttributes(_ style: CellStyle) -> (attr_t, Int16) {
        var attributes: attr_t = 0
        if style.bold { attributes |= cn_attr_bold() }
        if style.dim { attributes |= cn_attr_dim() }
        if style.underline { attributes |= cn_attr_underline() }
        if style.reverse { attributes |= cn_attr_reverse() }
        guard colorMode != .monochrome else { return (attributes, 0) }
        let key = ColorPairKey(foreground: colorNumber(style.foreground), background: colorNumber(style.background))
        if key.foreground == -1, key.background == -1 { return (attributes, 0) }
        if let pair = colorPairs[key] { return (attributes, pair) }
        let next = Int16(colorPairs.count + 1)
        guard Int32(next) < cn_color_pairs() else { return (attributes, 0) }
        init_pair(next, key.foreground, key.background)
        colorPairs[key] = next
        return (attributes, next)
    }

    private func colorNumber(_ color: TerminalColor) -> Int16 {
        switch color {
        case .default: -1
        case .ansi(let n): Int16(n)
        case .indexed(let n): colorMode == .full256 ? Int16(n) : -1
        }
    }

    private func writeRaw(_ text: String) {
        fflush(cn_stdout())
        var bytes = Array(text.utf8)
        _ = write(1, &bytes, bytes.count)
    }

    private func redirectStandardError(to path: String?) {
        let target = path.map { open($0, O_WRONLY | O_CREAT | O_APPEND, 0o600) } ?? open("/dev/null", O_WRONLY)
        guard target >= 0 else { return }
        savedStandardError = dup(2)
        dup2(target, 2)
        close(target)
    }

    private func restoreStandardError() {
        guard savedStandardError >= 0 else { return }
        dup2(savedStandardError, 2)
        close(savedStandardError)
        savedStandardError = -1
    }

    /// What a crash writes: reset attributes, show the cursor, leave the alternate screen.
    private static func restoreSequence() -> String {
        var sequence = modesOff
        for capability in ["sgr0", "cnorm", "rmcup"] {
            guard let value = tigetstr(capability), Int(bitPattern: value) != -1 else { continue }
            sequence += String(cString: value)
        }
        return sequence
    }
}
