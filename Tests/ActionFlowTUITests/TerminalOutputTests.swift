@testable import ActionFlowTUI
import Testing

/// The bytes the real terminal gets for a cell's text.
@Suite("Terminal output")
struct TerminalOutputTests {
    private func written(_ text: String) -> String {
        var bytes: [UInt8] = []
        var copy = text
        copy.withUTF8 { CursesTerminal.appendPrintable($0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("printable text, wide characters and marks pass unchanged")
    func printablePasses() {
        for text in ["a", "é", "─", "界", "👩‍💻", "e\u{301}", "\u{A0}", "\u{FFFD}"] {
            #expect(written(text) == text)
        }
    }

    @Test("a control character that reached a cell cannot command the terminal: C0, DEL and C1 each become U+FFFD")
    func controlsBecomeReplacement() {
        #expect(written("\u{1B}[2J") == "\u{FFFD}[2J")
        #expect(written("a\u{7}b\u{7F}") == "a\u{FFFD}b\u{FFFD}")
        #expect(written("\u{9B}31m") == "\u{FFFD}31m")
        #expect(written("\r\n\t") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(written("\u{85}\u{9F}\u{A0}") == "\u{FFFD}\u{FFFD}\u{A0}")
    }

    @Test("the cursor goes to a cell with ANSI's address where the terminal's is ANSI's, from the corner to three-digit rows and columns")
    func ansiCursorAddress() {
        func address(row: Int, column: Int) -> String {
            var bytes: [UInt8] = []
            ANSICursorAddress.append(row: row, column: column, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(address(row: 0, column: 0) == "\u{1B}[1;1H")
        #expect(address(row: 29, column: 99) == "\u{1B}[30;100H")
        #expect(address(row: 9, column: 1234) == "\u{1B}[10;1235H")
        // xterm's and the Linux console's cup; vt52's and a padded one are expanded by terminfo.
        #expect(ANSICursorAddress.isExpansion(of: "\u{1B}[%i%p1%d;%p2%dH"))
        #expect(!ANSICursorAddress.isExpansion(of: "\u{1B}Y%p1%' '%+%c%p2%' '%+%c"))
        #expect(!ANSICursorAddress.isExpansion(of: "\u{1B}[%i%p1%d;%p2%dH$<5>"))
        #expect(!ANSICursorAddress.isExpansion(of: "\u{1B}[%p1%d;%p2%dH"))
    }
}
