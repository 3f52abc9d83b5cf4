import ActionFlowClient

/// The phone's page and the inspector's pane, built and laid out once and kept from one key to
/// the next: a key that only moves the selection, scrolls or goes back to a pane already shown
/// neither builds a pane again (the link anatomy, the sequence diagram) nor wraps its text again,
/// and the controller scrolls the very layout that is drawn. The owner of the session bumps `sessionRevision` whenever the session
/// on screen may have changed; a new cache (the default for a single frame) keeps nothing.
public final class PaneCache {
    public var sessionRevision = 0

    /// The inspector laid out: the part kept in view (the Flow timeline, the sequence's names),
    /// if the pane has one, and the part that scrolls.
    struct Inspector {
        var fixed: (layout: BlockLayout, area: Rect)?
        var scrolling: BlockLayout
        var area: Rect
    }

    /// What a pane's blocks are built from: the session, and the one piece of interface state a
    /// pane reads (the exchange open in the Network pane).
    private struct ContentKey: Hashable {
        var revision: Int
        var tab: InspectorTab
        var expandedExchange: Int?
        var area: Rect
    }

    /// Laying out also depends on the field being typed in (its note may take more rows).
    private struct LayoutKey: Hashable {
        var content: ContentKey
        var editing: Editing?
    }

    /// Every pane shown since the session or the size last changed.
    private var inspectorContent: [ContentKey: (fixed: (blocks: [Block], area: Rect)?, scrolling: (blocks: [Block], area: Rect))] = [:]
    /// Their layouts, without a field being typed in and with the one typed in now.
    private var inspectorLayouts: [LayoutKey: Inspector] = [:]
    private struct PhoneKey: Hashable {
        var revision: Int
        var area: Rect
        var editing: Editing?
    }

    private var phonePage: (revision: Int, page: PhonePage)?
    private var phoneLayout: (key: PhoneKey, layout: BlockLayout)?

    public init() {}

    func inspector(_ session: Session, _ ui: UIState, _ screen: ScreenLayout) -> Inspector {
        let content = ContentKey(revision: sessionRevision, tab: ui.tab, expandedExchange: ui.expandedExchange, area: screen.inspectorContent)
        let key = LayoutKey(content: content, editing: ui.editing)
        if let kept = inspectorLayouts[key] { return kept }
        inspectorContent = inspectorContent.filter { $0.key.revision == content.revision && $0.key.area == content.area }
        inspectorLayouts = inspectorLayouts.filter { inspectorContent[$0.key.content] != nil && ($0.key.editing == nil || $0.key.editing == key.editing) }
        let regions = inspectorContent[content] ?? MainView.inspectorRegions(session, ui, screen)
        inspectorContent[content] = regions
        let editing = ui.editing.map { (id: $0.id, editor: $0.editor) }
        let pane = Inspector(
            fixed: regions.fixed.map { (BlockLayout($0.blocks, width: $0.area.width, editing: nil), $0.area) },
            scrolling: BlockLayout(regions.scrolling.blocks, width: regions.scrolling.area.width, editing: editing),
            area: regions.scrolling.area)
        inspectorLayouts[key] = pane
        return pane
    }

    /// Lays out one more inspector pane the user may switch to, for the session as it is;
    /// returns false once there is none left. Called while no key waits, so that going to
    /// another pane finds it ready.
    func prepareNextPane(_ session: Session, _ ui: UIState, _ screen: ScreenLayout) -> Bool {
        guard ui.mode == .main, ui.editing == nil, !screen.isTooSmall else { return false }
        for tab in InspectorTab.allCases {
            let content = ContentKey(revision: sessionRevision, tab: tab, expandedExchange: ui.expandedExchange, area: screen.inspectorContent)
            guard inspectorLayouts[LayoutKey(content: content, editing: nil)] == nil else { continue }
            var other = ui
            other.tab = tab
            _ = inspector(session, other, screen)
            return true
        }
        return false
    }

    /// The page of the device in focus, laid out for `area` with `editing` (nil on a device that
    /// is not in focus). Pages read the session only.
    func phone(_ session: Session, _ ui: UIState, area: Rect, editing: Editing?) -> (page: PhonePage, layout: BlockLayout) {
        let page = phonePage.flatMap { $0.revision == sessionRevision ? $0.page : nil } ?? PhoneContent.page(session, ui)
        phonePage = (sessionRevision, page)
        let key = PhoneKey(revision: sessionRevision, area: area, editing: editing)
        if let kept = phoneLayout, kept.key == key { return (page, kept.layout) }
        let layout = BlockLayout(page.blocks, width: area.width, editing: editing.map { (id: $0.id, editor: $0.editor) })
        phoneLayout = (key, layout)
        return (page, layout)
    }
}
