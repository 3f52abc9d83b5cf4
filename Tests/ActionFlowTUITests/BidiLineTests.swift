import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("Bidi: RTL lines in visual order for terminals that do not reorder")
struct BidiLineTests {
    @Test(arguments: ["", "Hello, world.", "https://demo.firebaseapp.com/__/auth/action?mode=x&lang=he", "山田太郎 👩‍💻 x", "Xin chào, bạn"])
    func textWithoutRTLIsUntouched(text: String) {
        #expect(BidiLine.visual(text, base: .leftToRight) == text)
        #expect(BidiLine.baseDirection(of: text) == .leftToRight)
    }

    @Test func paragraphDirectionIsThatOfTheFirstLetter() {
        #expect(BidiLine.baseDirection(of: "שלום, alice") == .rightToLeft)
        #expect(BidiLine.baseDirection(of: "12 שלום") == .rightToLeft)
        #expect(BidiLine.baseDirection(of: "open \"שלום\"") == .leftToRight)
        #expect(BidiLine.baseDirection(of: "123 ...") == .leftToRight)
    }

    @Test(arguments: [
        ("שלום,", ",םולש"),
        ("תודה,", ",הדות"),
        ("צוות demo-actionflow", "demo-actionflow תווצ"),
        ("עבור החשבון alice@example.com.", ".alice@example.com ןובשחה רובע"),
        ("ל-demo-actionflow עבור", "רובע demo-actionflow-ל"),
        ("בעוד 15 דקות", "תוקד 15 דועב"),
        ("מ-old@example.com ל-new@example.com.", ".new@example.com-ל old@example.com-מ"),
        ("(ראה למטה)", "(הטמל האר)"),
        ("גרסה 12.3.1 זמינה", "הנימז 12.3.1 הסרג"),
    ])
    func rtlLinesReverseTheirRTLRunsAndKeepLTRRunsIntact(logical: String, expected: String) {
        #expect(BidiLine.visual(logical, base: .rightToLeft) == expected)
    }

    @Test func rtlWordsInsideAnLTRLineAreReversedInPlace() {
        #expect(BidiLine.visual("open \"איפוס הסיסמה\" to alice@example.com", base: .leftToRight) == "open \"המסיסה סופיא\" to alice@example.com")
    }

    @Test func pointsStayOnTheirLetters() {
        let word = "שָׁלוֹם"
        let shown = BidiLine.visual(word, base: .rightToLeft)
        #expect(Array(shown) == Array(word).reversed())
        #expect(shown.displayWidth == 4)
    }

    @Test func reorderingKeepsEveryCharacterAndTheWidth() {
        let pieces = ["שלום", " ", "alice@example.com", ", ", "15", "(", ")", "איפוס", ".", "https://x.example/a?b=1", "…", "ל-", "demo"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let line = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for base in [BidiLine.Direction.leftToRight, .rightToLeft] {
                let shown = BidiLine.visual(line, base: base)
                #expect(shown.displayWidth == line.displayWidth, "\(line)")
                let mirror: [Character: Character] = [")": "("]
                #expect(shown.map { mirror[$0] ?? $0 }.sorted() == line.map { mirror[$0] ?? $0 }.sorted(), "\(line)")
                // Links and addresses come out whole.
                for whole in ["alice@example.com", "https://x.example/a?b=1"] where line.contains(whole) {
                    #expect(shown.contains(whole), "\(line) → \(shown)")
                }
            }
        }
    }

    @Test func anRTLOnlyLineReversedTwiceIsItself() {
        let line = "אם לא ביקשת לאפס את הסיסמה אפשר להתעלם"
        #expect(BidiLine.visual(BidiLine.visual(line, base: .rightToLeft), base: .rightToLeft) == line)
    }

    @Test func wrappedRTLParagraphsStartAtTheTopRightAndEndFlushRight() {
        let lines = BidiLine.displayLines("יש ללחוץ על הקישור הזה כדי לאפס את הסיסמה שלך", width: 20)
        #expect(lines.count > 1)
        #expect(lines.first?.text.hasSuffix("שי") == true)
        for line in lines { #expect(line.indent + line.text.displayWidth == 20) }
        #expect(BidiLine.displayLines("plain text", width: 20).map(\.indent) == [0])
    }

    @Test func overridesAreStillRemovedBeforeTheyReachTheScreen() {
        let hostile = "שלום \u{202E}moc.elgoog\u{202C} \u{2067}x\u{2069}"
        let safe = UntrustedText.sanitize(hostile)
        #expect(!safe.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        var frame = Frame(width: 30, height: 1, palette: Palette(mode: .monochrome))
        frame.put(BidiLine.visual(hostile, base: .rightToLeft), x: 0, y: 0)
        #expect(!frame.text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        #expect(frame.text.displayWidth == 30)
    }

    @Test func vietnameseCombiningMarksTakeNoColumnComposedOrNot() {
        let composed = "Đặt lại mật khẩu của bạn"
        let decomposed = composed.decomposedStringWithCanonicalMapping
        #expect(decomposed.unicodeScalars.count > composed.unicodeScalars.count)
        #expect(composed.displayWidth == composed.count)
        #expect(decomposed.displayWidth == composed.displayWidth)
        var frame = Frame(width: 30, height: 2, palette: Palette(mode: .monochrome))
        frame.put(composed, x: 0, y: 0)
        frame.put(decomposed, x: 0, y: 1)
        let rows = frame.text.split(separator: "\n").map(String.init)
        #expect(rows.allSatisfy { $0.displayWidth == 30 })
        #expect(rows[0].precomposedStringWithCanonicalMapping == rows[1].precomposedStringWithCanonicalMapping)
    }
}
