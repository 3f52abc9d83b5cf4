import ActionFlowClient
import ActionFlowModel

/// The keys' child update: over the interface's own state (`UIState`), with the session and the
/// panes on screen to read. What a key asks of the rest (an event for the session, a presenter
/// step, an export) it returns as messages for `Interface.update`. Makes no flow decisions: a
/// control's messages come from the state, and the client reduces the events.
public enum Controller {
    /// A pane's key, its content as drawn (the same layout `MainView` draws) and where it is drawn.
    private typealias ShownPane = (key: PaneID, content: BlockLayout, area: Rect)

    private static func shownPane(_ focus: UIState.Focus, _ session: Session, _ ui: UIState, _ panes: PaneCache, _ layout: ScreenLayout) -> ShownPane {
        switch focus {
        case .phone:
            let phone = panes.phone(session, ui, area: layout.phoneContent, editing: ui.editing)
            return (phone.page.key, phone.layout, layout.phoneContent)
        case .inspector:
            let inspector = panes.inspector(session, ui, layout)
            return (.inspector(ui.tab), inspector.scrolling, inspector.area)
        }
    }

    /// Handles one key. Returns the messages it asks `Interface.update` for: client events to
    /// send, quit, suspend, redraw or play a scenario step. `panes` is the cache the frame on screen was
    /// drawn with, if it was kept (see `PaneCache`).
    public static func handle(_ key: Key, session: Session, ui: inout UIState, width: Int, height: Int, panes: PaneCache = PaneCache()) -> [InterfaceMessage] {
        ui.message = nil
        switch key {
        case .resize: return [.redraw]
        case .control("c"): return [.quit]
        case .control("z"): return [.suspend]
        case .control("l"): return [.redraw]
        default: break
        }
        if let overlay = ui.overlay { return handleOverlay(overlay, key, ui: &ui) }
        let layout = ScreenLayout(width: width, height: height, session: session)
        if layout.isTooSmall {
            return key == .character("q") ? [.quit] : []
        }
        if ui.mode == .welcome { return handleWelcome(key, session: session, ui: &ui) }
        if ui.editing != nil { return handleEditing(key, session: session, ui: &ui, panes: panes, layout: layout) }
        if case .mouse(let x, let y, let button) = key {
            return handleMouse(x: x, y: y, button: button, session: session, ui: &ui, panes: panes, layout: layout)
        }
        return handleMain(key, session: session, ui: &ui, panes: panes, layout: layout)
    }

    private static func handleOverlay(_ overlay: UIState.Overlay, _ key: Key, ui: inout UIState) -> [InterfaceMessage] {
        switch overlay {
        case .confirmReset:
            ui.overlay = nil
            guard key == .character("y") || key == .character("Y") else {
                ui.message = "the world was not reset"
                return []
            }
            ui.forgetPaneState()
            ui.message = "world reset"
            return [.send(.worldResetRequested)]
        case .help:
            ui.overlay = nil
            return key == .character("q") ? [.quit] : []
        case .confirmStory(let index):
            ui.overlay = nil
            guard key == .character("y") || key == .character("Y") else {
                ui.message = "the session was kept"
                return []
            }
            return start(Welcome.choices[index], ui: &ui)
        case .confirmQuit:
            ui.overlay = nil
            return key == .character("y") || key == .character("Y") || key == .character("q") ? [.quit] : []
        case .pasteLink(var editor):
            switch key {
            case .escape:
                ui.overlay = nil
            case .enter:
                ui.overlay = nil
                let link = editor.text.trimmingWhitespace()
                return link.isEmpty ? [] : [.send(.linkPasted(link))]
            default:
                _ = editor.apply(key)
                ui.overlay = .pasteLink(editor)
            }
            return []
        }
    }

    private static func handleWelcome(_ key: Key, session: Session, ui: inout UIState) -> [InterfaceMessage] {
        let choices = Welcome.choices
        switch key {
        case .up, .character("k"): ui.welcomeSelection = max(0, ui.welcomeSelection - 1)
        case .down, .character("j"): ui.welcomeSelection = min(choices.count - 1, ui.welcomeSelection + 1)
        case .character("q"): return [.quit]
        case .escape:
            // Esc is "back", never "quit": back to the session `w` came from, if any.
            if ui.welcomeFromSession {
                ui.mode = .main
                ui.welcomeFromSession = false
            } else {
                ui.message = "choose a story with ↑↓ and Enter, or q to quit"
            }
        case .character("?"): ui.overlay = .help
        case .character(let c) where c.wholeNumberValue.map { (1...choices.count).contains($0) } == true:
            ui.welcomeSelection = (c.wholeNumberValue ?? 1) - 1
            return pick(ui.welcomeSelection, session: session, ui: &ui)
        case .enter, .character(" "), .mouse(_, _, .left):
            return pick(ui.welcomeSelection, session: session, ui: &ui)
        default: break
        }
        return []
    }

