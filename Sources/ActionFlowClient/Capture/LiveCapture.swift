import ActionFlowModel
import Foundation

/// `serve --inspect`: traffic read as it happens, one exchange at a time, into the same steps
/// `import` makes of a capture file, so that the interface, `--save` and the exports treat it
/// as any capture.
public struct LiveCapture: Sendable {
    public let project: ProjectConfiguration
    /// The session the traffic starts from, named after what it watches.
    public let start: Session
    private var flow = CapturedFlow(operations: [], actionLinks: [], findings: [], preflights: 0, unrelated: 0, entries: 0)
    private var departures = CaptureDepartures()
    /// Calls and action links read so far: the numbers of their exchanges, mail and findings.
    public private(set) var calls = 0
    public private(set) var links = 0
    /// Links remembered to tell a new one from one listed again: the latest only, so that
    /// a long run stays in bounded memory.
    static let rememberedLinks = 256

    public init(project: ProjectConfiguration, source: String, now: Date = Date()) {
        self.project = project
        start = CapturedFlow.startSession(project: project, source: source, now: now)
    }

    /// Entries read so far, preflights and unrelated ones included.
    public var entries: Int { flow.entries }

    /// The events one exchange adds: its call, the action links it holds, then their findings.
    /// A preflight or an exchange unrelated to email actions adds none.
    public mutating func read(_ exchange: CapturedExchange, at: Date) -> [AppEvent] {
        var exchange = exchange
        exchange.entry = flow.entries
        flow.entries += 1
        let linksBefore = flow.actionLinks.count
        flow.add(exchange, project: project)
        var events: [AppEvent] = []
        var findings: [CapturedFinding] = []
        for operation in flow.operations {
            findings += CapturedFlow.findings(operation, index: calls, project: project, departures: &departures)
            calls += 1
            events.append(.captured(CapturedFlow.callStep(operation, id: calls, at: at, fallback: at, keepsValues: false)))
        }
        for link in flow.actionLinks[linksBefore...] {
            findings += CapturedFlow.findings(link, index: links)
            links += 1
            events.append(.captured(CapturedFlow.linkStep(link, number: links, at: at)))
        }
        // A link seen before, requested now: opened, or its page's form sent.
        for link in flow.actionLinks {
            if let visit = link.visits.last, visit.entry == exchange.entry, !link.isFirstSeen(at: visit) {
                events.append(.captured(CapturedFlow.visitStep(link, visit, at: at, keepsValues: false)))
            }
        }
        events += findings.map { .captured(CaptureStep(fact: .finding($0.finding, subject: $0.subject), exchange: nil, mail: nil, at: nil)) }
        flow.operations.removeAll(keepingCapacity: true)
        flow.exchanges.removeAll(keepingCapacity: true)
        if flow.actionLinks.count > Self.rememberedLinks { flow.actionLinks.removeFirst(flow.actionLinks.count - Self.rememberedLinks) }
        return events
    }

    /// The events of an email the watched server itself sent: its link taken apart, and the
    /// whole email (whom it went to, its subject and body) in the mailbox, as a scenario's are.
    public mutating func read(sent message: MailMessage) -> [AppEvent] {
        guard let anatomy = try? LinkInspector.inspect(message.link, authorizedDomains: project.authorizedDomains),
              !flow.actionLinks.contains(where: { $0.anatomy.link == anatomy.link }) else { return [] }
        let link = CapturedActionLink(anatomy: anatomy, source: .sentByServer, entry: max(0, flow.entries - 1), email: message.to)
        // Remembered, so that the emulator's listing of the same link later adds nothing.
        flow.actionLinks.append(link)
        links += 1
        var mail = message
        mail.id = "sent-\(links)"
        let step = CaptureStep(fact: .actionLink(CapturedLink(link)), exchange: nil, mail: mail, at: message.sentAt)
        let findings = CapturedFlow.findings(link, index: links - 1)
        return [.captured(step)] + findings.map { .captured(CaptureStep(fact: .finding($0.finding, subject: $0.subject), exchange: nil, mail: nil, at: nil)) }
    }
}

/// What a long session no longer keeps in its journal: how many facts, and the calls among
/// them by operation and status, so that the screen can still say what came before.
public struct EarlierTraffic: Sendable, Equatable, Codable {
    public var facts = 0
    /// "sendOobCode 200" → how many.
    public var calls: [String: Int] = [:]
    public var links = 0

    mutating func count(_ entry: JournalEntry) {
        facts += 1
        switch entry.fact {
        case .captured(.call(let call)): calls["\(call.operation) \(call.status == 0 ? "no answer" : String(call.status))", default: 0] += 1
        case .captured(.actionLink): links += 1
        default: break
        }
    }

    public var callCount: Int { calls.values.reduce(0, +) }

    /// One line: the totals, then the calls most made.
    public var summary: String {
        let top = calls.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(4).map { "\($0.key) ×\($0.value)" }
        var line = "\(facts) earlier fact\(facts == 1 ? "" : "s") summarised: \(callCount) call\(callCount == 1 ? "" : "s"), \(links) action link\(links == 1 ? "" : "s")"
        if !top.isEmpty { line += " (" + top.joined(separator: ", ") + (calls.count > top.count ? ", ..." : "") + ")" }
        return line
    }
}

extension Session {
    /// Keeps the last `facts` journal entries and the last `mail` emails, counting what goes in
    /// `earlier`: a live session's memory stays bounded however long it runs.
    public mutating func forgetEarly(keepingFacts facts: Int, mail: Int) {
        if journal.count > facts {
            var earlier = self.earlier ?? EarlierTraffic()
            let dropped = journal.count - facts
            for entry in journal.prefix(dropped) { earlier.count(entry) }
            journal.removeFirst(dropped)
            self.earlier = earlier
            if let mark = presenter?.journalMark { presenter?.journalMark = max(0, mark - dropped) }
        }
        if world.inbox.count > mail {
            let dropped = world.inbox.count - mail
            world.inbox.removeFirst(dropped)
            for index in devices.indices { devices[index].app.listedMessages = max(0, devices[index].app.listedMessages - dropped) }
        }
    }
}
