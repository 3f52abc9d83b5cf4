import ActionFlowBackend
import ActionFlowModel
import Foundation

/// Speaks Identity Toolkit v1 over HTTP (`HTTPClientExchange`), as the SDKs do, to an Auth
/// Emulator, `actionflow serve`, or a production project (docs/file-formats.md, "How the simulated project answers").
///
/// Never retries: a repeated `sendOobCode` would send a second email, so retrying is the user's
/// decision. Every failure below the protocol becomes a specific `AuthFailure.network`.
public final class RESTTransport: AuthTransport {
    public let configuration: RESTTransportConfiguration
    public let capabilities: TransportCapabilities
    /// The HTTP client's own bound on an exchange, a second past the configured timeout, which
    /// `withDeadline` enforces exactly.
    private let backstopSeconds: Double
    private let firstSeen = FirstSeenDates()

    /// The server is `actionflow serve`: it has the clock, mailbox and reset extensions.
    let servesExtensions: Bool

    /// What answers at an emulator address, as its `GET /` says; `.unknown` until asked.
    public let server: EmulatorServerKind

    /// `servesClock`: the server offers `serve`'s clock endpoint (see `connect`), and with it
    /// serve's other extensions.
    public init(configuration: RESTTransportConfiguration, servesClock: Bool = false, server: EmulatorServerKind = .unknown) {
        self.configuration = configuration
        self.server = server
        servesExtensions = configuration.isEmulator && servesClock
        let emulator = configuration.isEmulator
        capabilities = TransportCapabilities(listsMailbox: emulator, controlsClock: emulator && servesClock, resetsWorld: emulator)
        backstopSeconds = configuration.timeout + 1
    }

    /// A transport that knows whether the server is `actionflow serve` (which has a simulated
    /// clock) or a plain Auth Emulator. A server that cannot be reached yet counts as plain.
    public static func connect(configuration: RESTTransportConfiguration) async -> RESTTransport {
        let probe = RESTTransport(configuration: configuration)
        guard configuration.isEmulator else { return probe }
        // Both at once: a server that does not answer costs one timeout, not two.
        async let clock = try? probe.fetchClock()
        async let status = try? probe.fetchStatus()
        var servesClock = await clock != nil
        var answer = await status
        // A server that answered one probe is up: the other, lost on a busy machine, is asked
        // once more rather than taken for a plain emulator's silence.
        if servesClock, answer == nil {
            answer = try? await probe.fetchStatus()
        } else if !servesClock, case .actionflowServe? = answer.map(EmulatorServerKind.init) {
            servesClock = (try? await probe.fetchClock()) != nil
        }
        let server = answer.map(EmulatorServerKind.init) ?? .unknown
        return RESTTransport(configuration: configuration, servesClock: servesClock, server: server)
    }

    /// For the status line: the address and what answers there, when known.
    public var summary: String {
        switch configuration.target {
        case .emulator:
            let what = server.label.map { "\($0), " } ?? ""
            return "rest \(configuration.origin) (\(what)project \(configuration.projectId))"
        case .production:
            return "rest \(RESTTransportConfiguration.identityToolkitHost) (project \(configuration.projectId))"
        }
    }

    // MARK: Identity Toolkit (v1, and v2 for a second factor)

    public func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply {
        let operation = call.operation
        var headers = configuration.sdkHeaders
        if let locale = call.locale { headers["X-Firebase-Locale"] = locale }
        let body = try encode(call.request)
        func answer<Response: Decodable>(_ reply: (Response) -> AuthReply) async throws(AuthFailure) -> AuthReply {
            reply(try await send(method: "POST", url: configuration.url(of: operation), body: body, headers: headers, label: operation.rawValue))
        }
        switch call {
        case .signUp, .signInWithPassword, .signInWithEmailLink: return try await answer(AuthReply.signedIn)
        case .sendOobCode: return try await answer(AuthReply.oobCodeSent)
        case .resetPassword: return try await answer(AuthReply.passwordReset)
        case .update: return try await answer(AuthReply.updated)
        case .lookup: return try await answer(AuthReply.lookedUp)
        case .startMfaEnrollment: return try await answer(AuthReply.mfaEnrollmentStarted)
        case .finalizeMfaEnrollment: return try await answer(AuthReply.mfaEnrolled)
        }
    }