    /// A choice of the welcome screen: a story starts on a fresh world, after asking when the
    /// session holds steps it would replace; free exploration goes on with the session as it is.
    private static func pick(_ index: Int, session: Session, ui: inout UIState) -> [InterfaceMessage] {
        let choice = Welcome.choices[index]
        if choice.story != nil, !session.journal.isEmpty {
            ui.overlay = .confirmStory(index)
            return []
        }
        return start(choice, ui: &ui)
    }

    private static func start(_ choice: Welcome.Choice, ui: inout UIState) -> [InterfaceMessage] {
        ui.mode = .main
        ui.welcomeFromSession = false
        ui.focus = .phone
        ui.tab = .flow
        ui.story = choice.story?.name
        guard let story = choice.story else { return [] }
        // A new story's screens and fields are its own: nothing selected or typed before carries over.
        ui.forgetPaneState()
        ui.editing = nil
        return [.playStory(story)]
    }

    private static func handleEditing(_ key: Key, session: Session, ui: inout UIState, panes: PaneCache, layout: ScreenLayout) -> [InterfaceMessage] {
        guard var editing = ui.editing else { return [] }
        let pane = shownPane(ui.focus, session, ui, panes, layout)
        let all = pane.content.controls
        guard let control = all.first(where: { $0.id == editing.id }) else {
            ui.editing = nil
            return []
        }
        switch key {
        case .escape:
            // Esc leaves the field with what was typed, and the keys are shortcuts again; a field
            // left as it was changes nothing.
            ui.editing = nil
            ui.fieldFocus[pane.key] = false
            if case .text(let value, _, _) = control.kind, value == editing.editor.text { return [] }
            return InspectorContent.commit(control, editing.editor.text, session: session)
        case .enter, .tab, .down, .up, .backTab:
            ui.editing = nil
            let messages = InspectorContent.commit(control, editing.editor.text, session: session)
            let index = all.firstIndex { $0.id == control.id } ?? 0
            let step = (key == .up || key == .backTab) ? -1 : 1
            let next = max(0, min(all.count - 1, index + step))
            ui.selection[pane.key] = next
            // Enter walks a form: the next text field opens for typing straight away.
            if key == .enter, next != index, all[next].isTextField, case .text(let value, _, _) = all[next].kind {
                ui.editing = Editing(id: all[next].id, editor: TextEditor(value, selected: true))
            }
            return messages
        default:
            _ = editing.editor.apply(key)
            ui.editing = editing
            return []
        }
    }

    /// Whether the text field selected in a pane takes printable keys: until Esc leaves it, and
    /// never in a replay. A phone form's field takes them as soon as it shows; an inspector
    /// pane's, once chosen with the arrows, Enter or the mouse (so that the digits and letters
    /// that switch and scroll panes keep working when one opens). While a scenario is presented
    /// the keys are the presenter's until a field is chosen.
    static func fieldTakesKeys(_ pane: PaneID, session: Session, ui: UIState) -> Bool {
        !ui.readOnly && (ui.fieldFocus[pane] ?? (session.presenter == nil && !isInspectorPane(pane) && !ui.fieldsWaitForChoice))
    }

    private static func isInspectorPane(_ pane: PaneID) -> Bool {
        if case .inspector = pane { true } else { false }
    }

    /// The text field that takes printable keys now, if one does: the one selected in the
    /// focused pane.
    static func focusedField(session: Session, ui: UIState, width: Int, height: Int, panes: PaneCache) -> Control? {
        guard ui.mode == .main, ui.overlay == nil, ui.editing == nil else { return nil }
        let layout = ScreenLayout(width: width, height: height, session: session)
        guard !layout.isTooSmall else { return nil }
        let pane = shownPane(ui.focus, session, ui, panes, layout)
        let all = pane.content.controls
        let selected = min(ui.selected(pane.key), max(0, all.count - 1))
        guard all.indices.contains(selected), all[selected].isTextField, fieldTakesKeys(pane.key, session: session, ui: ui) else { return nil }
        return all[selected]
    }

    /// Keys that change the session, type or switch to another story: none of them works in a replay.
    private static func changesSession(_ key: Key) -> Bool {
        switch key {
        case .paste: true
        case .character(let c): "mapdrxRw+>".contains(c)
        default: false
        }
    }

