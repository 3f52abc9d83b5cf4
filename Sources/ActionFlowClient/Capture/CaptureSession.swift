import ActionFlowModel
import Foundation

/// A captured call as the journal keeps it: what the wire said, secrets masked.
public struct CapturedCall: Sendable, Equatable, Codable {
    /// Position in the capture's `log.entries`, from 0.
    public var entry: Int
    /// The v1 method name (`sendOobCode`, `signInWithPassword`, `token`...).
    public var operation: String
    public var wireName: String
    public var api: CapturedAPI
    public var toEmulator: Bool
    public var requestType: String?
    public var email: String?
    /// An email change's new address, where its email goes.
    public var newEmail: String?
    public var continueUrl: String?
    public var actionCodeSettings: [ActionCodeField]
    /// The action code the call carried, masked.
    public var oobCode: String?
    /// The code's fingerprint (`SecretMasking.fingerprint`): which link it came from, without the code.
    public var oobCodeFingerprint: String?
    /// A `lookup`'s answer: the account's email and whether it is verified.
    public var lookedUpEmail: String?
    public var emailVerified: Bool?
    /// A `resetPassword` that sets the password (rather than only checking the code).
    public var setsPassword: Bool
    /// HTTP status; 0 when the capture holds no answer.
    public var status: Int
    public var error: String?

    init(_ operation: CapturedOperation) {
        entry = operation.exchange.entry
        self.operation = operation.operation
        wireName = operation.wireName
        api = operation.api
        toEmulator = operation.toEmulator
        requestType = operation.requestType
        email = operation.email
        newEmail = operation.newEmail
        continueUrl = operation.continueUrl.map(SecretMasking.maskLinks)
        actionCodeSettings = operation.actionCodeSettings.map { field in
            guard case .text(let text) = field.value else { return field }
            return ActionCodeField(name: field.name, value: .text(SecretMasking.maskLinks(in: text)))
        }
        oobCode = operation.oobCode.map(SecretMasking.mask)
        oobCodeFingerprint = operation.oobCode.map(SecretMasking.fingerprint)
        lookedUpEmail = operation.lookedUpEmail
        emailVerified = operation.emailVerified
        setsPassword = operation.setsPassword
        status = operation.status
        error = operation.error
    }

    /// It spends an action code: a password set, a code applied, a sign-in with a link.
    public var spendsCode: Bool {
        oobCode != nil && Self.spendsCode(operation, setsPassword: setsPassword)
    }

    /// Whether a call of `operation` that carries a code uses it up.
    static func spendsCode(_ operation: String, setsPassword: Bool) -> Bool {
        switch operation {
        case "resetPassword": setsPassword
        case "update", "signInWithEmailLink": true
        default: false
        }
    }

    /// What the call does with the action code it carries: a reset without a new password only checks it.
    var codeUse: String? {
        guard oobCode != nil else { return nil }
        switch operation {
        case "resetPassword": return setsPassword ? "setting a new password with the code" : "checking the code only (no new password)"
        case "update": return "applying the code"
        case "signInWithEmailLink": return "signing in with the code"
        default: return "carrying a code"
        }
    }

    /// The narration: the call, then each action code setting sent.
    public var lines: [String] {
        var line = operation
        var spelled: [String] = []
        if api != .v1 { spelled.append(wireName == operation ? api.rawValue : "\(api.rawValue) \(wireName)") }
        if toEmulator { spelled.append("emulator") }
        if !spelled.isEmpty { line += " (\(spelled.joined(separator: ", ")))" }
        if let requestType { line += " \(requestType)" }
        if let email { line += " for \(email)" }
        if let newEmail { line += ", to change it to \(newEmail) (the email goes there)" }
        if let use = codeUse { line += ", \(use)" }
        line += status == 0 ? ": no answer captured" : ": \(status)"
        if let error { line += " \(error)" }
        if let lookedUpEmail { line += ", \(lookedUpEmail)" }
        if let emailVerified { line += emailVerified ? ", email verified" : ", email not verified" }
        return [line] + actionCodeSettings.map { field in
            switch field.value {
            case .text(let text): "    \(field.name) \(text)"
            case .flag(let flag): "    \(field.name) \(flag)"
            }
        }
    }
}

/// An action link a capture holds, as the journal keeps it: never followed, its secrets masked.
public struct CapturedLink: Sendable, Equatable, Codable {
    public var entry: Int
    public var link: String
    public var source: CapturedActionLink.Source
    public var mode: String?
    public var continueUrl: String?
    /// A request to the link itself (`opened`, `formSent`): its answer's status, and the form
    /// sent as it was (the new password in clear, as a session keeps what was typed), so that
    /// a script can send it again. Nil otherwise, and in files written before.
    public var status: Int?
    public var formBody: String?