    // MARK: The emulator's own API

    /// `GET .../verificationCodes`: the Auth Emulator's and `serve`'s list of SMS codes.
    public func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode] {
        let base = try emulatorBase(orExplain: "a production project sends SMS codes to a real phone: type the code from there")
        let list: EmulatorVerificationCodeList = try await send(method: "GET", url: "\(base)/verificationCodes", body: nil, label: "verificationCodes")
        return list.verificationCodes
    }

    /// `serve` lists every email it sent (`.../mailbox`); a plain Auth Emulator lists the codes
    /// not used yet (`.../oobCodes`), so its mailbox loses a message once its link is used.
    public func mailbox() async throws(AuthFailure) -> [MailMessage] {
        let base = try emulatorBase(orExplain: "a production project's email goes to a real inbox: paste the link from there")
        let resource = servesExtensions ? "mailbox" : "oobCodes"
        let list: EmulatorOobCodeList = try await send(method: "GET", url: "\(base)/\(resource)", body: nil, label: resource)
        var messages: [MailMessage] = []
        for entry in list.oobCodes {
            guard let type = OobRequestType(rawValue: entry.requestType) else { continue }
            let sentAt: Date
            if let millis = entry.sentAtMillis {
                sentAt = Date(timeIntervalSince1970: millis / 1000)
            } else {
                sentAt = await firstSeen.date(for: entry.oobCode)
            }
            let text = EmulatorMailText(projectId: configuration.projectId, requestType: type, email: entry.email, link: entry.oobLink, requestedAt: sentAt)
            messages.append(MailMessage(
                id: entry.messageId ?? entry.oobCode,
                to: entry.email,
                subject: entry.subject ?? text.subject,
                body: entry.body ?? text.body,
                link: entry.oobLink,
                requestType: type,
                locale: entry.locale ?? text.locale,
                sentAt: sentAt,
                oobCode: entry.oobCode
            ))
        }
        return messages
    }

    public func now() async throws(AuthFailure) -> Date {
        guard capabilities.controlsClock else { return Date() }
        return try await fetchClock().date
    }

    public func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date {
        let base = try emulatorBase(orExplain: "a production project runs on real time: there is no clock to advance")
        let body = try encode(AdvanceClockRequest(advanceSeconds: seconds))
        do {
            let state: EmulatorClockState = try await send(method: "POST", url: "\(base)/clock", body: body, label: "clock")
            return state.date
        } catch .network(.httpStatus(404, _)) {
            throw .network(.unsupported("the Auth Emulator at \(configuration.origin) has no simulated clock (actionflow serve has one)"))
        }
    }

    /// `serve` restarts its project (`POST .../reset`: preset users, no codes, empty mailbox,
    /// clock at its start); a plain Auth Emulator deletes its accounts (`DELETE .../accounts`),
    /// which is all it can do.
    public func resetWorld() async throws(AuthFailure) {
        let base = try emulatorBase(orExplain: "a production project cannot be reset from here")
        if servesExtensions {
            let _: EmptyJSON = try await send(method: "POST", url: "\(base)/reset", body: nil, label: "reset")
        } else {
            let _: EmptyJSON = try await send(method: "DELETE", url: "\(base)/accounts", body: nil, label: "reset")
        }
        await firstSeen.removeAll()
    }

    /// Restarts `serve`'s world with this configuration (a `serve` extension: the Auth Emulator
    /// and production projects are configured elsewhere). Returns the new clock reading.
    public func applyProject(_ project: ProjectConfiguration) async throws(AuthFailure) -> Date {
        let base = try emulatorBase(orExplain: "a production project is configured in the Firebase console")
        let body = try encode(project, with: WireDates.encoder())
        do {
            let state: EmulatorClockState = try await send(method: "PUT", url: "\(base)/config", body: body, label: "config")
            await firstSeen.removeAll()
            return state.date
        } catch .network(.httpStatus(404, _)) {
            throw .network(.unsupported("the Auth Emulator at \(configuration.origin) takes its configuration from firebase.json (actionflow serve takes it from here)"))
        }
    }

    private func fetchClock() async throws(AuthFailure) -> EmulatorClockState {
        let base = try emulatorBase(orExplain: "a production project runs on real time")
        return try await send(method: "GET", url: "\(base)/clock", body: nil, label: "clock")
    }

    /// `GET /`: the emulator's status, and `serve`'s own object beside it.
    private func fetchStatus() async throws(AuthFailure) -> EmulatorStatus {
        try await send(method: "GET", url: "\(configuration.origin)/", body: nil, label: "status")
    }

    private func emulatorBase(orExplain explanation: String) throws(AuthFailure) -> String {
        guard let base = configuration.emulatorProjectBase else {
            throw .network(.unsupported(explanation))
        }
        return base
    }

    // MARK: HTTP

    private func encode(_ value: some Encodable, with encoder: JSONEncoder = JSONEncoder()) throws(AuthFailure) -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            throw .network(.malformedResponse("could not encode the request: \(error)"))
        }
    }

    private func send<Response: Decodable>(method: String, url: String, body: Data?, headers: [String: String] = [:], label: String) async throws(AuthFailure) -> Response {
        let headers = body == nil ? headers : headers.merging(["Content-Type": "application/json"]) { $1 }
        let reply: HTTPClientExchange.Reply
        let backstopSeconds = backstopSeconds
        do {
            reply = try await withDeadline {
                try await HTTPClientExchange.exchange(method: method, url: url, headers: headers, body: body, backstopSeconds: backstopSeconds)
            }
        } catch {
            throw .network(networkFailure(from: error))
        }
        return try RESTResponseDecoder.decode(status: reply.status, body: reply.body, label: label)
    }

    private func withDeadline<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let timeout = configuration.timeout
        return try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                throw HTTPClientExchange.Failure(outcome: .timedOut, message: "")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HTTPClientExchange.Failure(outcome: .timedOut, message: "") }
            return first
        }
    }

    func networkFailure(from error: any Error) -> NetworkFailure {
        guard let failure = error as? HTTPClientExchange.Failure else {
            return .connectionLost(UntrustedText.sanitize(SecretMasking.maskLinks(in: String(describing: error))))
        }
        return networkFailure(failure.outcome, message: failure.message)
    }

    /// The client's outcome as the flow shows it. Its message may quote the request URL, `?key=` included.
    func networkFailure(_ outcome: HTTPClientExchange.Outcome, message: String) -> NetworkFailure {
        let host = requestHost
        let text = UntrustedText.sanitize(SecretMasking.maskLinks(in: message))
        switch outcome {
        case .timedOut: return .timedOut(seconds: configuration.timeout)
        case .connectionRefused: return .connectionRefused(host: host)
        case .dnsFailure: return .dnsFailure(host: host)
        case .tlsFailure: return .tlsFailure("\(host): \(text)")
        case .connectionLost: return .connectionLost("\(host) closed the connection before answering")
        case .notHTTP: return .malformedResponse("\(host) sent a reply that is not valid HTTP")
        case .otherFailure: return .connectionLost("\(host): \(text)")
        }
    }

    private var requestHost: String {
        switch configuration.target {
        case .emulator(let host, let port): EmulatorAddress(host: host, port: port).description
        case .production: RESTTransportConfiguration.identityToolkitHost
        }
    }
}

