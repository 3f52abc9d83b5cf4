import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("Single-column scalars")
struct SingleColumnScalarTests {
    static let singleColumnScalars: [Unicode.Scalar] = (0...0x2FFF).compactMap { value in
        Unicode.Scalar(UInt32(value)).flatMap { DisplayWidth.isSingleColumnScalar($0.value) ? $0 : nil }
    }

    @Test("Each scalar taken as one column is a character of one column alone, next to letters and next to each other, and sanitizing keeps it")
    func singleColumnScalarsAreWholeCharacters() {
        var generator = SystemRandomNumberGenerator()
        for scalar in Self.singleColumnScalars {
            let alone = String(scalar)
            #expect(DisplayWidth.of(Character(scalar)) == 1, "U+\(String(scalar.value, radix: 16))")
            #expect(!UntrustedText.needsSanitizing(scalar), "U+\(String(scalar.value, radix: 16))")
            #expect(alone.screenSafe == alone)
            let partner = Self.singleColumnScalars.randomElement(using: &generator)!
            for pair in ["a" + alone, alone + "a", alone + alone, alone + String(partner), String(partner) + alone] {
                #expect(pair.count == 2, "U+\(String(scalar.value, radix: 16)) with U+\(String(partner.value, radix: 16))")
            }
        }
    }

    @Test("Text of such scalars lands in the frame as grapheme breaking would put it, clipped alike")
    func singleColumnTextLandsAsCharactersWould() {
        let text = "╭─ Inspector · mode→resetPassword « ✓ » café ×2 …─╮"
        var fast = Frame(width: 30, height: 1)
        let end = fast.put(text, x: 2, y: 0, clip: Rect(x: 3, y: 0, width: 20, height: 1))
        // The same text with a combining mark at its end goes the grapheme path.
        var general = Frame(width: 30, height: 1)
        let generalEnd = general.put(text + "\u{301}", x: 2, y: 0, clip: Rect(x: 3, y: 0, width: 20, height: 1))
        #expect(end == generalEnd)
        #expect(fast == general)
        #expect((0..<30).map { fast[$0, 0].text }.joined() == "   " + String(text.dropFirst()).prefix(20) + "       ")
    }

    /// Text of single-column scalars, spaces (some doubled) and line breaks.
    static func simpleText(_ generator: inout some RandomNumberGenerator) -> String {
        let pieces = singleColumnScalars.map(String.init) + [" ", " ", " ", "  ", "\n", "superlongwordwithoutanyspace", "https://example.com/a?b=c"]
        return (0..<Int.random(in: 0...60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test("Wrapping text of such scalars gives the lines wrapping by characters gives")
    func wrappingAgrees() {
        var generator = SystemRandomNumberGenerator()
        let decomposed = "e\u{301}"
        for _ in 0..<2_000 {
            let text = Self.simpleText(&generator)
            let width = Int.random(in: 1...30, using: &generator)
            // A paragraph of its own that needs grapheme breaking sends the whole text the general way
            // and changes no line before it.
            #expect(TextWrap.wrappedLines(text, width: width) + [decomposed] == TextWrap.wrappedLines(text + "\n" + decomposed, width: width), "\(text.debugDescription) \(width)")
            let hard = TextWrap.hardLines(text.replacingOccurrences(of: "\n", with: ""), width: width)
            let general = TextWrap.hardLines(text.replacingOccurrences(of: "\n", with: "") + decomposed, width: width)
            #expect(hard.dropLast() == general.prefix(hard.count - 1), "\(text.debugDescription) \(width)")
            #expect(general.joined() == hard.joined() + decomposed)
            #expect(DisplayWidth.of(text.replacingOccurrences(of: "\n", with: "")) == text.replacingOccurrences(of: "\n", with: "").count)
        }
    }
}
