import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Link pane secrets")
struct LinkPaneTests {
    @Test("The Link pane masks the action code and API key as the Network pane and the narration do")
    func masksLikeEveryOtherPane() async throws {
        let world = try await World.start()
        let app = await world.resetLinkTapped()
        let message = try #require(app.inbox.last)
        let code = try #require(message.oobCode)
        let apiKey = app.project.apiKey
        let pane = render(app, mainUI(focus: .inspector, tab: .link), (160, 48)).text
        #expect(!pane.contains(code))
        #expect(!pane.contains(apiKey))
        #expect(pane.contains("oobCode      \(SecretMasking.mask(code))"))
        #expect(pane.contains("apiKey       \(SecretMasking.mask(apiKey))"))
    }
}
