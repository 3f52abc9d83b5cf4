import ActionFlowModel
import Foundation

/// `inspect --sdk --json`: the anatomy's members (or the reason the link is none) and the SDKs'
/// readings, under `sdk` for one profile and `sdks` for `all`.
struct SDKInspectOutput: Encodable {
    let anatomy: LinkAnatomy?
    let error: String?
    let readings: [SDKLinkReading]
    let all: Bool

    enum CodingKeys: String, CodingKey { case error, sdk, sdks }

    func encode(to encoder: any Encoder) throws {
        try anatomy?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(error, forKey: .error)
        if all {
            try container.encode(readings, forKey: .sdks)
        } else if let reading = readings.first {
            try container.encode(reading, forKey: .sdk)
        }
    }
}

/// `inspect --sdk` as text: one row per profile, a `*` on each answer that differs from what
/// most profiles answer, then the rules that decided.
enum SDKTable {
    static func text(_ readings: [SDKLinkReading]) -> String {
        let safe = UntrustedText.sanitize
        let header = ["SDK", "isSignInWithEmailLink", "parseLink", "checkActionCode", "apiKey", "continueUrl", "languageCode"]
        let rows: [[String]] = readings.map { reading in
            var row = [reading.profile, reading.isSignInWithEmailLink.word, reading.parseLink.word, reading.checkActionCode ?? "-"]
            if case .parsed(let url) = reading.parseLink {
                row += [url.apiKey, url.continueUrl, url.languageCode].map { $0.map(safe) ?? "(none)" }
            } else {
                row += ["", "", ""]
            }
            return row
        }
        var marked = rows
        if rows.count > 1 {
            for column in 1..<header.count {
                let counts = Dictionary(rows.map { ($0[column], 1) }, uniquingKeysWith: +)
                guard counts.count > 1, let common = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key else { continue }
                // A row without a parsed link has no fields to differ in.
                for index in rows.indices where rows[index][column] != common && !rows[index][column].isEmpty { marked[index][column] += " *" }
            }
        }
        let table = [header] + marked
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines = table.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        if rows.count > 1 { lines.append("* differs from what most profiles answer") }
        let notes = readings.filter { !$0.notes.isEmpty }
        if !notes.isEmpty {
            lines.append("")
            lines.append("Why:")
            for reading in notes {
                for note in reading.notes { lines.append("  \(reading.profile): \(safe(note))") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
