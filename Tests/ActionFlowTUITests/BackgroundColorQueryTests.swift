@testable import ActionFlowTUI
import Foundation
import Synchronization
import Testing

@Suite("The terminal's background colour (OSC 11) and the theme it picks")
struct BackgroundColorQueryTests {
    private func reply(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("An xterm reply, ended by BEL or by ESC \\, gives its colour", arguments: ["\u{07}", "\u{1B}\\"])
    func xtermReply(terminator: String) throws {
        let color = try #require(BackgroundColorQuery.color(inReply: reply("\u{1B}]11;rgb:ffff/ffff/dddd" + terminator)))
        #expect(color.red == 1 && color.green == 1)
        #expect(abs(color.blue - Double(0xDDDD) / 0xFFFF) < 1e-9)
    }

    @Test("Channels of 1 to 4 hex digits are scaled to their own range", arguments: [
        ("rgb:f/8/0", 1.0, 8.0 / 15, 0.0),
        ("rgb:ff/80/00", 1.0, 128.0 / 255, 0.0),
        ("rgb:FFF/800/000", 1.0, 2048.0 / 4095, 0.0),
        ("rgb:1e1e/1e1e/2e2e", Double(0x1E1E) / 0xFFFF, Double(0x1E1E) / 0xFFFF, Double(0x2E2E) / 0xFFFF),
        ("rgba:ffff/ffff/ffff/0000", 1.0, 1.0, 1.0),
    ])
    func channelWidths(specification: String, red: Double, green: Double, blue: Double) throws {
        let color = try #require(BackgroundColorQuery.color(inReply: reply("\u{1B}]11;\(specification)\u{07}")))
        #expect(abs(color.red - red) < 1e-9 && abs(color.green - green) < 1e-9 && abs(color.blue - blue) < 1e-9)
    }

    @Test("Garbage, a cut reply or another colour's reply gives nothing", arguments: [
        "",
        "\u{1B}[?62;22c",
        "\u{1B}]11;rgb:ffff/ffff/ffff",
        "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}[?1;2c",
        "\u{1B}]11;rgb:fffff/ffff/ffff\u{07}",
        "\u{1B}]11;rgb:/ffff/ffff\u{07}",
        "\u{1B}]11;rgb:ffff/ffff\u{07}",
        "\u{1B}]11;rgb:ffff/ffff/ffff/ffff\u{07}",
        "\u{1B}]11;rgb:gggg/0000/0000\u{07}",
        "\u{1B}]11;rgb:+fff/0000/0000\u{07}",
        "\u{1B}]11;#ffffff\u{07}",
        "\u{1B}]11;?\u{07}",
        "\u{1B}]10;rgb:ffff/ffff/ffff\u{07}",
        "\u{1B}]111;rgb:ffff/ffff/ffff\u{07}",
    ])
    func garbage(text: String) {
        #expect(BackgroundColorQuery.color(inReply: reply(text)) == nil)
    }

    @Test("The reply is found among other bytes: keys typed before it, the DA1 reply after it, a broken reply before it")
    func amongOtherBytes() throws {
        let bytes = reply("q\u{1B}]11;rgb:zz\u{07}\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?1;2c")
        #expect(try #require(BackgroundColorQuery.color(inReply: bytes)) == .black)
        #expect(BackgroundColorQuery.containsDeviceAttributes(bytes))
        var filter = BackgroundColorQuery.ReplyFilter()
        #expect(filter.filter(bytes.map { .code(UInt32($0)) }) == [.code(UInt32(UInt8(ascii: "q")))], "only the typed key is a key")
        #expect(filter.background == .black && filter.finished)
        #expect(!BackgroundColorQuery.containsDeviceAttributes(reply("\u{1B}[?1;2")))
        #expect(!BackgroundColorQuery.containsDeviceAttributes(reply("\u{1B}]11;rgb:0/0/0\u{07}")))
    }

    @Test("A light background picks the light theme, a dark or mid-dark one the dark theme", arguments: [
        ("rgb:ffff/ffff/ffff", Theme.light),
        ("rgb:fdfd/f6f6/e3e3", .light),   // Solarized Light
        ("rgb:eeee/e8e8/d5d5", .light),
        ("rgb:0000/0000/0000", .dark),
        ("rgb:0000/2b2b/3636", .dark),    // Solarized Dark
        ("rgb:2828/2c2c/3434", .dark),
        ("rgb:8080/8080/8080", .light),   // mid grey: black text reads better on it
        ("rgb:6060/6060/6060", .dark),
    ])
    func themeForBackground(specification: String, theme: Theme) throws {
        let color = try #require(BackgroundColorQuery.color(inReply: reply("\u{1B}]11;\(specification)\u{07}")))
        #expect(Theme.suited(to: color) == theme)
    }
}

@Suite("Asking a real terminal (a pseudo-terminal) for its background")
struct BackgroundColorAskTests {
    /// A pseudo-terminal: the program's end (`terminal`) and the end a terminal emulator holds (`emulator`).
    private final class PseudoTerminal: Sendable {
        let emulator: Int32
        let terminal: Int32

