import ActionFlowClient

/// The inspector's panes, in tab order (digits 1–7 select them).
public enum InspectorTab: Int, Sendable, CaseIterable {
    case flow, settings, device, link, network, project, mailbox

    public var title: String {
        switch self {
        case .flow: "Flow"
        case .settings: "Settings"
        case .device: "Device"
        case .link: "Link"
        case .network: "Network"
        case .project: "Project"
        case .mailbox: "Mailbox"
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
        }
    }
}

/// A text field being edited: which control, and its contents.
public struct Editing: Sendable, Hashable {
    public var id: String
    public var editor: TextEditor
}

/// What only the interface knows: focus, tabs, selections, scrolling, open overlays and text
/// being typed. The flow itself lives in the client's `AppState`.
public struct UIState: Sendable {
    public enum Mode: Sendable, Hashable { case welcome, main }
    public enum Focus: Sendable, Hashable { case phone, inspector }
    public enum Overlay: Sendable, Hashable {
        case help
        case pasteLink(TextEditor)
    }

    public var mode: Mode = .welcome
    public var focus: Focus = .phone
    public var tab: InspectorTab = .flow
    public var overlay: Overlay?
    /// Selected control per pane (keyed by `paneKey`).
    public var selection: [String: Int] = [:]
    /// First row shown per pane; nil follows the newest content (Flow, Network).
    public var scroll: [String: Int] = [:]
    public var editing: Editing?
    /// Form values typed on the phone that the client receives only with the form's button.
    public var drafts: [String: String] = [:]
    public var welcomeSelection = 0
    /// The user story picked on the welcome screen.
    public var story: String?
    /// The exchange shown in full in the Network pane.
    public var expandedExchange: Int?
    /// A short confirmation in the status line ("clock +1 h", "world reset").
    public var message: String?
    public var presenter: PresenterState?
    public var colorMode: ColorMode

    public init(colorMode: ColorMode) {
        self.colorMode = colorMode
    }

    public func selected(_ pane: String) -> Int { selection[pane] ?? 0 }
}

/// A scenario being presented: one keypress per step.
public struct PresenterState: Sendable, Hashable {
    public var title: String
    /// Each step's description, as shown in the header.
    public var steps: [String]
    /// Steps already played.
    public var played: Int
    /// Result of the last step (expectation met or not).
    public var lastResult: String?
    public var failed: Bool

    public init(title: String, steps: [String], played: Int = 0, lastResult: String? = nil, failed: Bool = false) {
        self.title = title
        self.steps = steps
        self.played = played
        self.lastResult = lastResult
        self.failed = failed
    }

    public var isFinished: Bool { played >= steps.count }
}
