@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

/// The report's ASVS 5.0 section: each verdict follows from what the flow did, not from the
/// scenario's name.
@Suite("export --format markdown: the flow held against OWASP ASVS 5.0")
struct SecurityReviewTests {
    typealias Verdict = SecurityReview.Verdict

    func verdicts(_ scenario: String) async throws -> [String: Verdict] {
        let session = try await shippedSession(scenario)
        return Dictionary(uniqueKeysWithValues: SecurityReview(session).checks.map { ($0.id, $0.verdict) })
    }

    func evidence(_ id: String, in session: Session) throws -> String {
        try #require(SecurityReview(session).checks.first { $0.id == id }).evidence
    }

    @Test("a mail scanner that opens the link first: the GET changed state, the code was not bound to who asked, and its reuse was refused")
    func mailScanner() async throws {
        let session = try await shippedSession("mail-scanner-consumes-code")
        let review = Dictionary(uniqueKeysWithValues: SecurityReview(session).checks.map { ($0.id, $0) })
        #expect(review["3.5.3"]?.verdict == .notMet)
        #expect(review["3.5.3"]?.evidence.contains("mail scanner") == true)
        #expect(review["6.6.2"]?.verdict == .notMet)
        #expect(review["6.5.1"]?.verdict == .met)
        #expect(review["6.5.1"]?.evidence.contains("INVALID_OOB_CODE") == true)
    }

    @Test("an in-app reset: codes in the wrapped link's query, a one-hour code past the 10-minute limit, no notice after the reset, the continue URL on the allow-list")
    func inAppReset() async throws {
        let session = try await shippedSession("password-reset-in-app")
        let verdicts = Dictionary(uniqueKeysWithValues: SecurityReview(session).checks.map { ($0.id, $0.verdict) })
        #expect(verdicts["14.2.1"] == .notMet, "the code sits in the link inside the Hosting link")
        #expect(try evidence("14.2.1", in: session).contains("oobCode and apiKey"))
        #expect(verdicts["6.5.5"] == .notMet)
        #expect(try evidence("6.5.5", in: session).contains("Password reset codes live 1 hour"))
        #expect(verdicts["6.3.7"] == .notMet)
        #expect(verdicts["3.7.2"] == .met)
        #expect(verdicts["3.5.3"] == .met, "the reset needs the form's POST")
        #expect(verdicts["6.5.1"] == .notShown, "no code was used twice")
        #expect(verdicts["6.6.2"] == .notShown)
        #expect(verdicts["6.3.6"] == .notApplicable)
        #expect(verdicts["6.3.8"] == .notMet, "the default project answers EMAIL_NOT_FOUND")
    }

    @Test("a code asked for on the iPhone and used on the laptop is not bound to its request")
    func crossDevice() async throws {
        let session = try await shippedSession("cross-device-password-reset")
        #expect(SecurityReview(session).checks.first { $0.id == "6.6.2" }?.verdict == .notMet)
        #expect(try evidence("6.6.2", in: session).contains("asked for by the iPhone"))
        #expect(try evidence("6.6.2", in: session).contains("laptop"))
    }

    @Test("verdicts that follow the project and the flow", arguments: [
        ("enumeration-protection", "6.3.8", Verdict.met),
        ("unauthorized-continue-domain", "3.7.2", .met),
        ("email-link-sign-in", "6.3.6", .notMet),
        ("email-link-sign-in", "6.3.7", .notApplicable),
        ("verify-email-web-widget", "3.5.3", .notMet),
        ("verify-email-web-widget", "3.4.5", .notShown),
        ("expired-link", "6.5.5", .notMet),
    ])
    func verdictFollowsTheFlow(scenario: String, id: String, expected: Verdict) async throws {
        #expect(try await verdicts(scenario)[id] == expected)
    }

    @Test("a lifetime within 10 minutes meets 6.5.5")
    func shortLifetime() async throws {
        var project = try ProjectConfigLoader.loadDefault()
        project.codeLifetimes.passwordReset = 600
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-in-app"))
        let session = try #require(await ScenarioLibrary.runEmbedded(scenario, baseProject: project).finalSession)
        let check = try #require(SecurityReview(session).checks.first { $0.id == "6.5.5" })
        #expect(check.verdict == .met)
        #expect(check.evidence.contains("10 minutes"))
    }

    @Test("the section is a table of every check, whose cells a hostile continue URL cannot break")
    func hostileContinueURL() async throws {
        let yaml = """
        name: hostile
        device: iPhone
        settings:
          handleCodeInApp: true
          iOSBundleID: com.example.ios
          url: "https://www.example.com/a|b<img src=x>`|"
        steps:
          - open: /articles/42
          - forgotPassword
          - requestPasswordReset: bob@example.com
        """
        let scenario = try ScenarioParser.parse(yaml, source: "hostile.yaml")
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        let session = try #require(transcript.finalSession)
        let markdown = ReviewReport(title: "hostile", session: session).markdown
        let section = try #require(markdown.components(separatedBy: "## Security review (OWASP ASVS 5.0)\n").last?.components(separatedBy: "\n## ").first)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| v5.0.0-") }
        #expect(rows.count == SecurityReview(session).checks.count)
        for row in rows {
            // Five cells: six unescaped bars.
            #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 6, "\(row)")
        }
        #expect(section.contains("\\<img"), "shown as text")
        #expect(!section.replacingOccurrences(of: "\\<", with: "").contains("<img"), "never as markup")
    }

    @Test("durations read as a person says them")
    func durations() {
        #expect(SecurityReview.duration(600) == "10 minutes")
        #expect(SecurityReview.duration(3600) == "1 hour")
        #expect(SecurityReview.duration(3 * 86400) == "3 days")
        #expect(SecurityReview.duration(90) == "90 seconds")
    }
}
