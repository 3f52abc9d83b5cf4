import ActionFlowModel
import ActionFlowTUI
import Foundation

/// The text sanitizer and display widths. Invariants:
/// - the sanitized text has no control, bidi control or invisible format character, sanitizing
///   is idempotent, and printable ASCII is left alone;
/// - written into a frame (any width, any start column), the text advances exactly its display
///   width, and every row is whole: each cell holds one or two columns of safe text, a wide
///   cell is followed by its continuation and nothing else is;
/// - truncating fits, padding is exact, wrapping fits, bidi reordering keeps the width.
enum TextChecks {
    static func check(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var violations = Violations()
        let safe = UntrustedText.sanitize(text)
        if let bad = ScreenSafety.firstForbidden(in: safe) {
            violations.fail("sanitize kept \(bad) in \(ScreenSafety.describe(safe))")
        }
        violations.expect(UntrustedText.sanitize(safe) == safe, "sanitizing twice changes \(ScreenSafety.describe(text))")
        violations.expect(!UntrustedText.needsSanitizing(safe), "needsSanitizing is true for sanitized \(ScreenSafety.describe(safe))")
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            violations.expect(safe == text, "printable ASCII changed by sanitize")
        }
        for line in UntrustedText.sanitizeLines(text) {
            if let bad = ScreenSafety.firstForbidden(in: line) {
                violations.fail("sanitizeLines kept \(bad) in \(ScreenSafety.describe(line))")
            }
        }

        let width = DisplayWidth.of(safe)
        violations.expect(text.displayWidth == width, "displayWidth differs from the width of the sanitized text")
        for (columns, x) in [(1, 0), (2, 0), (3, 1), (7, -1), (12, 3), (80, 0)] {
            var frame = Frame(width: columns, height: 2)
            frame.put("╭──────────────────╮", x: 0, y: 0)
            let end = frame.put(text, x: x, y: 0)
            if columns == 80, x == 0, width <= 80 {
                violations.expect(end == width, "put advanced \(end) columns for text \(width) wide: \(ScreenSafety.describe(safe))")
            }
            frame.put(text, x: x, y: 1, clip: Rect(x: 1, y: 0, width: max(0, columns - 2), height: 2))
            checkRows(frame, text: text, into: &violations)
            for tail in [" ", "é", "山"] {
                frame.put(tail, x: x + 1, y: 0)
            }
            checkRows(frame, text: text, into: &violations)
        }
        for columns in [1, 2, 5, 16] {
            let cut = text.truncated(toColumns: columns)
            violations.expect(DisplayWidth.of(cut) <= columns, "truncated to \(columns) columns is \(DisplayWidth.of(cut)) wide")
            let padded = text.padded(toColumns: columns)
            violations.expect(DisplayWidth.of(padded) == columns, "padded to \(columns) columns is \(DisplayWidth.of(padded)) wide")
        }
        for columns in [2, 3, 9, 30] {
            for line in TextWrap.lines(text, width: columns) {
                violations.expect(DisplayWidth.of(line) <= columns, "a wrapped line is \(DisplayWidth.of(line)) wide in \(columns) columns: \(ScreenSafety.describe(line))")
                if let bad = ScreenSafety.firstForbidden(in: line) { violations.fail("wrapping kept \(bad)") }
            }
            for line in TextWrap.hardLines(text, width: columns) {
                violations.expect(DisplayWidth.of(line) <= columns, "a hard-wrapped line is \(DisplayWidth.of(line)) wide in \(columns) columns")
            }
            for line in BidiLine.displayLines(text, width: columns) {
                violations.expect(line.indent + DisplayWidth.of(line.text) <= columns,
                                  "a bidi line with indent \(line.indent) is \(DisplayWidth.of(line.text)) wide in \(columns) columns: \(ScreenSafety.describe(line.text))")
            }
        }
        for base in [BidiLine.Direction.leftToRight, .rightToLeft] {
            let visual = BidiLine.visual(safe, base: base)
            violations.expect(DisplayWidth.of(visual) == width, "bidi reordering changes the width of \(ScreenSafety.describe(safe))")
            if let bad = ScreenSafety.firstForbidden(in: visual) { violations.fail("bidi reordering brought \(bad)") }
        }
        return violations.list
    }

    /// Every row of the frame is exactly its width: cells of one or two columns, each wide cell
    /// followed by a continuation, no continuation elsewhere, nothing unsafe.
    static func checkRows(_ frame: Frame, text: String, into violations: inout Violations) {
        for y in 0..<frame.height {
            var x = 0
            while x < frame.width {
                let cell = frame[x, y]
                if cell.isContinuation {
                    violations.fail("row \(y) column \(x) of a \(frame.width)-wide frame is a stray continuation after \(ScreenSafety.describe(text))")
                    x += 1
                    continue
                }
                if let bad = ScreenSafety.firstForbidden(in: cell.text) {
                    violations.fail("cell (\(x), \(y)) holds \(bad)")
                }
                let columns = DisplayWidth.of(cell.text)
                switch columns {
                case 1:
                    x += 1
                case 2:
                    if x + 1 < frame.width, frame[x + 1, y].isContinuation {
                        x += 2
                    } else {
                        violations.fail("cell (\(x), \(y)) of a \(frame.width)-wide frame is 2 columns wide without its continuation: \(ScreenSafety.describe(cell.text)) after \(ScreenSafety.describe(text))")
                        x += 1
                    }
                default:
                    violations.fail("cell (\(x), \(y)) is \(columns) columns wide: \(ScreenSafety.describe(cell.text)) after \(ScreenSafety.describe(text))")
                    x += 1
                }
            }
        }
    }
}
