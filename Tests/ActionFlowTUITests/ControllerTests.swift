import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Keys to events")
struct ControllerTests {
    /// Handles keys as the application does: drafts typed into fields reach the session at once.
    private func handle(_ keys: [Key], _ session: inout Session, _ ui: inout UIState, size: (Int, Int) = (100, 30)) -> [InterfaceMessage] {
        keys.flatMap { key in
            let commands = Controller.handle(key, session: session, ui: &ui, width: size.0, height: size.1)
            for case .send(let event) in commands {
                if case .draftEdited = event { _ = session.reduce(event) }
            }
            return commands
        }
    }

    private func handle(_ keys: [Key], _ session: Session, _ ui: inout UIState, size: (Int, Int) = (100, 30)) -> [InterfaceMessage] {
        var copy = session
        return handle(keys, &copy, &ui, size: size)
    }

    @Test("The welcome screen lists the shipped stories by name, then free exploration")
    func welcomeListsStories() async throws {
        let stories = ScenarioLibrary.stories
        #expect(stories.count == 5)
        #expect(Welcome.choices.map(\.title) == stories.map(\.name) + ["Free exploration"])
        let text = render(try await World.start().state(), UIState(colorMode: .full256), large).text
        for story in stories {
            #expect(text.contains(story.name), "\(story.name) not on the welcome screen")
            #expect(text.contains(story.description))
        }
    }

    @Test("Picking a story plays its steps and leaves the user in the app; free exploration plays nothing")
    func pickStory() async throws {
        let world = try await World.start()
        var session = await world.state()
        var ui = UIState(colorMode: .full256)
        let commands = handle([.character("3")], session, &ui)
        let story = try #require(ScenarioLibrary.stories.dropFirst(2).first)
        #expect(commands == [.playStory(story)])
        #expect(ui.mode == .main && ui.story == story.name)
        // As the application plays it: each step resolved against the session it reached.
        for index in story.steps.indices {
            let step = ScenarioRunner.present(story, stepAt: index, in: session)
            #expect(step.passed, "\(step.summary)")
            if let event = step.event { session = await world.send(event) }
        }
        #expect(session.presenter == nil)
        #expect(session.app.screen == .verifyEmail)
        #expect(session.app.session?.email == "bob@example.com")

        ui = UIState(colorMode: .full256)
        #expect(handle([.character("6")], session, &ui).isEmpty)
        #expect(ui.mode == .main && ui.story == nil)
    }

    @Test("Tab switches panes; digits pick inspector panes; ← → cycle them")
    func focusAndTabs() async throws {
        let session = try await World.start().state()
        var ui = mainUI()
        _ = handle([.tab], session, &ui)
        #expect(ui.focus == .inspector)
        _ = handle([.character("5")], session, &ui)
        #expect(ui.tab == .network)
        _ = handle([.right, .right], session, &ui)
        #expect(ui.tab == .mailbox)
        _ = handle([.backTab], session, &ui)
        #expect(ui.focus == .phone)
    }

    @Test("Enter walks a form: edit, commit, next field opens; the button sends what was typed")
    func formWalk() async throws {
        let world = try await World.start()
        var session = await world.send(.openRoute("/articles/42"))
        var ui = mainUI()
        #expect(handle([.enter], &session, &ui).isEmpty)
        #expect(ui.editing?.id == "signIn.email")
        _ = handle("bob@example.com".map { .character($0) } + [.enter], &session, &ui)
        #expect(session.drafts["signIn.email"] == "bob@example.com")
        #expect(ui.editing?.id == "signIn.password")
        _ = handle("secret".map { .character($0) } + [.backspace, .enter], &session, &ui)
        #expect(ui.editing == nil)
        #expect(handle([.enter], &session, &ui) == [.send(.signInSubmitted(email: "bob@example.com", password: "secre"))])
    }

