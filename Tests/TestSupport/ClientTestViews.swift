import ActionFlowClient
import ActionFlowModel
import Foundation

// Views of the client's values that only the tests read; the product reads the values
// themselves (the journal, the diagram's items, the recording).

extension Session {
    /// The narration: every journal entry rendered, one line per fact.
    public var narration: [String] { journal.flatMap(\.lines) }

    /// A session whose world runs elsewhere, with one device running `app`.
    public static func remote(project: ProjectConfiguration, app: AppState, now: Date?) -> Session {
        remote(project: project, devices: [SessionDevice(app: app)], now: now)
    }
}

extension Replay {
    /// Back one event; false at the start.
    @discardableResult
    public mutating func back() -> Bool {
        guard position > 0 else { return false }
        seek(to: position - 1)
        return true
    }
}

extension SequenceDiagram {
    public var messages: [Message] { items.compactMap { if case .message(let message) = $0 { message } else { nil } } }
    public var notes: [Note] { items.compactMap { if case .note(let note) = $0 { note } else { nil } } }
}

extension ScenarioTranscript {
    public var finalSession: Session? { recording?.current }
    public var narration: [String] { lines.compactMap { if case .narration(_, let text) = $0 { text } else { nil } } }
}
