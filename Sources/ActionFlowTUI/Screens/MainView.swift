import ActionFlowClient
import ActionFlowModel

/// `view(state) -> Frame`: the whole screen from the client state and the interface state.
/// Pure: the same states and size always give the same frame.
public enum MainView {
    /// `panes` keeps the laid-out panes for the next frame (see `PaneCache`); by default nothing is kept.
    public static func render(_ interface: Interface, transport: String, panes: PaneCache = PaneCache()) -> Frame {
        render(session: interface.session, ui: interface.ui, transport: transport, width: interface.width, height: interface.height,
               presentation: interface.presentation, panes: panes.at(interface.revision))
    }

    /// `presentation` tells the step counter and the next step; by default the session's
    /// presenter progress, each step as recorded.
    public static func render(session: Session, ui: UIState, transport: String, width: Int, height: Int,
                              presentation: Presentation? = nil, panes: PaneCache = PaneCache()) -> Frame {
        let presentation = presentation ?? session.presenter.map(Presentation.init)
        var frame = Frame(width: width, height: height, palette: Palette(mode: ui.colorMode, theme: ui.theme))
        let layout = ScreenLayout(width: width, height: height, session: session)
        if layout.isTooSmall {
            drawTooSmall(&frame)
            return frame
        }
        switch ui.mode {
        case .welcome:
            drawWelcome(&frame, ui: ui)
        case .main:
            drawHeader(&frame, layout: layout, session: session, ui: ui, presentation: presentation)
            drawPhone(&frame, layout: layout, session: session, ui: ui, panes: panes)
            drawInspector(&frame, layout: layout, session: session, ui: ui, panes: panes)
            drawStatus(&frame, layout: layout, session: session, ui: ui, transport: transport, presentation: presentation)
        }
        let typing = Controller.focusedField(session: session, ui: ui, width: width, height: height, panes: panes) != nil
        drawHints(&frame, layout: layout, ui: ui, presenting: session.presenter != nil, otherDevice: otherDeviceTitle(session), typing: typing)
        switch ui.overlay {
        case .help?: drawHelp(&frame, devices: session.devices.count)
        case .pasteLink(let editor)?: drawPaste(&frame, editor: editor)
        case .confirmReset?:
            drawConfirm(&frame, title: "Reset the world?", text: "Every account, email and code goes back to the project's start.", yes: "reset", no: "keep it")
        case .confirmStory(let index)?:
            let story = Welcome.choices.indices.contains(index) ? Welcome.choices[index].title : "The story"
            drawConfirm(&frame, title: "Start a fresh story?", text: "\(story) starts on a fresh world and app: the steps of this session are left behind.",
                        yes: "start it", no: "keep this session")
        case .confirmQuit?:
            drawConfirm(&frame, title: "End the presentation?", text: "The scenario is not finished: quitting ends it here.", yes: "quit", no: "go on")
        case nil:
            if ui.openingCard, ui.mode == .main, let presentation { drawOpeningCard(&frame, presentation) }
        }
        return frame
    }

    // MARK: Pieces

    private static func drawTooSmall(_ frame: inout Frame) {
        let lines = [
            "Terminal too small: \(frame.width)×\(frame.height)",
            "actionflow needs at least \(ScreenLayout.minimumWidth)×\(ScreenLayout.minimumHeight).",
            "Enlarge the window, or press q to quit.",
        ]
        let top = max(0, frame.height / 2 - 1)
        for (index, line) in lines.enumerated() {
            frame.putCentered(line, in: frame.bounds, y: top + index, role: index == 0 ? .warning : .text)
        }
    }

