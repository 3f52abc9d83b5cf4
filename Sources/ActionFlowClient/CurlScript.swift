import ActionFlowModel
import ActionFlowTransport
import Foundation

/// A session's exchanges as `curl` commands: `export --format curl` writes them as a POSIX shell
/// script, and the Network pane's `c` copies one. Each command calls the Auth Emulator at
/// `$FIREBASE_AUTH_EMULATOR_HOST` when it is set, production otherwise, at the paths the REST
/// transport calls (`RESTTransportConfiguration`). Secrets (`SecretMasking`'s keys, the API key,
/// bearer tokens) become shell variables defined before the commands: masked unless revealed.
public struct CurlScript: Sendable {
    public var title: String
    public var exchanges: [ExchangeRecord]
    /// How many exchanges the session made in all: the session keeps only the latest.
    public var exchangeCount: Int
    /// The values as sent rather than masked, where the record kept them.
    public var revealsSecrets: Bool

    public init(title: String, exchanges: [ExchangeRecord], exchangeCount: Int, revealsSecrets: Bool) {
        self.title = title
        self.exchanges = exchanges
        self.exchangeCount = max(exchangeCount, exchanges.count)
        self.revealsSecrets = revealsSecrets
    }

    public init(title: String, session: Session, revealsSecrets: Bool) {
        self.init(title: title, exchanges: session.exchanges, exchangeCount: session.exchangeCount, revealsSecrets: revealsSecrets)
    }

    /// The shell variable holding Identity Toolkit's root.
    static let rootVariable = "IDENTITY_TOOLKIT"

    /// The script: `#!/bin/sh`, `set -eu`, the host, the secrets, and a command per exchange.
    public var script: String {
        let built = Built(self)
        var lines = [
            "#!/bin/sh",
            Self.comment("\(title): \(exchanges.count) exchange\(exchanges.count == 1 ? "" : "s") as curl commands (actionflow export --format curl)."),
            "# Calls the Auth Emulator at $FIREBASE_AUTH_EMULATOR_HOST (HOST:PORT) when it is set, production otherwise.",
            "set -eu",
            "",
        ]
        if exchangeCount > exchanges.count {
            lines.append("# The session made \(exchangeCount) calls: only the latest \(exchanges.count) are recorded.")
        }
        if exchanges.isEmpty {
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
        let built = Built(CurlScript(title: "", exchanges: [record], exchangeCount: 1, revealsSecrets: false))
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
            }
        }.joined()
    }

    // MARK: Building

    /// The prelude (host and secrets) and each exchange's lines, with the secrets numbered in
    /// the order the commands use them.
    private struct Built {
        var prelude: [String] = []
        var commands: [(comment: String, lines: [String])] = []

        init(_ script: CurlScript) {
            var secrets = Secrets()
            var unrevealed = false
            for record in script.exchanges {
                commands.append(Self.command(record, revealing: script.revealsSecrets, secrets: &secrets))
                if script.revealsSecrets, record.unmasked == nil { unrevealed = true }
            }
            let emulatorHost = RESTTransportConfiguration.emulatorHostVariable
            prelude = [
                "if [ -n \"${\(emulatorHost):-}\" ]; then",
                "  \(rootVariable)=\"http://$\(emulatorHost)\"\(quoted(EmulatorPaths.identityToolkitPrefix))",
                "else",
                "  \(rootVariable)=\(quoted(RESTTransportConfiguration.productionOrigin))",
                "fi",
            ]
            guard !secrets.definitions.isEmpty else { return }
            prelude.append("")
            let keepsValues = script.exchanges.contains { $0.unmasked != nil }
            if !keepsValues {
                // An imported capture, or a session file older than the values kept.
                prelude.append("# Secrets are masked: this session does not keep the values sent (a capture never does).")
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
            // A body that is not JSON was not written by actionflow (an edited file): shown safely.
            let pieces = JSONBody.parse(body).map {
                $0.pieces(key: nil, identities: identities, revealing: reveal, secrets: &secrets)
            } ?? [.text(UntrustedText.sanitize(reveal ? body : SecretMasking.maskLinks(in: body)))]
            lines.append("  --data-raw \(word(pieces))")
            let continued = lines.dropLast().map { $0 + " \\" } + lines.suffix(1)
            return (comment("\(record.id). \(operation.rawValue): \(outcome)\(code)"), continued)
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

    /// The secrets' variables, one per kind and value, numbered from 1 in each kind.
    struct Secrets {
        private(set) var definitions: [(name: String, value: String)] = []
        private var names: [String: String] = [:]
        private var counts: [String: Int] = [:]

        mutating func name(kind: String, identity: String, value: String) -> String {
            let key = kind + "\u{0}" + identity
            if let known = names[key] { return known }
            let number = counts[kind, default: 0] + 1
            counts[kind] = number
            let name = "\(kind)_\(number)"
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
    static let format = JSONWriter.Format(sortedKeys: true, terminalSafe: true)

    static func literal(_ value: some Encodable) -> String {
        (try? JSONWriter.string(value, format: format)) ?? "null"
    }

    /// The JSON as pieces of a shell word: each string under a secret key (`identities` the same
    /// place in the body as sent) a variable, everything else literal and masked as links.
    func pieces(key: String?, identities: JSONBody?, revealing: Bool, secrets: inout CurlScript.Secrets) -> [CurlScript.Piece] {
        switch self {
        case .string(let text):
            guard let key, SecretMasking.secretKeys.contains(key) else {
                return [.text(Self.literal(revealing ? text : SecretMasking.maskLinks(in: text)))]
            }
            let shown = revealing ? text : SecretMasking.mask(text, named: key)
            let identity = if case .string(let sent)? = identities { sent } else { text }
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