    private static func handleMain(_ key: Key, session: Session, ui: inout UIState, panes: PaneCache, layout: ScreenLayout) -> [InterfaceMessage] {
        if ui.readOnly, changesSession(key) {
            ui.message = ui.readOnlyMessage
            return []
        }
        let pane = shownPane(ui.focus, session, ui, panes, layout)
        let all = pane.content.controls
        let selected = min(ui.selected(pane.key), max(0, all.count - 1))
        if all.indices.contains(selected), case .text(let value, _, _) = all[selected].kind, fieldTakesKeys(pane.key, session: session, ui: ui) {
            switch key {
            case .character, .paste:
                // Typing on a focused field starts editing it: no letter is a shortcut there.
                // A prefilled field's text is selected as editing starts: the key replaces it.
                var editor = TextEditor(value, selected: true)
                _ = editor.apply(key)
                ui.editing = Editing(id: all[selected].id, editor: editor)
                return []
            case .escape:
                ui.fieldFocus[pane.key] = false
                return []
            default: break
            }
        }
        switch key {
        case .character("q"):
            // A presentation in front of a room is not ended by one stray key.
            if session.presenter != nil, !ui.readOnly, !(session.presenter?.isFinished ?? true) {
                ui.overlay = .confirmQuit
                return []
            }
            return [.quit]
        case .character("?"): ui.overlay = .help
        case .tab, .backTab:
            ui.focus = ui.focus == .phone ? .inspector : .phone
        case .escape:
            if ui.focus == .inspector {
                ui.focus = .phone
            } else if let back = session.app.escapeEvent {
                return [.send(back)]
            }
        case .character(let c) where c.wholeNumberValue.map { (1...InspectorTab.allCases.count).contains($0) } == true:
            ui.tab = InspectorTab(rawValue: (c.wholeNumberValue ?? 1) - 1) ?? .flow
            ui.focus = .inspector
        case .up, .character("k"): move(by: -1, pane: pane, ui: &ui)
        case .down, .character("j"): move(by: 1, pane: pane, ui: &ui)
        case .pageUp: scroll(by: -(layout.height / 2), pane: pane, focus: ui.focus, ui: &ui)
        case .pageDown: scroll(by: layout.height / 2, pane: pane, focus: ui.focus, ui: &ui)
        case .character("g") where session.presenter != nil: return [.playToEnd]
        case .character("b") where session.presenter != nil: return [.stepBack]
        case .home, .character("g"): ui.selection[pane.key] = 0; ui.scroll[pane.key] = 0
        case .end, .character("G"): ui.selection[pane.key] = max(0, all.count - 1); ui.scroll[pane.key] = nil
        case .left, .character("h"), .right, .character("l"):
            let direction = (key == .left || key == .character("h")) ? -1 : 1
            if all.indices.contains(selected), case .choice = all[selected].kind, ui.focus == .inspector {
                return all[selected].activate(direction)
            }
            if ui.focus == .inspector {
                let count = InspectorTab.allCases.count
                ui.tab = InspectorTab(rawValue: (ui.tab.rawValue + direction + count) % count) ?? .flow
            }
        case .enter, .character(" "):
            guard all.indices.contains(selected) else { return [] }
            return activate(all[selected], ui: &ui)
        case .character("d") where session.hasSeveralDevices:
            ui.focus = .phone
            return switchDevice(session, ui: &ui)
        case .character("m"): return [.send(.mailboxOpened)]
        case .character("a"): return [.send(.appOpened)]
        case .character("p"): ui.overlay = .pasteLink(TextEditor())
        case .paste(let text): ui.overlay = .pasteLink(TextEditor(text))
        case .character("+"):
            ui.message = "clock +1 h"
            return [.send(.clockAdvanceRequested(seconds: 3600))]
        case .character(">"):
            ui.message = "clock +1 day"
            return [.send(.clockAdvanceRequested(seconds: 86400))]
        case .character("R"):
            ui.overlay = .confirmReset
        case .character("r"): return session.app.banner?.retry == nil ? [] : [.send(.retryTapped)]
        case .character("x"): return session.app.banner == nil ? [] : [.send(.errorDismissed)]
        case .character("w"):
            ui.mode = .welcome
            ui.welcomeFromSession = true
        case .character("e"): return [.exportSession]
        case .character("c"): return copyExchange(session: session, ui: &ui, panes: panes, layout: layout)
        case .character("n"): return session.presenter == nil ? [] : [.nextScenarioStep]
        default: break
        }
        return []
    }

    /// `c`: the exchange selected in the Network pane, as a curl command on the clipboard.
    private static func copyExchange(session: Session, ui: inout UIState, panes: PaneCache, layout: ScreenLayout) -> [InterfaceMessage] {
        guard ui.tab == .network else {
            ui.message = "c copies an exchange of the Network pane (\(InspectorTab.network.rawValue + 1)) as curl"
            return []
        }
        let controls = shownPane(.inspector, session, ui, panes, layout).content.controls
        let selected = min(ui.selected(.inspector(.network)), max(0, controls.count - 1))
        guard controls.indices.contains(selected), let id = InspectorContent.exchangeID(ofControl: controls[selected].id) else {
            ui.message = "no exchange to copy yet"
            return []
        }
        return [.copyExchange(id)]
    }

