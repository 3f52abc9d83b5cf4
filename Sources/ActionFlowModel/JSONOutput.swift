import Foundation

/// The project's JSON, written by Foundation: serve's replies, session files, `--json`,
/// `--jsonl`, exported recordings and the simulated tokens. `Format` names `JSONEncoder`'s
/// options and what the project adds: output safe on a terminal.
public enum JSONOutput {
    public struct Format: Sendable {
        /// How a `Date` is written: `JSONEncoder`'s `.deferredToDate` or `.secondsSince1970`.
        public enum Dates: Sendable { case secondsSinceReferenceDate, secondsSince1970 }

        /// What `UntrustedText` would replace (DEL, C1, bidi controls...) as `\u` escapes, which
        /// JSON readers decode back: output for a terminal that changes no value.
        public let terminalSafe: Bool
        /// Made once: `JSONEncoder` is thread-safe, and making one per answer shows in `serve`'s profile.
        let encoder: JSONEncoder

        /// `pretty`: `.prettyPrinted`, each member on a line of its own, two spaces deeper;
        /// `sortedKeys`: `.sortedKeys`, where output must be the same from run to run;
        /// `escapesSlashes`: without `.withoutEscapingSlashes`, `/` is written `\/`.
        public init(pretty: Bool = false, sortedKeys: Bool = false, escapesSlashes: Bool = false, terminalSafe: Bool = false,
                    dates: Dates = .secondsSinceReferenceDate) {
            self.terminalSafe = terminalSafe
            encoder = JSONEncoder()
            var formatting: JSONEncoder.OutputFormatting = escapesSlashes ? [] : .withoutEscapingSlashes
            if pretty { formatting.insert(.prettyPrinted) }
            if sortedKeys { formatting.insert(.sortedKeys) }
            encoder.outputFormatting = formatting
            encoder.dateEncodingStrategy = dates == .secondsSince1970 ? .secondsSince1970 : .deferredToDate
        }

        /// serve's replies: compact, keys sorted (`JSONEncoder` otherwise orders an object's
        /// members by its dictionary's hash, so two answers of the same value could differ).
        public static let wire = Format(sortedKeys: true)
        /// Exchange records: pretty, sorted, so that they read the same every run.
        public static let record = Format(pretty: true, sortedKeys: true)
        /// `--json`: pretty, sorted, safe on a terminal.
        public static let command = Format(pretty: true, sortedKeys: true, terminalSafe: true)
        /// `--jsonl`: `command` on one line.
        public static let commandLine = Format(sortedKeys: true, terminalSafe: true)

    }

    public static func data(_ value: some Encodable, format: Format) throws -> Data {
        let data = try format.encoder.encode(value)
        return format.terminalSafe ? Data(terminalSafe(String(decoding: data, as: UTF8.self)).utf8) : data
    }

    public static func string(_ value: some Encodable, format: Format) throws -> String {
        let text = String(decoding: try format.encoder.encode(value), as: UTF8.self)
        return format.terminalSafe ? terminalSafe(text) : text
    }

    /// `--json`'s text: `value` in the `command` format, or `{}` for one Foundation cannot write.
    public static func commandOutput(_ value: some Encodable) -> String {
        (try? string(value, format: .command)) ?? "{}"
    }

    /// A value built of strings, numbers, Booleans, null, arrays and dictionaries (as built in
    /// code or as `JSONSerialization.jsonObject` returns it); nil for anything else.
    public static func string(plain value: Any, format: Format) -> String? {
        JSONValue(plain: value).flatMap { try? string($0, format: format) }
    }

    /// Whether terminal-safe JSON writes `scalar` as a `\u` escape where `JSONEncoder` would
    /// not: DEL, and what `UntrustedText` would replace beyond ASCII.
    public static func escapedForTerminal(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x7F || (scalar.value >= 0x80 && UntrustedText.needsSanitizing(scalar))
    }

    /// JSON text with every scalar a terminal must not obey written as `\u` escapes: such
    /// scalars only occur inside strings, where an escape reads back as the same value.
    static func terminalSafe(_ json: String) -> String {
        let unsafe = escapedForTerminal
        guard json.unicodeScalars.contains(where: unsafe) else { return json }
        var safe = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard unsafe(scalar) else {
                safe.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                safe.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".unicodeScalars)
            }
        }
        return String(safe)
    }
}

/// A JSON document as plain values: what a body read from the wire holds, or what code builds
/// as dictionaries, written by `JSONEncoder` (whose sorted keys cost far less than
/// `JSONSerialization`'s, which compare them through the locale).
public indirect enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A value built of strings, numbers, Booleans, `NSNull`, arrays and dictionaries (as built
    /// in code or as `JSONSerialization.jsonObject` returns it); nil for anything else.
    public init?(plain value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let number as NSNumber:
            if IdentityToolkitMapping.isBoolean(number) { self = .bool(number.boolValue); return }
            if let whole = value as? Int { self = .integer(whole); return }
            guard number.doubleValue.isFinite else { return nil }
            self = .number(number.doubleValue)
        case is NSNull: self = .null
        case let dictionary as [String: Any]:
            var object: [String: JSONValue] = [:]
            for (key, member) in dictionary {
                guard let converted = JSONValue(plain: member) else { return nil }
                object[key] = converted
            }
            self = .object(object)
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array {
                guard let converted = JSONValue(plain: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        default:
            return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