    init(_ link: CapturedActionLink) {
        entry = link.entry
        // Kept whole, as a session keeps its emails' links: masked wherever it is shown.
        self.link = link.anatomy.link
        source = link.source
        mode = link.anatomy.mode
        continueUrl = link.anatomy.continueUrl.map(SecretMasking.maskLinks)
        if link.source == .opened { status = link.visits.first { $0.entry == link.entry }?.status }
    }

    public var line: String {
        "\(mode ?? "(no mode)") link, \(source.narration) (\(CaptureNumbering.entry(entry))), continueUrl \(continueUrl ?? "(none)")"
    }
}

/// A request to the emulator's own API that changes its state (`PUT .../config`, `POST
/// .../reset`, `DELETE .../accounts`): the calls after it meet the state it left.
public struct CapturedEmulatorRequest: Sendable, Equatable, Codable {
    public var entry: Int
    public var method: String
    /// The path and query, as sent.
    public var path: String
    /// The body as sent (a project's users, their passwords in clear, as a session keeps them).
    public var body: String
    /// 0 when the capture holds no answer.
    public var status: Int

    /// What it acts on: `config`, `accounts`, `oobCodes`.
    public var resource: String {
        String(path.prefix { $0 != "?" }.split(separator: "/").last ?? "API")
    }

    public var line: String {
        "\(method) \(path): \(status == 0 ? "no answer captured" : String(status)) (\(CaptureNumbering.entry(entry)))"
    }
}

/// What a capture shows, in the journal.
public enum CapturedFact: Sendable, Equatable, Codable {
    case call(CapturedCall)
    case actionLink(CapturedLink)
    /// The capture changed the emulator's state through its own API.
    case emulatorRequest(CapturedEmulatorRequest)
    /// A finding of the link inspector or the settings checks, about `subject` (`operations[2]`).
    case finding(Finding, subject: String)
}

/// One step of a capture played as a session: the fact, the exchange it adds to the Network
/// pane, the email it puts in the mailbox, and when it happened.
public struct CaptureStep: Sendable, Equatable, Codable {
    public var fact: CapturedFact
    public var exchange: ExchangeRecord?
    public var mail: MailMessage?
    public var at: Date?
}

extension CapturedFlow {
    /// The device a capture's client is shown as: nothing is known of it but its traffic.
    public static let capturedClient = Device(platform: .desktop, osName: "the captured client", appInstalled: true, installedVersion: nil,
                                              linksVerified: false, mailClient: .native, mailScanner: false)

    /// The capture as a session recording: one event per call and per action link, in capture
    /// order, then its findings, over a remote world of `project`. `replay`, `export` and the
    /// interface play it as any recording.
    /// `keepsValues`: the requests, answers and forms as they were, for `export --format curl`
    /// alone; a session written to a file keeps none of them (the capture itself holds them).
    public func recording(project given: ProjectConfiguration, source: String, keepsValues: Bool = false) -> SessionRecording {
        let project = judged(given)
        let times = Self.times(exchanges)
        let first = times.values.min()
        let start = Self.startSession(project: project, source: source, now: first)
        var steps: [(entry: Int, order: Int, step: CaptureStep)] = []
        for (index, operation) in operations.enumerated() {
            steps.append((operation.exchange.entry, 0, Self.callStep(operation, id: index + 1, at: times[operation.exchange.entry], fallback: first, keepsValues: keepsValues)))
        }
        for (index, link) in actionLinks.enumerated() {
            steps.append((link.entry, 1, Self.linkStep(link, number: index + 1, at: times[link.entry])))
            // Each later request to the link itself, as its own fact: the evidence of what opening it did.
            for visit in link.visits where !link.isFirstSeen(at: visit) {
                steps.append((visit.entry, 1, Self.visitStep(link, visit, at: times[visit.entry], keepsValues: keepsValues)))
            }
        }
        for exchange in exchanges where exchange.changesEmulatorState {
            let path = URLComponents(string: exchange.url).map { $0.percentEncodedPath + ($0.percentEncodedQuery.map { "?" + $0 } ?? "") } ?? exchange.url
            let request = CapturedEmulatorRequest(entry: exchange.entry, method: exchange.method, path: path,
                                                  body: keepsValues ? String(decoding: exchange.requestBody.prefix(CapturedActionLink.Visit.maximumFormBytes * 16), as: UTF8.self)
                                                      : SecretMasking.maskJSON(exchange.requestBody.prefix(CapturedActionLink.Visit.maximumFormBytes * 16)),
                                                  status: exchange.status)
            steps.append((exchange.entry, 0, CaptureStep(fact: .emulatorRequest(request), exchange: nil, mail: nil, at: times[exchange.entry])))
        }
        // Each finding right after what it is about, as a live session shows it: a replay meets
        // it at that step, not at the end.
        for finding in findings {
            let entry = entry(of: finding.subject) ?? Int.max
            steps.append((entry, 2, CaptureStep(fact: .finding(finding.finding, subject: finding.subject), exchange: nil, mail: nil, at: nil)))
        }
        steps.sort { ($0.entry, $0.order) < ($1.entry, $1.order) }
        let events = steps.map { AppEvent.captured($0.step) }
        var current = start
        for event in events { _ = current.reduce(event) }
        return SessionRecording(start: start, events: events, times: nil, current: current)
    }

