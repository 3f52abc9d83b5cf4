import ActionFlowBackend
import ActionFlowModel
import Foundation

/// Everything a session is, in one value: the world the app talks to, the devices and the app
/// on each, the exchanges, the journal of what happened, presenter progress and form drafts.
/// Saving, reopening and replaying are functions of it.
public struct Session: Sendable, Equatable {
    public var world: World
    /// The devices, each with its own app (one by default: the phone). The world is shared.
    public var devices: [SessionDevice]
    /// The device in focus: events and taps apply to it (an event wrapped in `onDevice` applies
    /// to the device it names).
    public var focus = 0
    /// The latest backend exchanges (at most `exchangeWindow`), and how many there were in all.
    public var exchanges: [ExchangeRecord] = []
    public var exchangeCount = 0
    /// What happened, typed; the narration is rendered from it.
    public var journal: [JournalEntry] = []
    /// A scenario being presented one step per key press.
    public var presenter: PresenterProgress?
    /// The file an imported capture came from: the session holds its traffic, not an app's screens.
    public var capture: String?
    /// What a long live session no longer keeps in `journal` (`forgetEarly`), nil until then.
    public var earlier: EarlierTraffic?

    public static let exchangeWindow = 50

    /// The app on the device in focus.
    public var app: AppState {
        get { devices[focus].app }
        set { devices[focus].app = newValue }
        _modify { yield &devices[focus].app }
    }

    /// Form values typed on the device in focus that the app receives only with the form's button.
    public var drafts: [String: String] {
        get { devices[focus].drafts }
        set { devices[focus].drafts = newValue }
        _modify { yield &devices[focus].drafts }
    }

    public init(world: World, app: AppState) {
        self.init(world: world, devices: [SessionDevice(app: app)])
    }

    /// A session on these devices (at least one), the first in focus.
    public init(world: World, devices: [SessionDevice]) {
        precondition(!devices.isEmpty, "a session holds at least one device")
        self.world = world
        self.devices = devices
    }

    /// A session whose world is behind a transport: the app knows nothing of it yet but its
    /// project and clock. `simulated` when the world is the simulated project in this process.
    public static func fresh(project: ProjectConfiguration, devices: [SessionDevice], now: Date?, simulated: Bool) -> Session {
        Session(world: World(project: project, inbox: [], now: now, isSimulated: simulated), devices: devices)
    }

    /// A session whose world runs elsewhere: only the app side is kept.
    public static func remote(project: ProjectConfiguration, devices: [SessionDevice], now: Date?) -> Session {
        fresh(project: project, devices: devices, now: now, simulated: false)
    }

    /// The project the app routes links with: the one the world was last told to use.
    public var project: ProjectConfiguration { world.project }

    /// The inbox as the mail app last listed it, oldest first.
    public var inbox: [MailMessage] { Array(world.inbox.prefix(app.listedMessages)) }

    /// Every email the world sent, as far as the app can know: each one the simulated project
    /// reported sending, or the remote inbox as last listed.
    public var sentMail: [MailMessage] { world.inbox }

    /// The project's clock as last read.
    public var now: Date? { world.now }

    /// Whether the world is the simulated project in this process.
    public var isEmbedded: Bool { world.isSimulated }

    /// `embedded` or `rest`: which world the session talks to, as session files name it.
    public var transport: String { isEmbedded ? "embedded" : "rest" }

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

/// What the app knows of the world it talks to through its transport: the project, the
/// mail, the clock. The world itself (users, codes, the simulated project) is the transport's.
public struct World: Sendable, Equatable, Codable {
    /// The project the world was configured with (routing needs its domains and apps).
    public var project: ProjectConfiguration
    /// Every email known: as the mailbox was last listed, and each one the simulated project
    /// reported sending since.
    public var inbox: [MailMessage]
    /// The world's clock as last read.
    public var now: Date?
    /// Each mailbox emptied by a restart of the world, as last known, with the journal's length
    /// when it was emptied: diagrams still name the emails listed before. Nil until a restart.
    public var earlierInboxes: [EarlierInbox]?
    /// The simulated project in this process, which reports each email as it sends it; a
    /// server's mail is known only as its mailbox lists it.
    public var isSimulated: Bool

