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
        return MatrixCommand.render(settings: command.settings, requestType: command.requestType.oobRequestType, project: project, format: command.format, sdks: try command.profiles())
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

    /// Each release's rows: iOS 11.0-11.11 maps resetPassword to unknown (ActionCodeInfo.swift:43-51@CocoaPods-11.11.0),
    /// 11.12+ cuts the continue URL's query (ActionCodeURL.swift:72-74@CocoaPods-11.15.0), Android
    /// reads the link itself (assumed); iOS 11.7 cannot send linkDomain, so its email keeps the default domain.
    @Test func sdkAxis() throws {
        let cart = ["--url", "https://www.example.com/articles/42?cartId=1234", "--ios-bundle-id", "com.example.ios", "--android-package-name", "com.example.android", "--handle-code-in-app"]
        let text = try output(cart + ["--sdk", "ios@11.11.0,ios@11.15.0,android@23.2.0"]).get()
        let section = { (name: String) in text.components(separatedBy: "App on \(name)").dropFirst().first?.components(separatedBy: "App on ").first ?? "" }
        #expect(section("ios@11.11.0").contains("no action found"))
        #expect(section("ios@11.15.0").contains("resetPassword, resumes at https://www.example.com/articles/42?cartId\n"))
        #expect(section("android@23.2.0").contains("resetPassword, resumes at https://www.example.com/articles/42?cartId=1234"))
        #expect(!section("android@23.2.0").contains("iOS 18"), "a release's rows are its platform's")

        let json = try output(cart + ["--link-domain", "links.example.com", "--sdk", "ios@11.7.0", "--format", "json"]).get()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let release = try #require((object["sdks"] as? [[String: Any]])?.first)
        #expect(release["name"] as? String == "ios@11.7.0")
        #expect((release["sendNotes"] as? [String])?.first?.hasPrefix("ios@11.7.0 does not send linkDomain (links.example.com)") == true)
        #expect((release["link"] as? String) != (object["link"] as? String), "the email differs from the one the settings ask for")
        let reads = (release["rows"] as? [[String: Any]])?.compactMap { $0["appReads"] as? [String: Any] }
        #expect(reads?.count == 1, "only the row that opens the app reads the link")

        #expect(throws: (any Error).self) { try ActionFlowCommand.parseAsRoot(["matrix", "--sdk", "ios@9"]) }
        #expect(try output(cart + ["--sdk", "all"]).get().components(separatedBy: "App on ").count == 1 + SDKProfile.all.count)
    }

    /// The bundled project's apps in the field: each build before and after the switch, why, and
    /// what the link domains serve.
    @Test func migrationView() throws {
        let project = try ProjectConfigLoader.loadDefault()
        let settings = ActionCodeSettings(url: "https://www.example.com/articles/42", handleCodeInApp: true, iOSBundleID: "com.example.ios",
                                          androidPackageName: "com.example.android", dynamicLinkDomain: "example.page.link", linkDomain: "links.example.com")
        let text = try MatrixCommand.renderMigration(settings: settings, requestType: .passwordReset, project: project, format: .text).get()
        let rows = text.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("Android 9 ") && $0.contains("after: Hosting") && $0.contains("demo-actionflow.firebaseapp.com  does not") })
        #expect(rows.contains { $0.hasPrefix("iOS 4.0 ") && $0.contains("after: Hosting") && $0.contains("links.example.com") && $0.contains("opens the app") })
        #expect(text.contains("  iOS 2.4: ios@10.29.0 does not send linkDomain (links.example.com)"))
        #expect(text.contains("  links.example.com: apple-app-site-association lists ABCDE12345.com.example.ios; assetlinks.json lists com.example.android"))
        let json = try MatrixCommand.renderMigration(settings: settings, requestType: .passwordReset, project: project, format: .json).get()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["rows"] as? [Any])?.count == project.apps.count)

        var bare = project
        bare.fieldApps = nil
        #expect(MatrixCommand.renderMigration(settings: settings, requestType: .passwordReset, project: bare, format: .text).failure?.lines.first?.contains("lists no apps in the field") == true)
        #expect(throws: (any Error).self) { try ActionFlowCommand.parseAsRoot(["matrix", "--migration", "--sdk", "all"]) }
    }
}


extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
