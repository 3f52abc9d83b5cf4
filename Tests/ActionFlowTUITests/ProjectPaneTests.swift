import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Project pane edits")
struct ProjectPaneTests {
    private func control(_ id: String, _ app: AppState) throws -> Control {
        let blocks = InspectorContent.blocks(.project, app, mainUI(focus: .inspector, tab: .project))
        let controls = blocks.compactMap { block -> Control? in
            if case .control(let control) = block { return control }
            return nil
        }
        return try #require(controls.first { $0.id == id })
    }

    @Test("Lifetimes read and show durations as project files do; a malformed one says why and changes nothing")
    func lifetimes() async throws {
        let app = try await World.start().state()
        let field = try control("project.lifetime.reset", app)
        guard case .text(let shown, _, _) = field.kind else { throw PaneError.notATextField }
        #expect(shown == "1h")
        var expected = app.project
        expected.codeLifetimes.passwordReset = 5400
        #expect(field.commit("1h30m") == [.send(.projectEdited(expected))])
        #expect(field.commit("5400") == [.send(.projectEdited(expected))])
        #expect(field.validate("1h30m") == nil)
        #expect(field.commit("30m1h").isEmpty)
        #expect(field.validate("30m1h")?.text.contains("'h' comes too late (units go d, h, m, s)") == true)
        #expect(field.commit("1.5h").isEmpty)
        #expect(field.commit("0").isEmpty)
    }

    enum PaneError: Error { case notATextField }
}
