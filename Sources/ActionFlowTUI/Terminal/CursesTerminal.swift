import ActionFlowModel
import CNcurses
import CTerminalSupport
import Foundation

/// Why the full-screen interface cannot start here.
public struct TerminalUnavailable: Error, CustomStringConvertible, Sendable {
    public var reason: String
    /// What the interface needs that is missing here: a terminal at all, or one that can move its cursor.
    public var need = "The interactive interface needs a terminal."
    public var description: String {
        "actionflow: \(reason)\n\(need) Without one, use the headless commands: "
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
            // A terminal is there; what it lacks (or does not say it has) is cursor addressing.
            return TerminalUnavailable(reason: "TERM is \(term.isEmpty ? "not set" : "'\(term)'"): this terminal does not say it can address the cursor, which a full-screen interface needs.",
                                       need: "Set TERM to your terminal's type (for example xterm-256color) to use the interface.")
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
/// Every curses call happens on the main actor. Curses sets the terminal up, reads the keys and
/// gives the terminfo strings; frames are written with those strings straight from the diff,
/// one write each: curses' own update (its copy of the screen, compared again cell by cell,
/// and a terminfo expansion at each change of colour) cost more than the rest of a key.
@MainActor
public final class CursesTerminal {
    public private(set) var colorMode: ColorMode = .monochrome
    private var screen: Frame?
    private var drawing = DrawingStrings()
    /// Each style's bytes, from a reset: a frame has a few dozen styles.
    private var styleBytes: [CellStyle: [UInt8]] = [:]
    /// Whether the terminal shows its cursor; nil once unknown (after a resume or a resize).
    private var cursorShown: Bool? = false
    /// Each cell's cursor address, by row and column, where the terminal's is not the ANSI one.
    private var cursorMoves: [Int: [UInt8]] = [:]
    /// The last frame's bytes, kept for their capacity.
    private var output: [UInt8] = []
    private var decoder = KeyDecoder()
    private var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    private var started = false
    private let monochromeRequested: Bool
    private let environment: [String: String]
    private var savedStandardError: Int32 = -1
    /// Bytes that stop mouse reporting and bracketed paste, written on every exit path.
    private static let modesOff = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l"

    /// The terminfo strings a frame is written with.
    private struct DrawingStrings {
        var cursorAddress: UnsafeMutablePointer<CChar>?
        /// Whether `cursorAddress` is ANSI's, written without terminfo: a cache of every cell's
        /// expansion held about 66 KB.
        var cursorAddressIsANSI = false
        var foreground: UnsafeMutablePointer<CChar>?
        var background: UnsafeMutablePointer<CChar>?
        var reset: [UInt8] = []
        var bold: [UInt8] = []
        var dim: [UInt8] = []
        var underline: [UInt8] = []
        var reverse: [UInt8] = []
        var hideCursor: [UInt8] = []
        var showCursor: [UInt8] = []
        var colors = 0
        /// False where writing the bottom-right cell would scroll the screen (automatic margins
        /// without the xterm's pending wrap): that one cell is left as it is.
        var writesLastCell = true

        init() {}

        /// A string capability of the terminfo entry curses loaded; nil when it has none.
        static func string(_ name: String) -> UnsafeMutablePointer<CChar>? {
            guard let value = tigetstr(name), Int(bitPattern: value) != -1 else { return nil }
            return value
        }

        /// Read from the terminfo entry curses loaded.
        init(colors: Int) {
            let string = DrawingStrings.string
            func bytes(_ name: String) -> [UInt8] {
                string(name).map { DrawingStrings.bytes(of: $0) } ?? []
            }
            cursorAddress = string("cup")
            cursorAddressIsANSI = cursorAddress.map { ANSICursorAddress.isExpansion(of: $0) } ?? false
            foreground = string("setaf")
            background = string("setab")
            reset = bytes("sgr0")
            bold = bytes("bold")
            dim = bytes("dim")
            underline = bytes("smul")
            reverse = bytes("rev")
            hideCursor = bytes("civis")
            showCursor = bytes("cnorm")
            self.colors = colors
            writesLastCell = tigetflag("am") != 1 || tigetflag("xenl") == 1
        }

        /// A terminfo string's bytes without its padding (`$<5>`, `$<2*/>`): delays for
        /// hardware terminals, which curses' `tputs` would have turned into waits.
        static func bytes(of string: UnsafePointer<CChar>) -> [UInt8] {
            let raw = UnsafeRawBufferPointer(start: string, count: strlen(string))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(raw.count)
            var index = 0
            while index < raw.count {
                if raw[index] == UInt8(ascii: "$"), index + 1 < raw.count, raw[index + 1] == UInt8(ascii: "<"),
                   let end = raw[(index + 2)...].firstIndex(of: UInt8(ascii: ">")),
                   raw[(index + 2)..<end].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "/") }) {
                    index = end + 1
                    continue
                }
                bytes.append(raw[index])
                index += 1
            }
            return bytes
        }
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

    /// `theme` nil asks the terminal for its background (unless colour is off).
    public init(monochrome: Bool, theme: Theme? = nil, environment: [String: String] = CursesTerminal.environment) {
        self.monochromeRequested = monochrome
        self.requestedTheme = theme
        self.environment = environment
    }