    private static func drawHeader(_ frame: inout Frame, layout: ScreenLayout, session: Session, ui: UIState, presentation: Presentation?) {
        let x = frame.put(" actionflow ", x: 0, y: 0, role: .focusedButton)
        if let presentation {
            // The counter always shows; beside it the step's caption, or before the first step
            // the scenario's name, as much as fits.
            let counter = Span(" step \(presentation.step)/\(presentation.total) ", .accent)
            let room = max(0, frame.width - x - 2 - counter.text.displayWidth)
            let left = ui.caption.map { Span(" " + $0.truncatedBetweenWords(toColumns: room - 1), .title) }
                ?? Span("▶ \(presentation.title)".truncated(toColumns: room), .badge)
            frame.put([left], x: x + 1, y: 0)
            frame.put([counter], x: frame.width - counter.text.displayWidth, y: 0)
            return
        }
        let tagline = "  email actions & continue URLs"
        frame.put(tagline, x: x, y: 0, role: .muted)
        let right: [Span]
        if let flow = session.app.flow {
            right = [Span(InspectorContent.flowTitle(flow.kind), .accent), Span(" · \(flow.step.spoken) ", .muted)]
        } else if let story = ui.story {
            right = [Span("\(story) ", .accent)]
        } else if ui.watching {
            right = [Span("● live ", .accent)]
        } else {
            right = [Span("free exploration ", .muted)]
        }
        let rightWidth = right.reduce(0) { $0 + $1.text.displayWidth }
        if x + tagline.displayWidth + 2 + rightWidth <= frame.width {
            frame.put(right, x: frame.width - rightWidth, y: 0)
        }
    }

    private static func drawPhone(_ frame: inout Frame, layout: ScreenLayout, session: Session, ui: UIState, panes: PaneCache) {
        let focused = ui.focus == .phone && ui.overlay == nil
        drawDevice(&frame, in: layout.phone, session: session, ui: ui, focused: focused, active: true, panes: panes)
        if let other = layout.otherPhone, session.devices.count > 1 {
            let index = session.focus == 0 ? 1 : 0
            drawDevice(&frame, in: other, session: session.focused(on: index), ui: ui, focused: false, active: false, panes: PaneCache())
        }
    }

    /// The title of a device's frame: what the device is, and with two devices which one.
    static func deviceTitle(_ session: Session, active: Bool, columns: Int = .max) -> String {
        let prefix = session.hasSeveralDevices ? "\(active ? "▶ " : "")\(session.focusedDevice.name.title) · " : ""
        return PhoneContent.deviceLabel(session.app.device, fitting: columns, prefix: prefix)
    }

    /// The title of the device not in focus, for the key that switches to it; nil with one device.
    static func otherDeviceTitle(_ session: Session) -> String? {
        guard session.hasSeveralDevices else { return nil }
        return session.devices[session.focus == 0 ? 1 : 0].name.title
    }

    /// One device: `session` is focused on it. Only the device in focus (`active`) shows the
    /// selection, the cursor and a field being edited. `panes` keeps only the device in focus.
    private static func drawDevice(_ frame: inout Frame, in rect: Rect, session: Session, ui: UIState, focused: Bool, active: Bool, panes: PaneCache) {
        // The frame's title takes the box's width less its corners and padding (`Frame.box`).
        let title = deviceTitle(session, active: active && session.hasSeveralDevices, columns: rect.width - 6)
        frame.box(rect, title: title, role: focused ? .focusedBorder : .phoneFrame, titleRole: .phoneFrame)
        let area = ScreenLayout.content(of: rect)
        let (page, blocks) = panes.phone(session, ui, area: area, editing: active ? ui.editing : nil)
        let bar = ScreenLayout.bar(of: rect)
        frame.put(page.bar.truncated(toColumns: bar.width), x: bar.x, y: bar.y, role: .accent, clip: bar)
        frame.rule(in: Rect(x: rect.x + 1, y: rect.y + 2, width: rect.width - 2, height: 1), y: rect.y + 2)
        let editing = active ? ui.editing.map { (id: $0.id, editor: $0.editor) } : nil
        let selected: Int? = active ? ui.selected(page.key) : nil
        let offset = blocks.scrollOffset(selected: selected, height: area.height, requested: ui.scroll[page.key] ?? 0)
        let showsSelection = focused && !leftField(blocks, selected: selected, pane: page.key, session: session, ui: ui)
        if let cursor = blocks.draw(into: &frame, rect: area, selected: selected, focused: showsSelection, editing: editing, offset: offset), focused {
            frame.cursor = cursor
        }
        let dockRect = ScreenLayout.dock(of: rect)
        frame.rule(in: Rect(x: rect.x + 1, y: dockRect.y - 1, width: rect.width - 2, height: 1), y: dockRect.y - 1)
        // Messages not seen in the mail app yet show as an unread count beside `m mail`.
        let unread = session.unreadMessages
        let mail = unread > 0 ? [Span(" mail ", .muted), Span("●\(unread)", .badge), Span("  ", .muted)] : [Span(" mail  ", .muted)]
        // A replay or live traffic offers nothing it refuses.
        let dock: [Span] = ui.readOnly ? [Span(ui.watching ? "live traffic: read-only" : "a replay: read-only", .muted)]
            : active
            ? [Span("a", .keyName), Span(" app  ", .muted), Span("m", .keyName)] + mail + [Span("p", .keyName), Span(" paste link", .muted)]
            : [Span("d", .keyName), Span(" use this device", .muted)]
        let dockWidth = dock.reduce(0) { $0 + $1.text.displayWidth }
        frame.put(dock, x: dockRect.x + max(0, (dockRect.width - dockWidth) / 2), y: dockRect.y, clip: dockRect)
    }

