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
        let json = JSONWriter.commandOutput(flow.report)
        #expect(json.contains(#""newEmail" : "new@example.com""#) || json.contains(#""newEmail":"new@example.com""#), "\(json)")
        let recording = flow.recording(project: project, source: "change.har")
        #expect(recording.current.sentMail.map(\.to) == ["new@example.com"])
        let report = ReviewReport(title: "change.har", session: recording.current).markdown
        #expect(report.contains("- To: `new@example.com`"), "\(report)")
        #expect(!report.contains("- To: `old@example.com`"))
    }
}
