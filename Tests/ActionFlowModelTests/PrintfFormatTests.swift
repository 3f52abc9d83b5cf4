import ActionFlowModel
import Foundation
import Testing

/// The C library's formatting gives the text `String(format:)` gave: durations, dates, line
/// numbers, percent and Unicode escapes.
@Suite struct PrintfFormatTests {
    @Test("the same text as String(format:)", arguments: [
        ("%.1f ms", [0.25, 12.345, 1e9, -0.05, 0] as [Double]),
    ])
    func fractions(format: String, values: [Double]) {
        for value in values {
            #expect(PrintfFormat.string(format, value) == String(format: format, value), "\(value)")
        }
    }

    @Test func integers() {
        #expect(PrintfFormat.string("%04d-%02d-%02d %02d:%02d", 2026, 11, 3, 7, 5) == "2026-11-03 07:05")
        #expect(PrintfFormat.string("%4d  ", 42) == "  42  ")
        #expect(PrintfFormat.string("%%%02X", 0x0A) == "%0A")
        #expect(PrintfFormat.string("\\u%04x", 0x1B) == "\\u001b")
    }

    @Test("text longer than the first buffer is whole")
    func longText() {
        let format = String(repeating: "x", count: 100) + "%d"
        #expect(PrintfFormat.string(format, 7) == String(repeating: "x", count: 100) + "7")
        #expect(PrintfFormat.string("%63d", 1).count == 63)
        #expect(PrintfFormat.string("%64d", 1).count == 64)
    }
}
