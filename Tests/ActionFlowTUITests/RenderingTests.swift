@testable import ActionFlowTUI
import ActionFlowModel
import Testing
import TestSupport

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII is one column, CJK and emoji two, combining marks none")
    func widths() {
        #expect("abc".displayWidth == 3)
        #expect("日本語".displayWidth == 6)
        #expect("👍".displayWidth == 2)
        #expect("e\u{301}".displayWidth == 1)
        #expect("👩‍💻".displayWidth == 2)
        #expect("❤️".displayWidth == 2)
        #expect("한국".displayWidth == 4)
    }

    @Test("Wrapping gives a short plain line back as it is, and the same lines as word wrapping for any other text")
    func shortLinesAsWrapped() {
        let texts = ["", "one line", "x", " leading", "trailing ", "two  spaces", "tab\there", "café au lait", "exactly twenty chars", "a line that is longer than the width"]
        for text in texts {
            #expect(TextWrap.lines(text, width: 20) == TextWrap.wrappedLines(text, width: 20), "\(text.debugDescription)")
        }
        #expect(TextWrap.lines("one line", width: 20) == ["one line"])
    }

    @Test("Measuring a string gives the sum of its characters' widths, on ASCII and on mixed text alike")
    func stringsSumCharacters() {
        for text in ["", "plain ASCII text", "tab\there", "café au lait", "a日b👍c", "line\r\nbreak", "\u{7F}del"] {
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text.debugDescription)")
        }
    }

    @Test("Control bytes are measured after sanitizing: one visible column each")
    func controls() {
        #expect("a\u{1B}[2Jb".displayWidth == 6)
        #expect("\u{202E}abc".displayWidth == 4)
    }

    @Test("A status line that does not fit ends with … after a whole word, never mid-word")
    func statusFitsBetweenWords() {
        #expect(" next (n): expect linkOpensIn app ".truncatedBetweenWords(toColumns: 28) == " next (n): expect…")
        #expect("signed out ".truncatedBetweenWords(toColumns: 9) == "signed…")
        #expect("short".truncatedBetweenWords(toColumns: 9) == "short")
        #expect("Checking the code…".truncatedBetweenWords(toColumns: 18) == "Checking the code…", "a text that fits keeps its own …")
        #expect("linkOpensInTheApp".truncatedBetweenWords(toColumns: 8) == "linkOpe…", "one long word is cut inside")
        let spans = [Span(" ● embedded ", .statusBar), Span("│", .statusBar), Span(" next (n): expect linkOpensIn app ", .statusBar)]
        let fitted = MainView.fitted(spans, columns: 31)
        #expect(fitted.map(\.text).joined() == " ● embedded │ next (n): expect…")
        #expect(fitted.map(\.text).joined().displayWidth <= 31)
        #expect(MainView.fitted(spans, columns: 30).map(\.text).joined() == " ● embedded │ next (n):…")
        #expect(MainView.fitted(spans, columns: 80) == spans)
    }

    @Test("The phone says an error's code once, whether or not the message starts with it")
    func errorCodeOnce() {
        #expect(PhoneContent.errorLine(.invalidOobCode, "INVALID_OOB_CODE: used") == "✗ INVALID_OOB_CODE: used")
        #expect(PhoneContent.errorLine(.invalidOobCode, "used") == "✗ INVALID_OOB_CODE: used")
        #expect(PhoneContent.errorLine(nil, "No screen at /x") == "✗ No screen at /x")
    }

    @Test("Truncation and padding count columns, not characters")
    func truncation() {
        #expect("日本語テキスト".truncated(toColumns: 7) == "日本語…")
        #expect("abc".padded(toColumns: 5) == "abc  ")
        #expect("日本".padded(toColumns: 3).displayWidth == 3)
    }
}

@Suite("Frame drawing")
struct FrameTests {
    @Test("Text is clipped to the frame and to a clip rectangle")
    func clipping() {
        var frame = Frame(width: 10, height: 2)
        frame.put("hello world", x: 0, y: 0)
        frame.put("abcdef", x: 2, y: 1, clip: Rect(x: 0, y: 0, width: 5, height: 2))
        #expect(frame.text == "hello worl\n  abc     ")
    }

    @Test("A wide character that does not fit whole becomes a space")
    func wideAtEdge() {
        var frame = Frame(width: 5, height: 1)
        frame.put("ab日本", x: 0, y: 0)
        #expect(frame.text == "ab日 ")
        #expect(frame[3, 0].isContinuation)
    }

