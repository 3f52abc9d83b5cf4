@testable import ActionFlowModel
import Testing

/// The sixteen-byte scans under the link inspector agree with a byte-by-byte search at every
/// length and position, around block edges included.
@Suite("Byte scans")
struct ByteScanTests {
    @Test("The first of up to three bytes is found wherever it sits, and the end is returned when none is")
    func firstOfAny() {
        for length in 0...70 {
            for position in -1..<length {
                for needle: UInt8 in [UInt8(ascii: "&"), UInt8(ascii: "#"), 0x0A] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if position >= 0 { bytes[position] = needle }
                    // A second match after the first must not be the one found.
                    if position >= 0, position + 1 < length { bytes[position + 1] = UInt8(ascii: "&") }
                    bytes.withUnsafeBufferPointer { buffer in
                        let expected = bytes.firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") || $0 == 0x0A } ?? length
                        #expect(ByteScan.first(of: UInt8(ascii: "&"), UInt8(ascii: "#"), 0x0A, in: buffer, 0..<length) == expected)
                        // Within a range that starts past the beginning.
                        if length > 3 {
                            let tail = bytes[3...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") || $0 == 0x0A } ?? length
                            #expect(ByteScan.first(of: UInt8(ascii: "&"), UInt8(ascii: "#"), 0x0A, in: buffer, 3..<length) == tail)
                        }
                    }
                }
            }
        }
    }

    @Test("One byte above 0x7F anywhere makes a text not ASCII")
    func ascii() {
        for length in 0...40 {
            let plain = [UInt8](repeating: 0x7F, count: length)
            #expect(plain.withUnsafeBufferPointer(ByteScan.isASCII))
            for position in 0..<length {
                var bytes = plain
                bytes[position] = 0x80
                #expect(!bytes.withUnsafeBufferPointer(ByteScan.isASCII), "length \(length), position \(position)")
            }
        }
    }

    @Test("Text is printable ASCII unless a control, DEL or a non-ASCII byte sits anywhere in it")
    func printableASCII() {
        for length in 0...40 {
            let plain = String(repeating: "~", count: length)
            #expect(ByteScan.isPrintableASCII(plain))
            #expect(UntrustedText.sanitize(plain) == plain)
            for position in 0..<length {
                for odd in ["\u{1F}", "\u{7F}", "é", "\u{202E}"] {
                    var text = plain
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: odd)
                    #expect(!ByteScan.isPrintableASCII(text), "length \(length), position \(position)")
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
