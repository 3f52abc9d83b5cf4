@testable import ActionFlowCommands
import ActionFlowModel
import ArgumentParser
import Foundation
import Testing

@Suite struct InspectCommandTests {
    func jsonObject(_ arguments: [String]) throws -> [String: Any] {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["inspect"] + arguments) as? InspectCommand)
        let output = try InspectCommand.render(command.link, json: command.json,
                                               authorizedDomains: command.authorizedDomains.isEmpty ? nil : command.authorizedDomains).get()
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

@Suite struct JSONOutputTests {
    @Test func hostileValuesAreEscapedButSurviveDecoding() throws {
        let hostile = "https://h.example/__/auth/action?mode=resetPassword&oobCode=C&lang=" + PercentEncoding.encodeComponent("en\u{202E}\u{1B}[31m\u{85}👩‍💻")
        let json = try InspectCommand.render(hostile, json: true, authorizedDomains: nil).get()
        #expect(!UntrustedText.needsSanitizing(json.replacingOccurrences(of: "\n", with: "")))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["lang"] as? String == "en\u{202E}\u{1B}[31m\u{85}👩‍💻")
    }
}
