import ActionFlowClient
import ActionFlowModel

/// A short remark under a control: a validation message, a finding, a hint.
public struct Note: Sendable, Hashable {
    public var text: String
    public var role: Role
    public init(_ text: String, _ role: Role) {
        self.text = text
        self.role = role
    }
}

/// What a text field's text sets once saved: the field says which value, and
/// `InspectorContent.commit` / `validate` say how, from the session as it is then.
public enum FieldAction: Sendable, Hashable {
    /// A phone form's field, kept as a draft until its button sends the form.
    case draft(String)
    /// An `ActionCodeSettings` text field (`InspectorContent.settingsTextFields`, by id).
    case setting(String)
    case continueURLBase
    case locale
    case deviceOSName
    case deviceVersion
    /// A project text field (`InspectorContent.projectTextFields`, by id).
    case project(String)
    /// A code lifetime (`InspectorContent.lifetimeFields`, by id).
    case lifetime(String)
}

/// Something the user can select and act on: a text field, a toggle, a choice or a button.
/// Plain data: what pressing it does is the messages it carries for `Interface.update`, what
/// typing in it sets a `FieldAction`.
public struct Control: Sendable, Equatable {
    public enum Kind: Sendable, Hashable {
        case text(value: String, placeholder: String, secret: Bool)
        case toggle(Bool)
        /// A value cycled with Enter / Space (and ←/→ while selected).
        case choice(String)
        case button
    }

    /// Stable identity: keeps selection and editing across re-renders.
    public var id: String
    public var label: String
    public var kind: Kind
    /// Under the control: a finding, a warning, or while typing, what is wrong with the text.
    public var note: Note?
    /// Enter on a button or toggle, Enter or → on a choice.
    public var forward: [InterfaceMessage]
    /// ← on a choice.
    public var backward: [InterfaceMessage]
    /// What a text field's text sets.
    public var field: FieldAction?

    public init(id: String, label: String, kind: Kind, note: Note? = nil, forward: [InterfaceMessage] = [], backward: [InterfaceMessage]? = nil, field: FieldAction? = nil) {
        self.id = id
        self.label = label
        self.kind = kind
        self.note = note
        self.forward = forward
        self.backward = backward ?? forward
        self.field = field
    }

    /// A button that sends these messages.
    public static func button(_ id: String, _ label: String, note: Note? = nil, _ messages: [InterfaceMessage]) -> Control {
        Control(id: id, label: label, kind: .button, note: note, forward: messages)
    }

    /// What ← (-1) or Enter and → (+1) do.
    public func activate(_ direction: Int) -> [InterfaceMessage] { direction < 0 ? backward : forward }

    public var isTextField: Bool {
        if case .text = kind { true } else { false }
    }
}

/// One piece of a pane's content, top to bottom.
public enum Block: Sendable {
    case heading(String)
    /// Wrapped text.
    case paragraph(String, Role)
    /// Styled pieces on one line (clipped, not wrapped).
    case line([Span])
    /// A long value broken anywhere (URLs, JSON), indented by `indent` columns.
    case verbatim(String, Role, indent: Int)
    /// Wrapped text after a marker, continuation lines indented under the text.
    case item(String, String, Role)
    /// `name  value`, names aligned in a column of `nameWidth`.
    case pair(String, String, Role, nameWidth: Int)
    case control(Control)
    case blank
    case rule
}

/// Renders blocks into a rectangle with one selected control and scrolling that keeps the
/// selection in view. Also answers which control a row shows (for mouse clicks).
public struct BlockLayout: Sendable {
    public struct Placed: Sendable {
        public var block: Block
        /// Rows from the top of the content.
        public var row: Int
        public var height: Int
        /// Index among the controls, when the block is one.
        public var controlIndex: Int?
        /// The block's text as drawn at the layout's width: wrapped lines in display order, a
        /// verbatim value's pieces, or a control's note. Kept so that scrolling draws without
        /// wrapping again.
        var lines: [(text: String, indent: Int)]
        /// A control's note as laid out (its validation while it is typed in).
        var note: Note?
    }

    public var placed: [Placed] = []
    public var contentHeight = 0
    public var width: Int

