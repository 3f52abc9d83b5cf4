import ActionFlowModel
import ActionFlowTransport
import Foundation

/// A session's exchanges as `curl` commands: `export --format curl` writes them as a POSIX shell
/// script, and the Network pane's `c` copies one. Each command calls the Auth Emulator at
/// `$FIREBASE_AUTH_EMULATOR_HOST` when it is set, production otherwise, at the paths the REST
/// transport calls (`RESTTransportConfiguration`). Secrets (`SecretMasking`'s keys, the API key,
/// bearer tokens) become shell variables defined before the commands: masked unless revealed.
/// A token or code an earlier answer gave is carried from that answer (read with `jq`), and a
/// code that came by email is asked of the emulator's listing, so that against a fresh server
/// every call gets the answer recorded, whichever codes and tokens that server issues.
public struct CurlScript: Sendable {
    /// One thing the script sends: a call, or a request to an action link itself (a captured
    /// browser opening it, or its page's form sent).
    public enum Step: Sendable {
        case exchange(ExchangeRecord)
        case page(CapturedLink)
        /// A captured request to the emulator's own API that changed its state.
        case emulator(CapturedEmulatorRequest)
    }

    public var title: String
    public var steps: [Step]
    /// How many exchanges the session made in all: the session keeps only the latest.
    public var exchangeCount: Int
    /// The values as sent rather than masked, where the record kept them.
    public var revealsSecrets: Bool
    /// The emails the session holds, for the codes they carried.
    public var mail: [MailMessage]
    /// The project the emulator's listing is asked under.
    public var projectId: String
    /// A capture played as a session (imported or watched live), which keeps values only in memory.
    public var isCapture = false

    public init(title: String, exchanges: [ExchangeRecord], exchangeCount: Int, revealsSecrets: Bool,
                mail: [MailMessage] = [], projectId: String = "demo-actionflow", extras: [(afterExchange: Int, step: Step)] = []) {
        self.title = title
        var steps: [Step] = []
        for extra in extras where extra.afterExchange < 0 { steps.append(extra.step) }
        for (index, record) in exchanges.enumerated() {
            steps.append(.exchange(record))
            for extra in extras where extra.afterExchange == index { steps.append(extra.step) }
        }
        self.steps = steps
        self.exchangeCount = max(exchangeCount, exchanges.count)
        self.revealsSecrets = revealsSecrets
        self.mail = mail
        self.projectId = projectId
    }

    public init(title: String, session: Session, revealsSecrets: Bool) {
        self.init(title: title, exchanges: session.exchanges, exchangeCount: session.exchangeCount, revealsSecrets: revealsSecrets,
                  mail: session.sentMail, projectId: session.capturedProjectId ?? session.project.projectId, extras: Self.extras(of: session))
        isCapture = session.capture != nil
    }

    /// A capture's other requests that change the server's state (to its links, to the
    /// emulator's own API), placed after the call before them: the journal holds them in
    /// capture order, and each call is the next of the session's exchanges.
    static func extras(of session: Session) -> [(afterExchange: Int, step: Step)] {
        guard session.capture != nil else { return [] }
        var calls = 0
        var extras: [(afterExchange: Int, step: Step)] = []
        for entry in session.journal {
            switch entry.fact {
            case .captured(.call): calls += 1
            case .captured(.actionLink(let link)) where link.source == .opened || link.source == .formSent: extras.append((calls - 1, .page(link)))
            case .captured(.emulatorRequest(let request)): extras.append((calls - 1, .emulator(request)))
            default: break
            }
        }
        // A journal that forgot its start no longer lines up with the exchanges kept.
        return calls == session.exchanges.count ? extras : []
    }

    public var exchanges: [ExchangeRecord] {
        steps.compactMap { if case .exchange(let record) = $0 { record } else { nil } }
    }

    /// The shell variable holding Identity Toolkit's root.
    static let rootVariable = "IDENTITY_TOOLKIT"
    /// The emulator's origin, empty when the script calls production.
    static let emulatorOriginVariable = "EMULATOR_ORIGIN"

