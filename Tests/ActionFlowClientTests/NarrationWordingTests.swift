@testable import ActionFlowClient
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
