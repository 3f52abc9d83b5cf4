import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import Foundation

/// The scenario parser, and the runner on what it accepts. Invariants:
/// - a refused file gets one terminal-safe line naming a line of the file (when it names one);
/// - an accepted scenario plays on the embedded project to a transcript whose every line is
///   terminal-safe, and whose recording saves and loads back equal.
enum ScenarioChecks {
    static let baseProject = try? ProjectConfigLoader.loadDefault()

    static func check(_ data: Data) async -> [String] {
        guard let yaml = String(data: data, encoding: .utf8) else { return [] }  // The loader reads UTF-8 only.
        var violations = Violations()
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(yaml, source: "fuzz.yaml")
        } catch {
            checkError(error.description, line: error.line, yaml: yaml, into: &violations)
            return violations.list
        }
        violations.expect(!scenario.steps.isEmpty, "a scenario without steps was accepted")
        guard let baseProject else { return ["the bundled project does not load"] }
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: baseProject)
        violations.expectSafeLines(transcript.text(), of: "the transcript")
        if let recording = transcript.recording {
            SessionChecks.checkRoundTrip(recording, into: &violations)
        }
        return violations.list
    }

    /// A refusal is one safe line; the line it names is in the file.
    static func checkError(_ description: String, line: Int?, yaml: String, into violations: inout Violations) {
        if let bad = ScreenSafety.firstForbidden(in: description) {
            violations.fail("the error \(ScreenSafety.describe(description)) holds \(bad)")
        }
        if let line {
            let lines = lineCount(yaml)
            violations.expect(line >= 1 && line <= lines + 1, "the error names line \(line) of a file of \(lines) lines: \(ScreenSafety.describe(description))")
        }
    }

    /// Lines as YAML counts them: CR LF, CR, LF, NEL, LS and PS each end one.
    static func lineCount(_ text: String) -> Int {
        var count = 1
        var afterCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": if !afterCR { count += 1 }
            case "\r", "\u{85}", "\u{2028}", "\u{2029}": count += 1
            default: break
            }
            afterCR = scalar == "\r"
        }
        return count
    }
}
