@testable import ActionFlowCommands
import ActionFlowModel
import ArgumentParser
import Foundation
import Testing

@Suite struct InspectCommandTests {
    func jsonObject(_ arguments: [String]) throws -> [String: Any] {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["inspect"] + arguments) as? InspectCommand)
        let output = try InspectCommand.render(command.link, json: command.json,
                                               authorizedDomains: try command.authorizedDomains()).get()
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test func jsonHasEveryKeyWithNullForAbsentValues() throws {
        let object = try jsonObject([LinkInspector.representativeLink, "--json"])
        for key in ["mode", "operation", "oobCode", "apiKey", "continueUrl", "lang", "tenantId", "layers", "continueUrlAuthorized", "findings"] {
            #expect(object.keys.contains(key), "missing \(key)")
        }
        #expect(object["mode"] as? String == "resetPassword")
        #expect(object["continueUrl"] as? String == "https://www.example.com/articles/42")
        #expect(object["tenantId"] is NSNull)
        #expect(object["continueUrlAuthorized"] is NSNull, "no domain given")
        let layers = try #require(object["layers"] as? [[String: Any]])
        #expect(layers.map { $0["kind"] as? String } == ["hostingWrapper", "actionURL", "continueURL"])
        let firstParameters = try #require(layers.first?["parameters"] as? [[String: Any]])
        #expect(firstParameters.first?["name"] as? String == "link")
        #expect(layers[1]["url"] as? String == "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=qX3vJ8kLm2Pz9RtYwB7nC4dF6gH1jK5sT0uV2xA8eQ_-Lr3Mo9Np1Z&apiKey=AIzaSyDemoActionflowKey0000000000000000&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42&lang=en")
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["code"] as? String == "ios.no-unwrap" && $0["message"] is String })
    }

    @Test func authorizedDomainsDecideTheVerdict() throws {
        let allowed = try jsonObject([LinkInspector.representativeLink, "--json", "--authorized-domain", "www.example.com"])
        #expect(allowed["continueUrlAuthorized"] as? Bool == true)
        let refused = try jsonObject([LinkInspector.representativeLink, "--json", "--authorized-domain", "localhost", "--authorized-domain", "demo-actionflow.web.app"])
        #expect(refused["continueUrlAuthorized"] as? Bool == false)
        #expect((refused["findings"] as? [[String: Any]])?.contains { $0["code"] as? String == "continue-url.unauthorized" } == true)
    }

    @Test func noActionLinkExitsWithTwo() throws {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["inspect", "https://www.example.com/articles/42", "--json"]) as? InspectCommand)
        #expect(throws: ExitCode(2)) { try command.run() }
        #expect(throws: ExitCode(2)) {
            let empty = try #require(try ActionFlowCommand.parseAsRoot(["inspect", "   "]) as? InspectCommand)
            try empty.run()
        }
    }

    @Test func humanTextIsSanitizedAndComplete() throws {
        let hostile = "https://h.example/__/auth/action?mode=resetPassword&oobCode=C&continueUrl=https%3A%2F%2Fwww.example.com%2F%1B%5B2Jx%E2%80%AE"
        let text = try InspectCommand.render(hostile, json: false, authorizedDomains: ["www.example.com"]).get()
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(text.contains("continueUrl https://www.example.com/␛[2Jx"))
        #expect(text.contains("[NOT authorized]"), "a control character makes the continue URL invalid")
        #expect(text.contains("oobCode     = C  (the one-time action code"))
        #expect(text.contains("Findings:"))
    }
}

@Suite struct InspectSDKTests {
    static let wrapped = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent("https://demo-actionflow.firebaseapp.com/__/auth/action?apiKey=AIzaKey&mode=signIn&oobCode=CODE&lang=en")