    private static func drawInspector(_ frame: inout Frame, layout: ScreenLayout, session: Session, ui: UIState, panes: PaneCache) {
        let focused = ui.focus == .inspector && ui.overlay == nil
        frame.box(layout.inspector, title: nil, role: focused ? .focusedBorder : .border)
        for tab in layout.tabs {
            let role: Role = tab.tab == ui.tab ? (focused ? .selection : .current) : .muted
            frame.put(tab.label, x: tab.rect.x, y: tab.rect.y, role: role, clip: layout.tabBar)
        }
        frame.rule(in: Rect(x: layout.inspector.x + 1, y: layout.tabBar.y + 1, width: layout.inspector.width - 2, height: 1), y: layout.tabBar.y + 1, role: focused ? .focusedBorder : .border)
        let pane = panes.inspector(session, ui, layout)
        if let fixed = pane.fixed {
            fixed.layout.draw(into: &frame, rect: fixed.area, selected: nil, focused: false, editing: nil, offset: 0)
        }
        let area = pane.area
        let key = PaneID.inspector(ui.tab)
        let editing = ui.editing.map { (id: $0.id, editor: $0.editor) }
        let blocks = pane.scrolling
        let hasControls = !blocks.controls.isEmpty
        let selected = hasControls ? ui.selected(key) : nil
        let requested = ui.scroll[key] ?? (followsNewest(ui.tab) ? Int.max : 0)
        let offset = blocks.scrollOffset(selected: selected, height: area.height, requested: requested)
        let showsSelection = focused && !leftField(blocks, selected: selected, pane: key, session: session, ui: ui)
        if let cursor = blocks.draw(into: &frame, rect: area, selected: selected, focused: showsSelection, editing: editing, offset: offset), focused {
            frame.cursor = cursor
        }
    }

    /// Whether the selection is on a text field that Esc left (or that a presenter has not
    /// chosen): it is drawn unselected, since typing does not go there.
    private static func leftField(_ blocks: BlockLayout, selected: Int?, pane: PaneID, session: Session, ui: UIState) -> Bool {
        guard ui.editing == nil, let selected, blocks.controls.indices.contains(selected), blocks.controls[selected].isTextField else { return false }
        return !Controller.fieldTakesKeys(pane, session: session, ui: ui) && !ui.readOnly
    }

    /// A pane's blocks: the part kept in view, if the pane has one, and the part that scrolls.
    typealias InspectorRegions = (fixed: (blocks: [Block], area: Rect)?, scrolling: (blocks: [Block], area: Rect))