    @Test("The Account screen adds a phone as a second sign-in step: type the number, press the button; the screen then lists it")
    func addPhoneOnAccount() async throws {
        let world = try await World.start()
        var session = await world.send(.openRoute("/account"), .signInSubmitted(email: "alice@example.com", password: "alice-password-1"))
        let before = render(session, mainUI(), large).text
        #expect(before.contains("2nd step") && before.contains("Add phone as second step"))
        var ui = mainUI()
        #expect(handle([.enter], &session, &ui).isEmpty)
        #expect(ui.editing?.id == "account.phone")
        _ = handle("+15555550100".map { .character($0) } + [.enter], &session, &ui)
        let commands = handle([.enter], &session, &ui)
        #expect(commands == [.send(.secondFactorRequested(phoneNumber: "+15555550100"))])
        for case .send(let event) in commands { session = await world.send(event) }
        let after = render(session, mainUI(), large).text
        #expect(session.app.session?.secondFactors == ["+15555550100"])
        let secondStepLine = { (text: String) in text.split(separator: "\n").first { $0.contains("2nd step") }.map(String.init) ?? "" }
        #expect(secondStepLine(before).contains("none"))
        #expect(secondStepLine(after).contains("+15555550100"))
        #expect(session.inbox.last?.requestType == .revertSecondFactorAddition)
    }

    @Test("Esc leaves a field with what was typed, and the letters are shortcuts again")
    func escLeavesField() async throws {
        var session = try await World.start().send(.openRoute("/articles/42"), .draftEdited(field: "signIn.email", text: "a@b.c"))
        var ui = mainUI()
        _ = handle([.enter, .control("u"), .character("x"), .escape], &session, &ui)
        #expect(ui.editing == nil)
        #expect(session.drafts["signIn.email"] == "x")
        #expect(handle([.character("m")], session, &ui) == [.send(.mailboxOpened)])
    }

    @Test("A focused text field takes every printable key: typing starts editing it, no letter or digit is a shortcut there")
    func typingOnAFocusedField() async throws {
        var session = try await World.start().send(.openRoute("/articles/42"))
        var ui = mainUI()
        // The issue's own keys: h and l (panes), e (export), m, x, p, digits and q (quit).
        let commands = handle("hello mxp8q".map { .character($0) }, &session, &ui)
        #expect(commands.isEmpty, "\(commands)")
        #expect(ui.editing?.editor.text == "hello mxp8q")
        #expect(ui.mode == .main && ui.tab == .flow && ui.overlay == nil)
        _ = handle([.enter], &session, &ui)
        #expect(session.drafts["signIn.email"] == "hello mxp8q")
        // Up/Down choose another field, which takes the keys in turn; Esc leaves it.
        _ = handle([.escape, .character("q")], &session, &ui)
        #expect(handle([.character("q")], session, &ui) == [.quit])
    }

    @Test("R asks first: y resets the world, any other key keeps it")
    func resetAsks() async throws {
        let session = try await World.start().state()
        var ui = mainUI()
        #expect(handle([.character("R")], session, &ui).isEmpty)
        #expect(ui.overlay == .confirmReset)
        #expect(handle([.character("n")], session, &ui).isEmpty)
        #expect(ui.overlay == nil && ui.message == "the world was not reset")
        #expect(handle([.character("R"), .character("y")], session, &ui) == [.send(.worldResetRequested)])
    }

    @Test("World keys: clock, reset, mailbox, paste, quit")
    func worldKeys() async throws {
        let world = try await World.start()
        var session = await world.send(.draftEdited(field: "x", text: "typed"))
        var ui = mainUI()
        #expect(handle([.character("+")], session, &ui) == [.send(.clockAdvanceRequested(seconds: 3600))])
        #expect(handle([.character(">")], session, &ui) == [.send(.clockAdvanceRequested(seconds: 86400))])
        #expect(handle([.character("R"), .character("y")], session, &ui) == [.send(.worldResetRequested)])
        session = await world.send(.worldResetRequested)
        #expect(session.drafts.isEmpty, "a reset world forgets what was typed")
        #expect(handle([.character("m")], session, &ui) == [.send(.mailboxOpened)])
        #expect(handle([.character("p")] + "https://x.y/z".map { .character($0) } + [.enter], session, &ui) == [.send(.linkPasted("https://x.y/z"))])
        #expect(handle([.control("c")], session, &ui) == [.quit])
        #expect(handle([.character("q")], session, &ui) == [.quit])
    }