    func render(_ arguments: [String]) throws -> (output: String?, error: LinkParseError?) {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["inspect"] + arguments) as? InspectCommand)
        return InspectCommand.render(command.link, json: command.json, authorizedDomains: nil, sdks: try command.profiles())
    }

    func object(_ arguments: [String]) throws -> [String: Any] {
        let output = try #require(try render(arguments).output)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    /// iOS reads the Hosting wrapper's flattened query (AuthWebUtils.swift:195-203), losing the
    /// payload's first pair, apiKey; JS unwraps link= (action_code_url.ts:67, 80).
    @Test func oneProfileAddsItsReadingToTheAnatomy() throws {
        let ios = try object([Self.wrapped, "--json", "--sdk", "ios@12.18.0"])
        #expect(ios["mode"] as? String == "signIn", "the anatomy stays")
        let sdk = try #require(ios["sdk"] as? [String: Any])
        #expect(sdk["name"] as? String == "ios@12.18.0")
        #expect(sdk["isSignInWithEmailLink"] as? Bool == true)
        let parsed = try #require(sdk["parseLink"] as? [String: Any])
        #expect(parsed["apiKey"] is NSNull)
        #expect(parsed["operation"] as? String == "EMAIL_SIGNIN")
        #expect(parsed["tenantId"] is NSNull)
        #expect(sdk["checkActionCode"] as? String == "unknown", "from 11.12 iOS maps the server's request type as a mode")
        let js = try #require(try object([Self.wrapped, "--json", "--sdk", "js@10.14.1"])["sdk"] as? [String: Any])
        #expect((js["parseLink"] as? [String: Any])?["apiKey"] as? String == "AIzaKey")
        #expect(js["checkActionCode"] as? String == "EMAIL_SIGNIN")
    }

    /// ActionCodeURL.swift:72-74 traps on the trailing `&` from CocoaPods-11.0.0 to 12.16.0.
    @Test func allGivesEveryProfileAndMarksDifferences() throws {
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?apiKey=AIzaKey&mode=signIn&oobCode=CODE&"
        let sdks = try #require(try object([link, "--json", "--sdk", "all"])["sdks"] as? [[String: Any]])
        #expect(sdks.map { $0["name"] as? String } == SDKProfile.all.map(\.name))
        #expect(sdks.filter { $0["parseLink"] as? String == "crash" }.map { $0["name"] as? String } == ["ios@11.0-11.11", "ios@11.12-11.15", "ios@12.0-12.16"])
        let text = try #require(try render([link, "--sdk", "all"]).output)
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("ios@12.0-12.16") })
        #expect(row.contains("crash *"))
        #expect(text.contains("index out of range"))
    }

    /// A hash-router link is no action link to the inspector, but JS reads it (util/src/query.ts:62-70).
    @Test func hashRouterLinkStillShowsTheSDKs() throws {
        let rendered = try render(["https://app.example.com/#/finish?apiKey=K&mode=signIn&oobCode=C", "--sdk", "all", "--json"])
        #expect(rendered.error != nil)
        let object = try JSONSerialization.jsonObject(with: Data(try #require(rendered.output).utf8)) as? [String: Any]
        let sdks = try #require(object?["sdks"] as? [[String: Any]])
        #expect(sdks.first { $0["name"] as? String == "js@12.x" }?["isSignInWithEmailLink"] as? Bool == true)
        #expect(sdks.first { $0["name"] as? String == "ios@12.17+" }?["isSignInWithEmailLink"] as? Bool == false)
        #expect(object?["error"] is String)
    }

    /// decodeURIComponent throws outside parseLink's try (action_code_url.ts:147-148).
    @Test func malformedEscapeThrowsInJS() throws {
        let sdk = try object(["https://h.example/__/auth/action?apiKey=K&mode=signIn&oobCode=C%ZZ", "--json", "--sdk", "js@12.18.0"])["sdk"] as? [String: Any]
        #expect(sdk?["isSignInWithEmailLink"] as? String == "throws")
        #expect(sdk?["parseLink"] as? String == "throws")
    }

    @Test func unknownProfileListsTheKnownOnes() throws {
        do {
            _ = try ActionFlowCommand.parseAsRoot(["inspect", Self.wrapped, "--sdk", "windows@1.0.0"])
            Issue.record("windows@1.0.0 was accepted")
        } catch {
            let message = ActionFlowCommand.message(for: error)
            #expect(message.contains("unknown SDK profile \"windows@1.0.0\""))
            #expect(message.contains("known platforms: ios, js, android, flutterfire, rnfb"))
            #expect(message.contains("ios@12.17+"))
        }
        #expect(throws: (any Error).self) { try ActionFlowCommand.parseAsRoot(["inspect", "-", "--jsonl", "--sdk", "all"]) }
    }
}

@Suite struct JSONOutputTests {
    @Test func hostileValuesAreEscapedButSurviveDecoding() throws {
        let hostile = "https://h.example/__/auth/action?mode=resetPassword&oobCode=C&lang=" + PercentEncoding.encodeComponent("en\u{202E}\u{1B}[31m\u{85}👩‍💻")
        let json = try InspectCommand.render(hostile, json: true, authorizedDomains: nil).get()
        #expect(!UntrustedText.needsSanitizing(json.replacingOccurrences(of: "\n", with: "")))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["lang"] as? String == "en\u{202E}\u{1B}[31m\u{85}👩‍💻")
    }
}

extension InspectCommand {
    /// The command's output for `text`, or why it is no action link.
    static func render(_ text: String, json: Bool, authorizedDomains: [String]?) -> Result<String, LinkParseError> {
        let rendered = render(text, json: json, authorizedDomains: authorizedDomains, sdks: nil)
        if let error = rendered.error { return .failure(error) }
        return .success(rendered.output ?? "")
    }
}
