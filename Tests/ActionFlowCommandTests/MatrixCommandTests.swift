@testable import ActionFlowCommands
import ActionFlowBackend
import ActionFlowModel
import ArgumentParser
import Foundation
import Testing

@Suite struct MatrixCommandTests {
    func output(_ arguments: [String]) throws -> Result<String, MatrixCommand.Refusal> {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["matrix"] + arguments) as? MatrixCommand)
        var project = try ProjectConfigLoader.loadDefault()
        if let style = command.linkStyle { project.mobileLinkStyle = style.mobileLinkStyle }
        return MatrixCommand.render(settings: command.settings, requestType: command.requestType.oobRequestType, project: project, format: command.format)
    }

    let appSettings = ["--url", "https://www.example.com/articles/42", "--ios-bundle-id", "com.example.ios",
                       "--android-package-name", "com.example.android", "--android-minimum-version", "10"]

    @Test func textTableIsAlignedAndCoversEveryCondition() throws {
        let text = try output(appSettings + ["--handle-code-in-app", "--android-install"]).get()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("Device") })
        let table = Array(lines[header...].prefix { !$0.isEmpty })
        #expect(table.count == 2 + 15, "header, rule and one row per condition")
        let column = try #require(table[0].range(of: "Tap lands in")).lowerBound.utf16Offset(in: table[0])
        for row in table.dropFirst(2) {
            #expect(row.count > column)
        }
        #expect(text.contains("app <- action URL"))
        #expect(text.contains("Play Store (upgrade), then app <- action URL"))
        #expect(text.contains("Play Store (install), then app <- action URL"))
        #expect(text.contains("Assumptions:"))
    }

    @Test func markdownShowsWhereContinueLeads() throws {
        let markdown = try output(appSettings + ["--format", "markdown"]).get()
        #expect(markdown.contains("| Device | App | Links | Mail | Tap lands in | Continue leads to |"))
        #expect(markdown.contains("| web widget | app <- continue URL |"))
        #expect(markdown.contains("| web widget | browser: continue URL |"))
    }

    @Test func jsonRowsForLegacyDynamicLinks() throws {
        let json = try output(appSettings + ["--handle-code-in-app", "--link-style", "dynamic-links", "--format", "json"]).get()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["link"] as? String)?.hasPrefix("https://example.page.link/?link=") == true)
        #expect((object["rows"] as? [Any])?.count == 15)
        #expect((object["findings"] as? [[String: Any]])?.contains { $0["code"] as? String == "legacy-dynamic-links" } == true)
    }

    @Test func refusedSettingsExplainWhy() throws {
        let refusal = try #require(try output(["--request-type", "signin", "--url", "https://evil.example.net/x"]).failure)
        #expect(refusal.lines.contains { $0.hasPrefix("auth/argument-error") })
        #expect(refusal.lines.contains { $0.hasPrefix("continue-url.unauthorized") })
        let command = try #require(try ActionFlowCommand.parseAsRoot(["matrix", "--android-install"]) as? MatrixCommand)
        #expect(throws: ExitCode.failure) { try command.run() }
    }

    @Test func unknownValuesAreRejectedByTheParser() {
        #expect(throws: (any Error).self) { try ActionFlowCommand.parseAsRoot(["matrix", "--format", "html"]) }
        #expect(throws: (any Error).self) { try ActionFlowCommand.parseAsRoot(["matrix", "--link-style", "firebase"]) }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