        init() throws {
            // posix_openpt, unlockpt and ptsname as Linux does them (glibc's are not visible to Swift).
            emulator = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            // TIOCSPTLCK and TIOCGPTN (linux/asm-generic/ioctls.h), not imported into Swift either.
            let unlockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard emulator >= 0, ioctl(emulator, unlockRequest, &unlock) == 0, ioctl(emulator, numberRequest, &number) == 0 else {
                throw POSIXError(.ENOTTY)
            }
            terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard terminal >= 0 else { throw POSIXError(.ENOTTY) }
        }

        deinit {
            close(terminal)
            close(emulator)
        }

        /// What the program wrote, waiting up to a second for `count` bytes.
        func read(count: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(1)
            while bytes.count < count, Date() < deadline {
                var descriptor = pollfd(fd: emulator, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 50) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 64)
                let got = Foundation.read(emulator, &buffer, buffer.count)
                if got > 0 { bytes += buffer.prefix(got) }
            }
            return bytes
        }

        func type(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(emulator, $0.baseAddress, $0.count) }
        }

        var localModes: tcflag_t {
            get {
                var modes = termios()
                tcgetattr(terminal, &modes)
                return modes.c_lflag
            }
            set {
                var modes = termios()
                tcgetattr(terminal, &modes)
                modes.c_lflag = newValue
                tcsetattr(terminal, TCSANOW, &modes)
            }
        }
    }

    private func units(_ text: String) -> [InputUnit] { Array(text.utf8).map { .code(UInt32($0)) } }

    @Test("The query goes out at once, and the terminal stops echoing, so that its answer is never printed")
    func sent() throws {
        let pty = try PseudoTerminal()
        #expect(pty.localModes & tcflag_t(ECHO) != 0)
        #expect(BackgroundColorQuery.send(input: pty.terminal, output: pty.terminal))
        #expect(pty.read(count: BackgroundColorQuery.query.count) == BackgroundColorQuery.query)
        #expect(pty.localModes & tcflag_t(ECHO | ICANON) == 0)
    }

    @Test("An answer split across reads is taken out of the keys whole; keys before, between and after it stay keys")
    func answerAcrossReads() {
        var filter = BackgroundColorQuery.ReplyFilter()
        var keys = filter.filter(units("1j\u{1B}]11;rgb:ff"))
        #expect(filter.background == nil && !filter.finished)
        keys += filter.filter(units("ff/ffff/ffff\u{1B}\\"))
        #expect(filter.background == .white)
        keys += filter.filter(units("\u{1B}[?1;2cq"))
        #expect(keys == units("1jq"))
        #expect(filter.finished)
        // Once the terminal has answered, every byte is a key.
        #expect(filter.filter(units("\u{1B}]x")) == units("\u{1B}]x"))
    }

    @Test("Esc, and escape sequences that are no answer, stay keys")
    func keysStayKeys() {
        var filter = BackgroundColorQuery.ReplyFilter()
        #expect(filter.filter([.code(0x1B)]) == [.code(0x1B)], "a lone Esc is not held back")
        #expect(filter.filter(units("\u{1B}[A\u{1B}x")) == units("\u{1B}[A\u{1B}x"))
        #expect(filter.filter([.functionKey(.up)]) == [.functionKey(.up)])
    }

    @Test("A terminal that answers nothing costs nothing: the filter stands aside after its patience, giving back what it held")
    func silent() {
        let start = Date()
        var filter = BackgroundColorQuery.ReplyFilter(now: start)
        #expect(filter.filter(units("\u{1B}]11;rgb:0"), now: start).isEmpty)
        #expect(filter.filter(units("x"), now: start.addingTimeInterval(3)) == units("\u{1B}]11;rgb:0x"))
        #expect(filter.finished && filter.background == nil)
    }
}
