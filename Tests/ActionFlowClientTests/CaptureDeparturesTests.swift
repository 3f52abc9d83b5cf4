@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing
import TestSupport

/// Where a captured answer departs from what Firebase documents, the findings say so: read from
/// a file and live alike.
@Suite("a capture's answers against what Firebase documents")
struct CaptureDeparturesTests {
    static let base = "https://identitytoolkit.googleapis.com/v1/accounts:"

    /// A HAR capture of these calls: (method, request body, status, response body).
    static func capture(_ calls: [(String, String, Int, String)]) -> Data { HARFixture.calls(calls) }

    static func departures(_ calls: [(String, String, Int, String)]) throws -> [CapturedFinding] {
        let flow = try CapturedFlow.read(capture(calls), project: try ProjectConfigLoader.loadDefault())
        return flow.findings.filter { $0.finding.code == CaptureDepartures.code }
    }

    static func error(_ code: String) -> String { #"{"error":{"code":400,"message":"\#(code)"}}"# }

    @Test("a send Firebase refuses, answered 200 or with another error, is flagged with the documented error; the documented refusal is not")
    func refusedSends() throws {
        let unauthorized = #"{"requestType":"PASSWORD_RESET","email":"a@example.com","continueUrl":"https://evil.example/x"}"#
        // A host the server accepted once is one of its project's authorized domains: another one.
        let other = #"{"requestType":"PASSWORD_RESET","email":"a@example.com","continueUrl":"https://other.example/x"}"#
        let flagged = try Self.departures([
            ("sendOobCode", unauthorized, 200, #"{"email":"a@example.com"}"#),
            ("sendOobCode", other, 400, Self.error("INVALID_EMAIL")),
            ("sendOobCode", other, 400, Self.error("UNAUTHORIZED_DOMAIN : host other.example")),
            ("sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"a@example.com","continueUrl":"https://www.example.com/x"}"#, 200, "{}"),
        ])
        // A production server's 200 proves its own project authorizes the host: no departure,
        // and the demo project's domains are not held against it.
        #expect(flagged.map(\.subject) == ["operations[1]"])
        #expect(flagged[0].finding.message.hasPrefix("Firebase answers UNAUTHORIZED_DOMAIN to this sendOobCode (continue-url.unauthorized; docs/file-formats.md, \"How the simulated project answers\"); the captured server answered 400 INVALID_EMAIL."))
        #expect(!flagged[0].finding.message.contains("Auth Emulator"), "a production host's answer has no emulator to blame")
        let flow = try CapturedFlow.read(Self.capture([("sendOobCode", unauthorized, 200, #"{"email":"a@example.com"}"#)]), project: try ProjectConfigLoader.loadDefault())
        // The accepted host is judged one of the captured project's authorized domains, and the narration says so.
        #expect(flow.findings.isEmpty, "\(flow.findings)")
        #expect(flow.narration(source: "c.har").contains("continue URL hosts its server accepted in a send (evil.example)"))
    }

    @Test("a code spent twice, accepted both times, is flagged on the second use; checking a code spends nothing")
    func codeSpentTwice() throws {
        let flagged = try Self.departures([
            ("resetPassword", #"{"oobCode":"code-1"}"#, 200, #"{"email":"a@example.com","requestType":"PASSWORD_RESET"}"#),
            ("resetPassword", #"{"oobCode":"code-1","newPassword":"first-1"}"#, 200, #"{"email":"a@example.com"}"#),
            ("resetPassword", #"{"oobCode":"code-1","newPassword":"second-2"}"#, 200, #"{"email":"a@example.com"}"#),
            ("resetPassword", #"{"oobCode":"code-1","newPassword":"third-3"}"#, 400, Self.error("INVALID_OOB_CODE")),
        ])
        #expect(flagged.map(\.subject) == ["operations[2]"])
        #expect(flagged.first?.finding.message.contains("call 2 had already spent") == true)
        #expect(flagged.first?.finding.message.contains("single use (firebase-tools src/emulator/auth/operations.ts:844,1090,1475") == true)
        #expect(flagged.first?.finding.severity == .danger)
        #expect(!(flagged.first?.finding.message.contains("code-1") ?? true), "the code itself is never shown")
    }

    @Test("the recorded emulator capture: the emulator's 200 for an unauthorized continue URL is explained by what the emulator checks")
    func emulatorCapture() throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: CaptureSessionTests.captures.appendingPathComponent("serve-emulator.har")), project: project)
        let flagged = flow.findings.filter { $0.finding.code == CaptureDepartures.code }
        #expect(flagged.count == 1)
        #expect(flagged.first?.finding.message.contains("The Auth Emulator checks none of the domain") == true)
        // Live reading flags the same.
        let (events, _, _) = try LiveCaptureTests.live("serve-emulator.har")
        let live = LiveCaptureTests.facts(events).filter { if case .finding(let finding, _) = $0 { finding.code == CaptureDepartures.code } else { false } }
        #expect(live.count == 1)
    }
}
