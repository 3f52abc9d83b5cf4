import Yams

/// Composes YAML with Yams, giving plain scalars the tags Yams' `Resolver.default` gives them,
/// without its regular expressions: building that resolver compiles seven ICU regexes and then
/// matches every plain scalar against each, a cost paid on every start (project and scenario files).
public enum YAMLComposer {
    /// The single document in `yaml`, or nil when it is empty; throws Yams' `YamlError`. The tree
    /// is the one `Yams.compose(yaml:)` gives, tags, marks and errors included.
    public static func compose(_ yaml: String) throws -> Node? {
        let root: Node?
        do {
            // The encoding named: Yams' default reads it from the whole environment on every parse.
            root = try Yams.compose(yaml: yaml, .basic, .default, .utf8)
        } catch YamlError.duplicatedKeysInMapping {
            // Without implicit tags, plain `1` and quoted `"1"` look like the same key.
            return try Yams.compose(yaml: yaml, .default, .default, .utf8)
        }
        guard let root else { return nil }
        return try resolvingPlainScalars(root) ?? Yams.compose(yaml: yaml, .default, .default, .utf8)
    }

    /// The tag `Resolver.default` gives an untagged plain scalar: bool, int, float, merge, null,
    /// timestamp, value (YAML 1.1 forms included: `yes`, `0o17`, `1_000`, `1:30`, `.inf`, `~`), else str.
    public static func implicitTag(of text: String) -> Tag.Name {
        // Most text (`projectId`, `alice@example.com`) starts with a byte no rule starts with.
        if let first = text.utf8.first, !mayStartTypedScalar(first) { return .str }
        var bytes = Array(text.utf8)
        // The rules end in `$`, which also matches before one final line break.
        bytes.removeLast(finalLineBreakLength(bytes))
        var scanner = PlainScalarScanner(bytes)
        if scanner.isBool { return .bool }
        if scanner.isInt { return .int }
        if scanner.isFloat { return .float }
        if bytes.elementsEqual("<<".utf8) { return .merge }
        if scanner.isNull { return .null }
        if scanner.isTimestamp { return .timestamp }
        if bytes.elementsEqual("=".utf8) { return .value }
        return .str
    }

    /// `node` composed with `Resolver.basic`, its untagged scalars (`Tag.Name.implicit`, an empty
    /// raw value) given their tag; quoted (`str`) and explicitly tagged scalars keep theirs. A
    /// scalar resolving to `str` keeps its lazy implicit tag, which `Resolver.basic` settles to `str`.
    /// Nil when only the default resolver can tell: Yams' duplicate-key check hashes keys (and the
    /// nodes aliases share with them), which settles their tag to `str` as if written `!!str 12`,
    /// and may have let a plain `1` pass beside a `!!int 1`.
    static func resolvingPlainScalars(_ node: Node) -> Node? {
        switch node {
        case .scalar(var scalar):
            switch scalar.tag.rawValue {
            case Tag.Name.implicit.rawValue:
                let name = implicitTag(of: scalar.string)
                guard name != .str else { return node }
                scalar.tag = Tag(name, .basic, .default)
                return .scalar(scalar)
            case Tag.Name.str.rawValue where scalar.style == .plain:
                return implicitTag(of: scalar.string) == .str ? node : nil
            default:
                return node
            }
        case .mapping(var mapping):
            for index in mapping.indices {
                guard let key = resolvingPlainScalars(mapping[index].key),
                      let value = resolvingPlainScalars(mapping[index].value) else { return nil }
                mapping[index] = (key, value)
            }
            return .mapping(mapping)
        case .sequence(var sequence):
            for index in sequence.indices {
                guard let item = resolvingPlainScalars(sequence[index]) else { return nil }
                sequence[index] = item
            }
            return .sequence(sequence)
        case .alias:
            return node
        }
    }

    /// First bytes of what the rules match: digits, signs, `.`, `~`, `<`, `=`, the first letters
    /// of the bool and null words, and line breaks (a lone final break reads as empty, null).
    private static func mayStartTypedScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: "="), 0x0A...0x0D, 0xC2, 0xE2:
            return true
        default:
            return "yYnNtTfFoO".utf8.contains(byte)
        }
    }

    /// ICU's line terminators: LF, VT, FF, CR, CR LF, NEL, LS, PS.
    private static func finalLineBreakLength(_ bytes: [UInt8]) -> Int {
        if bytes.last == 0x0A, bytes.count >= 2, bytes[bytes.count - 2] == 0x0D { return 2 }
        if let last = bytes.last, (0x0A...0x0D).contains(last) { return 1 }
        if bytes.count >= 2, bytes[bytes.count - 2] == 0xC2, bytes.last == 0x85 { return 2 }
        if bytes.count >= 3, bytes[bytes.count - 3] == 0xE2, bytes[bytes.count - 2] == 0x80,
           bytes.last == 0xA8 || bytes.last == 0xA9 { return 3 }
        return 0
    }
}

