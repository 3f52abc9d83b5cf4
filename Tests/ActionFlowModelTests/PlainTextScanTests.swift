@testable import ActionFlowModel
import Testing

/// The quick paths for plain ASCII (the usual link, the usual text) give way wherever the first
/// byte that needs care sits.
@Suite("Plain ASCII and the first byte that is not")
struct PlainTextScanTests {
    @Test("Text is left alone unless a control, DEL or a bidi control sits somewhere in it, wherever that is")
    func printableASCII() {
        for length in 0...40 {
            let plain = String(repeating: "~", count: length)
            #expect(UntrustedText.sanitize(plain) == plain)
            for position in 0..<length {
                for odd in ["\u{1F}", "\u{7F}", "é", "\u{202E}"] {
                    var text = plain
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: odd)
                    // The sanitizer still replaces what a terminal must not get, and keeps é.
                    #expect(UntrustedText.sanitize(text).unicodeScalars.count == text.unicodeScalars.count)
                    #expect(UntrustedText.needsSanitizing(text) == (odd != "é"), "length \(length), position \(position)")
                }
            }
        }
    }

    @Test("Percent-decoding finds escapes and plus signs at every position")
    func decodingAtEveryPosition() {
        for length in 1...40 {
            for position in 0..<length {
                var text = String(repeating: "b", count: length)
                let index = text.index(text.startIndex, offsetBy: position)
                text.replaceSubrange(index...index, with: "+")
                #expect(PercentEncoding.decode(text, plusAsSpace: true) == text.replacingOccurrences(of: "+", with: " "))
                #expect(PercentEncoding.decode(text) == text)
                var escaped = String(repeating: "b", count: length)
                escaped.replaceSubrange(escaped.index(escaped.startIndex, offsetBy: position)..., with: "%C3%A9")
                #expect(PercentEncoding.decode(escaped) == String(repeating: "b", count: position) + "é")
            }
        }
    }
}
