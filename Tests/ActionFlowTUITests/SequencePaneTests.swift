import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Sequence pane")
struct SequencePaneTests {
    /// The pane's rows as text, header first.
    private func rows(_ session: Session, width: Int) -> [String] {
        let (header, body) = SequencePane.blocks(session, width: width)
        return (header + body).map { block in
            guard case .line(let spans) = block else { return "" }
            return spans.map(\.text).joined()
        }
    }

    @Test("Every arrow of the exported diagram is drawn between its two lifelines, in order")
    func arrowsMatchTheDiagram() async throws {
        let world = try await World.start()
        let session = await world.resetLinkTapped()
        let diagram = SequencePane.diagram(session)
        let lanes = diagram.lifelines.map(\.participant)
        let grid = LaneGrid(participants: lanes, spacing: SequencePane.spacing)
        let drawn = rows(session, width: 120).filter { $0.contains("▶") || $0.contains("◀") }
        #expect(drawn.count == diagram.messages.count)
        for (row, message) in zip(drawn, diagram.messages) {
            let cells = Array(row)
            let from = grid.column(of: try #require(lanes.firstIndex(of: message.from)))
            let to = grid.column(of: try #require(lanes.firstIndex(of: message.to)))
            #expect(cells[from] == (to > from ? "├" : "┤"), "\(row)")
            #expect(cells[to + (to > from ? -1 : 1)] == (to > from ? "▶" : "◀"), "\(row)")
            #expect(cells[(min(from, to) + 1)..<max(from, to)].contains(message.kind == .request ? "─" : "╌"), "\(row)")
            #expect(row.contains(String(message.text.prefix(20))), "\(row)")
        }
    }

    @Test("Participants appear as the flow reaches them: no store or browser lane before one is used")
    func lanesFollowTheFlow() async throws {
        let world = try await World.start()
        let start = await world.send(.openRoute("/articles/42"))
        let names = SequencePane.diagram(start).lifelines.map(\.participant)
        #expect(names == [.user, .app, .auth])
        let tapped = await world.resetLinkTapped()
        #expect(SequencePane.diagram(tapped).lifelines.map(\.participant) == [.user, .app, .auth, .mailbox])
    }

    @Test("An empty session says the diagram grows as the flow goes")
    func empty() async throws {
        let world = try await World.start()
        let text = rows(await world.state(), width: 80).joined(separator: "\n")
        #expect(text.contains("┬ User"))
        let frame = render(await world.state(), mainUI(focus: .inspector, tab: .sequence), small)
        #expect(frame.text.contains("Nothing has happened yet"))
    }

    @Test("Narrow panes draw lifelines closer together and wrap labels beside them")
    func narrowPane() async throws {
        let world = try await World.start()
        let session = await world.resetLinkTapped()
        let wide = rows(session, width: 120), narrow = rows(session, width: 40)
        #expect(wide.contains { $0.hasPrefix(" │   ├──▶│") })
        #expect(narrow.contains { $0.hasPrefix(" │  ├─▶│") })
        #expect(narrow.allSatisfy { $0.displayWidth <= 40 })
        #expect(narrow.count > wide.count)
    }

    @Test("The route taken is bracketed with alt and end, its rows marked")
    func routeBrackets() async throws {
        let world = try await World.start()
        let text = rows(await world.resetLinkTapped(), width: 120)
        let begins = try #require(text.firstIndex { $0.contains("┌ alt the link opens in: app") })
        let ends = try #require(text.firstIndex { $0.contains("└ end") })
        #expect(begins < ends)
        #expect(text[(begins + 1)..<ends].allSatisfy { $0.contains(" │ ") })
    }

    @Test("Hostile text in labels cannot move the cursor or break the pane")
    func hostileLabels() async throws {
        let world = try await World.start()
        let hostile = "evil\u{1B}[2J;#\"<b>@x.com\r\n\u{202E}moc\u{200B}"
        let session = await world.send(.draftEdited(field: "signIn.email", text: hostile), .openRoute("/articles/42"), .signInSubmitted(email: hostile, password: "x"))
        for (size, shown) in [(small, "evil␛[2J;#"), (large, "sign in as evil␛[2J;#\"<b>@x.com")] {
            let frame = render(session, mainUI(focus: .inspector, tab: .sequence), size)
            expectIntact(frame)
            #expect(frame.text.contains(shown))
        }
    }

    @Test("The pane follows the newest arrow until scrolled up, and 8 selects it")
    func followsNewest() async throws {
        let world = try await World.start()
        let session = await world.resetLinkTapped()
        var ui = mainUI(focus: .phone)
        _ = Controller.handle(.escape, session: session, ui: &ui, width: 80, height: 24)
        _ = Controller.handle(.character("8"), session: session, ui: &ui, width: 80, height: 24)
        #expect(ui.tab == .sequence)
        var frame = render(session, ui, small)
        #expect(frame.text.contains("↑ more"))
        #expect(frame.text.contains("new-password"))
        ui.focus = .inspector
        _ = Controller.handle(.pageUp, session: session, ui: &ui, width: 80, height: 24)
        frame = render(session, ui, small)
        #expect(!frame.text.contains("new-password form"))
    }

    @Test("Panes the controller treats as having nothing to select draw no controls, and k still scrolls them")
    func panesWithoutControls() async throws {
        let world = try await World.start()
        let session = await world.resetLinkTapped()
        // The panes that only show the session: nothing to select or edit, so j and k scroll them.
        for tab in [InspectorTab.flow, .sequence] {
            let ui = mainUI(focus: .inspector, tab: tab)
            let regions = MainView.inspectorRegions(session, ui, ScreenLayout(width: 80, height: 24, session: session))
            let blocks = (regions.fixed?.blocks ?? []) + regions.scrolling.blocks + InspectorContent.blocks(tab, session, ui)
            #expect(!blocks.contains { if case .control = $0 { true } else { false } }, "the \(tab) pane draws a control")
        }
        var ui = mainUI(focus: .inspector, tab: .sequence)
        let before = render(session, ui, small).text
        _ = Controller.handle(.character("k"), session: session, ui: &ui, width: 80, height: 24)
        #expect(render(session, ui, small).text != before)
    }
}
