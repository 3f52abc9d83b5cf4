import Foundation

/// A positive span of simulated time in whole seconds: code lifetimes, the rate limit's window,
/// clock advances. Written as a number of seconds (`5400`) or with the units `d h m s`, largest
/// first, each at most once (`90s`, `30m`, `2h`, `3d`, `1h30m`); every place that reads or shows
/// a duration uses this grammar.
public struct SimulatedDuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let seconds: Int

    /// Units in the order they must appear.
    static let units: [(symbol: Character, seconds: Int)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]

    /// The longest span, 100 years (36525d): the clock stops at the end of 9999, and a code
    /// that expires later than a span past that could not be written as a time.
    public static let longest = 36_525 * 86_400

    /// nil unless `seconds` is above 0 and at most `longest`.
    public init?(seconds: Int) {
        guard seconds > 0, seconds <= Self.longest else { return nil }
        self.seconds = seconds
    }

    /// nil unless `interval` is a whole number of seconds above 0 and at most `longest`.
    public init?(exactly interval: TimeInterval) {
        guard interval.isFinite, interval.rounded() == interval, let whole = Int(exactly: interval) else { return nil }
        self.init(seconds: whole)
    }

    /// Reads `5400`, `90s`, `1h30m`...; leading and trailing spaces are ignored.
    public init(parsing input: String) throws(ParseError) {
        let text = input.trimmingWhitespace()
        guard !text.isEmpty else { throw .empty }
        if text.contains(where: \.isWhitespace) { throw .spaceInside(text) }
        if text.first == "-" { throw .negative(text) }
        guard text.first?.isASCIIDigit == true else { throw .notADuration(text) }

        var total = 0
        var digits = ""
        var lastUnitIndex: Int?
        for character in text {
            if character.isASCIIDigit {
                digits.append(character)
                continue
            }
            if character == "." || character == "," { throw .fraction(text) }
            guard let unitIndex = Self.units.firstIndex(where: { $0.symbol == character }) else {
                throw .unknownUnit(character, in: text)
            }
            guard !digits.isEmpty else { throw .missingNumber(before: character, in: text) }
            if let lastUnitIndex {
                if unitIndex == lastUnitIndex { throw .repeatedUnit(character, in: text) }
                if unitIndex < lastUnitIndex { throw .unitOutOfOrder(character, in: text) }
            }
            guard let value = Int(digits) else { throw .tooLarge(text) }
            let (part, overflowMultiply) = value.multipliedReportingOverflow(by: Self.units[unitIndex].seconds)
            let (sum, overflowSum) = total.addingReportingOverflow(part)
            guard !overflowMultiply, !overflowSum else { throw .tooLarge(text) }
            total = sum
            lastUnitIndex = unitIndex
            digits = ""
        }
        if !digits.isEmpty {
            // Digits after a unit (`1h30`) are ambiguous; digits alone are seconds.
            guard lastUnitIndex == nil else { throw .missingUnit(after: digits, in: text) }
            guard let value = Int(digits) else { throw .tooLarge(text) }
            total = value
        }
        guard total > 0 else { throw .zero(text) }
        guard total <= Self.longest else { throw .tooLarge(text) }
        seconds = total
    }

    public var timeInterval: TimeInterval { TimeInterval(seconds) }

    /// The largest units that add up exactly, e.g. `1h30m`, `1d2h`, `45s`; reads back as the same duration.
    public var description: String {
        var rest = seconds
        var text = ""
        for unit in Self.units where rest >= unit.seconds {
            text += "\(rest / unit.seconds)\(unit.symbol)"
            rest %= unit.seconds
        }
        return text
    }

    /// How a span stored as a `TimeInterval` is shown: in this grammar when it is a whole positive
    /// number of seconds, else as plain seconds (such a value breaks the project rules anyway).
    public static func describe(_ interval: TimeInterval) -> String {
        SimulatedDuration(exactly: interval)?.description ?? "\(Int(exactly: interval).map(String.init) ?? String(interval))s"
    }

    public static func < (lhs: SimulatedDuration, rhs: SimulatedDuration) -> Bool { lhs.seconds < rhs.seconds }

    /// Why a text is not a duration; `description` says what was expected and what was found.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case notADuration(String)
        case negative(String)
        case zero(String)
        case fraction(String)
        case spaceInside(String)
        case unknownUnit(Character, in: String)
        case missingNumber(before: Character, in: String)
        case missingUnit(after: String, in: String)
        case repeatedUnit(Character, in: String)
        case unitOutOfOrder(Character, in: String)
        case tooLarge(String)

        /// What every message starts with, for readers that refuse a value before parsing it.
        public static let expected = "expected a duration such as 1h, 30m, 3d or a number of seconds"

        public var description: String {
            switch self {
            case .empty: "\(Self.expected), got an empty string"
            case .notADuration(let text): "\(Self.expected), got \(Self.shown(text))"
            case .negative(let text), .zero(let text): "expected a duration above 0, got \(Self.shown(text))"
            case .fraction(let text): "\(Self.expected), got \(Self.shown(text)): whole numbers only (1h30m, not 1.5h)"
            case .spaceInside(let text): "\(Self.expected), got \(Self.shown(text)): no spaces inside a duration"
            case .unknownUnit(let unit, let text): "\(Self.expected), got \(Self.shown(text)): '\(unit)' is not a unit (d, h, m or s)"
            case .missingNumber(let unit, let text): "\(Self.expected), got \(Self.shown(text)): a number must come before '\(unit)'"
            case .missingUnit(let digits, let text): "\(Self.expected), got \(Self.shown(text)): '\(digits)' needs a unit (d, h, m or s)"
            case .repeatedUnit(let unit, let text): "\(Self.expected), got \(Self.shown(text)): '\(unit)' appears twice"
            case .unitOutOfOrder(let unit, let text): "\(Self.expected), got \(Self.shown(text)): '\(unit)' comes too late (units go d, h, m, s)"
            case .tooLarge(let text): "\(Self.expected), got \(Self.shown(text)): too large (at most 36525d, 100 years)"
            }
        }

        /// Plain numbers as written, text in quotes (as project file errors show values).
        static func shown(_ text: String) -> String {
            let number = text.drop(while: { $0 == "-" })
            return !number.isEmpty && number.allSatisfy(\.isASCIIDigit) ? text : "'\(text)'"
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