    @Test("Overwriting half of a wide character blanks the other half")
    func overwriteHalf() {
        var frame = Frame(width: 4, height: 1)
        frame.put("日本", x: 0, y: 0)
        frame.put("x", x: 1, y: 0)
        #expect(frame.text == " x本")
    }

    @Test("Escape sequences and bidi overrides are drawn as visible stand-ins")
    func hostile() {
        var frame = Frame(width: 12, height: 1)
        frame.put("a\u{1B}[31mb\u{202E}c\n", x: 0, y: 0)
        #expect(frame.text == "a␛[31mb�c␊  ")
        #expect(frame.cells.allSatisfy { cell in cell.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } })
    }

    @Test("A cell keeps every emoji sequence whole, and of stacked combining marks only whole marks up to its room")
    func clustersInACell() {
        let kiss = "👩🏻\u{200D}❤️\u{200D}💋\u{200D}👨🏼"
        let family = "🧑\u{200D}🧑\u{200D}🧒\u{200D}🧒"
        var frame = Frame(width: 8, height: 1)
        frame.put(kiss + family + "e" + String(repeating: "\u{301}", count: 40) + "z", x: 0, y: 0)
        #expect(frame[0, 0].text == kiss)
        #expect(frame[2, 0].text == family)
        let stacked = frame[4, 0].text
        #expect(stacked.utf8.count == 39 && stacked.unicodeScalars.first == "e" && stacked.unicodeScalars.dropFirst().allSatisfy { $0 == "\u{301}" })
        #expect(frame[5, 0].text == "z")
        #expect(frame[1, 0].isContinuation && !frame[4, 0].isContinuation)
    }

    @Test("Writing over half of a wide character blanks its other half; box drawing and a cluster that widens do what they show")
    func wideRemnants() {
        var frame = Frame(width: 7, height: 1)
        frame.put("日本─©\u{FE0F}", x: 0, y: 0)
        #expect(frame.text == "日本─©\u{FE0F}")
        frame.put("a", x: 1, y: 0)
        frame.put("b", x: 2, y: 0)
        frame.put("c", x: 5, y: 0)
        #expect(frame.text == " ab ─c ")
    }

    @Test("Boxes draw their edges and title")
    func box() {
        var frame = Frame(width: 12, height: 3)
        frame.box(frame.bounds, title: "Flow")
        #expect(frame.text == "╭─ Flow ───╮\n│          │\n╰──────────╯")
    }

    @Test("Wrapping breaks at spaces and cuts long words, by columns")
    func wrapping() {
        #expect(TextWrap.lines("the quick brown fox", width: 9) == ["the quick", "brown fox"])
        #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrap.lines("日本語の文", width: 4) == ["日本", "語の", "文"])
        #expect(TextWrap.hardLines("https://x.y/z", width: 5) == ["https", "://", "x.y/z"])
    }
}

@Suite("Frame diff")
@MainActor
struct FrameDiffTests {
    @Test("Only changed cells are sent; a wide character travels with its continuation")
    func onlyChanges() {
        var first = Frame(width: 10, height: 2)
        first.put("hello", x: 0, y: 0)
        var second = first
        second.put("J", x: 0, y: 0)
        second.put("日", x: 4, y: 1)
        let runs = FrameDiff.runs(from: first, to: second)
        #expect(runs == [
            FrameDiff.Run(x: 0, y: 0, cells: [Cell(text: "J")]),
            FrameDiff.Run(x: 4, y: 1, cells: [Cell(text: "日"), Cell(text: "")]),
        ])
    }

    @Test("Equal cells stored another way are not sent; on random frames the runs cover exactly the cells that differ")
    func matchesCellByCell() {
        // The same text, once a small inline string and once a native string with storage.
        var stored = ""
        stored.reserveCapacity(64)
        stored.append("x")
        var first = Frame(width: 12, height: 3)
        first[3, 1] = Cell(text: "x")
        var second = first
        second[3, 1] = Cell(text: stored)
        #expect(FrameDiff.runs(from: first, to: second).isEmpty)

        var generator = SystemRandomNumberGenerator()
        let texts = ["a", "b", "─", "é", "x"]
        let styles = [CellStyle.plain, CellStyle(bold: true), CellStyle(foreground: .indexed(75))]
        for _ in 0..<200 {
            var before = Frame(width: 12, height: 3)
            var after = Frame(width: 12, height: 3)
            for y in 0..<3 {
                for x in 0..<12 {
                    let cell = Cell(text: texts.randomElement(using: &generator)!, style: styles.randomElement(using: &generator)!)
                    before[x, y] = cell
                    after[x, y] = Int.random(in: 0..<4, using: &generator) == 0
                        ? Cell(text: texts.randomElement(using: &generator)!, style: styles.randomElement(using: &generator)!) : cell
                }
            }
            var sent = Set<[Int]>()
            for run in FrameDiff.runs(from: before, to: after) {
                for (offset, cell) in run.cells.enumerated() {
                    #expect(cell == after[run.x + offset, run.y])
                    sent.insert([run.x + offset, run.y])
                }
            }
            let differing = Set((0..<3).flatMap { y in (0..<12).filter { before[$0, y] != after[$0, y] }.map { [$0, y] } })
            #expect(sent == differing)
        }
    }

    @Test("The memory terminal sends everything first, then nothing for an identical frame")
    func memoryTerminal() {
        let terminal = MemoryTerminal(width: 4, height: 2)
        var frame = Frame(width: 4, height: 2)
        frame.put("ab", x: 0, y: 0)
        terminal.present(frame)
        #expect(terminal.lastChangedCells == 8)
        terminal.present(frame)
        #expect(terminal.lastChangedCells == 0)
        terminal.invalidate()
        terminal.present(frame)
        #expect(terminal.lastChangedCells == 8)
    }
}