    /// The inspector's content: an optional part that stays in view (the Flow timeline) and the
    /// part that scrolls. Shared with the controller so keys and clicks scroll what is drawn.
    static func inspectorRegions(_ session: Session, _ ui: UIState, _ layout: ScreenLayout) -> InspectorRegions {
        let area = layout.inspectorContent
        let fixed: [Block], scrolling: [Block]
        switch ui.tab {
        case .flow:
            (fixed, scrolling) = (InspectorContent.flowTimeline(session, width: area.width, watching: ui.watching), InspectorContent.flowNarration(session))
        case .sequence:
            (fixed, scrolling) = SequencePane.blocks(session, width: area.width)
        default:
            return (nil, (InspectorContent.blocks(ui.tab, session, ui), area))
        }
        let height = min(BlockLayout(fixed, width: area.width, editing: nil).contentHeight, area.height / 2)
        // The Flow timeline stands apart from the narration; the sequence's lifelines run on.
        let split = area.splitRows(height + (ui.tab == .flow ? 1 : 0))
        return ((fixed, Rect(x: area.x, y: area.y, width: area.width, height: height)), (scrolling, split.bottom))
    }

    /// Panes that grow as the flow goes show the newest content until the user scrolls.
    static func followsNewest(_ tab: InspectorTab) -> Bool {
        tab == .flow || tab == .sequence
    }

    private static func drawStatus(_ frame: inout Frame, layout: ScreenLayout, session: Session, ui: UIState, transport: String, presentation: Presentation?) {
        frame.fill(layout.status, role: .statusBar)
        // Each piece with what it is worth when room is short: the lowest go first.
        var pieces: [(text: String, worth: Int)] = [(" ● \(transport) ", 2)]
        if let now = session.now { pieces.append((" ⏱ \(Clock.format(now)) UTC ", 1)) }
        if session.hasSeveralDevices { pieces.append((" on the \(session.focusedDevice.name.title) ", 4)) }
        if session.capture != nil {
            // A capture holds a client's traffic, not its state: say only what the traffic shows.
            // Worth less than the transport, which names the server being watched.
            pieces.append((" \(session.capturedSignIn.map { "signed in as \($0) (captured)" } ?? "no sign-in captured") ", 1))
        } else if let signedIn = session.app.session {
            pieces.append((" \(signedIn.email ?? signedIn.localId)\(signedIn.emailVerified ? " ✓" : " (unverified)") ", 3))
        } else {
            pieces.append((" signed out ", 3))
        }
        if let message = ui.message { pieces.append((" \(message) ", 5)) }
        if let presentation {
            let end = presentation.isReplay ? "end of the recording" : presentation.failed ? "scenario ended with a failure" : "scenario complete ✓"
            let next = presentation.next.map { "next (n): \($0)" } ?? end
            pieces.append((" \(next) ", 5))
        }
        // A message that says what another piece says already (`on the iPhone`) is not repeated.
        var said: Set<String> = []
        pieces = pieces.filter { said.insert($0.text.trimmingWhitespace()).inserted }
        func width(_ pieces: [(text: String, worth: Int)]) -> Int { pieces.reduce(-1) { $0 + $1.text.displayWidth + 1 } }
        while width(pieces) > layout.status.width, let cheapest = pieces.indices.filter({ pieces[$0].worth < 5 }).min(by: { pieces[$0].worth < pieces[$1].worth }) {
            pieces.remove(at: cheapest)
        }
        var spans: [Span] = []
        for (index, piece) in pieces.enumerated() {
            if index > 0 { spans.append(Span("│", .statusBar)) }
            spans.append(Span(piece.text, .statusBar))
        }
        frame.put(fitted(spans, columns: layout.status.width), x: 0, y: layout.status.y, clip: layout.status)
    }

    /// The spans that fit in `columns`; the first that does not is cut between words with `…`.
    static func fitted(_ spans: [Span], columns: Int) -> [Span] {
        var room = columns
        var kept: [Span] = []
        for span in spans {
            let width = span.text.displayWidth
            if width <= room {
                kept.append(span)
                room -= width
                continue
            }
            let cut = span.text.truncatedBetweenWords(toColumns: room)
            if !cut.isEmpty { kept.append(Span(cut, span.role)) }
            break
        }
        return kept
    }

