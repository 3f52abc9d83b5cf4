import Foundation

/// The project's JSON, written by Foundation: serve's replies, session files, `--json`,
/// `--jsonl`, exported recordings and the simulated tokens. `Format` names `JSONEncoder`'s
/// options and what the project adds: output safe on a terminal.
public enum JSONOutput {
    public struct Format: Sendable {
        /// How a `Date` is written: `JSONEncoder`'s `.deferredToDate` or `.secondsSince1970`.
        public enum Dates: Sendable { case secondsSinceReferenceDate, secondsSince1970 }

        /// `.prettyPrinted`: each member on a line of its own, two spaces deeper.
        public let pretty: Bool
        /// `.sortedKeys`, where output must be the same from run to run.
        public let sortedKeys: Bool
        /// Without `.withoutEscapingSlashes`: `/` is written `\/`.
        public let escapesSlashes: Bool
        /// What `UntrustedText` would replace (DEL, C1, bidi controls...) as `\u` escapes, which
        /// JSON readers decode back: output for a terminal that changes no value.
        public let terminalSafe: Bool
        public let dates: Dates
        /// Made once: `JSONEncoder` is thread-safe, and making one per answer shows in `serve`'s profile.
        let encoder: JSONEncoder

        public init(pretty: Bool = false, sortedKeys: Bool = false, escapesSlashes: Bool = false, terminalSafe: Bool = false,
                    dates: Dates = .secondsSinceReferenceDate) {
            self.pretty = pretty
            self.sortedKeys = sortedKeys
            self.escapesSlashes = escapesSlashes
            self.terminalSafe = terminalSafe
            self.dates = dates
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
        /// `--json`: pretty, sorted, safe on a terminal.
        public static let command = Format(pretty: true, sortedKeys: true, terminalSafe: true)
        /// `--jsonl`: `command` on one line.
        public static let commandLine = Format(sortedKeys: true, terminalSafe: true)

        var serialization: JSONSerialization.WritingOptions {
            var options: JSONSerialization.WritingOptions = escapesSlashes ? [.fragmentsAllowed] : [.fragmentsAllowed, .withoutEscapingSlashes]
            if pretty { options.insert(.prettyPrinted) }
            if sortedKeys { options.insert(.sortedKeys) }
            return options
        }
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
    /// code or as `JSONSerialization.jsonObject` returns it), written by `JSONSerialization`;
    /// nil for anything else.
    public static func string(plain value: Any, format: Format) -> String? {
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: format.serialization) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return format.terminalSafe ? terminalSafe(text) : text
    }

    /// JSON text with every scalar a terminal must not obey written as `\u` escapes: such
    /// scalars only occur inside strings, where an escape reads back as the same value.
    static func terminalSafe(_ json: String) -> String {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value == 0x7F || (scalar.value >= 0x80 && UntrustedText.needsSanitizing(scalar))
        }
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