/// Matches a plain scalar's UTF-8 bytes against the languages of Yams' default resolver rules.
private struct PlainScalarScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let boolWords: Set<[UInt8]> = Set([
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ].map { Array($0.utf8) })
    static let nullWords: Set<[UInt8]> = Set(["", "~", "null", "Null", "NULL"].map { Array($0.utf8) })
    static let infinityWords: Set<[UInt8]> = Set([".inf", ".Inf", ".INF"].map { Array($0.utf8) })
    static let notANumberWords: Set<[UInt8]> = Set([".nan", ".NaN", ".NAN"].map { Array($0.utf8) })

    var isBool: Bool { Self.boolWords.contains(bytes) }
    var isNull: Bool { Self.nullWords.contains(bytes) }

    // MARK: Rules

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`
    var isInt: Bool {
        mutating get {
            let start = afterSign()
            func matches(_ rule: (inout PlainScalarScanner) -> Bool) -> Bool {
                position = start
                return rule(&self) && atEnd
            }
            return matches { $0.take("0b") && $0.takeRun(of: Self.isBinaryDigitOrUnderscore) > 0 }
                || matches { $0.take("0") && ($0.take("o") || true) && $0.takeRun(of: Self.isOctalDigitOrUnderscore) > 0 }
                || matches { $0.take("0") }
                || matches { $0.takeNonZeroLeadingDigits() }
                || matches { $0.take("0x") && $0.takeRun(of: Self.isHexDigitOrUnderscore) > 0 }
                || matches { $0.takeNonZeroLeadingDigits() && $0.takeSexagesimalParts() }
        }
    }

    /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)? | \.[0-9_]+([eE][-+][0-9]+)?
    /// | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`
    var isFloat: Bool {
        mutating get {
            if Self.notANumberWords.contains(bytes) { return true }
            let start = afterSign()
            if Self.infinityWords.contains(Array(bytes[start...])) { return true }
            func matches(from origin: Int, _ rule: (inout PlainScalarScanner) -> Bool) -> Bool {
                position = origin
                return rule(&self) && atEnd
            }
            return matches(from: start) { scanner in
                guard scanner.takeDigitsAndUnderscores() else { return false }
                if scanner.take(".") { _ = scanner.takeRun(of: Self.isDigitOrUnderscore) }
                return scanner.takeExponent(signRequired: false)
            }
                || matches(from: 0) { scanner in
                    scanner.take(".") && scanner.takeRun(of: Self.isDigitOrUnderscore) > 0 && scanner.takeExponent(signRequired: true)
                }
                || matches(from: start) { scanner in
                    guard scanner.takeDigitsAndUnderscores(), scanner.takeSexagesimalParts(), scanner.take(".") else { return false }
                    _ = scanner.takeRun(of: Self.isDigitOrUnderscore)
                    return true
                }
        }
    }

    /// `[0-9]{4}-[0-9]{2}-[0-9]{2} | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?`
    var isTimestamp: Bool {
        mutating get {
            position = 0
            guard takeDigits(4...4), take("-") else { return false }
            let monthStart = position
            if takeDigits(2...2), take("-"), takeDigits(2...2), atEnd { return true }
            position = monthStart
            guard takeDigits(1...2), take("-"), takeDigits(1...2) else { return false }
            guard take("T") || take("t") || takeRun(of: Self.isSpaceOrTab) > 0 else { return false }
            guard takeDigits(1...2), take(":"), takeDigits(2...2), take(":"), takeDigits(2...2) else { return false }
            if take(".") { _ = takeRun(of: Self.isDigit) }
            if atEnd { return true }
            _ = takeRun(of: Self.isSpaceOrTab)
            if take("Z") { return atEnd }
            guard take("-") || take("+"), takeDigits(1...2) else { return false }
            if take(":") { guard takeDigits(2...2) else { return false } }
            return atEnd
        }
    }

    // MARK: Pieces

    var atEnd: Bool { position == bytes.count }

    /// Where the text starts after an optional `+` or `-`.
    func afterSign() -> Int {
        bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? 1 : 0
    }

    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let matched = literal.withUTF8Buffer { literal in
            literal.indices.allSatisfy { bytes[position + $0] == literal[$0] }
        }
        if matched { position += count }
        return matched
    }

    /// Consumes the longest run of bytes in the class; returns its length.
    mutating func takeRun(of isMember: (UInt8) -> Bool) -> Int {
        let start = position
        while position < bytes.count, isMember(bytes[position]) { position += 1 }
        return position - start
    }

    /// A run of digits whose length is in `count` (no rule places a digit right after such a run).
    mutating func takeDigits(_ count: ClosedRange<Int>) -> Bool {
        count.contains(takeRun(of: Self.isDigit))
    }

    /// `[0-9][0-9_]*`
    mutating func takeDigitsAndUnderscores() -> Bool {
        guard position < bytes.count, Self.isDigit(bytes[position]) else { return false }
        _ = takeRun(of: Self.isDigitOrUnderscore)
        return true
    }

    /// `[1-9][0-9_]*`
    mutating func takeNonZeroLeadingDigits() -> Bool {
        guard position < bytes.count, Self.isDigit(bytes[position]), bytes[position] != UInt8(ascii: "0") else { return false }
        _ = takeRun(of: Self.isDigitOrUnderscore)
        return true
    }

    /// `(:[0-5]?[0-9])+`
    mutating func takeSexagesimalParts() -> Bool {
        var parts = 0
        while take(":") {
            let start = position
            switch takeRun(of: Self.isDigit) {
            case 1: break
            case 2 where bytes[start] <= UInt8(ascii: "5"): break
            default: return false
            }
            parts += 1
        }
        return parts > 0
    }

    /// `([eE][-+]?[0-9]+)?`, the sign mandatory when `signRequired`.
    mutating func takeExponent(signRequired: Bool) -> Bool {
        guard take("e") || take("E") else { return true }
        guard take("-") || take("+") || !signRequired else { return false }
        return takeRun(of: Self.isDigit) > 0
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    static func isDigitOrUnderscore(_ byte: UInt8) -> Bool { isDigit(byte) || byte == UInt8(ascii: "_") }
    static func isBinaryDigitOrUnderscore(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") || byte == UInt8(ascii: "_") }
    static func isOctalDigitOrUnderscore(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) || byte == UInt8(ascii: "_") }
    static func isHexDigitOrUnderscore(_ byte: UInt8) -> Bool {
        isDigitOrUnderscore(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
    static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
