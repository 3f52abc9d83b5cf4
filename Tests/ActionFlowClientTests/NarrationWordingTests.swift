@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Testing

/// Server errors as the narration and the phone say them: each part once.
@Suite("Error wording")
struct NarrationWordingTests {
    @Test("a server detail that starts with the code does not repeat it")
    func codeSaidOnce() {
        let text = Narration.describe(.server(.invalidOobCode, detail: "INVALID_OOB_CODE : The action code has already been used"))
        #expect(text == "INVALID_OOB_CODE: The action code has already been used (the code is malformed, already used, or of another kind)")
    }

    @Test("a server detail that already says what the code means is not followed by the same meaning")
    func meaningSaidOnce() {
        let text = Narration.describe(.server(.unauthorizedDomain, detail: "the continue URL's host is not on the project's authorized domains"))
        #expect(text == "UNAUTHORIZED_DOMAIN: the continue URL's host is not on the project's authorized domains")
    }

    @Test("a code alone, or with a detail of its own, keeps its meaning in parentheses")
    func meaningKept() {
        #expect(Narration.describe(.server(.invalidPassword, detail: nil)) == "INVALID_PASSWORD (wrong password)")
        #expect(Narration.describe(.server(.unauthorizedDomain, detail: "host evil.example.net is not an authorized domain"))
            == "UNAUTHORIZED_DOMAIN: host evil.example.net is not an authorized domain (the continue URL's host is not on the project's authorized domains)")
    }
}

@Suite("Narration of a send without an email")
struct EmptyEmailNarrationTests {
    @Test("a reset asked for with the email field left empty is narrated as (no email), never as an empty slot")
    func noEmptySlot() throws {
        let app = AppState(device: .iPhone, settings: Fixture.inAppSettings)
        var session = Session.embedded(project: try ProjectConfigLoader.loadDefault(), app: app)
        _ = session.reduce(.passwordResetRequested(email: ""))
        let line = try #require(session.narration.first { $0.contains("sendOobCode PASSWORD_RESET") }, "\(session.narration)")
        #expect(line.contains("sendOobCode PASSWORD_RESET for (no email) with continueUrl"), "\(line)")
        #expect(!session.narration.contains { $0.contains("for  with") || $0.contains("for with") })
    }
}
