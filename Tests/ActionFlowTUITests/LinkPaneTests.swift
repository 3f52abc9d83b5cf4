import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Link pane secrets")
struct LinkPaneTests {
    @Test("The Link pane masks the action code and API key as the Network pane and the narration do")
    func masksLikeEveryOtherPane() async throws {
        let world = try await World.start()
        let session = await world.resetLinkTapped()
        let message = try #require(session.inbox.last)
        let code = try #require(message.oobCode)
        let apiKey = session.project.apiKey
        let pane = render(session, mainUI(focus: .inspector, tab: .link), (160, 48)).text
        #expect(!pane.contains(code))
        #expect(!pane.contains(apiKey))
        #expect(pane.contains("oobCode      \(SecretMasking.mask(code))"))
        #expect(pane.contains("apiKey       \(SecretMasking.mask(apiKey))"))
    }
}
