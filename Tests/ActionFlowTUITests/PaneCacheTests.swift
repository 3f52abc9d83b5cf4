import ActionFlowClient
@testable import ActionFlowTUI
import Testing

/// The interface as the application runs it: one `PaneCache` for every key and every frame, its
/// revision bumped whenever the session changes. What it draws is checked against a frame drawn
/// from nothing kept.
private struct KeptScreen {
    var session: Session
    var ui: UIState
    var size: (width: Int, height: Int)
    var panes = PaneCache()

    init(_ session: Session, _ ui: UIState, _ size: (Int, Int)) {
        self.session = session
        self.ui = ui
        self.size = size
    }

    var frame: Frame {
        MainView.render(session: session, ui: ui, transport: "embedded demo-actionflow", width: size.width, height: size.height, panes: panes)
    }

    var fresh: Frame { render(session, ui, size) }

    mutating func press(_ keys: Key...) {
        for key in keys {
            let commands = Controller.handle(key, session: session, ui: &ui, width: size.width, height: size.height, panes: panes)
            for case .send(let event) in commands {
                _ = session.reduce(event)
                panes = panes.at(panes.sessionRevision + 1)
            }
            _ = frame
        }
    }

    mutating func change(to session: Session) {
        self.session = session
        panes = panes.at(panes.sessionRevision + 1)
    }
}

@Suite("Panes kept from one key to the next")
struct PaneCacheTests {
    @Test("A scrolled pane shows the new content's lines once the session changes, on the phone and in the inspector")
    func contentChanges() async throws {
        let world = try await World.start()
        for tab in [InspectorTab.sequence, .link, .flow, .network] {
            var screen = KeptScreen(await world.resetLinkTapped(), mainUI(focus: .inspector, tab: tab), small)
            screen.press(.character("k"), .character("k"), .character("j"))
            #expect(screen.frame == screen.fresh, "\(tab) scrolled")
            let before = screen.frame
            screen.change(to: await world.send(.newPasswordSubmitted("correct-horse")))
            #expect(screen.frame == screen.fresh, "\(tab) after the session changed")
            #expect(screen.frame != before, "\(tab): the new page and pane are drawn")
            screen.press(.character("G"))
            #expect(screen.frame == screen.fresh, "\(tab) back at the newest lines")
        }
    }

    @Test("Going back to a pane shown before draws it as the session is now")
    func tabsShownBefore() async throws {
        let world = try await World.start()
        var screen = KeptScreen(await world.resetLinkTapped(), mainUI(focus: .inspector, tab: .flow), small)
        for tab in "12345678" {
            screen.press(.character(tab), .character("j"))
            #expect(screen.frame == screen.fresh, "pane \(tab)")
        }
        screen.change(to: await world.send(.newPasswordSubmitted("correct-horse")))
        for tab in "87654321" {
            screen.press(.character(tab))
            #expect(screen.frame == screen.fresh, "pane \(tab) after the session changed")
        }
    }

    @Test("Panes laid out ahead on another thread show the session as it is when the user goes to them; work for a session since changed is dropped")
    func panesLaidOutAhead() async throws {
        let world = try await World.start()
        var screen = KeptScreen(await world.resetLinkTapped(), mainUI(focus: .inspector, tab: .flow), small)
        let layout = ScreenLayout(width: small.0, height: small.1, session: screen.session)
        _ = screen.frame
        let first = try #require(screen.panes.preparation(screen.session, screen.ui, layout))
        let prepared = await Task.detached { first.run() }.value
        #expect(prepared.count == InspectorTab.allCases.count - 1, "every pane but the one on screen")
        screen.panes.adopt(prepared)
        #expect(screen.panes.preparation(screen.session, screen.ui, layout) == nil, "nothing left to prepare")

        // Prepared for the session before a change, adopted after it: dropped.
        screen.change(to: await world.send(.newPasswordSubmitted("correct-horse")))
        screen.panes.adopt(await Task.detached { first.run() }.value)
        let current = try #require(screen.panes.preparation(screen.session, screen.ui, layout), "the stale panes were not kept")
        screen.panes.adopt(await Task.detached { current.run() }.value)
        for tab in "2345678" {
            screen.press(.character(tab))
            #expect(screen.frame == screen.fresh, "pane \(tab) laid out ahead")
        }
    }

    @Test("A scrolled pane is laid out again for a new terminal size")
    func resize() async throws {
        let world = try await World.start()
        var screen = KeptScreen(await world.resetLinkTapped(), mainUI(focus: .inspector, tab: .link), (100, 30))
        screen.press(.character("j"), .character("j"), .character("j"))
        let wide = screen.frame
        #expect(wide == screen.fresh)
        screen.size = small
        #expect(screen.frame == screen.fresh)
        #expect(screen.frame.text.contains("more"), "the narrower pane wraps to more rows than fit")
        screen.press(.character("k"))
        #expect(screen.frame == screen.fresh)
        screen.size = (100, 30)
        screen.press(.character("j"))
        #expect(screen.frame == screen.fresh)
    }

    @Test("Typing in a field shows its note as typed, and keys then act on the form as drawn")
    func typing() async throws {
        let world = try await World.start()
        var screen = KeptScreen(await world.resetLinkTapped(), mainUI(focus: .inspector, tab: .settings), small)
        screen.press(.enter)
        for character in "not a url" {
            screen.press(.character(character))
            #expect(screen.frame == screen.fresh, "typed up to '\(character)'")
        }
        screen.press(.enter, .down, .down)
        #expect(screen.frame == screen.fresh)
        #expect(screen.session.app.settings.url == "not a url")
    }

    @Test("The phone's page follows the session: a tapped button's result is drawn at once")
    func phoneFollowsTheSession() async throws {
        let world = try await World.start()
        var screen = KeptScreen(await world.send(.openRoute("/articles/42")), mainUI(focus: .phone), (100, 30))
        let article = screen.frame
        screen.press(.escape, .character("m"))
        #expect(screen.frame == screen.fresh)
        #expect(screen.frame != article)
        #expect(screen.frame.text.contains("Inbox"))
    }
}