    /// The hint bar for whatever has the keyboard.
    /// `typing`: a text field takes the printable keys.
    static func hints(for ui: UIState, presenting: Bool = false, otherDevice: String? = nil, typing: Bool = false) -> [(String, String)] {
        if case .pasteLink? = ui.overlay { return [("Enter", "open link"), ("Ctrl-U", "clear"), ("Esc", "cancel")] }
        if ui.overlay == .help { return [("any key", "close help"), ("q", "quit")] }
        switch ui.overlay {
        case .confirmReset?: return [("y", "reset the world"), ("any other key", "keep it")]
        case .confirmStory?: return [("y", "start the story"), ("any other key", "keep this session")]
        case .confirmQuit?: return [("y", "quit"), ("any other key", "go on")]
        default: break
        }
        if ui.mode == .welcome { return [("↑↓", "choose"), ("Enter", "start"), ("?", "help"), ("q", "quit")] }
        if let editing = ui.editing {
            let replaces: [(String, String)] = editing.editor.selectsAll ? [("type", "replaces it")] : []
            return replaces + [("Enter", "save"), ("Esc", "leave field"), ("←→", "move"), ("Home/End", "jump"), ("Ctrl-U", "clear"), ("Tab/↓", "next")]
        }
        if typing {
            // Letters go into the field: the shortcuts wait until Esc leaves it.
            return [("type", "into the field"), ("↑↓", "select"), ("Tab", ui.focus == .phone ? "inspector" : "phone"), ("Esc", "then ? help, q quit")]
        }
        var hints: [(String, String)] = []
        if presenting { hints += [("n", "next"), ("b", "back"), ("g", "play")] }
        if ui.readOnly {
            hints += [("↑↓", "select"), ("Tab", ui.focus == .phone ? "inspector" : "phone")]
            hints.append(ui.focus == .inspector ? ("←→", "tabs") : ("1-8", "tabs"))
            hints += networkHints(ui)
            return hints + [("e", "export"), ("?", "help"), ("q", "quit")]
        }
        if let otherDevice { hints.append(("d", "→ \(otherDevice)")) }
        hints += [("↑↓", "select"), ("Enter", "press"), ("Tab", ui.focus == .phone ? "inspector" : "phone")]
        if ui.focus == .inspector { hints.append(("←→", "tabs")) } else { hints.append(("1-8", "tabs")) }
        hints += networkHints(ui)
        hints += [("+", "clock 1h"), ("R", "reset"), ("?", "help"), ("q", "quit")]
        return hints
    }

    /// The Network pane's own key, while it has the keyboard.
    private static func networkHints(_ ui: UIState) -> [(String, String)] {
        ui.focus == .inspector && ui.tab == .network ? [("c", "copy as curl")] : []
    }

    private static func drawHints(_ frame: inout Frame, layout: ScreenLayout, ui: UIState, presenting: Bool, otherDevice: String?, typing: Bool) {
        guard !layout.isTooSmall else { return }
        frame.fill(layout.hints, role: .keyHint)
        var x = 1
        for (key, action) in fitting(hints(for: ui, presenting: presenting, otherDevice: otherDevice, typing: typing), width: frame.width - 1) {
            x = frame.put(key, x: x, y: layout.hints.y, role: .keyName)
            x = frame.put(" \(action)  ", x: x, y: layout.hints.y, role: .keyHint)
        }
    }

    /// The hints that fit in `width` columns, in order: `? help` and `q quit` always, the others
    /// from the first for as long as there is room.
    static func fitting(_ hints: [(String, String)], width: Int) -> [(String, String)] {
        func columns(_ hint: (String, String)) -> Int { hint.0.displayWidth + hint.1.displayWidth + 3 }
        let essential = { (hint: (String, String)) in hint.0 == "?" || hint.0 == "q" || hint.0 == "Esc" }
        var room = width - hints.filter(essential).map(columns).reduce(0, +)
        return hints.filter { hint in
            if essential(hint) { return true }
            guard columns(hint) <= room else {
                room = 0
                return false
            }
            room -= columns(hint)
            return true
        }
    }

