import ActionFlowTUI
import Foundation
import Testing

/// Compares a rendered frame with `Golden/NAME.txt`. `ACTIONFLOW_UPDATE_GOLDEN=1` rewrites the
/// file instead. Control bytes are escaped, so a golden file can never hide one.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if (scalar.value < 0x20 && scalar != "\n") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                out += String(format: "\\u{%02X}", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One letter per cell for how it stands out, for rows where any does: `r` reversed, `h`
    /// on a coloured background (focus, selection, bars), `b` bold, `u` underlined, `d` dim.
    /// Colours themselves are left out: they belong to the theme, not to what the frame shows.
    static func styles(_ frame: Frame) -> String {
        var rows: [String] = []
        for y in 0..<frame.height {
            var marks = ""
            for x in 0..<frame.width {
                let style = frame[x, y].style
                marks += style.reverse ? "r" : style.background != .default ? "h" : style.bold ? "b" : style.underline ? "u" : style.dim ? "d" : " "
            }
            if marks.contains(where: { $0 != " " }) { rows.append(String(format: "%02d|", y) + marks) }
        }
        return rows.joined(separator: "\n")
    }

    static func check(_ frame: Frame, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = escaped(frame.text) + "\n--- styles\n" + styles(frame) + "\n"
        let file = directory.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["ACTIONFLOW_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(throws: Never.self, sourceLocation: sourceLocation) { try actual.write(to: file, atomically: true, encoding: .utf8) }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("No golden file \(file.path); run with ACTIONFLOW_UPDATE_GOLDEN=1 to create it.\n\(actual)", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.components(separatedBy: "\n")
            let actualLines = actual.components(separatedBy: "\n")
            let firstDifference = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expectedLines.count, actualLines.count)
            Issue.record("Frame differs from \(name).txt at line \(firstDifference + 1) (ACTIONFLOW_UPDATE_GOLDEN=1 rewrites it):\n\(actual)", sourceLocation: sourceLocation)
        }
    }
}