    public struct EarlierInbox: Sendable, Equatable, Codable {
        public var messages: [MailMessage]
        public var untilJournalEntry: Int
    }

    public init(project: ProjectConfiguration, inbox: [MailMessage], now: Date?, isSimulated: Bool) {
        self.project = project
        self.inbox = inbox
        self.now = now
        self.isSimulated = isSimulated
    }

    private enum CodingKeys: String, CodingKey {
        case project, inbox, now, earlierInboxes, simulated
        // Format versions 1 and 2 wrote the world as one of two cases.
        case embedded, remote
    }

    private enum LegacyCase: String, CodingKey { case _0 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.embedded) {
            // The whole simulated project: what the app knew of it was all of it.
            let simulated = try container.nestedContainer(keyedBy: LegacyCase.self, forKey: .embedded).decode(SimulatedProject.self, forKey: ._0)
            self.init(project: simulated.configuration, inbox: simulated.mailbox, now: simulated.now, isSimulated: true)
        } else if container.contains(.remote) {
            let remote = try container.nestedContainer(keyedBy: LegacyCase.self, forKey: .remote)
            self = try remote.decode(World.self, forKey: ._0)
        } else {
            self.init(project: try container.decode(ProjectConfiguration.self, forKey: .project),
                      inbox: try container.decode([MailMessage].self, forKey: .inbox),
                      now: try container.decodeIfPresent(Date.self, forKey: .now),
                      isSimulated: try container.decodeIfPresent(Bool.self, forKey: .simulated) ?? false)
            earlierInboxes = try container.decodeIfPresent([EarlierInbox].self, forKey: .earlierInboxes)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(project, forKey: .project)
        try container.encode(inbox, forKey: .inbox)
        try container.encodeIfPresent(now, forKey: .now)
        try container.encodeIfPresent(earlierInboxes, forKey: .earlierInboxes)
        try container.encode(isSimulated, forKey: .simulated)
    }
}

/// A scenario being presented: steps played so far and the last result.
public struct PresenterProgress: Sendable, Equatable, Codable {
    public var title: String
    /// Each step's description, as shown in the header.
    public var steps: [String]
    public var played = 0
    public var lastResult: String?
    public var failed = false
    /// Journal entries already behind the previous expectation (`narrates` looks after them).
    public var journalMark = 0

    public init(title: String, steps: [String]) {
        self.title = title
        self.steps = steps
    }

    public var isFinished: Bool { played >= steps.count }
}

extension AppEvent {
    /// The fields a form's event sends, with their text: the fields it was typed into.
    public var submittedFields: [(field: DraftField, text: String)] {
        switch self {
        case .signInSubmitted(let email, let password): [(.signInEmail, email), (.signInPassword, password)]
        case .passwordResetRequested(let email): [(.forgotEmail, email)]
        case .signInLinkRequested(let email): [(.signInEmail, email)]
        case .signInEmailConfirmed(let email): [(.confirmEmail, email)]
        case .newPasswordSubmitted(let password): [(.newPassword, password), (.widgetPassword, password)]
        case .secondFactorRequested(let phoneNumber): [(.secondFactorPhone, phoneNumber)]
        default: []
        }
    }
}

/// The phone's text fields: what is typed stays in `Session.drafts` until the form's button sends it.
public enum DraftField: String, Sendable, CaseIterable {
    case signInEmail = "signIn.email"
    case signInPassword = "signIn.password"
    case forgotEmail = "forgot.email"
    case newPassword = "newPassword"
    case confirmEmail = "confirm.email"
    case widgetPassword = "widget.password"
    case secondFactorPhone = "account.phone"