    /// The other device takes the focus: the following taps happen on it.
    private static func switchDevice(_ session: Session, ui: inout UIState) -> [InterfaceMessage] {
        let other = session.focus == 0 ? 1 : 0
        ui.message = "on the \(session.devices[other].name.title)"
        return [.send(.deviceFocused(other))]
    }

    private static func activate(_ control: Control, ui: inout UIState) -> [InterfaceMessage] {
        if case .text(let value, _, _) = control.kind {
            guard !ui.readOnly else {
                ui.message = ui.readOnlyMessage
                return []
            }
            ui.editing = Editing(id: control.id, editor: TextEditor(value, selected: true))
            return []
        }
        return control.activate(1)
    }

    private static func move(by delta: Int, pane: ShownPane, ui: inout UIState) {
        let count = pane.content.controls.count
        if count == 0 {
            scroll(by: delta, pane: pane, focus: ui.focus, ui: &ui)
            return
        }
        ui.selection[pane.key] = max(0, min(count - 1, ui.selected(pane.key) + delta))
        ui.scroll[pane.key] = 0
        // Moving onto a field chooses it: typing goes there again.
        ui.fieldFocus[pane.key] = true
    }

    /// Scrolls a pane (the phone's or the inspector's, as `focus` says) from where it is shown now.
    private static func scroll(by delta: Int, pane: ShownPane, focus: UIState.Focus, ui: inout UIState) {
        let (key, content, area) = pane
        let current = currentOffset(content, key: key, focus: focus, ui: ui, height: area.height)
        let bottom = max(0, content.contentHeight - area.height)
        let next = max(0, min(bottom, current + delta))
        // The Flow pane follows new narration again once scrolled back to the bottom.
        ui.scroll[key] = (focus == .inspector && MainView.followsNewest(ui.tab) && next == bottom) ? nil : next
        if !content.controls.isEmpty, let visible = content.placed.first(where: { $0.controlIndex != nil && $0.row >= next }) {
            ui.selection[key] = visible.controlIndex
        }
    }

    private static func currentOffset(_ content: BlockLayout, key: PaneID, focus: UIState.Focus, ui: UIState, height: Int) -> Int {
        let requested = ui.scroll[key] ?? (focus == .inspector && MainView.followsNewest(ui.tab) ? Int.max : 0)
        return content.scrollOffset(selected: content.controls.isEmpty ? nil : ui.selected(key), height: height, requested: requested)
    }

    private static func handleMouse(x: Int, y: Int, button: Key.MouseButton, session: Session, ui: inout UIState, panes: PaneCache, layout: ScreenLayout) -> [InterfaceMessage] {
        if let other = layout.otherPhone, other.contains(x: x, y: y) {
            // The other device takes the focus; the click itself does not press anything yet.
            ui.focus = .phone
            return button == .left ? switchDevice(session, ui: &ui) : []
        }
        if button != .left {
            let focus: UIState.Focus = layout.phone.contains(x: x, y: y) ? .phone : .inspector
            scroll(by: button == .scrollUp ? -3 : 3, pane: shownPane(focus, session, ui, panes, layout), focus: focus, ui: &ui)
            return []
        }
        if let tab = layout.tabs.first(where: { $0.rect.contains(x: x, y: y) }) {
            ui.tab = tab.tab
            ui.focus = .inspector
            return []
        }
        let focus: UIState.Focus
        if layout.phoneContent.contains(x: x, y: y) {
            focus = .phone
        } else if panes.inspector(session, ui, layout).area.contains(x: x, y: y) {
            focus = .inspector
        } else {
            if layout.phone.contains(x: x, y: y) { ui.focus = .phone }
            if layout.inspector.contains(x: x, y: y) { ui.focus = .inspector }
            return []
        }
        ui.focus = focus
        let target = shownPane(focus, session, ui, panes, layout)
        let blockLayout = target.content
        let offset = currentOffset(blockLayout, key: target.key, focus: focus, ui: ui, height: target.area.height)
        let row = y - target.area.y + offset
        guard let hit = blockLayout.placed.first(where: { $0.controlIndex != nil && row >= $0.row && row < $0.row + 1 }),
              let index = hit.controlIndex else { return [] }
        ui.selection[target.key] = index
        ui.fieldFocus[target.key] = true
        return activate(blockLayout.controls[index], ui: &ui)
    }
}