    @Test("A replay is read-only: Enter on a field types nothing, keys that change the session say so, q still quits, and the key bar offers only what works")
    func replayIsReadOnly() async throws {
        var session = try await World.start().send(.openRoute("/articles/42"))
        var ui = mainUI()
        ui.readOnly = true
        #expect(handle([.enter], &session, &ui).isEmpty)
        #expect(ui.editing == nil, "a replay never enters editing")
        #expect(ui.message == "a replay is read-only: n b g e q")
        for key: Key in [.character("m"), .character("p"), .character("R"), .character("+"), .character("w"), .paste("https://x.y/z")] {
            ui.message = nil
            #expect(handle([key], &session, &ui).isEmpty, "\(key)")
            #expect(ui.message == "a replay is read-only: n b g e q", "\(key)")
            #expect(ui.overlay == nil && ui.mode == .main, "\(key)")
        }
        #expect(handle([.character("g"), .character("n"), .character("b")], &session, &ui).isEmpty, "without presenter steps, nothing to play")
        #expect(ui.editing == nil)
        #expect(handle([.character("q")], &session, &ui) == [.quit])
        let keys = MainView.hints(for: ui, presenting: true).map(\.0)
        #expect(keys == ["n", "b", "g", "↑↓", "Tab", "1-8", "e", "?", "q"])
        ui.readOnly = false
        #expect(MainView.hints(for: ui, presenting: true).map(\.0).contains("R"))
    }

    @Test("r retries only a failure that offers a retry; x dismisses any")
    func retryOnlyWhenOffered() async throws {
        var session = try await World.start().state()
        var ui = mainUI()
        session.app.banner = ErrorBanner(message: "wrong password", code: .invalidPassword, retry: nil)
        #expect(handle([.character("r")], session, &ui) == [])
        #expect(handle([.character("x")], session, &ui) == [.send(.errorDismissed)])
        session.app.banner = ErrorBanner(message: "connection refused", code: nil, retry: .refreshMailbox)
        #expect(handle([.character("r")], session, &ui) == [.send(.retryTapped)])
    }

    @Test("Settings edits send the whole edited settings; toggles flip")
    func settingsEdits() async throws {
        let session = try await World.start().state()
        var ui = mainUI(focus: .inspector, tab: .settings)
        let commands = handle([.enter] + "https://www.example.com/x".map { .character($0) } + [.enter], session, &ui)
        var expected = session.app.settings
        expected.url = "https://www.example.com/x"
        #expect(commands == [.send(.settingsEdited(expected))])
        ui.editing = nil
        ui.selection[.inspector(.settings)] = 1
        var toggled = session.app.settings
        toggled.handleCodeInApp.toggle()
        #expect(handle([.enter], session, &ui) == [.send(.settingsEdited(toggled))])
    }

    @Test("Inline validation shows the SDK's error, and it clears while the fix is typed")
    func inlineValidation() async throws {
        var session = try await World.start().state()
        session.app.settings.androidInstallIfNotAvailable = true
        var ui = mainUI(focus: .inspector, tab: .settings)
        #expect(render(session, ui, (100, 30)).text.contains("auth/missing-android-pkg-name"))
        ui.selection[.inspector(.settings)] = 3
        _ = handle([.enter] + "com.example.android".map { .character($0) }, session, &ui)
        #expect(ui.editing?.id == "settings.androidPackageName")
        #expect(!render(session, ui, (100, 30)).text.contains("auth/missing-android-pkg-name"))
    }