    // MARK: Welcome, help, paste

    private static func drawWelcome(_ frame: inout Frame, ui: UIState) {
        let stories = Welcome.choices
        let width = min(frame.width - 4, 76)
        let intro = TextWrap.lines("Reset a password, verify an email, sign in by link: and land back where you were. Pick a user story or explore.", width: width - 4)
        let height = min(frame.height - 2, 4 + 1 + intro.count + 1 + stories.count * 2)
        let box = Rect(x: (frame.width - width) / 2, y: max(0, (frame.height - 1 - height) / 2), width: width, height: height)
        frame.box(box, title: "actionflow", role: .focusedBorder)
        let inner = box.inset(by: 2)
        var y = inner.y
        frame.put("Passing state in email actions", x: inner.x, y: y, role: .title, clip: inner)
        y += 1
        for line in intro {
            frame.put(line, x: inner.x, y: y, role: .muted, clip: inner)
            y += 1
        }
        y += 1
        for (index, story) in stories.enumerated() {
            let selected = index == ui.welcomeSelection
            let label = " \(index + 1)  \(story.title) "
            frame.put(label.padded(toColumns: inner.width), x: inner.x, y: y, role: selected ? .selection : .text, clip: inner)
            frame.put("    \(story.detail)", x: inner.x, y: y + 1, role: .muted, clip: inner)
            y += 2
        }
    }

    private static func overlayBox(_ frame: inout Frame, width: Int, height: Int, title: String) -> Rect {
        let box = Rect(x: max(0, (frame.width - width) / 2), y: max(0, (frame.height - height) / 2), width: min(width, frame.width), height: min(height, frame.height - 1))
        frame.fill(box)
        frame.box(box, title: title, role: .focusedBorder)
        return box.inset(by: 2)
    }

    static let helpSections: [(String, [(String, String)])] = [
        ("Move", [("Tab / S-Tab", "phone ⇄ inspector"), ("↑ ↓  k j", "select a control"), ("← →  h l", "pane / change choice"),
                  ("1 … 8", "inspector panes"), ("PgUp PgDn", "scroll"), ("Esc", "leave a field / back")]),
        ("Act", [("Enter Space", "press, toggle, edit"), ("m / a", "mailbox / the app"), ("p", "paste a link"),
                 ("r / x", "retry / dismiss"), ("n b g", "next / back / play"),
                 ("e", "export the session"), ("c", "exchange as curl")]),
        ("World", [("+ / >", "clock +1 h / +1 day"), ("R", "reset the world"), ("w", "welcome screen")]),
        ("Fields", [("← → Home End", "move the cursor"), ("Bksp  Del", "delete"), ("C-U / C-K", "clear before / after"), ("type", "replaces selection"), ("Enter", "save"), ("Esc", "leave, keeping it")]),
        ("Terminal", [("Ctrl-L", "redraw"), ("Ctrl-Z", "suspend (fg resumes)"), ("q  Ctrl-C", "quit")]),
    ]

    /// The keys of the help overlay; with two devices, also the one that switches between them.
    static func keySections(devices: Int) -> [(String, [(String, String)])] {
        guard devices > 1 else { return helpSections }
        var sections = helpSections
        sections[0].1.insert(("d", "the other device"), at: 1)
        return sections
    }

