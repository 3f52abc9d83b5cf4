@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

@Suite struct MarkdownTextTests {
    @Test func inlineTextCannotOpenLinksHTMLOrCells() {
        #expect(MarkdownText.inline("[x](javascript:alert(1)) <b>|*_#") == ##"\[x\](javascript:alert(1)) \<b\>\|\*\_\#"##)
        #expect(MarkdownText.inline("![img](x)") == ##"!\[img\](x)"##)
        #expect(MarkdownText.inline("a & b") == "a &amp; b")
        #expect(MarkdownText.inline("line\nbreak") == "line␊break")
    }

    @Test func codeSpansOutgrowTheBackticksInside() {
        #expect(MarkdownText.code("plain") == "`plain`")
        #expect(MarkdownText.code("a`b") == "``a`b``")
        #expect(MarkdownText.code("`x`") == "`` `x` ``")
        #expect(MarkdownText.code("a|b") == #"`a\|b`"#)
        #expect(MarkdownText.code("") == "(empty)")
    }

    @Test func fencesOutgrowTheBackticksInside() {
        #expect(MarkdownText.fenced("{}", language: "json") == "```json\n{}\n```")
        #expect(MarkdownText.fenced("```\nx", language: "json") == "````json\n```\nx\n````")
    }
}

@Suite struct ReviewReportTests {
    /// The report's `## ` sections, each with its lines.
    func sections(_ markdown: String) -> [(heading: String, body: String)] {
        markdown.components(separatedBy: "\n## ").dropFirst().map { section in
            let heading = String(section.prefix { $0 != "\n" })
            return (heading, String(section.dropFirst(heading.count)))
        }
    }

    @Test("a web-widget reset: every section, in order, with what the session holds")
    func webWidgetReset() async throws {
        let session = try await shippedSession("password-reset-web-widget")
        let markdown = ReviewReport(title: "password-reset-web-widget", session: session).markdown
        #expect(markdown.hasPrefix("# Review: password-reset-web-widget\n"))
        let parts = sections(markdown)
        #expect(parts.map(\.heading) == ReviewReport.sections)
        let body = Dictionary(uniqueKeysWithValues: parts.map { ($0.heading, $0.body) })

        let outcome = try #require(body["Outcome"])
        #expect(outcome.contains("- Screen: /articles/42 in the app"))
        #expect(outcome.contains("- Signed in: `bob@example.com`"))
        #expect(outcome.contains("- Flow: password reset, step: done"))

        let settings = try #require(body["Settings sent"])
        #expect(settings.contains("| continueUrl | `https://www.example.com/articles/42` |"))
        #expect(settings.contains("| canHandleCodeInApp | `false` |"), "absent on the wire, which means false")
        #expect(settings.contains("| iOSBundleId | `com.example.ios` |"))

        let email = try #require(body["The email"])
        #expect(email.contains("- Subject: Reset your password for demo-actionflow"))
        #expect(email.contains("- To: `bob@example.com`"))
        #expect(email.contains("oobCode=") && email.contains("…(masked)"))

        let anatomy = try #require(body["Link anatomy"])
        #expect(anatomy.contains("1. Action URL on `demo-actionflow.firebaseapp.com`"))
        #expect(anatomy.contains("- `oobCode`: `"))
        #expect(anatomy.contains("- `continueUrl`: `https://demo-actionflow.firebaseapp.com/__/auth/links?link="))

        let route = try #require(body["Route taken"])
        #expect(route.contains("1. Opens in: **web widget**"))
        #expect(route.contains("2. Opens in: **app**"))
        #expect(route.contains("*assumed: pressing Continue is a user tap"))

        let exchanges = try #require(body["Exchanges"])
        #expect(exchanges.components(separatedBy: "\n### ").count - 1 == session.exchanges.count)
        #expect(exchanges.contains("\"newPassword\" : \"…(masked)\""))

        let diagram = try #require(body["Sequence diagram"])
        #expect(diagram.contains("```mermaid\n" + SequenceDiagram(session).mermaid + "```"))

        for message in session.sentMail {
            #expect(!markdown.contains(try #require(message.oobCode)))
        }
        #expect(!markdown.contains(session.project.apiKey) && !markdown.contains("correct-horse-battery"))
    }

    @Test("findings from the settings sent and the link")
    func findings() async throws {
        let session = try await shippedSession("android-app-too-old")
        let findings = try #require(sections(ReviewReport(title: "t", session: session).markdown).first { $0.heading == "Findings" }?.body)
        #expect(findings.contains("**warning** `ios.no-unwrap`"))
    }

    @Test("a session with no flow says so in each section")
    func emptySession() {
        let markdown = ReviewReport(title: "empty", session: Fixture.session()).markdown
        for line in ["No email was requested.", "No email was sent.", "No link was opened or sent.", "No link was tapped.", "No backend call was made.", "- Flow: none", "- Signed in: no"] {
            #expect(markdown.contains(line))
        }
    }

    /// The text Markdown reads as markup: code spans, fenced blocks and escapes left out (a run of
    /// backticks ends at the next run of the same length; an escaped backtick starts nothing).
    func outsideCode(_ markdown: String) -> String {
        let characters = Array(markdown)
        var outside = ""
        var index = 0
        func run(at start: Int) -> Int { characters[start...].prefix { $0 == "`" }.count }
        while index < characters.count {
            if characters[index] == "\\", index + 1 < characters.count {
                // An escaped character is shown as text: left out with its backslash.
                index += 2
            } else if characters[index] == "`" {
                let fence = run(at: index)
                index += fence
                while index < characters.count {
                    let length = characters[index] == "`" ? run(at: index) : 0
                    index += max(length, 1)
                    if length == fence { break }
                }
            } else {
                outside.append(characters[index])
                index += 1
            }
        }
        return outside
    }

    @Test("hostile text is shown, never obeyed: no HTML, link, heading, cell or fence of its own, no secret", arguments: HostileSession.texts)
    func hostile(_ text: String) {
        let markdown = ReviewReport(title: text, session: HostileSession.session(text)).markdown
        let rendered = outsideCode(markdown)
        #expect(!rendered.contains("<script"))
        #expect(!rendered.contains("](javascript"))
        #expect(!markdown.contains("\u{1B}") && !markdown.contains("\u{202E}") && !markdown.contains("\r"))
        #expect(sections(markdown).map(\.heading) == ReviewReport.sections)
        #expect(markdown.components(separatedBy: "```mermaid\n").count == 2)
        for secret in HostileSession.secrets {
            #expect(!markdown.contains(secret))
        }
        for line in markdown.split(separator: "\n") where line.hasPrefix("| ") {
            let unescapedPipes = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            // The ASVS table has five columns, the others two.
            let cells = line.hasPrefix("| v5.0.0-") || line.hasPrefix("| requirement ") ? 5 : 2
            #expect(unescapedPipes == cells + 1, "a table row keeps its \(cells) cells: \(line)")
        }
    }
}