    @Test("A click on a tab selects it; a click on a button presses it")
    func mouse() async throws {
        let session = try await World.start().state()
        var ui = mainUI()
        let layout = ScreenLayout(width: 100, height: 30)
        let device = try #require(layout.tabs.first { $0.tab == .device })
        _ = handle([.mouse(x: device.rect.x + 1, y: device.rect.y, button: .left)], session, &ui)
        #expect(ui.tab == .device && ui.focus == .inspector)
        let frame = render(session, ui, (100, 30))
        let row = try #require(frame.text.split(separator: "\n").firstIndex { $0.contains("[ Account ]") })
        #expect(handle([.mouse(x: layout.phoneContent.x + 2, y: row, button: .left)], session, &ui) == [.send(.openRoute("/account"))])
    }

    @Test("Below 80x24 only q works, and the screen says how large it must be")
    func tooSmall() async throws {
        let session = try await World.start().state()
        var ui = mainUI()
        #expect(handle([.character("m")], session, &ui, size: (70, 20)).isEmpty)
        #expect(handle([.character("q")], session, &ui, size: (70, 20)) == [.quit])
    }
}

@Suite("Text fields")
struct TextEditorTests {
    @Test("Cursor movement, deletion and kill keys")
    func editing() {
        var editor = TextEditor("hello world")
        _ = editor.apply(.home)
        _ = editor.apply(.delete)
        _ = editor.apply(.end)
        _ = editor.apply(.backspace)
        #expect(editor.text == "ello worl")
        _ = editor.apply(.control("w"))
        #expect(editor.text == "ello ")
        _ = editor.apply(.left)
        _ = editor.apply(.control("u"))
        #expect(editor.text == " ")
    }

    @Test("Pasted text is flattened to one line and sanitized")
    func paste() {
        var editor = TextEditor()
        _ = editor.apply(.paste("a\nb\u{1B}[2J"))
        #expect(editor.text == "a b␛[2J")
    }

    @Test("The visible part follows the cursor in a narrow field")
    func scrolling() {
        let editor = TextEditor("abcdefghij")
        let (shown, column) = editor.visible(width: 5)
        #expect(shown == "ghij")
        #expect(column == 4)
    }
}

@Suite("Settings findings follow what the next send carries")
struct SettingsFindingsPaneTests {
    private func findings(_ session: Session, _ ui: UIState) -> String {
        let text = render(session, ui, large).text
        guard let start = text.range(of: "Findings") else { return "" }
        return String(text[start.lowerBound...])
    }

    @Test("An unset url is the page being opened: no 'No continue URL' finding on the way to /articles/42")
    func unsetURLIsThePageOpened() async throws {
        let session = try await World.start().send(.openRoute("/articles/42"))
        let shown = findings(session, mainUI(focus: .inspector, tab: .settings))
        #expect(!shown.contains("No continue URL"), "\(shown)")
    }

    @Test("Findings change as a field is typed in, before Enter saves it")
    func findingsAsYouType() async throws {
        let session = try await World.start().send(.openRoute("/articles/42"))
        var ui = mainUI(focus: .inspector, tab: .settings)
        // The url field is the first control: typing there edits it.
        for key in [Key.control("u")] + "https://evil.example.org/x".map({ Key.character($0) }) {
            if ui.editing == nil { _ = Controller.handle(.enter, session: session, ui: &ui, width: large.0, height: large.1) }
            _ = Controller.handle(key, session: session, ui: &ui, width: large.0, height: large.1)
        }
        #expect(ui.editing?.editor.text == "https://evil.example.org/x")
        #expect(session.app.settings.url != "https://evil.example.org/x", "nothing saved yet")
        #expect(findings(session, ui).contains("evil.example.org"), "\(findings(session, ui))")
    }
}
