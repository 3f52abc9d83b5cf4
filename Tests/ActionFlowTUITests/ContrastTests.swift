import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

/// A run of cells on one row drawn alike whose contrast is too low.
struct IllegibleRun: CustomStringConvertible {
    var frame: String
    var x: Int
    var y: Int
    var text: String
    var foreground: RGBColor
    var background: RGBColor
    var ratio: Double

    var description: String {
        "\(frame) at (\(x),\(y)) \"\(text)\": \(foreground) on \(background), \(String(format: "%.2f", ratio)):1"
    }
}

/// Every text cell of a frame with its contrast; box-drawing lines and blanks are not text.
/// Illegible cells next to each other and drawn alike make one run, so a failure names the words.
func textContrasts(_ frame: Frame, name: String, shown: ShownColors) -> (lowest: Double, textCells: Int, illegible: [IllegibleRun]) {
    var lowest = 21.0
    var textCells = 0
    var runs: [IllegibleRun] = []
    for y in 0..<frame.height {
        var previous: (x: Int, style: CellStyle)?
        for x in 0..<frame.width {
            let cell = frame[x, y]
            guard cell.text.unicodeScalars.contains(where: { !$0.properties.isWhitespace && !(0x2500...0x257F).contains($0.value) }) else {
                // A space between words of a run keeps it going.
                if let run = previous, run.x == x - 1, run.style == cell.style, !cell.text.isEmpty {
                    runs[runs.count - 1].text += cell.text
                    previous = (x, cell.style)
                }
                continue
            }
            textCells += 1
            let (foreground, background) = shown.colors(of: cell.style)
            let ratio = foreground.contrast(with: background)
            lowest = min(lowest, ratio)
            guard ratio < 4.5 else {
                previous = nil
                continue
            }
            if let run = previous, run.x == x - 1, run.style == cell.style {
                runs[runs.count - 1].text += cell.text
            } else {
                runs.append(IllegibleRun(frame: name, x: x, y: y, text: cell.text, foreground: foreground, background: background, ratio: ratio))
            }
            previous = (x, cell.style)
        }
    }
    for index in runs.indices { runs[index].text = runs[index].text.trimmingCharacters(in: .whitespaces) }
    return (lowest, textCells, runs)
}