    /// The capture entry a finding's subject (`operations[2]`, `actionLinks[0]`, `entry 5`) stands at.
    func entry(of subject: String) -> Int? {
        switch CapturedSubject(path: subject) {
        case .call(let index)? where operations.indices.contains(index): operations[index].exchange.entry
        case .link(let index)? where actionLinks.indices.contains(index): actionLinks[index].entry
        case .entry(let index)?: index
        default: nil
        }
    }

    /// The session a capture starts from: its client, over a remote world of `project`.
    static func startSession(project: ProjectConfiguration, source: String, now: Date?) -> Session {
        var start = Session(world: World(project: project, inbox: [], now: now, isSimulated: false),
                            app: AppState(device: Self.capturedClient, settings: ActionCodeSettings()))
        start.capture = source
        return start
    }

    /// A call as a step: its fact, and its exchange (number `id`) for the Network pane.
    /// `keepsValues`: the request and answer as they were, for the curl script: a capture file
    /// holds them in clear already; live traffic (`serve --inspect`) is not kept so.
    static func callStep(_ operation: CapturedOperation, id: Int, at: Date?, fallback: Date?, keepsValues: Bool) -> CaptureStep {
        let exchange = operation.exchange
        let record = ExchangeRecord(
            id: id, request: Self.requestLine(operation),
            requestBody: SecretMasking.maskJSON(exchange.requestBody), requestHeaders: Self.shownHeaders(exchange.requestHeaders),
            status: exchange.status == 0 ? nil : exchange.status, responseBody: exchange.responseBody.isEmpty ? nil : SecretMasking.maskJSON(exchange.responseBody),
            failure: operation.error.map(AuthFailure.fromWireMessage), startedAt: at ?? fallback ?? .distantPast,
            duration: (exchange.time ?? 0) / 1000,
            unmasked: !keepsValues ? nil : UnmaskedRequest(body: String(decoding: exchange.requestBody, as: UTF8.self),
                                      apiKey: URLComponents(string: exchange.url)?.queryItems?.first { $0.name == "key" }?.value,
                                      response: exchange.responseBody.isEmpty ? nil : String(decoding: exchange.responseBody, as: UTF8.self)))
        return CaptureStep(fact: .call(CapturedCall(operation)), exchange: record, mail: nil, at: at)
    }

    /// An action link as a step: its fact, and the email that carried it (number `number`).
    static func linkStep(_ link: CapturedActionLink, number: Int, at: Date?) -> CaptureStep {
        CaptureStep(fact: .actionLink(CapturedLink(link)), exchange: nil, mail: Self.mail(link, number: number, at: at), at: at)
    }

    /// A later request to a link itself as a step: the link again, opened (GET) or its page's form sent.
    static func visitStep(_ link: CapturedActionLink, _ visit: CapturedActionLink.Visit, at: Date?, keepsValues: Bool) -> CaptureStep {
        var visited = link
        visited.source = visit.method == "GET" ? .opened : .formSent
        visited.entry = visit.entry
        var fact = CapturedLink(visited)
        fact.status = visit.status
        fact.formBody = keepsValues ? visit.formBody : nil
        return CaptureStep(fact: .actionLink(fact), exchange: nil, mail: nil, at: at)
    }

