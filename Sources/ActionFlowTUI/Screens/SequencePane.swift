import ActionFlowClient

/// The Sequence pane: the session's sequence diagram (the one `export --format mermaid` writes)
/// drawn in the terminal. Lifelines run down the left in box-drawing characters, one column per
/// participant, with each arrow drawn between its two lifelines; the arrow's label, the notes and
/// the route taken read to the right of them, wrapped.
enum SequencePane {
    /// Columns between two lifelines when the pane is wide enough; narrower panes use `tightSpacing`.
    static let spacing = 4
    static let tightSpacing = 3
    /// The label column a pane keeps at least, before lifelines are drawn closer together.
    static let minimumLabelWidth = 30

    /// The diagram the pane draws: the user, the app and Firebase Auth are always there; a store
    /// or a browser only once the flow reaches one.
    static func diagram(_ session: Session) -> SequenceDiagram {
        SequenceDiagram(session, alwaysShown: [.user, .app, .auth])
    }

    /// The pane in two parts: the participants' names (kept in view) and the diagram (scrolls).
    static func blocks(_ session: Session, width: Int) -> (header: [Block], body: [Block]) {
        let diagram = diagram(session)
        let lanes = diagram.lifelines
        let spacing = width - ((lanes.count - 1) * spacing + 2) >= minimumLabelWidth ? spacing : tightSpacing
        let grid = LaneGrid(participants: lanes.map(\.participant), spacing: spacing)
        let labelWidth = max(1, width - grid.width - 1)

        var header: [Block] = []
        for (index, lane) in lanes.enumerated() {
            var cells = grid.lifelines(upTo: index)
            cells[grid.column(of: index)] = "┬"
            let name = lane.label.truncated(toColumns: max(1, width - grid.column(of: index) - 2))
            header.append(.line([Span(String(cells.prefix(grid.column(of: index) + 1)), .border), Span(" " + name, .title)]))
        }

        var body: [Block] = []
        if diagram.items.isEmpty {
            body.append(.line([Span(String(grid.lifelines()), .border)]))
            body.append(.paragraph("Nothing has happened yet: the diagram grows as the flow goes.", .muted))
            return (header, body)
        }
        var routeDepth = 0
        for item in diagram.items {
            switch item {
            case .message(let message):
                let role = role(of: message)
                body += grid.rows(graphic: grid.arrow(message), graphicRole: role, text: message.text, textRole: message.kind == .reply && role != .error ? .muted : .text, labelWidth: labelWidth, depth: routeDepth)
            case .note(let note):
                body += grid.rows(graphic: grid.note(over: note.over), graphicRole: .badge, text: note.lines.joined(separator: " · "), textRole: .muted, labelWidth: labelWidth, depth: routeDepth)
            case .routeBegins(let label):
                body += grid.rows(graphic: grid.lifelines(), graphicRole: .border, text: "┌ alt " + label, textRole: .accent, labelWidth: labelWidth, depth: routeDepth)
                routeDepth += 1
            case .routeEnds:
                routeDepth = max(0, routeDepth - 1)
                body += grid.rows(graphic: grid.lifelines(), graphicRole: .border, text: "└ end", textRole: .accent, labelWidth: labelWidth, depth: routeDepth)
            }
        }
        return (header, body)
    }

    /// Replies with an error status (or none at all) stand out.
    static func role(of message: SequenceDiagram.Message) -> Role {
        guard message.kind == .reply else { return .accent }
        let status = message.text.prefix { $0 != " " }
        if message.text.hasPrefix("no reply") || (Int(status).map { $0 >= 400 } ?? false) { return .error }
        return .muted
    }
}

/// Where each lifeline is, and the glyphs of one row of lifelines.
struct LaneGrid {
    let participants: [SequenceDiagram.Participant]
    let spacing: Int

    /// Columns the lifelines take, with a blank column on the left.
    var width: Int { (participants.count - 1) * spacing + 2 }

    func column(of lane: Int) -> Int { 1 + lane * spacing }

    func lane(of participant: SequenceDiagram.Participant) -> Int? {
        participants.firstIndex(of: participant)
    }

    /// A row of plain lifelines (the first `count` of them, all by default).
    func lifelines(upTo count: Int? = nil) -> [Character] {
        var cells = [Character](repeating: " ", count: width)
        for lane in 0..<min(count ?? participants.count, participants.count) {
            cells[column(of: lane)] = "│"
        }
        return cells
    }

    /// An arrow from one lifeline to another: solid for a request, dashed for a reply, the head
    /// against the receiving lifeline.
    func arrow(_ message: SequenceDiagram.Message) -> [Character] {
        var cells = lifelines()
        guard let from = lane(of: message.from), let to = lane(of: message.to) else { return cells }
        let start = column(of: from), end = column(of: to)
        guard start != end else {
            cells[start] = "◆"
            return cells
        }
        let shaft: Character = message.kind == .request ? "─" : "╌"
        let step = end > start ? 1 : -1
        var x = start + step
        while x != end {
            cells[x] = shaft
            x += step
        }
        cells[start] = end > start ? "├" : "┤"
        cells[end - step] = end > start ? "▶" : "◀"
        return cells
    }

    /// A note's mark on each lifeline it spans, joined when it spans two.
    func note(over participants: [SequenceDiagram.Participant]) -> [Character] {
        var cells = lifelines()
        let columns = participants.compactMap(lane(of:)).map(column(of:))
        guard let first = columns.min(), let last = columns.max() else { return cells }
        for x in first...last { cells[x] = "┄" }
        for x in columns { cells[x] = "◇" }
        return cells
    }

    /// The graphic row with the first line of the label beside it; further lines of the label
    /// under it, beside plain lifelines. Inside a route each line is marked with the route's rule.
    func rows(graphic: [Character], graphicRole: Role, text: String, textRole: Role, labelWidth: Int, depth: Int) -> [Block] {
        let indent = String(repeating: "│ ", count: depth)
        let lines = BidiLine.displayLines(text, width: max(1, labelWidth - indent.count))
        let plain = String(lifelines())
        return lines.enumerated().map { index, line in
            let lanes = index == 0 ? Self.spans(graphic, role: graphicRole) : [Span(plain, .border)]
            let padding = String(repeating: " ", count: line.indent)
            return .line(lanes + [Span(" " + indent, .accent), Span(padding + line.text, textRole)])
        }
    }

    /// Lifelines in the border colour, the arrow or note on them in `role`.
    static func spans(_ cells: [Character], role: Role) -> [Span] {
        var spans: [Span] = []
        for cell in cells {
            let cellRole: Role = cell == "│" || cell == " " ? .border : role
            if let last = spans.last, last.role == cellRole {
                spans[spans.count - 1].text.append(cell)
            } else {
                spans.append(Span(String(cell), cellRole))
            }
        }
        return spans
    }
}