/// Turns an HTTP status and body into the expected response or the matching `AuthFailure`.
enum RESTResponseDecoder {
    static let snippetLength = 200

    static func decode<Response: Decodable>(status: Int, body: Data, label: String) throws(AuthFailure) -> Response {
        switch status {
        case 200..<300:
            do {
                return try JSONDecoder().decode(Response.self, from: body.isEmpty ? Data("{}".utf8) : body)
            } catch let DecodingError.keyNotFound(key, _) {
                throw .network(.malformedResponse("\(label): the response lacks the field '\(key.stringValue)'"))
            } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
                let field = context.codingPath.map(\.stringValue).joined(separator: ".")
                throw .network(.malformedResponse("\(label): the field '\(field)' has the wrong type"))
            } catch {
                throw .network(.malformedResponse("\(label): the response is not JSON: \(snippet(body))"))
            }
        case 500...:
            throw .network(.httpStatus(status, body: snippet(body)))
        default:
            if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: body) {
                throw AuthFailure.fromWireMessage(UntrustedText.sanitize(envelope.error.message))
            }
            throw .network(.httpStatus(status, body: snippet(body)))
        }
    }

    static func snippet(_ body: Data) -> String {
        let text = String(decoding: body.prefix(snippetLength), as: UTF8.self)
        return UntrustedText.sanitize(SecretMasking.maskLinks(in: body.count > snippetLength ? text + "…" : text))
    }
}

