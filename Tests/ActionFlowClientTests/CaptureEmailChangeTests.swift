@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

/// Issue 37, item 5: an email change's email goes to the new address; every output of the
/// capture says so, as serve's mailbox does.
@Suite("a captured VERIFY_AND_CHANGE_EMAIL keeps its new address")
struct CaptureEmailChangeTests {
    static let send = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"eyJhbGciOiJub25lIn0.e30.","newEmail":"new@example.com","continueUrl":"https://www.example.com/account","returnOobLink":true}"#
    static let link = "http://127.0.0.1:9099/emulator/action?mode=verifyAndChangeEmail&lang=en&oobCode=CODEcodeCODEcode1234&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fwww.example.com%2Faccount"

    @Test("the call, the JSON report, the link's email and the report's To: name the new address")
    func newEmailEverywhere() throws {
        let answer = #"{"email":"old@example.com","oobCode":"CODEcodeCODEcode1234","oobLink":"\#(Self.link)"}"#
        let data = CaptureDeparturesTests.capture([("sendOobCode", Self.send, 200, answer)])
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(data, project: project)
        #expect(flow.operations.first?.newEmail == "new@example.com")
        #expect(flow.operations.first?.email == "old@example.com")
        #expect(flow.actionLinks.first?.email == "new@example.com")
        let narration = flow.narration(source: "change.har")
        #expect(narration.contains("VERIFY_AND_CHANGE_EMAIL for old@example.com, to change it to new@example.com"), "\(narration)")
        let json = JSONOutput.commandOutput(CapturedFlow.Report(flow))
        #expect(json.contains(#""newEmail" : "new@example.com""#) || json.contains(#""newEmail":"new@example.com""#), "\(json)")
        let recording = flow.recording(project: project, source: "change.har")
        #expect(recording.current.sentMail.map(\.to) == ["new@example.com"])
        let report = ReviewReport(title: "change.har", session: recording.current).markdown
        #expect(report.contains("- To: `new@example.com`"), "\(report)")
        #expect(!report.contains("- To: `old@example.com`"))
    }
}

/// Issue 37, item 9: padding a link never hides it from the review.
@Suite("a link of any length is read or reported with its size")
struct OversizedLinkTests {
    @Test("a listed link with a 200k continue URL and a 210 KB opened link are reported, never dropped")
    func paddedLinks() throws {
        let padding = String(repeating: "a", count: 200_000)
        let listed = "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=CODEcodeCODEcode1234&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fwww.example.com%2F\(padding)"
        let listing = #"{"oobCodes":[{"email":"a@example.com","oobCode":"CODEcodeCODEcode1234","oobLink":"\#(listed)","requestType":"PASSWORD_RESET"}]}"#
        let opened = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=verifyEmail&oobCode=X&continueUrl=https%3A%2F%2Fwww.example.com%2F\(String(repeating: "b", count: 210_000))"
        let entries: [[String: Any]] = [
            ["request": ["method": "GET", "url": "http://127.0.0.1:9099/emulator/v1/projects/demo-actionflow/oobCodes", "headers": []],
             "response": ["status": 200, "headers": [], "content": ["mimeType": "application/json", "text": listing]]],
            ["request": ["method": "GET", "url": opened, "headers": []],
             "response": ["status": 200, "headers": [], "content": ["mimeType": "text/html", "text": ""]]],
        ]
        let data = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]])
        let flow = try CapturedFlow.read(data, project: try ProjectConfigLoader.loadDefault())
        #expect(flow.unrelated == 0, "the opened link is not an unrelated request")
        let sizes = flow.findings.filter { $0.finding.code == "link.too-long" }
        #expect(sizes.count == 2)
        #expect(sizes.allSatisfy { $0.finding.message.contains("bytes") })
        #expect(flow.narration(source: "padded.har").contains("2 action links too long to take apart"))
    }
}
