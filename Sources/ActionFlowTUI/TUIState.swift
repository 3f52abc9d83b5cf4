import ActionFlowClient
import ActionFlowModel

/// The inspector's panes, in tab order (digits 1–8 select them).
public enum InspectorTab: Int, Sendable, CaseIterable {
    case flow, settings, device, link, network, project, mailbox, sequence

    public var title: String {
        switch self {
        case .flow: "Flow"
        case .settings: "Settings"
        case .device: "Device"
        case .link: "Link"
        case .network: "Network"
        case .project: "Project"
        case .mailbox: "Mailbox"
        case .sequence: "Sequence"
        }
    }

    public var shortTitle: String {
        switch self {
        case .flow: "Flow"
        case .settings: "Set"
        case .device: "Dev"
        case .link: "Link"
        case .network: "Net"
        case .project: "Proj"
        case .mailbox: "Mail"
        case .sequence: "Seq"
        }
    }
}

/// A pane the interface remembers a selection, a scroll position and a field's focus for: a page
/// of a device's phone, or a pane of the inspector.
public enum PaneID: Hashable, Sendable {
    case phone(device: Int, page: PhonePage.Name)
    case inspector(InspectorTab)
}

/// A text field being edited: which control, and its contents.
public struct Editing: Sendable, Hashable {
    public var id: String
    public var editor: TextEditor
}

/// The doctor's last run in the interface: the project it checked, and its checks once done.
public struct DoctorRun: Sendable, Hashable {
    public var project: ProjectConfiguration
    /// Nil while the checks run.
    public var checks: [DoctorCheck]?
}

/// What only the interface knows: focus, tabs, selections, scrolling, open overlays and text
/// being typed. The session itself (the flow, drafts, presenter progress) is the client's `Session`.
public struct UIState: Sendable {
    public enum Mode: Sendable, Hashable { case welcome, main }
    public enum Focus: Sendable, Hashable { case phone, inspector }
    public enum Overlay: Sendable, Hashable {
        case help
        case pasteLink(TextEditor)
        /// `R` asks before the world is reset: `y` resets, any other key keeps it.
        case confirmReset
        /// A story picked while the session holds steps: `y` starts it on a fresh world.
        case confirmStory(Int)
        /// `q` while a scenario is presented: `y` quits, any other key goes on.
        case confirmQuit
    }

    public var mode: Mode = .welcome
    public var focus: Focus = .phone
    public var tab: InspectorTab = .flow
    public var overlay: Overlay?
    /// Selected control per pane.
    public var selection: [PaneID: Int] = [:]
    /// First row shown per pane; nil follows the newest content (Flow, Network).
    public var scroll: [PaneID: Int] = [:]
    public var editing: Editing?
    /// Per pane: whether its selected text field takes printable keys
    /// (false once Esc left it, true once chosen again); unset, `Controller.fieldTakesKeys` decides.
    public var fieldFocus: [PaneID: Bool] = [:]
    /// A reopened session: no field takes keys until one is chosen (↑ ↓, Enter, a click) or
    /// the user does something, so that a shortcut never types into a field nobody picked.
    public var fieldsWaitForChoice = false
    public var welcomeSelection = 0
    /// The welcome screen was opened with `w` from a session: Esc goes back to it.
    public var welcomeFromSession = false
    /// The user story picked on the welcome screen.
    public var story: String?
    /// The exchange shown in full in the Network pane.
    public var expandedExchange: Int?
    /// The Project pane's link-domain checks (`actionflow doctor`), last run.
    public var doctor: DoctorRun?
    /// A short confirmation in the status line ("clock +1 h", "world reset").
    public var message: String?
    /// A replay: nothing is typed into a field or sent to the app; n, b, g, the panes, e and q work.
    public var readOnly = false
    /// The presented step's caption and the marks of its checks, at the top of the screen.
    public var caption: String?
    /// A presented scenario's name and description, over the screen until `n` begins.
    public var openingCard = false
    /// Live traffic (`serve --inspect`): read-only, and what comes in is the server's.
    public var watching = false
    /// What a key that would change the replayed or watched session says instead.
    public var readOnlyMessage: String {
        watching ? "live traffic is read-only: the panes, e (export) and q (stop the server)" : "a replay is read-only: n b g e q"
    }
    public var colorMode: ColorMode
    public var theme: Theme

    public init(colorMode: ColorMode, theme: Theme = .dark) {
        self.colorMode = colorMode
        self.theme = theme
    }

    public func selected(_ pane: PaneID) -> Int { selection[pane] ?? 0 }

    /// Forgets what was selected, scrolled, focused and opened in the panes: after a reset of
    /// the world or a new story, none of it points at anything that is still there.
    mutating func forgetPaneState() {
        selection = [:]
        scroll = [:]
        fieldFocus = [:]
        expandedExchange = nil
    }
}