    /// One column when it fits the height, otherwise two side by side.
    private static func drawHelp(_ frame: inout Frame, devices: Int) {
        let sections = keySections(devices: devices)
        let rows = sections.reduce(0) { $0 + $1.1.count + 1 }
        let twoColumns = rows + 4 > frame.height - 1
        let columns: [[(String, [(String, String)])]] = twoColumns
            ? [Array(sections.prefix(2)), Array(sections.dropFirst(2))]
            : [sections]
        let height = (columns.map { $0.reduce(0) { $0 + $1.1.count + 1 } }.max() ?? 0) + 4
        let inner = overlayBox(&frame, width: min(twoColumns ? 96 : 72, frame.width - 2), height: height, title: "Keys")
        let columnWidth = inner.width / columns.count
        let keyWidth = twoColumns ? 16 : 21
        for (index, sections) in columns.enumerated() {
            let area = Rect(x: inner.x + index * columnWidth, y: inner.y, width: columnWidth - 1, height: inner.height)
            var y = area.y
            for (section, keys) in sections {
                guard y < area.maxY else { break }
                frame.put(section, x: area.x, y: y, role: .title, clip: area)
                y += 1
                for (key, action) in keys where y < area.maxY {
                    frame.put(" " + key.padded(toColumns: keyWidth - 2), x: area.x, y: y, role: .keyName, clip: area)
                    // An action too long for its column ends with `…` after a whole word.
                    frame.put(action.truncatedBetweenWords(toColumns: max(1, area.maxX - area.x - keyWidth)), x: area.x + keyWidth, y: y, role: .text, clip: area)
                    y += 1
                }
            }
        }
    }

    /// A question over the screen: `y` does it, any other key does not.
    private static func drawConfirm(_ frame: inout Frame, title: String, text: String, yes: String, no: String) {
        let width = min(60, frame.width - 4)
        let lines = TextWrap.lines(text, width: width - 4)
        let inner = overlayBox(&frame, width: width, height: lines.count + 6, title: title)
        for (index, line) in lines.enumerated() {
            frame.put(line, x: inner.x, y: inner.y + index, role: .text, clip: inner)
        }
        frame.put([Span("y", .keyName), Span(" \(yes)   ", .text), Span("any other key", .keyName), Span(" \(no)", .text)], x: inner.x, y: inner.y + lines.count + 1, clip: inner)
    }

    /// A presented scenario's name and what it tells, before its first step.
    private static func drawOpeningCard(_ frame: inout Frame, _ presentation: Presentation) {
        let width = min(72, frame.width - 4)
        let text = TextWrap.lines(presentation.description, width: width - 4)
        let shown = Array(text.prefix(max(1, frame.height - 10)))
        let inner = overlayBox(&frame, width: width, height: shown.count + 8, title: "Scenario")
        frame.put(presentation.title, x: inner.x, y: inner.y, role: .title, clip: inner)
        for (index, line) in shown.enumerated() {
            frame.put(line, x: inner.x, y: inner.y + 2 + index, role: .text, clip: inner)
        }
        let keys = [Span("n", .keyName), Span(" begin  ", .text), Span("?", .keyName), Span(" help  ", .text), Span("q", .keyName), Span(" quit", .text),
                    Span("   \(presentation.total) steps", .text)]
        frame.put(keys, x: inner.x, y: inner.y + 3 + shown.count, clip: inner)
    }

    private static func drawPaste(_ frame: inout Frame, editor: TextEditor) {
        let inner = overlayBox(&frame, width: min(90, frame.width - 4), height: 7, title: "Paste a link")
        frame.put("The app receives the link as if it opened it (a link from a real inbox, say).", x: inner.x, y: inner.y, role: .muted, clip: inner)
        let (shown, column) = editor.visible(width: inner.width)
        frame.put(shown.padded(toColumns: inner.width), x: inner.x, y: inner.y + 2, role: .focusedField, clip: inner)
        frame.cursor = (inner.x + column, inner.y + 2)
    }
}

/// The welcome screen's choices: the shipped user stories (`Resources/stories/`) and free exploration.
enum Welcome {
    struct Choice {
        var title: String
        var detail: String
        /// Played from the session as it is; nil leaves the app as it is.
        var story: Scenario?
    }

    static let choices: [Choice] = ScenarioLibrary.stories.map { Choice(title: $0.name, detail: $0.description, story: $0) }
        + [Choice(title: "Free exploration", detail: "the app as it is; every pane editable", story: nil)]
}