    /// Lays out `blocks` for a width; text blocks wrap, controls take one or two rows.
    public init(_ blocks: [Block], width: Int, editing: (id: String, editor: TextEditor)?) {
        self.width = width
        var row = 0
        var controlIndex = 0
        for block in blocks {
            var index: Int? = nil
            let (lines, note) = Self.text(of: block, width: width, editing: editing)
            let height: Int
            switch block {
            case .paragraph, .heading, .item: height = max(1, lines.count)
            case .verbatim: height = lines.count
            case .control:
                index = controlIndex
                controlIndex += 1
                height = 1 + lines.count
            default: height = 1
            }
            placed.append(Placed(block: block, row: row, height: height, controlIndex: index, lines: lines, note: note))
            row += height
        }
        contentHeight = row
    }

    /// A block's text laid out for `width` (see `Placed.lines`), and a control's note.
    private static func text(of block: Block, width: Int, editing: (id: String, editor: TextEditor)?) -> (lines: [(text: String, indent: Int)], note: Note?) {
        switch block {
        case .paragraph(let text, _), .heading(let text):
            return (BidiLine.displayLines(text, width: width), nil)
        case .item(let marker, let text, _):
            return (BidiLine.displayLines(text, width: max(1, width - marker.displayWidth)), nil)
        case .verbatim(let text, _, let indent):
            return (TextWrap.hardLines(text, width: max(1, width - indent)).map { ($0, 0) }, nil)
        case .control(let control):
            // A field being typed in carries the note of its text as typed (see `InspectorContent`).
            let note = control.note
            return (note.map { TextWrap.lines($0.text, width: max(1, width - 2)).map { ($0, 0) } } ?? [], note)
        default:
            return ([], nil)
        }
    }

    public var controls: [Control] {
        placed.compactMap { if case .control(let control) = $0.block { control } else { nil } }
    }

    /// The first row to show so that the selected control is visible.
    public func scrollOffset(selected: Int?, height: Int, requested: Int) -> Int {
        var offset = max(0, min(requested, contentHeight - height))
        if let selected, let item = placed.first(where: { $0.controlIndex == selected }) {
            if item.row < offset { offset = item.row }
            if item.row + item.height > offset + height { offset = item.row + item.height - height }
        }
        return max(0, offset)
    }

    /// Draws into `rect`; returns the cursor position when a field is being edited.
    @discardableResult
    public func draw(into frame: inout Frame, rect: Rect, selected: Int?, focused: Bool, editing: (id: String, editor: TextEditor)?, offset: Int) -> (x: Int, y: Int)? {
        var cursor: (x: Int, y: Int)? = nil
        let labelWidth = min(max(controls.filter { !isButton($0) }.map { $0.label.displayWidth }.max() ?? 0, 0) + 2, max(8, rect.width / 2))
        for item in placed {
            let top = rect.y + item.row - offset
            guard top + item.height > rect.y, top < rect.maxY else { continue }
            // Laid out for this width already, unless drawn into a rectangle of another.
            let (lines, note) = rect.width == width ? (item.lines, item.note) : Self.text(of: item.block, width: rect.width, editing: editing)
            switch item.block {
            case .heading:
                for (i, line) in lines.enumerated() {
                    frame.put(line.text, x: rect.x + line.indent, y: top + i, role: .title, clip: rect)
                }
            case .paragraph(_, let role):
                for (i, line) in lines.enumerated() {
                    frame.put(line.text, x: rect.x + line.indent, y: top + i, role: role, clip: rect)
                }
            case .line(let spans):
                // A line too long for the pane ends with `…` after its last whole word.
                frame.put(MainView.fitted(spans, columns: rect.width), x: rect.x, y: top, clip: rect)
            case .item(let marker, _, let role):
                let indent = marker.displayWidth
                // An item whose first lines are scrolled away still shows its number, on its
                // first visible line, and `…` where its text goes on from above.
                let hidden = max(0, rect.y - top)
                let shownMarker = hidden > 0 && marker.hasSuffix(" ") ? marker.dropLast() + "…" : marker
                frame.put(String(shownMarker), x: rect.x, y: top + hidden, role: .muted, clip: rect)
                for (i, line) in lines.enumerated() {
                    frame.put(line.text, x: rect.x + indent + line.indent, y: top + i, role: role, clip: rect)
                }
            case .verbatim(_, let role, let indent):
                for (i, line) in lines.enumerated() {
                    frame.put(line.text, x: rect.x + indent, y: top + i, role: role, clip: rect)
                }
            case .pair(let name, let value, let role, let nameWidth):
                frame.put(name.padded(toColumns: nameWidth), x: rect.x, y: top, role: .muted, clip: rect)
                frame.put(value.truncated(toColumns: rect.width - nameWidth - 1).inVisualOrder, x: rect.x + nameWidth + 1, y: top, role: role, clip: rect)
            case .control(let control):
                let isSelected = focused && item.controlIndex == selected
                let edit = editing?.id == control.id ? editing?.editor : nil
                if let position = drawControl(control, into: &frame, rect: rect, y: top, labelWidth: labelWidth, selected: isSelected, editor: edit) {
                    cursor = position
                }
                if let note {
                    for (i, line) in lines.enumerated() {
                        frame.put(line.text, x: rect.x + 2, y: top + 1 + i, role: note.role, clip: rect)
                    }
                }
            case .blank:
                break
            case .rule:
                frame.rule(in: rect, y: top)
            }
        }
        if contentHeight > rect.height, rect.width > 0 {
            // On the frame line under the content, so it never hides text.
            let marker = offset + rect.height < contentHeight ? (offset > 0 ? " ↑↓ more " : " ↓ more ") : " ↑ more "
            frame.put(marker, x: rect.maxX - marker.displayWidth, y: rect.maxY, role: .accent)
        }
        return cursor
    }

