import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import Foundation

/// The HAR capture reader. Invariants:
/// - a refused capture gets one terminal-safe reason;
/// - read one entry at a time, a capture the whole-file decoder accepts gives the same entries
///   and the same verdict;
/// - a capture read is narrated in terminal-safe lines.
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
            violations.expectSafeLines(flow.narration(source: "fuzz.har"), of: "the narration")
        } catch {
            if let bad = ScreenSafety.firstForbidden(in: error.description) {
                violations.fail("the error \(ScreenSafety.describe(error.description)) holds \(bad)")
            }
        }
        return violations.list
    }
}
