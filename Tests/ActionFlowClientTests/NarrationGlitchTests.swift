import ActionFlowBackend
@testable import ActionFlowClient
import Foundation
import Testing

/// What a line shown to users must not hold: an empty slot where a value was missing, a phrase
/// said twice, or a raw parameter name of a link instead of words.
enum WordingGlitches {
    /// The problems in one line, each named; empty when the line reads well.
    static func find(in line: String) -> [String] {
        var problems: [String] = []
        for slot in ["for  with", "for with", "()", " :", "Optional(", "  "] where line.contains(slot) {
            problems.append("empty slot `\(slot)`")
        }
        let words = line.split(separator: " ").map(String.init)
        if let last = words.last, ["for", "to", "with", "at", "of", "by"].contains(last) {
            problems.append("ends with `\(last)`, a slot left empty")
        }
        if words.contains(where: { normalized($0) == "nil" }) { problems.append("`nil` shown") }
        problems += repeats(in: words)
        problems += rawParameters(in: words)
        return problems
    }

    /// A word as compared for repeats: without the punctuation around it, lower-cased.
    static func normalized(_ word: String) -> String {
        word.trimmingCharacters(in: CharacterSet(charactersIn: "().,:;\"'‘’“”[]")).lowercased()
    }

    /// The same word twice in a row (`INVALID_OOB_CODE: INVALID_OOB_CODE`), or a run of three
    /// words or more that the line says twice.
    static func repeats(in words: [String]) -> [String] {
        let plain = words.map(normalized)
        var problems: [String] = []
        for index in plain.indices.dropFirst() where !plain[index].isEmpty && plain[index] == plain[index - 1] && plain[index].contains(where: \.isLetter) {
            problems.append("`\(plain[index])` said twice in a row")
        }
        guard plain.count >= 6 else { return problems }
        var firstSeen: [ArraySlice<String>: Int] = [:]
        for start in 0...(plain.count - 3) {
            let run = plain[start..<(start + 3)]
            if let earlier = firstSeen[run] {
                if earlier + 3 <= start { problems.append("`\(run.joined(separator: " "))` said twice") }
            } else {
                firstSeen[run] = start
            }
        }
        return problems
    }

    /// Parameters of Firebase's links that mean nothing to a reader when shown bare.
    static let linkParameters = ["amv", "apn", "ibi", "ifl", "afl", "isi", "efr", "oobcode", "continueurl", "apikey"]

    /// A link parameter's short name as a word (`older than amv 12`), or `name=` outside a URL.
    static func rawParameters(in words: [String]) -> [String] {
        var problems: [String] = []
        for word in words where !word.contains("://") {
            let plain = normalized(word)
            if ["amv", "apn", "ibi", "ifl", "afl", "isi", "efr"].contains(plain) {
                problems.append("raw parameter name `\(plain)`")
            }
            if let equals = plain.firstIndex(of: "="), linkParameters.contains(String(plain[..<equals].drop { $0 == "?" || $0 == "&" })) {
                problems.append("raw parameter `\(plain[...equals])` outside a URL")
            }
        }
        return problems
    }
}

@Suite("The wording checker")
struct WordingGlitchCheckerTests {
    @Test("finds each glitch once seen on screen", arguments: [
        "sendOobCode PASSWORD_RESET for with continueUrl https://www.example.com/",
        "sendOobCode PASSWORD_RESET for  with continueUrl https://www.example.com/",
        "INVALID_OOB_CODE: INVALID_OOB_CODE: The action code has already been used",
        "host evil.example.org is not an authorized domain (host evil.example.org is not an authorized domain)",
        "the installed app v11 is older than amv 12",
        "the link carries oobCode=abc and continueUrl=https://x.example/",
        "signed in as nil",
        "resumed at Optional(\"/articles/42\")",
        "the email was sent to",
        "an error () happened",
    ])
    func catches(_ line: String) {
        #expect(!WordingGlitches.find(in: line).isEmpty, "\(line)")
    }

    @Test("leaves good lines alone", arguments: [
        "sendOobCode PASSWORD_RESET for bob@example.com with continueUrl https://www.example.com/articles/42",
        "UNAUTHORIZED_DOMAIN: host evil.example.net is not an authorized domain (the continue URL's host is not on the project's authorized domains)",
        "tap https://demo.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=…(masked)&continueUrl=https%3A%2F%2Fwww.example.com",
        "the installed app v11 is older than the minimum version 12",
    ])
    func passes(_ line: String) {
        #expect(WordingGlitches.find(in: line).isEmpty, "\(WordingGlitches.find(in: line))")
    }
}

@Suite("Narration of every shipped scenario and story reads well")
struct ShippedNarrationWordingTests {
    @Test("no empty slot, no phrase said twice, no raw parameter name in any narration line",
          arguments: ScenarioLibrary.shippedFiles() + ScenarioLibrary.storyFiles())
    func narration(_ file: URL) async throws {
        let scenario = try ScenarioParser.load(contentsOf: file)
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        let session = try #require(transcript.finalSession)
        var lines = transcript.narration + session.narration
        // Step names too, but not the checks, which repeat the scenario's own words.
        lines += transcript.lines.compactMap { if case .step(_, let summary) = $0, !summary.hasPrefix("expect") { summary } else { nil } }
        var problems: [String] = []
        for line in Set(lines).sorted() {
            for problem in WordingGlitches.find(in: line) {
                problems.append("\(problem): \(line)")
            }
        }
        #expect(problems.isEmpty, "\(file.lastPathComponent):\n\(problems.joined(separator: "\n"))")
    }
}