    private func isButton(_ control: Control) -> Bool {
        if case .button = control.kind { true } else { false }
    }

    private func drawControl(_ control: Control, into frame: inout Frame, rect: Rect, y: Int, labelWidth: Int, selected: Bool, editor: TextEditor?) -> (x: Int, y: Int)? {
        switch control.kind {
        case .button:
            let label = "[ \(control.label.truncated(toColumns: max(1, rect.width - 6)).inVisualOrder) ]"
            frame.put(label, x: rect.x, y: y, role: selected ? .focusedButton : .button, clip: rect)
            if selected { frame.put("◀", x: rect.x + label.displayWidth + 1, y: y, role: .accent, clip: rect) }
            return nil
        case .toggle(let on):
            frame.put(control.label.truncated(toColumns: labelWidth - 1).padded(toColumns: labelWidth), x: rect.x, y: y, role: selected ? .selection : .text, clip: rect)
            frame.put(on ? "[x] on" : "[ ] off", x: rect.x + labelWidth, y: y, role: on ? .success : .muted, clip: rect)
            return nil
        case .choice(let value):
            frame.put(control.label.truncated(toColumns: labelWidth - 1).padded(toColumns: labelWidth), x: rect.x, y: y, role: selected ? .selection : .text, clip: rect)
            frame.put("‹ \(value) ›", x: rect.x + labelWidth, y: y, role: .accent, clip: rect)
            return nil
        case .text(let value, let placeholder, let secret):
            frame.put(control.label.truncated(toColumns: labelWidth - 1).padded(toColumns: labelWidth), x: rect.x, y: y, role: selected ? .selection : .text, clip: rect)
            let fieldX = rect.x + labelWidth
            let fieldWidth = max(1, rect.maxX - fieldX)
            if let editor {
                let (shown, column) = editor.visible(width: fieldWidth)
                let text = secret ? SecretMasking.maskTyped(shown) : shown
                frame.put(text.padded(toColumns: fieldWidth), x: fieldX, y: y, role: .focusedField, clip: rect)
                // Selected text, which typing replaces, stands out from the field around it.
                if editor.selectsAll { frame.put(text, x: fieldX, y: y, role: .selection, clip: rect) }
                return (fieldX + (secret ? min(column, shown.count) : column), y)
            }
            let shown = value.isEmpty ? placeholder : (secret ? SecretMasking.maskTyped(value) : value)
            let role: Role = switch (selected, value.isEmpty) {
            case (true, true): .focusedPlaceholder
            case (true, false): .focusedField
            case (false, true): .placeholder
            case (false, false): .field
            }
            frame.put(shown.truncated(toColumns: fieldWidth).padded(toColumns: fieldWidth), x: fieldX, y: y, role: role, clip: rect)
            return nil
        }
    }
}