    private let requestedTheme: Theme?
    /// The theme frames are drawn in: the one asked for, else the one that suits the background
    /// the terminal reported, else dark.
    public private(set) var theme: Theme = .dark
    /// The background the terminal reported, when it was asked and answered (for the log).
    public private(set) var reportedBackground: RGBColor?
    /// The terminal's answer to the background query, taken out of the keys; nil when not asked.
    private var replies: BackgroundColorQuery.ReplyFilter?
    /// Set when the answer changed `theme`, until `takeThemeChange()`.
    private var themeChanged = false

    /// Whether the terminal's answer changed the theme since last asked: the interface then
    /// draws again in it.
    public func takeThemeChange() -> Bool {
        defer { themeChanged = false }
        return themeChanged
    }
    /// Keys typed before the terminal answered, read with its answer: the first keys read.

    /// What a terminal type unknown to curses is drawn as.
    public static let fallbackTerminalType = "xterm-256color"

    /// Set when the terminal type was unknown and `fallbackTerminalType` is used instead: one
    /// line for the log, never for the screen.
    public private(set) var fallbackNotice: String?

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

        // The terminal as the user had it, restored at the end whatever the query changed.
        ts_save_terminal(1)
        if let requestedTheme {
            theme = requestedTheme
        } else if !monochromeRequested, (environment["NO_COLOR"] ?? "").isEmpty, BackgroundColorQuery.send() {
            // Not waited for: the first frame is drawn dark, and recoloured when the answer comes.
            replies = BackgroundColorQuery.ReplyFilter()
        }

        setlocale(LC_ALL, "")
        // Box drawing and wide characters need UTF-8 even when the locale does not say so.
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        // Before curses starts, so curses leaves these signals to us.
        ts_install_signal_handlers(wakePipe.write)
        if newterm(nil, cn_stdout(), cn_stdin()) == nil {
            // A terminal newer than this machine's terminfo (kitty, Ghostty, Alacritty, WezTerm
            // over ssh) still speaks xterm's sequences.
            guard newterm(Self.fallbackTerminalType, cn_stdout(), cn_stdin()) != nil else {
                ts_remove_signal_handlers()
                throw TerminalUnavailable(reason: "the terminal type '\(environment["TERM"] ?? "")' is not known to curses.")
            }
            fallbackNotice = "the terminal type '\(UntrustedText.sanitize(environment["TERM"] ?? ""))' is not known to curses: drawing with \(Self.fallbackTerminalType)'s capabilities"
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
        drawing = DrawingStrings(colors: has_colors() ? Int(cn_colors()) : 0)
        guard drawing.cursorAddress != nil else {
            stop()
            throw TerminalUnavailable(reason: "the terminal type '\(environment["TERM"] ?? "")' cannot move the cursor to a cell.")
        }
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
        // curses took the query's settings (no echo) for the shell's: give the user's back.
        ts_restore_terminal()
        restoreStandardError()
        ts_remove_signal_handlers()
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Suspends like a shell job (Ctrl-Z); returns after `fg` with the screen marked for a full redraw.
    public func suspend() {
        writeRaw(Self.modesOff)
        endwin()
        ts_restore_terminal()
        ts_suspend_self()
        writeRaw("\u{1B}[?2004h")
        refresh()
        invalidate()
    }

    /// Forgets what is on screen so the next `present` draws every cell (after resume or resize).
    public func invalidate() {
        screen = nil
        cursorShown = nil
    }

    /// Draws the frame, sending only the cells that differ from the last one presented.
    public func present(_ frame: Frame) {
        var bytes = output
        bytes.removeAll(keepingCapacity: true)
        // Where the terminal's cursor is after what was written so far, and its style.
        var cursor = (x: -1, y: -1)
        var style = CellStyle.plain
        for run in FrameDiff.runs(from: screen, to: frame) {
            run.cells.withUnsafeBufferPointer { cells in
                for offset in cells.indices {
                    let x = run.x + offset
                    let there = cursor.x == x && cursor.y == run.y
                    // A wide character has already moved the cursor over its second column.
                    if cells[offset].isContinuation {
                        if there { cursor.x = x + 1 }
                        continue
                    }
                    if !drawing.writesLastCell, run.y == frame.height - 1, x == frame.width - 1 { continue }
                    if !there { appendCursorMove(x: x, y: run.y, to: &bytes) }
                    if cells[offset].style != style {
                        style = cells[offset].style
                        bytes += self.bytes(for: style)
                    }
                    cells[offset].withUTF8 { Self.appendPrintable($0, to: &bytes) }
                    cursor = (x + 1, run.y)
                }
            }
        }
        if style != .plain { bytes += drawing.reset }
        if let position = frame.cursor, position.x < frame.width, position.y < frame.height {
            // Only when something moved it, or it moved.
            let moved = screen?.cursor.map { $0.x != position.x || $0.y != position.y } ?? true
            if !bytes.isEmpty || cursorShown != true || moved { appendCursorMove(x: position.x, y: position.y, to: &bytes) }
            if cursorShown != true { bytes += drawing.showCursor }
            cursorShown = true
        } else if cursorShown != false {
            bytes += drawing.hideCursor
            cursorShown = false
        }
        if !bytes.isEmpty { writeAll(bytes) }
        output = bytes
        screen = frame
    }

    /// Appends a cell's UTF-8, any control character in it (C0, DEL, C1) written as U+FFFD. Text
    /// is made safe before it reaches a frame; this is the last gate, where curses used to turn
    /// controls into `^X`.
    nonisolated static func appendPrintable(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte < 0x20 || byte == 0x7F {
                bytes += [0xEF, 0xBF, 0xBD]
                index += 1
            } else if byte == 0xC2, index + 1 < text.count, (0x80...0x9F).contains(text[index + 1]) {
                bytes += [0xEF, 0xBF, 0xBD]
                index += 2
            } else {
                bytes.append(byte)
                index += 1
            }
        }
    }

