import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import Foundation

/// The HAR capture reader. Invariants:
/// - a refused capture gets one terminal-safe reason;
/// - read one entry at a time, a capture the whole-file decoder accepts gives the same entries
///   and the same verdict;
/// - a capture read is narrated in terminal-safe lines;
/// - no secret of the input (a code, password or token, in a body or a link, however encoded)
///   reaches the narration, the JSON report, the review report or the diagram.
enum CaptureChecks {
    static let project = try? ProjectConfigLoader.loadDefault()

    static func check(_ data: Data) -> [String] {
        var violations = Violations()
        guard let project else { return ["the bundled project does not load"] }
        var streamed: [String?] = []
        let streamedResult = Result { () throws(CaptureError) in try HTTPArchive.forEachEntry(data) { _, entry in streamed.append(entry.request?.url) } }
        if case .success(let whole) = Result(catching: { () throws(CaptureError) in try HTTPArchive.load(data) }) {
            let entries = whole.log?.entries ?? []
            switch streamedResult {
            case .success(let count):
                violations.expect(count == entries.count, "read one by one: \(count) entries; whole: \(entries.count)")
                violations.expect(streamed == entries.map(\.request?.url), "read one by one, the entries differ from the whole file's")
            case .failure(let error):
                violations.fail("the whole file reads, but one by one it is refused: \(ScreenSafety.describe(error.description))")
            }
        }
        do {
            let flow = try CapturedFlow.read(data, project: project)
            let narration = flow.narration(source: "fuzz.har")
            violations.expectSafeLines(narration, of: "the narration")
            let session = flow.recording(project: project, source: "fuzz.har").current
            let outputs = [("the narration", narration), ("the JSON report", JSONOutput.commandOutput(CapturedFlow.Report(flow))),
                           ("the review report", ReviewReport(title: "fuzz.har", session: session).markdown),
                           ("the diagram", SequenceDiagram(session).mermaid),
                           ("the masked curl script", CurlScript(title: "fuzz.har", session: flow.recording(project: project, source: "fuzz.har", keepsValues: true).current,
                                                                 revealsSecrets: false).script)]
            for secret in Self.secrets(in: data) {
                for (name, text) in outputs where text.contains(secret) {
                    violations.fail("\(name) shows the secret \(ScreenSafety.describe(secret)) in clear")
                }
            }
        } catch {
            if let bad = ScreenSafety.firstForbidden(in: error.description) {
                violations.fail("the error \(ScreenSafety.describe(error.description)) holds \(bad)")
            }
        }
        return violations.list
    }

    /// Values the input holds under a secret's name, as a JSON value or a link parameter,
    /// plainly or percent-encoded, long enough that masking must hide them (a shorter value is
    /// hidden whole, and could stand anywhere). A value the input also holds elsewhere (the
    /// same text as an email, say) is left out: it is not only a secret there.
    static func secrets(in data: Data) -> Set<String> {
        let text = String(decoding: data.prefix(1 << 20), as: UTF8.self)
        let names = ["oobCode", "password", "newPassword", "idToken", "refreshToken", "id_token", "refresh_token", "access_token"]
        let patterns = [#"\\?"(NAME)\\?"\s*:\s*\\?"([A-Za-z0-9._~+/-]{13,})"#, #"(NAME)(=|%3D|%253D)([A-Za-z0-9._~-]{13,})"#]
        var found: [String: Int] = [:]
        for pattern in patterns {
            let expression = pattern.replacingOccurrences(of: "NAME", with: names.joined(separator: "|"))
            guard let regex = try? NSRegularExpression(pattern: expression) else { continue }
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: match.numberOfRanges - 1), in: text) else { continue }
                found[String(text[range]), default: 0] += 1
            }
        }
        return Set(found.filter { value, count in text.components(separatedBy: value).count - 1 <= count }.keys)
    }
}