    /// The field's label on the screen that shows it.
    public var label: String {
        switch self {
        case .signInEmail, .forgotEmail, .confirmEmail: "Email"
        case .signInPassword: "Password"
        case .newPassword, .widgetPassword: "New password"
        case .secondFactorPhone: "Phone"
        }
    }
}

// A session with one device is written as format version 1 wrote it: `app` and `drafts` at the
// top (and `deviceName` when the device's name is not its platform's: `laptop`). With two,
// `devices` (each with its name, app and drafts) and `focus` take their place.
extension Session: Codable {
    private enum CodingKeys: String, CodingKey {
        case world, app, drafts, deviceName, devices, focus, exchanges, exchangeCount, journal, presenter, capture, earlier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        world = try container.decode(World.self, forKey: .world)
        // A file's project is checked as a project file is: the session computes with it.
        if let problem = world.project.validate().first {
            throw DecodingError.dataCorruptedError(forKey: .world, in: container, debugDescription: "its project breaks a rule: \(problem)")
        }
        if let devices = try container.decodeIfPresent([SessionDevice].self, forKey: .devices) {
            guard !devices.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .devices, in: container, debugDescription: "a session holds at least one device")
            }
            let names = devices.map(\.name)
            if Set(names).count != names.count {
                throw DecodingError.dataCorruptedError(forKey: .devices, in: container, debugDescription: "two devices have the same name")
            }
            self.devices = devices
            focus = try container.decode(Int.self, forKey: .focus)
            guard devices.indices.contains(focus) else {
                throw DecodingError.dataCorruptedError(forKey: .focus, in: container, debugDescription: "focus \(focus) names no device (there are \(devices.count))")
            }
        } else {
            let app = try container.decode(AppState.self, forKey: .app)
            let drafts = try container.decode([String: String].self, forKey: .drafts)
            let name = try container.decodeIfPresent(DeviceName.self, forKey: .deviceName) ?? .inferred(from: app.device)
            devices = [SessionDevice(name: name, app: app, drafts: drafts)]
            focus = 0
        }
        exchanges = try container.decode([ExchangeRecord].self, forKey: .exchanges)
        exchangeCount = try container.decode(Int.self, forKey: .exchangeCount)
        journal = try container.decode([JournalEntry].self, forKey: .journal)
        presenter = try container.decodeIfPresent(PresenterProgress.self, forKey: .presenter)
        capture = try container.decodeIfPresent(String.self, forKey: .capture)
        earlier = try container.decodeIfPresent(EarlierTraffic.self, forKey: .earlier)
        // Counts the session adds to and subtracts from: a file's negative or huge one would
        // slice or overflow when the session goes on.
        var counts = [("exchangeCount", exchangeCount, CodingKeys.exchangeCount)]
        for device in devices {
            counts.append(("\(device.name) listedMessages", device.app.listedMessages, .devices))
            if let seen = device.app.seenMessages { counts.append(("\(device.name) seenMessages", seen, .devices)) }
        }
        if let presenter { counts += [("presenter played", presenter.played, .presenter), ("presenter journalMark", presenter.journalMark, .presenter)] }
        for (name, count, key) in counts where !(0...Int(Int32.max)).contains(count) {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(name) is \(count), not a count from 0 to \(Int32.max)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(world, forKey: .world)
        // Format version 2's layout for more than one device.
        if hasSeveralDevices {
            try container.encode(devices, forKey: .devices)
            try container.encode(focus, forKey: .focus)
        } else {
            try container.encode(app, forKey: .app)
            try container.encode(drafts, forKey: .drafts)
            // Only when the name is not the one the device's platform gives (readers of
            // version 1 pass over it).
            if devices[0].name != .inferred(from: app.device) { try container.encode(devices[0].name, forKey: .deviceName) }
        }
        try container.encode(exchanges, forKey: .exchanges)
        try container.encode(exchangeCount, forKey: .exchangeCount)
        try container.encode(journal, forKey: .journal)
        try container.encodeIfPresent(presenter, forKey: .presenter)
        try container.encodeIfPresent(capture, forKey: .capture)
        try container.encodeIfPresent(earlier, forKey: .earlier)
    }
}