    /// An action link as the email that carried it, where the capture says whom it was for.
    static func mail(_ link: CapturedActionLink, number: Int, at: Date?) -> MailMessage? {
        guard link.source == .emulatorListing || link.source == .operationResponse,
              let type = link.anatomy.operation.requestType else { return nil }
        return MailMessage(id: "captured-\(number)", to: link.email ?? "(not in the capture)", subject: "Action link \(number) from the capture",
                           body: "", link: link.anatomy.link, requestType: type, locale: link.anatomy.lang ?? "",
                           sentAt: at ?? .distantPast, oobCode: link.anatomy.oobCode)
    }

    /// Each entry's start, from its `startedDateTime` (ISO 8601, fractions optional). One pair
    /// of formatters for the whole capture: making one costs more than reading a date.
    static func times(_ exchanges: [CapturedExchange]) -> [Int: Date] {
        let reader = StartedDateTime()
        var times: [Int: Date] = [:]
        for exchange in exchanges {
            if let text = exchange.startedDateTime, let date = reader.date(text) { times[exchange.entry] = date }
        }
        return times
    }

    /// HAR's `startedDateTime`: ISO 8601, with or without fractions of a second.
    static func parseDate(_ text: String) -> Date? {
        StartedDateTime().date(text)
    }

    /// Reads `startedDateTime`: as most writers put it, with fractions, else without.
    struct StartedDateTime {
        private let withFractions = ISO8601DateFormatter()
        private let whole = ISO8601DateFormatter()

        init() {
            withFractions.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            whole.formatOptions = [.withInternetDateTime]
        }

        func date(_ text: String) -> Date? {
            withFractions.date(from: text) ?? whole.date(from: text)
        }
    }

    /// A call of the v1 `accounts:` surface under its v1 request line, as a live session records
    /// it (the iOS SDK's v3 `verifyPassword` is `POST /v1/accounts:signInWithPassword`), so
    /// that the curl export can repeat it; the narration keeps the name the wire used. Other
    /// calls by what the wire named: `POST v2 accounts/mfaEnrollment:start`.
    static func requestLine(_ operation: CapturedOperation) -> String {
        let key = URLComponents(string: operation.exchange.url)?.queryItems?.first { $0.name == "key" }?.value
        // v1's `accounts:sendOobCode`, v2's `accounts/mfaEnrollment:start`.
        if let known = IdentityToolkitOperation(rawValue: "accounts:\(operation.operation)") ?? IdentityToolkitOperation(rawValue: "accounts/\(operation.operation)") {
            return ExchangeRecord.requestLine(known, apiKey: key)
        }
        return "\(operation.exchange.method) \(operation.api.rawValue) \(operation.wireName)" + (operation.toEmulator ? " (emulator)" : "")
    }

    /// The request headers worth showing, secrets masked.
    static func shownHeaders(_ headers: [String: String]) -> [String: String] {
        var shown: [String: String] = [:]
        for name in ["x-firebase-locale", "x-client-version", "x-ios-bundle-identifier", "x-android-package", "authorization", "origin"] {
            guard let value = headers[name] else { continue }
            shown[name] = name == "authorization" ? SecretMasking.mask(value) : value
        }
        return shown
    }
}

extension Session {
    /// The address of the last sign-in (or sign-up) a capture shows answered 200, if it shows one.
    public var capturedSignIn: String? {
        for entry in journal.reversed() {
            guard case .captured(.call(let call)) = entry.fact, call.status == 200,
                  ["signUp", "signInWithPassword", "signInWithEmailLink", "verifyPassword", "signupNewUser", "emailLinkSignin"].contains(call.operation) else { continue }
            return call.email.map(UntrustedText.sanitize) ?? "an account"
        }
        return nil
    }

    /// The project a captured flow's traffic names: an emulator path's `/projects/ID/`, or the
    /// Hosting domain (`ID.firebaseapp.com`, `ID.web.app`) of a link it holds; nil when it names
    /// none. A capture is never silently the bundled project's.
    public var capturedProjectId: String? {
        guard capture != nil else { return nil }
        for record in exchanges {
            if let range = record.request.range(of: "/projects/") {
                let id = record.request[range.upperBound...].prefix { $0 != "/" && $0 != " " && $0 != "?" }
                if !id.isEmpty { return UntrustedText.sanitize(String(id)) }
            }
        }
        for entry in journal {
            guard case .captured(.actionLink(let link)) = entry.fact, let host = URLComponents(string: link.link)?.host?.lowercased() else { continue }
            for suffix in [".firebaseapp.com", ".web.app"] where host.hasSuffix(suffix) {
                return UntrustedText.sanitize(String(host.dropLast(suffix.count)))
            }
        }
        return nil
    }
}