@Suite("Key decoding")
struct KeyDecoderTests {
    private func codes(_ text: String) -> [InputUnit] { text.unicodeScalars.map { .code($0.value) } }

    @Test("Characters, control keys, Enter, Tab and Backspace")
    func plain() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(codes("a\u{3}\r\t\u{7F}é")) == [.character("a"), .control("c"), .enter, .tab, .backspace, .character("é")])
    }

    @Test("A lone ESC is Esc; ESC plus a letter is Alt")
    func escape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(codes("\u{1B}")) == [.escape])
        #expect(decoder.feed(codes("\u{1B}x")) == [.alt("x")])
    }

    @Test("A bracketed paste arrives as one paste, even across reads")
    func paste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(codes("\u{1B}[200~https://a")) == [])
        #expect(decoder.isInsidePaste)
        #expect(decoder.feed(codes(".b/\u{1B}[201~q")) == [.paste("https://a.b/"), .character("q")])
    }

    @Test("Unknown escape sequences are dropped, not typed")
    func unknownSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(codes("\u{1B}[99;5uz")) == [.character("z")])
    }

    @Test("Function keys, mouse and resize pass through")
    func functions() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([.functionKey(.up), .mouse(x: 3, y: 4, button: .left), .resize]) == [.up, .mouse(x: 3, y: 4, button: .left), .resize])
    }
}

@Suite("Colour modes")
struct ColorModeTests {
    @Test("NO_COLOR and --monochrome turn colour off; otherwise the colour count decides")
    func choose() {
        #expect(ColorMode.choose(environment: ["NO_COLOR": "1"], monochromeRequested: false, terminalColors: 256) == .monochrome)
        #expect(ColorMode.choose(environment: ["NO_COLOR": ""], monochromeRequested: false, terminalColors: 256) == .full256)
        #expect(ColorMode.choose(environment: [:], monochromeRequested: true, terminalColors: 256) == .monochrome)
        #expect(ColorMode.choose(environment: [:], monochromeRequested: false, terminalColors: 8) == .basic8)
        #expect(ColorMode.choose(environment: [:], monochromeRequested: false, terminalColors: 0) == .monochrome)
    }

    @Test("Monochrome keeps focus and errors visible without colour")
    func monochrome() {
        let palette = Palette(mode: .monochrome)
        for role in Role.allCases {
            #expect(palette.style(role).foreground == .default && palette.style(role).background == .default)
        }
        #expect(palette.style(.focusedField).reverse)
        #expect(palette.style(.error).bold)
    }

    @Test("Without a terminal the program says so and points to the headless commands")
    func unavailable() {
        let dumb = TerminalUnavailable.check(environment: ["TERM": "dumb"], stdinIsTTY: true, stdoutIsTTY: true)
        #expect(dumb?.description.contains("TERM is 'dumb'") == true)
        #expect(dumb?.description.contains("actionflow run SCENARIO") == true)
        #expect(dumb?.description.contains("actionflow export FILE") == true)
        #expect(TerminalUnavailable.check(environment: ["TERM": "xterm"], stdinIsTTY: false, stdoutIsTTY: true) != nil)
        #expect(TerminalUnavailable.check(environment: ["TERM": "xterm-256color"], stdinIsTTY: true, stdoutIsTTY: true) == nil)
    }
}