    /// The script: `#!/bin/sh`, `set -eu`, the host, the secrets, and a command per exchange.
    public var script: String {
        let built = Built(self)
        var lines = [
            "#!/bin/sh",
            Self.comment("\(title): \(steps.count) request\(steps.count == 1 ? "" : "s") as curl commands (actionflow export --format curl)."),
            "# Calls the Auth Emulator at $FIREBASE_AUTH_EMULATOR_HOST (HOST:PORT) when it is set, production otherwise.",
            built.needsJQ ? "# Needs sh, curl and jq: tokens and codes are carried from the answers that gave them." : "# Needs sh and curl.",
            "set -eu",
            "",
        ]
        if exchangeCount > exchanges.count {
            lines.append("# The session made \(exchangeCount) calls: only the latest \(exchanges.count) are recorded.")
        }
        if steps.isEmpty {
            lines.append("# No backend call was made.")
            return lines.joined(separator: "\n") + "\n"
        }
        lines += built.prelude + [""]
        for command in built.commands { lines += [command.comment] + command.lines + [""] }
        return lines.joined(separator: "\n")
    }

    /// One exchange as lines to paste into a shell, secrets masked: its comment, the host, its
    /// secrets and its command (no `set -eu`, which would end an interactive shell at an error).
    public static func pasteable(_ record: ExchangeRecord) -> String {
        var single = record
        single.unmasked = nil
        let built = Built(CurlScript(title: "", exchanges: [single], exchangeCount: 1, revealsSecrets: false))
        let lines = built.commands.map(\.comment) + built.prelude + built.commands.flatMap(\.lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A comment line, its text kept on the line and off the terminal's controls.
    static func comment(_ text: String) -> String {
        "# " + UntrustedText.sanitize(text)
    }

    /// `text` as one shell word: single quotes, each `'` closed, escaped and reopened.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Words made of literal text and variable references, written as one shell word.
    enum Piece: Equatable {
        case text(String)
        case variable(String)
        /// A parameter expansion with a default, `${NAME:-default}`: the default must hold no
        /// character the shell reads inside double quotes (an origin checked by its caller).
        case variableOr(String, String)
    }

    static func word(_ pieces: [Piece]) -> String {
        var merged: [Piece] = []
        for piece in pieces {
            if case .text(let next) = piece, case .text(let previous)? = merged.last {
                merged[merged.count - 1] = .text(previous + next)
            } else {
                merged.append(piece)
            }
        }
        return merged.map { piece in
            switch piece {
            case .text(let text): quoted(text)
            case .variable(let name): "\"$\(name)\""
            case .variableOr(let name, let fallback): "\"${\(name):-\(fallback)}\""
            }
        }.joined()
    }

    // MARK: Building

    /// The prelude (host, secrets, the helpers carrying values) and each step's lines, with the
    /// secrets numbered in the order the commands use them.
    private struct Built {
        var prelude: [String] = []
        var commands: [(comment: String, lines: [String])] = []
        var needsJQ = false

        init(_ script: CurlScript) {
            var secrets = Secrets()
            var carrier = Carrier(mail: script.mail)
            var unrevealed = false
            for (index, step) in script.steps.enumerated() {
                switch step {
                case .exchange(let record):
                    let identities = record.unmasked.flatMap { JSONBody.parse($0.body) }
                    var fetches = carrier.carry(identities?.secretLeaves(key: nil) ?? [], into: &secrets)
                    // The SMS code that enrolled a phone came to the phone: asked of the emulator's listing.
                    if record.operation == .finalizeMfaEnrollment, record.status == 200, let identities {
                        fetches += carrier.carrySMSCode(identities, into: &secrets)
                    }
                    var command = Self.command(record, revealing: script.revealsSecrets, secrets: &secrets)
                    command.lines = fetches + command.lines
                    if let answer = record.unmasked?.response.flatMap(JSONBody.parse) { carrier.remember(answer, of: index) }
                    commands.append(command)
                    if script.revealsSecrets, record.unmasked == nil { unrevealed = true }
                case .page(let link):
                    let code = (try? LinkInspector.inspect(link.link, authorizedDomains: []))?.oobCode
                    let fetches = carrier.carry(code.map { [("oobCode", $0)] } ?? [], into: &secrets)
                    var command = Self.page(link, revealing: script.revealsSecrets, secrets: &secrets)
                    command.lines = fetches + command.lines
                    commands.append(command)
                case .emulator(let request):
                    commands.append(Self.emulator(request, revealing: script.revealsSecrets, secrets: &secrets))
                }
            }
            // Each answer a later step carries from: kept in ANSWER, printed, then read.
            for (index, reads) in carrier.reads {
                var lines = commands[index].lines
                guard !lines.isEmpty else { continue }
                let first = lines.firstIndex { $0.hasPrefix("curl ") } ?? 0
                lines[first] = "ANSWER=$(" + lines[first]
                lines[lines.count - 1] += ")"
                lines.append("printf '%s\\n' \"$ANSWER\"")
                lines += reads.map { "\($0.name)=$(answer \(quoted($0.path)))" }
                commands[index].lines = lines
            }
            needsJQ = !carrier.reads.isEmpty || carrier.fetchesCodes || carrier.fetchesSMSCodes
            let emulatorHost = RESTTransportConfiguration.emulatorHostVariable
            prelude = [
                "if [ -n \"${\(emulatorHost):-}\" ]; then",
                "  \(rootVariable)=\"http://$\(emulatorHost)\"\(quoted(EmulatorPaths.identityToolkitPrefix))",
                "  \(emulatorOriginVariable)=\"http://$\(emulatorHost)\"",
                "else",
                "  \(rootVariable)=\(quoted(RESTTransportConfiguration.productionOrigin))",
                "  \(emulatorOriginVariable)=''",
                "fi",
            ]
            if !carrier.reads.isEmpty {
                prelude += [
                    "# The JSON of the last answer kept, its status line left out: answer JQ_FILTER.",
                    "answer() { printf '%s' \"$ANSWER\" | jq -Rrse 'sub(\"\\nHTTP [0-9]*$\"; \"\") | fromjson | '\"$1\"; }",
                ]
            }
            if carrier.fetchesCodes || carrier.fetchesSMSCodes {
                prelude.append("PROJECT_ID=${PROJECT_ID:-\(quoted(script.projectId))}")
            }
            if carrier.fetchesSMSCodes {
                prelude += [
                    "# An SMS code, as the Auth Emulator lists it: sms_code SESSION_INFO VARIABLE.",
                    "# Production sends it to the phone only: set VARIABLE to the code in the text message.",
                    "sms_code() {",
                    "  if [ -z \"${\(emulatorHost):-}\" ]; then echo \"$2: the SMS code is on the phone; set $2 to it\" >&2; return 1; fi",
                    "  curl -sS \"http://$\(emulatorHost)/emulator/v1/projects/$PROJECT_ID/verificationCodes\" |",
                    "    jq -er --arg session \"$1\" '[.verificationCodes[] | select(.sessionInfo == $session)] | last | .code'",
                    "}",
                ]
            }
            if carrier.fetchesCodes {
                prelude += [
                    "# An email's action code, as the Auth Emulator lists it: oob_code EMAIL REQUEST_TYPE VARIABLE.",
                    "# Production sends codes by email only: set VARIABLE to the code in the email.",
                    "oob_code() {",
                    "  if [ -z \"${\(emulatorHost):-}\" ]; then echo \"$3: the code of the $2 email to $1 is in that email; set $3 to it\" >&2; return 1; fi",
                    "  curl -sS \"http://$\(emulatorHost)/emulator/v1/projects/$PROJECT_ID/oobCodes\" |",
                    "    jq -er --arg email \"$1\" --arg type \"$2\" '[.oobCodes[] | select(.requestType == $type)] | ((map(select(.email == $email or .newEmail == $email)) | last) // last) | .oobCode'",
                    "}",
                ]
            }
            guard !secrets.definitions.isEmpty else { return }
            prelude.append("")
            let keepsValues = script.exchanges.contains { $0.unmasked != nil }
            if !keepsValues, script.isCapture {
                prelude.append("# Secrets are masked: a capture saved as a session keeps no value sent; export the capture file itself for them.")
            } else if !keepsValues {
                prelude.append("# Secrets are masked: this session file does not keep the values sent (it was written before it could).")
            } else if !script.revealsSecrets {
                prelude.append("# Secrets are masked: export again with --reveal-secrets for the values sent.")
            } else if unrevealed {
                prelude.append("# Some exchanges were recorded without their secrets (an older session file): those stay masked.")
            }
            prelude.append("# Each value stands as it does in the request: JSON-escaped in a body, percent-encoded in a URL.")
            prelude += secrets.definitions.map { "\($0.name)=\(quoted($0.value))" }
        }

        /// The comment naming the exchange and its `curl` command, one option a line.
        static func command(_ record: ExchangeRecord, revealing: Bool, secrets: inout Secrets) -> (comment: String, lines: [String]) {
            let outcome = record.status.map { "HTTP \($0)" } ?? "no response"
            let code = record.failure?.serverCode.map { " \($0.rawValue)" } ?? ""
            guard let operation = record.operation else {
                return (comment("\(record.id). \(record.request): left out, as only the v1 accounts calls are written"), [])
            }
            let reveal = revealing && record.unmasked != nil
            var url: [Piece] = [.variable(rootVariable), .text(RESTTransportConfiguration.path(of: operation))]
            if let key = reveal ? record.unmasked?.apiKey : record.maskedAPIKey {
                let shown = reveal ? key : SecretMasking.mask(key)
                let name = secrets.name(kind: "API_KEY", identity: record.unmasked?.apiKey ?? key, value: RESTTransportConfiguration.queryValue(apiKey: shown))
                url += [.text("?key="), .variable(name)]
            }
            var lines = [
                "curl -sS -w \(quoted("\\nHTTP %{http_code}\\n")) -X POST \(word(url))",
                "  -H \(quoted("Content-Type: application/json"))",
            ]
            for (name, value) in record.requestHeaders.sorted(by: { $0.key < $1.key }) {
                lines.append("  -H \(word(Self.header(name, value, revealing: reveal, secrets: &secrets)))")
            }
            let body = reveal ? record.unmasked?.body ?? record.requestBody : record.requestBody
            // Secrets are told apart by their values as sent, where known, so that two
            // passwords masked alike stay two variables.
            let identities = record.unmasked.flatMap { JSONBody.parse($0.body) }
            lines.append("  --data-raw \(word(bodyPieces(body, sent: identities, revealing: reveal, secrets: &secrets)))")
            return (comment("\(record.id). \(operation.rawValue): \(outcome)\(code)"), continued(lines))
        }

        /// A captured request to an action link itself: opened by GET on the emulator (or the
        /// link's own host in production), or its page's form sent again.
        static func page(_ link: CapturedLink, revealing: Bool, secrets: inout Secrets) -> (comment: String, lines: [String]) {
            let captured = link.status.map { "HTTP \($0)" } ?? "no response"
            let what = link.source == .formSent ? "sends the \(link.mode ?? "action") page's form" : "opens the \(link.mode ?? "action") link"
            let comment = comment("\(CaptureNumbering.entry(link.entry)): \(what): \(captured)")
            guard let components = URLComponents(string: link.link), let scheme = components.scheme, let host = components.host,
                  host.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-") }),
                  ["http", "https"].contains(scheme.lowercased()) else {
                return (comment + ", left out: its link has no web origin", [])
            }
            let origin = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
            var url: [Piece] = [.variableOr(emulatorOriginVariable, origin), .text(UntrustedText.sanitize(components.percentEncodedPath))]
            url += Self.formPieces(components.percentEncodedQuery ?? "", revealing: revealing, secrets: &secrets, leading: "?")
            var lines = ["curl -sS -o /dev/null -w \(quoted("HTTP %{http_code}\\n")) \(word(url))"]
            if link.source == .formSent {
                lines[0] += " -X POST"
                lines.append("  -H \(quoted("Content-Type: application/x-www-form-urlencoded"))")
                lines.append("  --data-raw \(word(Self.formPieces(link.formBody ?? "", revealing: revealing, secrets: &secrets, leading: "")))")
            }
            return (comment, continued(lines))
        }

        /// A request to the emulator's own API, sent only when the script calls an emulator:
        /// production has no such API.
        static func emulator(_ request: CapturedEmulatorRequest, revealing: Bool, secrets: inout Secrets) -> (comment: String, lines: [String]) {
            let comment = comment("\(CaptureNumbering.entry(request.entry)): \(request.method) the emulator's \(request.resource): HTTP \(request.status) (sent to an emulator only)")
            let path = UntrustedText.sanitize(request.path)
            guard path.hasPrefix("/emulator/"), request.method.allSatisfy({ $0.isLetter && $0.isASCII }) else { return (comment + ", left out", []) }
            var lines = ["[ -z \"$\(emulatorOriginVariable)\" ] || curl -sS -o /dev/null -w \(quoted("HTTP %{http_code}\\n")) -X \(request.method) \(word([.variable(emulatorOriginVariable), .text(path)]))"]
            if !request.body.isEmpty {
                lines.append("  -H \(quoted("Content-Type: application/json"))")
                lines.append("  --data-raw \(word(bodyPieces(request.body, sent: nil, revealing: revealing, secrets: &secrets)))")
            }
            return (comment, continued(lines))
        }

        /// Options one to a line, each but the last continued with ` \\`.
        static func continued(_ lines: [String]) -> [String] {
            lines.dropLast().map { $0 + " \\" } + lines.suffix(1)
        }

        /// A request body as pieces: JSON with its secrets as variables (`sent`, the same body as
        /// sent, tells them apart; nil when `body` is itself as sent); a body that is not JSON was not written by actionflow (an
        /// edited file) and is shown safely, masked unless revealed.
        static func bodyPieces(_ body: String, sent: JSONBody?, revealing: Bool, secrets: inout Secrets) -> [Piece] {
            JSONBody.parse(body).map { $0.pieces(key: nil, identities: sent, revealing: revealing, secrets: &secrets) }
                ?? [.text(UntrustedText.sanitize(revealing ? body : SecretMasking.maskLinks(in: body)))]
        }

        /// A query or form as pieces: each secret parameter a variable, the rest literal.
        static func formPieces(_ form: String, revealing: Bool, secrets: inout Secrets, leading: String) -> [Piece] {
            guard !form.isEmpty else { return [] }
            var pieces: [Piece] = [.text(leading)]
            for (index, pair) in form.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { pieces.append(.text("&")) }
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                let value = parts.count > 1 ? String(parts[1]) : ""
                guard parts.count > 1, SecretMasking.secretQueryParameters.contains(name) else {
                    pieces.append(.text(UntrustedText.sanitize(revealing ? String(pair) : SecretMasking.maskLinks(in: String(pair)))))
                    continue
                }
                let identity = PercentEncoding.decode(value.replacingOccurrences(of: "+", with: " ")) ?? value
                let shown = revealing ? value : SecretMasking.mask(value, named: name)
                let kind = name == "apiKey" || name == "key" ? "API_KEY" : JSONBody.variableKind(name)
                pieces += [.text(name + "="), .variable(secrets.name(kind: kind, identity: identity, value: UntrustedText.sanitize(shown)))]
            }
            return pieces
        }

        /// A header as `Name: value`; a bearer token becomes a variable. A field holds no
        /// control character (RFC 9110 section 5.5): one recorded is shown, never sent.
        static func header(_ name: String, _ value: String, revealing: Bool, secrets: inout Secrets) -> [Piece] {
            let (name, value) = (UntrustedText.sanitize(name), UntrustedText.sanitize(value))
            let bearer = "Bearer "
            guard name.lowercased() == "authorization", value.hasPrefix(bearer) else {
                return [.text("\(name): \(value)")]
            }
            let token = String(value.dropFirst(bearer.count))
            let variable = secrets.name(kind: "BEARER_TOKEN", identity: token, value: revealing ? token : SecretMasking.mask(token))
            return [.text("\(name): \(bearer)"), .variable(variable)]
        }
    }

    /// Where a token or code a step sends came from: an earlier answer (read from it), or an
    /// email (asked of the emulator's listing just before the step).
    struct Carrier {
        let mail: [MailMessage]
        /// Each secret value an answer held, and where: the step and the `jq` path.
        private var answered: [String: (step: Int, path: String)] = [:]
        /// The values each step's answer gives to the steps after it.
        private(set) var reads: [Int: [(name: String, path: String)]] = [:]
        private(set) var fetchesCodes = false
        private(set) var fetchesSMSCodes = false

        init(mail: [MailMessage]) {
            self.mail = mail
        }

        /// Makes each value carried where it can be: the lines to run before the step.
        mutating func carry(_ leaves: [(key: String, value: String)], into secrets: inout Secrets) -> [String] {
            var lines: [String] = []
            for (key, value) in leaves where !secrets.isNamed(value) {
                if let source = answered[value] {
                    let name = secrets.carried(kind: JSONBody.variableKind(key), identity: value)
                    reads[source.step, default: []].append((name, source.path))
                } else if key == "oobCode" || key == "oob_code", let message = mail.last(where: { $0.oobCode == value }) {
                    let name = secrets.carried(kind: "OOB_CODE", identity: value)
                    lines.append("\(name)=${\(name):-$(oob_code \(CurlScript.quoted(UntrustedText.sanitize(message.to))) \(message.requestType.rawValue) \(name))}")
                    fetchesCodes = true
                }
            }
            return lines
        }

        /// A phone enrollment's SMS code, asked of the emulator's listing by the session it was
        /// sent for (carried from the answer that started it): the line to run before the step.
        mutating func carrySMSCode(_ body: JSONBody, into secrets: inout Secrets) -> [String] {
            guard case .object(let members) = body, case .object(let verification)? = members["phoneVerificationInfo"],
                  case .string(let code)? = verification["code"], case .string(let session)? = verification["sessionInfo"],
                  let sessionVariable = secrets.carriedName(session), !secrets.isNamed(code) else { return [] }
            let name = secrets.carried(kind: "SMS_CODE", identity: code)
            fetchesSMSCodes = true
            return ["\(name)=${\(name):-$(sms_code \"$\(sessionVariable)\" \(name))}"]
        }

        /// Remembers the secrets an answer holds, for the steps after it.
        mutating func remember(_ answer: JSONBody, of step: Int) {
            for leaf in answer.secretLeaves(key: nil, path: "") where !leaf.path.isEmpty {
                answered[leaf.value] = (step, leaf.path)
            }
        }
    }

    /// The secrets' variables, one per kind and value, numbered from 1 in each kind.
    struct Secrets {
        private(set) var definitions: [(name: String, value: String)] = []
        private var names: [String: String] = [:]
        /// Values carried from an answer or an email: the variable, defined where the script reads it.
        private var carriedNames: [String: String] = [:]
        private var counts: [String: Int] = [:]

        func carriedName(_ identity: String) -> String? {
            carriedNames[identity]
        }

        func isNamed(_ identity: String) -> Bool {
            carriedNames[identity] != nil || names.keys.contains { $0.hasSuffix("\u{0}" + identity) }
        }

        private mutating func next(_ kind: String) -> String {
            let number = counts[kind, default: 0] + 1
            counts[kind] = number
            return "\(kind)_\(number)"
        }

        mutating func carried(kind: String, identity: String) -> String {
            if let known = carriedNames[identity] { return known }
            let name = next(kind)
            carriedNames[identity] = name
            return name
        }

        mutating func name(kind: String, identity: String, value: String) -> String {
            if let carried = carriedNames[identity] { return carried }
            let key = kind + "\u{0}" + identity
            if let known = names[key] { return known }
            let name = next(kind)
            names[key] = name
            definitions.append((name, value))
            return name
        }
    }
}

extension ExchangeRecord {
    /// The masked `key` of the request line, nil when it has none.
    var maskedAPIKey: String? {
        guard let query = request.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        return query.split(separator: "&").first { $0.hasPrefix("key=") }.map { String($0.dropFirst("key=".count)) }
    }
}

/// A request body read back, to write it again with its secrets as shell variables.
indirect enum JSONBody: Decodable, Equatable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case null
    case array([JSONBody])
    case object([String: JSONBody])

