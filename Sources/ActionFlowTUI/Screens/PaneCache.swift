import ActionFlowClient

/// The phone's page and the inspector's pane, built and laid out once and kept from one key to
/// the next: a key that only moves the selection, scrolls or goes back to a pane already shown
/// neither builds a pane again (the link anatomy, the sequence diagram) nor wraps its text again,
/// and the controller scrolls the very layout that is drawn. It is the view's memo: a look-up
/// names the revision of the session it is for (`at(_:)`, `Interface.revision`), and panes of
/// another revision are laid out again; nothing else tells it of a change. A new cache (the
/// default for a single frame) keeps nothing.
public struct PaneCache {
    /// The panes kept, shared by every copy.
    private final class Storage {
        var inspectorContent: [ContentKey: MainView.InspectorRegions] = [:]
        var inspectorLayouts: [LayoutKey: Inspector] = [:]
        var phonePage: (revision: Int, page: PhonePage)?
        var phoneLayout: (key: PhoneKey, layout: BlockLayout)?
    }

    private let storage = Storage()
    /// The revision of the session this copy looks panes up for.
    private(set) var sessionRevision = 0

    /// The same panes, looked up for the session at `revision`.
    public func at(_ revision: Int) -> PaneCache {
        var copy = self
        copy.sessionRevision = revision
        return copy
    }

    /// The inspector laid out: the part kept in view (the Flow timeline, the sequence's names),
    /// if the pane has one, and the part that scrolls.
    struct Inspector: Sendable {
        var fixed: (layout: BlockLayout, area: Rect)?
        var scrolling: BlockLayout
        var area: Rect
    }

    /// What a pane's blocks are built from: the session, and the one piece of interface state a
    /// pane reads (the exchange open in the Network pane).
    fileprivate struct ContentKey: Hashable, Sendable {
        var revision: Int
        var tab: InspectorTab
        var expandedExchange: Int?
        var area: Rect
        /// The field typed in, for the one pane whose content follows the typing (Settings).
        var typing: Editing? = nil
        /// The link-domain checks, for the pane that shows them (Project).
        var doctor: DoctorRun? = nil

        init(revision: Int, tab: InspectorTab, ui: UIState, area: Rect, editing: Editing? = nil) {
            self.revision = revision
            self.tab = tab
            expandedExchange = ui.expandedExchange
            self.area = area
            typing = InspectorContent.followsTyping(tab) ? editing : nil
            doctor = tab == .project ? ui.doctor : nil
        }
    }

    /// Laying out also depends on the field being typed in (its note may take more rows).
    fileprivate struct LayoutKey: Hashable {
        var content: ContentKey
        var editing: Editing?
    }

    /// `inspectorContent`: every pane shown since the session or the size last changed;
    /// `inspectorLayouts`: their layouts, without a field being typed in and with the one typed in now.
    fileprivate struct PhoneKey: Hashable {
        var revision: Int
        var area: Rect
        var editing: Editing?
    }

    public init() {}

    func inspector(_ session: Session, _ ui: UIState, _ screen: ScreenLayout) -> Inspector {
        let content = ContentKey(revision: sessionRevision, tab: ui.tab, ui: ui, area: screen.inspectorContent, editing: ui.editing)
        let key = LayoutKey(content: content, editing: ui.editing)
        if let kept = storage.inspectorLayouts[key] { return kept }
        storage.inspectorContent = storage.inspectorContent.filter { $0.key.revision == content.revision && $0.key.area == content.area && ($0.key.typing == nil || $0.key.typing == content.typing) }
        storage.inspectorLayouts = storage.inspectorLayouts.filter { storage.inspectorContent[$0.key.content] != nil && ($0.key.editing == nil || $0.key.editing == key.editing) }
        let regions = storage.inspectorContent[content] ?? MainView.inspectorRegions(session, ui, screen)
        storage.inspectorContent[content] = regions
        let pane = Self.layOut(regions, editing: ui.editing)
        storage.inspectorLayouts[key] = pane
        return pane
    }

    fileprivate static func layOut(_ regions: MainView.InspectorRegions, editing: Editing?) -> Inspector {
        Inspector(
            fixed: regions.fixed.map { (BlockLayout($0.blocks, width: $0.area.width, editing: nil), $0.area) },
            scrolling: BlockLayout(regions.scrolling.blocks, width: regions.scrolling.area.width, editing: editing.map { (id: $0.id, editor: $0.editor) }),
            area: regions.scrolling.area)
    }

    /// The inspector panes the user may switch to that are not laid out for the session as it
    /// is, as work for another thread while the loop waits for keys (`adopt` takes it back);
    /// nil when there is none.
    func preparation(_ session: Session, _ ui: UIState, _ screen: ScreenLayout) -> PanePreparation? {
        guard ui.mode == .main, ui.editing == nil, !screen.isTooSmall else { return nil }
        let missing = InspectorTab.allCases
            .map { ContentKey(revision: sessionRevision, tab: $0, ui: ui, area: screen.inspectorContent) }
            .filter { storage.inspectorLayouts[LayoutKey(content: $0, editing: nil)] == nil }
        return missing.isEmpty ? nil : PanePreparation(missing: missing, session: session, ui: ui, screen: screen)
    }

    /// Keeps the panes prepared for the session still on screen, and drops the rest.
    func adopt(_ prepared: [PanePreparation.Pane]) {
        for pane in prepared where pane.content.revision == sessionRevision {
            let key = LayoutKey(content: pane.content, editing: nil)
            guard storage.inspectorLayouts[key] == nil else { continue }
            storage.inspectorContent[pane.content] = pane.regions
            storage.inspectorLayouts[key] = pane.layout
        }
    }

    /// The page of the device in focus, laid out for `area` with `editing` (nil on a device that
    /// is not in focus). Pages read the session only.
    func phone(_ session: Session, _ ui: UIState, area: Rect, editing: Editing?) -> (page: PhonePage, layout: BlockLayout) {
        let page = storage.phonePage.flatMap { $0.revision == sessionRevision ? $0.page : nil } ?? PhoneContent.page(session, ui)
        storage.phonePage = (sessionRevision, page)
        let key = PhoneKey(revision: sessionRevision, area: area, editing: editing)
        if let kept = storage.phoneLayout, kept.key == key { return (page, kept.layout) }
        let layout = BlockLayout(page.blocks, width: area.width, editing: editing.map { (id: $0.id, editor: $0.editor) })
        storage.phoneLayout = (key, layout)
        return (page, layout)
    }
}

/// Panes to lay out away from the main loop: the session as it was on screen, and what each
/// pane needs of the interface state.
struct PanePreparation: Sendable {
    struct Pane: Sendable {
        fileprivate let content: PaneCache.ContentKey
        fileprivate let regions: MainView.InspectorRegions
        fileprivate let layout: PaneCache.Inspector
    }

    fileprivate let missing: [PaneCache.ContentKey]
    let session: Session
    let ui: UIState
    let screen: ScreenLayout

    func run() -> [Pane] {
        missing.map { content in
            var other = ui
            other.tab = content.tab
            let regions = MainView.inspectorRegions(session, other, screen)
            return Pane(content: content, regions: regions, layout: PaneCache.layOut(regions, editing: nil))
        }
    }
}