@Suite("Contrast of every text cell in both themes")
struct ContrastTests {
    /// The screens a demo goes through, drawn in `theme` and `mode`: the welcome screen, story 1
    /// step by step, every inspector pane mid-flow with each control focused in turn, the phone's
    /// forms with each field focused (placeholders), a field being edited, an error banner,
    /// the web widget, the store, the help and paste overlays and a terminal too small.
    private func frames(theme: Theme, mode: ColorMode) async throws -> [(name: String, frame: Frame)] {
        var result: [(name: String, frame: Frame)] = []
        func add(_ name: String, _ session: Session, _ ui: UIState, sizes: [(Int, Int)] = [small, large]) {
            var ui = ui
            ui.colorMode = mode
            ui.theme = theme
            for size in sizes { result.append(("\(name) \(size.0)x\(size.1)", render(session, ui, size))) }
        }
        /// The same screen with each of its controls selected in turn.
        func addEachFocused(_ name: String, _ session: Session, _ ui: UIState) {
            let layout = ScreenLayout(width: small.0, height: small.1, session: session)
            let key: PaneID
            let count: Int
            if ui.focus == .phone {
                let phone = PaneCache().phone(session, ui, area: layout.phoneContent, editing: nil)
                (key, count) = (phone.page.key, phone.layout.controls.count)
            } else {
                (key, count) = (PaneID.inspector(ui.tab), PaneCache().inspector(session, ui, layout).scrolling.controls.count)
            }
            for index in 0..<max(1, count) {
                var focused = ui
                focused.selection[key] = index
                add("\(name), control \(index) focused", session, focused, sizes: [small])
            }
        }

        let world = try await World.start()
        add("welcome", await world.state(), UIState(colorMode: mode))

        let story = try #require(ScenarioLibrary.stories.first)
        var session = await world.state()
        var storyUI = mainUI()
        storyUI.story = story.name
        for index in story.steps.indices {
            let step = ScenarioRunner.present(story, stepAt: index, in: session)
            if let event = step.event { _ = session.reduce(event) }
            add("story 1 step \(index + 1)", session, storyUI, sizes: [small])
            addEachFocused("story 1 step \(index + 1)", session, storyUI)
        }
        add("story 1 end", session, storyUI)

        let signIn = try await World.start().send(.openRoute("/articles/42"))
        addEachFocused("sign-in form", signIn, mainUI())
        var editing = mainUI()
        editing.editing = Editing(id: "signIn.email", editor: TextEditor("alice@exa"))
        add("sign-in email being typed", signIn, editing)
        let banner = try await World.start().send(.openRoute("/articles/42"), .signInSubmitted(email: "alice@example.com", password: "wrong"))
        add("sign-in error banner", banner, mainUI())

        let midFlow = try await World.start().resetLinkTapped()
        for tab in InspectorTab.allCases {
            addEachFocused("\(tab.title) pane", midFlow, mainUI(focus: .inspector, tab: tab))
            add("\(tab.title) pane", midFlow, mainUI(focus: .inspector, tab: tab), sizes: [large])
        }

        let widget = try await World.start(inApp: false)
        await widget.send(.openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        let form = await widget.send(.linkTapped(messageID: await widget.state().inbox.last?.id ?? ""))
        addEachFocused("web widget form", form, mainUI())
        add("web widget done", await widget.send(.newPasswordSubmitted("correct-horse")), mainUI())

        var help = mainUI()
        help.overlay = .help
        add("help", await world.state(), help)
        var paste = mainUI()
        paste.overlay = .pasteLink(TextEditor("https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword"))
        add("paste", await world.state(), paste)
        add("too small", await world.state(), mainUI(), sizes: [(60, 20)])
        return result
    }

    @Test("Every text cell, hints and placeholders included, has at least 4.5:1 (WCAG 2.x AA)",
          arguments: Theme.allCases, [ColorMode.full256, .basic8])
    func everyTextCellIsLegible(theme: Theme, mode: ColorMode) async throws {
        let shown = ShownColors(theme: theme, mode: mode)
        var illegible: [IllegibleRun] = []
        var textCells = 0
        var lowest = 21.0
        let frames = try await frames(theme: theme, mode: mode)
        for (name, frame) in frames {
            let measured = textContrasts(frame, name: name, shown: shown)
            illegible += measured.illegible
            textCells += measured.textCells
            lowest = min(lowest, measured.lowest)
        }
        #expect(frames.count > 80 && textCells > 40_000)
        let worst = illegible.sorted { $0.ratio < $1.ratio }.prefix(15).map(\.description).joined(separator: "\n")
        #expect(illegible.count == 0, "\(theme) theme, \(mode.rawValue) colours, \(textCells) text cells in \(frames.count) frames, lowest \(String(format: "%.2f", lowest)):1; runs below 4.5:1, worst first:\n\(worst)")
    }

    @Test("The check sees low contrast: grey 245 on white and a dim placeholder fail, black on white passes")
    func checkCanFail() {
        var frame = Frame(width: 20, height: 1)
        frame.put("older line", x: 0, y: 0, style: CellStyle(foreground: .indexed(245)))
        frame.put("ok", x: 12, y: 0, style: .plain)
        let light = textContrasts(frame, name: "grey", shown: ShownColors(theme: .light, mode: .full256))
        #expect(light.illegible.map(\.text) == ["older line"])
        #expect(abs((light.illegible.first?.ratio ?? 0) - 3.45) < 0.01)
        let dark = textContrasts(frame, name: "grey", shown: ShownColors(theme: .dark, mode: .full256))
        #expect(dark.illegible.isEmpty)
        var placeholder = Frame(width: 20, height: 1)
        placeholder.put("you@example.com", x: 0, y: 0, style: CellStyle(foreground: .indexed(231), background: .indexed(24), dim: true))
        #expect(textContrasts(placeholder, name: "dim", shown: ShownColors(theme: .dark, mode: .full256)).lowest < 3)
    }

    @Test("A placeholder looks unlike a value, focused or not, in every colour mode and theme",
          arguments: Theme.allCases, [ColorMode.full256, .basic8])
    func placeholdersStandApart(theme: Theme, mode: ColorMode) {
        let palette = Palette(mode: mode, theme: theme)
        let shown = ShownColors(theme: theme, mode: mode)
        for (placeholder, value) in [(Role.placeholder, Role.field), (.focusedPlaceholder, .focusedField)] {
            let (hint, _) = shown.colors(of: palette.style(placeholder))
            let (text, _) = shown.colors(of: palette.style(value))
            #expect(hint != text, "\(placeholder) is drawn as \(value)")
        }
    }

    @Test("xterm's palette: the cube's and the greys' corners")
    func xtermPalette() {
        #expect(XtermPalette.color(16) == .black)
        #expect(XtermPalette.color(231) == .white)
        #expect(XtermPalette.color(245).description == "#8a8a8a")
        #expect(XtermPalette.color(75).description == "#5fafff")
        #expect(XtermPalette.color(232).description == "#080808")
        #expect(XtermPalette.color(255).description == "#eeeeee")
        #expect(abs(RGBColor.black.contrast(with: .white) - 21) < 0.001)
    }
}