    /// Appends the cursor address of a cell: ANSI's written directly, another terminal's
    /// expanded from terminfo once per cell.
    private func appendCursorMove(x: Int, y: Int, to bytes: inout [UInt8]) {
        if drawing.cursorAddressIsANSI {
            ANSICursorAddress.append(row: y, column: x, to: &bytes)
            return
        }
        let key = y &* 65_536 &+ x
        if let known = cursorMoves[key] {
            bytes += known
            return
        }
        guard let address = drawing.cursorAddress, let sequence = cn_tiparm2(address, Int32(y), Int32(x)) else { return }
        let move = DrawingStrings.bytes(of: sequence)
        cursorMoves[key] = move
        bytes += move
    }

    /// The bytes that set `style` from any other: a reset, then its attributes and colours.
    private func bytes(for style: CellStyle) -> [UInt8] {
        if let known = styleBytes[style] { return known }
        var bytes = drawing.reset
        if style.bold { bytes += drawing.bold }
        if style.dim { bytes += drawing.dim }
        if style.underline { bytes += drawing.underline }
        if style.reverse { bytes += drawing.reverse }
        if colorMode != .monochrome {
            for (color, capability) in [(style.foreground, drawing.foreground), (style.background, drawing.background)] {
                let number = colorNumber(color)
                guard number >= 0, number < drawing.colors, let capability, let sequence = cn_tiparm1(capability, Int32(number)) else { continue }
                bytes += DrawingStrings.bytes(of: sequence)
            }
        }
        styleBytes[style] = bytes
        return bytes
    }

    /// Writes all of `bytes` to the terminal, after anything curses still holds.
    private func writeAll(_ bytes: [UInt8]) {
        fflush(cn_stdout())
        _ = bytes.withUnsafeBytes { DescriptorWrite.all(1, $0) }
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
        guard var filter = replies else { return units }
        units = filter.filter(units)
        if let background = filter.background, reportedBackground == nil {
            reportedBackground = background
            let suited = Theme.suited(to: background)
            if suited != theme {
                theme = suited
                themeChanged = true
            }
        }
        replies = filter.finished ? nil : filter
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

    private func colorNumber(_ color: TerminalColor) -> Int16 {
        switch color {
        case .default: -1
        case .ansi(let n): Int16(n)
        case .indexed(let n): colorMode == .full256 ? Int16(n) : -1
        }
    }

    /// Puts text on the clipboard of the terminal (or of the one tmux or ssh runs in) that
    /// honours OSC 52; others ignore the sequence.
    func copyToClipboard(_ text: String) {
        writeRaw(ClipboardSequence.osc52(text))
    }

    private func writeRaw(_ text: String) {
        writeAll(Array(text.utf8))
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
            guard let value = DrawingStrings.string(capability) else { continue }
            // Without terminfo's delays (`$<2>`), which only curses knows to wait for.
            sequence += String(decoding: DrawingStrings.bytes(of: value), as: UTF8.self)
        }
        return sequence
    }
}

/// ANSI's cursor address, `ESC [ row ; column H` with both counted from 1: the terminfo `cup`
/// of most terminals.
enum ANSICursorAddress {
    /// Whether `cup` expands as ANSI's form at the screen's corner and at two-digit and
    /// three-digit positions: then it does everywhere.
    static func isExpansion(of cup: UnsafePointer<CChar>) -> Bool {
        [(0, 0), (12, 34), (150, 299)].allSatisfy { row, column in
            guard let expanded = cn_tiparm2(cup, Int32(row), Int32(column)) else { return false }
            var ansi: [UInt8] = []
            append(row: row, column: column, to: &ansi)
            return Array(UnsafeRawBufferPointer(start: expanded, count: strlen(expanded))) == ansi
        }
    }

    /// Appends the address of a cell, its row and column counted from 0.
    static func append(row: Int, column: Int, to bytes: inout [UInt8]) {
        bytes += [0x1B, UInt8(ascii: "[")]
        appendDecimal(row + 1, to: &bytes)
        bytes.append(UInt8(ascii: ";"))
        appendDecimal(column + 1, to: &bytes)
        bytes.append(UInt8(ascii: "H"))
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
