import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Keys to events")
struct ControllerTests {
    private func handle(_ keys: [Key], _ app: AppState, _ ui: inout UIState, size: (Int, Int) = (100, 30)) -> [UICommand] {
        keys.flatMap { Controller.handle($0, app: app, ui: &ui, width: size.0, height: size.1) }
    }

    @Test("Tab switches panes; digits pick inspector panes; ← → cycle them")
    func focusAndTabs() async throws {
        let app = try await World.start().state()
        var ui = mainUI()
        _ = handle([.tab], app, &ui)
        #expect(ui.focus == .inspector)
        _ = handle([.character("5")], app, &ui)
        #expect(ui.tab == .network)
        _ = handle([.right, .right], app, &ui)
        #expect(ui.tab == .mailbox)
        _ = handle([.backTab], app, &ui)
        #expect(ui.focus == .phone)
    }

    @Test("Enter walks a form: edit, commit, next field opens; the button sends what was typed")
    func formWalk() async throws {
        let world = try await World.start()
        let app = await world.send(.openRoute("/articles/42"))
        var ui = mainUI()
        #expect(handle([.enter], app, &ui).isEmpty)
        #expect(ui.editing?.id == "signIn.email")
        _ = handle("bob@example.com".map { .character($0) } + [.enter], app, &ui)
        #expect(ui.drafts["signIn.email"] == "bob@example.com")
        #expect(ui.editing?.id == "signIn.password")
        _ = handle("secret".map { .character($0) } + [.backspace, .enter], app, &ui)
        #expect(ui.editing == nil)
        #expect(handle([.enter], app, &ui) == [.send(.signInSubmitted(email: "bob@example.com", password: "secre"))])
    }

    @Test("Esc cancels an edit; the old value stays")
    func cancelEdit() async throws {
        let app = try await World.start().send(.openRoute("/articles/42"))
        var ui = mainUI()
        ui.drafts["signIn.email"] = "a@b.c"
        _ = handle([.enter, .control("u"), .character("x"), .escape], app, &ui)
        #expect(ui.editing == nil)
        #expect(ui.drafts["signIn.email"] == "a@b.c")
    }

    @Test("World keys: clock, reset, mailbox, paste, quit")
    func worldKeys() async throws {
        let app = try await World.start().state()
        var ui = mainUI()
        ui.drafts["x"] = "typed"
        #expect(handle([.character("+")], app, &ui) == [.send(.clockAdvanceRequested(seconds: 3600))])
        #expect(handle([.character(">")], app, &ui) == [.send(.clockAdvanceRequested(seconds: 86400))])
        #expect(handle([.character("R")], app, &ui) == [.send(.worldResetRequested)])
        #expect(ui.drafts.isEmpty)
        #expect(handle([.character("m")], app, &ui) == [.send(.mailboxOpened)])
        #expect(handle([.character("p")] + "https://x.y/z".map { .character($0) } + [.enter], app, &ui) == [.send(.linkPasted("https://x.y/z"))])
        #expect(handle([.control("c")], app, &ui) == [.quit])
        #expect(handle([.character("q")], app, &ui) == [.quit])
    }

    @Test("r retries only a failure that offers a retry; x dismisses any")
    func retryOnlyWhenOffered() async throws {
        var app = try await World.start().state()
        var ui = mainUI()
        app.banner = ErrorBanner(message: "wrong password", code: .invalidPassword, retry: nil)
        #expect(handle([.character("r")], app, &ui) == [])
        #expect(handle([.character("x")], app, &ui) == [.send(.errorDismissed)])
        app.banner = ErrorBanner(message: "connection refused", code: nil, retry: .refreshMailbox)
        #expect(handle([.character("r")], app, &ui) == [.send(.retryTapped)])
    }

    @Test("Settings edits send the whole edited settings; toggles flip")
    func settingsEdits() async throws {
        let app = try await World.start().state()
        var ui = mainUI(focus: .inspector, tab: .settings)
        let commands = handle([.enter] + "https://www.example.com/x".map { .character($0) } + [.enter], app, &ui)
        var expected = app.settings
        expected.url = "https://www.example.com/x"
        #expect(commands == [.send(.settingsEdited(expected))])
        ui.editing = nil
        ui.selection["tab.1"] = 1
        var toggled = app.settings
        toggled.handleCodeInApp.toggle()
        #expect(handle([.enter], app, &ui) == [.send(.settingsEdited(toggled))])
    }

    @Test("Inline validation shows the SDK's error, and it clears while the fix is typed")
    func inlineValidation() async throws {
        var app = try await World.start().state()
        app.settings.androidInstallIfNotAvailable = true
        var ui = mainUI(focus: .inspector, tab: .settings)
        #expect(render(app, ui, (100, 30)).text.contains("auth/missing-android-pkg-name"))
        ui.selection["tab.1"] = 3
        _ = handle([.enter] + "com.example.android".map { .character($0) }, app, &ui)
        #expect(ui.editing?.id == "settings.androidPackageName")
        #expect(!render(app, ui, (100, 30)).text.contains("auth/missing-android-pkg-name"))
    }

    @Test("A click on a tab selects it; a click on a button presses it")
    func mouse() async throws {
        let app = try await World.start().state()
        var ui = mainUI()
        let layout = ScreenLayout(width: 100, height: 30)
        let device = try #require(layout.tabs.first { $0.tab == .device })
        _ = handle([.mouse(x: device.rect.x + 1, y: device.rect.y, button: .left)], app, &ui)
        #expect(ui.tab == .device && ui.focus == .inspector)
        let frame = render(app, ui, (100, 30))
        let row = try #require(frame.text.split(separator: "\n").firstIndex { $0.contains("[ Account ]") })
        #expect(handle([.mouse(x: layout.phoneContent.x + 2, y: row, button: .left)], app, &ui) == [.send(.openRoute("/account"))])
    }

    @Test("Below 80x24 only q works, and the screen says how large it must be")
    func tooSmall() async throws {
        let app = try await World.start().state()
        var ui = mainUI()
        #expect(handle([.character("m")], app, &ui, size: (70, 20)).isEmpty)
        #expect(handle([.character("q")], app, &ui, size: (70, 20)) == [.quit])
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