/// A 2xx reply whose body does not matter (e.g. the emulator's reset answers `{}`).
struct EmptyJSON: Decodable {}

/// The Auth Emulator lists codes without a send time: remember when each was first seen, so
/// that the mailbox keeps a stable order and time between polls.
actor FirstSeenDates {
    private var dates: [String: Date] = [:]

    func date(for code: String) -> Date {
        if let known = dates[code] { return known }
        let now = Date()
        dates[code] = now
        return now
    }

    func removeAll() { dates.removeAll() }
}

/// Subject and body for an email the Auth Emulator lists without text: the simulated project's
/// templates, in the language of the link's `lang` (English without one).
struct EmulatorMailText {
    var subject: String
    var body: String
    var locale: String

    init(projectId: String, requestType: OobRequestType, email: String, link: String, requestedAt: Date) {
        let lang = URLComponents(string: link)?.queryItems?.first(where: { $0.name == "lang" })?.value
        locale = lang.flatMap(MailTemplates.language(for:)) ?? "en"
        (subject, body) = MailTemplates.compose(requestType, language: locale, appName: projectId, email: email, newEmail: nil, link: link, requestedAt: requestedAt)
    }
}

/// The emulator's `GET /` answer (firebase-tools `src/emulator/auth/server.ts:149-157`), and
/// the `actionflow` object `serve` adds naming its behaviour.
struct EmulatorStatus: Decodable {
    struct AuthEmulator: Decodable { var ready: Bool? }
    struct Actionflow: Decodable { var behaviour: String? }
    var authEmulator: AuthEmulator?
    var actionflow: Actionflow?
}

/// What answers at an emulator address.
public enum EmulatorServerKind: Sendable, Hashable {
    /// `actionflow serve`, in the behaviour it names (`production`, `emulator`).
    case actionflowServe(behaviour: String)
    /// firebase-tools' Auth Emulator, or another server answering as it does.
    case authEmulator
    /// Not reached, or not telling.
    case unknown

    init(_ status: EmulatorStatus) {
        if let behaviour = status.actionflow?.behaviour {
            self = .actionflowServe(behaviour: UntrustedText.sanitize(String(behaviour.prefix(20))))
        } else if status.authEmulator != nil {
            self = .authEmulator
        } else {
            self = .unknown
        }
    }

    /// How the status line names it; nil when nothing is known.
    public var label: String? {
        switch self {
        case .actionflowServe(let behaviour): "actionflow serve --as \(behaviour)"
        case .authEmulator: "Auth Emulator"
        case .unknown: nil
        }
    }
}
