import ActionFlowModel
import Foundation
import Testing

@Suite("Whitespace trimming")
struct WhitespaceTrimmingTests {
    @Test("Trims what Foundation's trimmingCharacters(in: .whitespaces) trims, scalar by scalar")
    func sameAsFoundation() {
        let samples = [
            "", " ", "\t \t", "plain", "  both ends  ", "\tleading tab", "trailing tab\t",
            "\u{A0}no-break space\u{A0}", "\u{3000}ideographic\u{3000}", "\u{2003}em\u{2009}thin\u{202F}",
            "\nnewlines stay\n", "\r\n", " \u{301}mark after a space ", "👩‍💻 ", " inner  spaces kept ",
            "\u{200B}zero width space\u{200B}", "\u{FEFF}byte order mark\u{FEFF}", "\u{85}next line\u{85}", "\u{1680}ogham\u{205F}",
        ]
        for text in samples {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            let sub = text[...]
            #expect(sub.trimmingWhitespace() == sub.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }

    @Test("Every Unicode scalar is whitespace exactly when Foundation's set says so")
    func everyScalar() {
        for value in UInt32(0)..<0x11_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar) + "x"
            #expect((text.trimmingWhitespace() == "x") == CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }
}
