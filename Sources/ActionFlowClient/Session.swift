import ActionFlowBackend
import ActionFlowModel
import Foundation

/// Everything a session is, in one value: the world the app talks to, the app on the device,
/// the exchanges, the journal of what happened, presenter progress and form drafts. Saving,
/// reopening and replaying are functions of it.
public struct Session: Sendable, Equatable, Codable {
    public var world: World
    /// The app on the device.
    public var app: AppState
    /// The latest backend exchanges (at most `exchangeWindow`), and how many there were in all.
    public var exchanges: [ExchangeRecord]
    public var exchangeCount: Int
    /// What happened, typed; the narration is rendered from it.
    public var journal: [JournalEntry]
    /// A scenario being presented one step per key press.
    public var presenter: PresenterProgress?
    /// Form values typed on the phone that the app receives only with the form's button.
    public var drafts: [String: String]

    public static let exchangeWindow = 50

    public init(world: World, app: AppState) {
        self.world = world
        self.app = app
        exchanges = []
        exchangeCount = 0
        journal = []
        presenter = nil
        drafts = [:]
    }

    /// A session on a fresh simulated project in this process.
    public static func embedded(project: ProjectConfiguration, app: AppState) -> Session {
        Session(world: .embedded(SimulatedProject(configuration: project)), app: app)
    }

    /// A session whose world runs elsewhere: only the app side is kept.
    public static func remote(project: ProjectConfiguration, app: AppState, now: Date?) -> Session {
        Session(world: .remote(RemoteWorld(project: project, inbox: [], now: now)), app: app)
    }

    /// The project the app routes links with: the embedded world's, or the one the remote
    /// world was last told to use.
    public var project: ProjectConfiguration {
        switch world {
        case .embedded(let simulated): simulated.configuration
        case .remote(let remote): remote.project
        }
    }

    /// The inbox as the mail app last listed it, oldest first.
    public var inbox: [MailMessage] {
        switch world {
        case .embedded(let simulated): Array(simulated.mailbox.prefix(app.listedMessages))
        case .remote(let remote): remote.inbox
        }
    }

    /// Every email the world sent, as far as the app can know: all of the simulated project's,
    /// or the remote inbox as last listed.
    public var sentMail: [MailMessage] {
        switch world {
        case .embedded(let simulated): simulated.mailbox
        case .remote(let remote): remote.inbox
        }
    }

    /// The project's clock: simulated in process, as last read from a remote world.
    public var now: Date? {
        switch world {
        case .embedded(let simulated): simulated.now
        case .remote(let remote): remote.now
        }
    }

    public var isEmbedded: Bool {
        if case .embedded = world { true } else { false }
    }

    /// The narration: every journal entry rendered, one line per fact.
    public var narration: [String] {
        journal.flatMap(\.lines)
    }

    /// The last `limit` lines of the narration and how many it has in all, rendering only the
    /// entries those lines come from.
    public func narrationTail(_ limit: Int) -> (total: Int, lines: [String]) {
        let total = journal.reduce(0) { $0 + JournalText.lineCount($1.fact) }
        var tail: [String] = []
        for entry in journal.reversed() where tail.count < limit {
            tail.insert(contentsOf: entry.lines, at: 0)
        }
        return (total, Array(tail.suffix(limit)))
    }
}

/// Where the backend lives.
public enum World: Sendable, Equatable, Codable {
    /// The simulated project in this process: calls are plain function calls.
    case embedded(SimulatedProject)
    /// A server reached over a transport: only what the app has seen of it.
    case remote(RemoteWorld)
}

/// What the app knows of a world it reaches over the network.
public struct RemoteWorld: Sendable, Equatable, Codable {
    /// The project the server was configured with (routing needs its domains and apps).
    public var project: ProjectConfiguration
    /// The mailbox as last listed.
    public var inbox: [MailMessage]
    /// The server's clock as last read.
    public var now: Date?

    public init(project: ProjectConfiguration, inbox: [MailMessage], now: Date?) {
        self.project = project
        self.inbox = inbox
        self.now = now
    }
}

/// A scenario being presented: steps played so far and the last result.
public struct PresenterProgress: Sendable, Equatable, Codable {
    public var title: String
    /// Each step's description, as shown in the header.
    public var steps: [String]
    public var played: Int
    public var lastResult: String?
    public var failed: Bool
    /// Journal entries already behind the previous expectation (`narrates` looks after them).
    public var journalMark: Int

    public init(title: String, steps: [String]) {
        self.title = title
        self.steps = steps
        played = 0
        lastResult = nil
        failed = false
        journalMark = 0
    }

    public var isFinished: Bool { played >= steps.count }
}

/// The phone's text fields: what is typed stays in `Session.drafts` until the form's button sends it.
public enum DraftField: String, Sendable, CaseIterable {
    case signInEmail = "signIn.email"
    case signInPassword = "signIn.password"
    case forgotEmail = "forgot.email"
    case newPassword = "newPassword"
    case confirmEmail = "confirm.email"
    case widgetPassword = "widget.password"
    case widgetEmail = "widget.email"
}