    static func parse(_ text: String) -> JSONBody? {
        try? JSONDecoder().decode(JSONBody.self, from: Data(text.utf8))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let integer = try? container.decode(Int.self) { self = .integer(integer) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let array = try? container.decode([JSONBody].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONBody].self)) }
    }

    /// Compact JSON, members sorted, with what `UntrustedText` would replace escaped (JSON
    /// readers decode it back): a script is read on terminals too.
    static let format = JSONOutput.Format(sortedKeys: true, terminalSafe: true)

    static func literal(_ value: some Encodable) -> String {
        (try? JSONOutput.string(value, format: format)) ?? "null"
    }

    /// The JSON as pieces of a shell word: each string under a secret key (`identities` the same
    /// place in the body as sent) a variable, everything else literal and masked as links.
    func pieces(key: String?, identities: JSONBody?, revealing: Bool, secrets: inout CurlScript.Secrets) -> [CurlScript.Piece] {
        switch self {
        case .string(let text):
            let identity = if case .string(let sent)? = identities { sent } else { text }
            // A value carried from an earlier answer (a session's `sessionInfo`) is its variable, secret or not.
            if let carried = secrets.carriedName(identity) { return [.text("\""), .variable(carried), .text("\"")] }
            guard let key, SecretMasking.secretKeys.contains(key) else {
                return [.text(Self.literal(revealing ? text : SecretMasking.maskLinks(in: text)))]
            }
            let shown = revealing ? text : SecretMasking.mask(text, named: key)
            let name = secrets.name(kind: Self.variableKind(key), identity: identity, value: String(Self.literal(shown).dropFirst().dropLast()))
            return [.text("\""), .variable(name), .text("\"")]
        case .bool(let flag): return [.text(flag ? "true" : "false")]
        case .integer(let integer): return [.text(String(integer))]
        case .number(let number): return [.text(Self.literal(number))]
        case .null: return [.text("null")]
        case .array(let elements):
            let sent: [JSONBody?] = if case .array(let list)? = identities { list.map { $0 } } else { [] }
            return joined(elements.enumerated().map { index, element in
                element.pieces(key: key, identities: sent.indices.contains(index) ? sent[index] : nil, revealing: revealing, secrets: &secrets)
            }, open: "[", close: "]")
        case .object(let members):
            let sent: [String: JSONBody] = if case .object(let dictionary)? = identities { dictionary } else { [:] }
            return joined(members.sorted { $0.key < $1.key }.map { name, member in
                [.text(Self.literal(name) + ":")] + member.pieces(key: name, identities: sent[name], revealing: revealing, secrets: &secrets)
            }, open: "{", close: "}")
        }
    }

    private func joined(_ parts: [[CurlScript.Piece]], open: String, close: String) -> [CurlScript.Piece] {
        [.text(open)] + parts.enumerated().flatMap { index, part in index == 0 ? part : [.text(",")] + part } + [.text(close)]
    }

    /// Every string under a secret key other than a password or an API key (tokens, codes), as
    /// sent: the values a script can carry from one step to another, with their `jq` paths.
    func secretLeaves(key: String?, path: String) -> [(key: String, value: String, path: String)] {
        switch self {
        case .string(let text):
            guard let key, Self.carriedKeys.contains(key) || (SecretMasking.secretKeys.contains(key) && !SecretMasking.passwordKeys.contains(key) && key != "apiKey" && key != "key") else { return [] }
            return [(key, text, path)]
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in element.secretLeaves(key: key, path: "\(path)[\(index)]") }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { name, member in
                member.secretLeaves(key: name, path: path + "." + (name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? name : Self.literal(name)))
            }
        default:
            return []
        }
    }

    /// Values a server hands out for a later call that are no secret: a phone enrollment's or a
    /// second-factor sign-in's session.
    static let carriedKeys: Set<String> = ["sessionInfo", "mfaPendingCredential", "mfaEnrollmentId"]

    func secretLeaves(key: String?) -> [(key: String, value: String)] {
        secretLeaves(key: key, path: "").map { ($0.key, $0.value) }
    }

    /// `oobCode` -> `OOB_CODE`; every password is a `PASSWORD`.
    static func variableKind(_ key: String) -> String {
        if SecretMasking.passwordKeys.contains(key) { return "PASSWORD" }
        var kind = ""
        for character in key {
            if character.isUppercase, !kind.isEmpty, kind.last != "_" { kind.append("_") }
            kind += character.isLetter || character.isNumber ? character.uppercased() : "_"
        }
        return kind
    }
}
