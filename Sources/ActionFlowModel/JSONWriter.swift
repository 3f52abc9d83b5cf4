import Foundation

/// The project's one JSON writer: serve's replies, session files, `--json`, `--jsonl`, the
/// Network pane's masked bodies and the simulated tokens. It writes what Foundation writes with
/// the options `Format` names, byte for byte, in one pass into an owned buffer (a `--jsonl` line
/// takes hundreds of small appends, and `[UInt8]` checks uniqueness and capacity on each).
/// Encodable values go through `JSONWriter.data(_:format:)` and its siblings; the hand-written
/// `--jsonl` layout (`anatomy`) uses the primitives (`string`, `key`, `integer`...) directly.
public struct JSONWriter: ~Copyable {
    /// `JSONEncoder`'s and `JSONSerialization`'s output options, and what the project adds.
    public struct Format: Sendable {
        /// How a `Date` is written: as `JSONEncoder`'s `.deferredToDate` or `.secondsSince1970`,
        /// or refused.
        public enum Dates: Sendable { case refused, secondsSinceReferenceDate, secondsSince1970 }

        /// `.prettyPrinted`: each member on a line of its own, two spaces deeper, `" : "` after keys.
        public var pretty: Bool
        /// `.sortedKeys`: members in Foundation's order instead of as encoded; a repeated key
        /// keeps its last value.
        public var sortedKeys: Bool
        /// Without `.withoutEscapingSlashes`: `/` is written `\/`.
        public var escapesSlashes: Bool
        /// What `UntrustedText` would replace (DEL, C1, bidi controls...) as `\u` escapes, which
        /// JSON readers decode back: output for a terminal that changes no value.
        public var terminalSafe: Bool
        /// Each string masked by the key it sits under (`SecretMasking.mask`), or as links.
        public var masksSecrets: Bool
        public var dates: Dates

        public init(pretty: Bool = false, sortedKeys: Bool = false, escapesSlashes: Bool = false, terminalSafe: Bool = false,
                    masksSecrets: Bool = false, dates: Dates = .refused) {
            self.pretty = pretty
            self.sortedKeys = sortedKeys
            self.escapesSlashes = escapesSlashes
            self.terminalSafe = terminalSafe
            self.masksSecrets = masksSecrets
            self.dates = dates
        }

        /// serve's replies: `JSONEncoder` with `.withoutEscapingSlashes`, members in the order
        /// encoded (`JSONEncoder` orders them by its dictionary's hash, which changes from
        /// process to process).
        public static let wire = Format()
        /// The Network pane's bodies: `maskJSON` of `JSONEncoder`'s JSON.
        public static let masked = Format(pretty: true, sortedKeys: true, masksSecrets: true, dates: .secondsSinceReferenceDate)
        /// `--json`: pretty, sorted, safe on a terminal.
        public static let command = Format(pretty: true, sortedKeys: true, terminalSafe: true)
        /// `--jsonl`: `command` on one line.
        public static let commandLine = Format(sortedKeys: true, terminalSafe: true)
    }

    /// A value written differently by Foundation than this writer would (a `Float`, `Data`,
    /// `Decimal`, a refused `Date`, a non-finite number, a super encoder, containers used out of
    /// order): the caller uses Foundation or gives up.
    public struct Unsupported: Error {}

    public let format: Format
    private var base: UnsafeMutablePointer<UInt8>
    public private(set) var count = 0
    private var capacity: Int

    public init(format: Format, capacity: Int = 512) {
        self.format = format
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    // MARK: Output

    /// What was written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
    public var data: Data { Data(bytes: base, count: count) }
    public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    public mutating func removeAll() {
        count = 0
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ start: UnsafePointer<UInt8>, count length: Int) {
        guard length > 0 else { return }
        reserve(length)
        (base + count).update(from: start, count: length)
        count += length
    }

    /// Text written as it is: punctuation, literals.
    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private mutating func indent(_ depth: Int) {
        reserve(depth * 2)
        (base + count).initialize(repeating: UInt8(ascii: " "), count: depth * 2)
        count += depth * 2
    }

    // MARK: Values

    public mutating func null() { raw("null") }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    public mutating func integer<Integer: FixedWidthInteger>(_ value: Integer) {
        integer(magnitude: UInt64(value.magnitude), negative: value < 0)
    }

    /// Digits straight into the buffer: `String(value)` would allocate for each number.
    private mutating func integer(magnitude: UInt64, negative: Bool) {
        reserve(21)
        if negative {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        rest = magnitude
        var position = count + digits
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        count += digits
    }

    /// A `Double` as `JSONEncoder` writes it: its shortest form, without a `.0`.
    public mutating func number(_ value: Double) throws(Unsupported) {
        guard value.isFinite else { throw Unsupported() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        text.withUTF8 { append($0.baseAddress!, count: $0.count) }
    }

    public mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    public mutating func optionalBool(_ value: Bool?) {
        if let value { bool(value) } else { null() }
    }

    /// A list written by `write` element by element, for hand-written layouts in the compact form.
    public mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        append(UInt8(ascii: "]"))
    }

    /// A string known to need no escape (the model's literals), copied between quotes as it is.
    public mutating func quotedRaw(_ text: StaticString) {
        assert(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount).allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && ($0 != UInt8(ascii: "/") || !format.escapesSlashes)
        }, "\(text) needs escaping")
        append(UInt8(ascii: "\""))
        raw(text)
        append(UInt8(ascii: "\""))
    }

    /// The one string escaper. Foundation's escapes: quote, backslash, C0 controls (short forms
    /// where JSON has them, else `\u00xx` in lower case), `/` when `escapesSlashes`; and when
    /// `terminalSafe`, every scalar `UntrustedText` would replace. Runs of plain ASCII are copied
    /// whole.
    public mutating func string(_ text: String) {
        append(UInt8(ascii: "\""))
        var text = text
        let escapesSlashes = format.escapesSlashes
        text.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return }
            let end = utf8.count
            var index = 0
            while true {
                reserve(end - index)
                var plainEnd = index
                while plainEnd < end {
                    let byte = start[plainEnd]
                    if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                        || (escapesSlashes && byte == UInt8(ascii: "/")) { break }
                    plainEnd += 1
                }
                let plain = plainEnd - index
                (base + count).update(from: start + index, count: plain)
                count += plain
                index = plainEnd
                guard index < end else { break }
                let byte = start[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") {
                    append(UInt8(ascii: "\\"))
                    append(byte)
                    index += 1
                } else if byte < 0x20 || (byte == 0x7F && format.terminalSafe) {
                    escapeControl(byte)
                    index += 1
                } else if format.terminalSafe {
                    index = escapeUnsafe(utf8, at: index)
                } else {
                    // DEL and non-ASCII, as they are.
                    var runEnd = index + 1
                    while runEnd < end, start[runEnd] >= 0x7F { runEnd += 1 }
                    append(start + index, count: runEnd - index)
                    index = runEnd
                }
            }
        }
        append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func escapeControl(_ byte: UInt8) {
        switch byte {
        case 0x08: raw("\\b")
        case 0x09: raw("\\t")
        case 0x0A: raw("\\n")
        case 0x0C: raw("\\f")
        case 0x0D: raw("\\r")
        default: unicodeEscape(UInt16(byte))
        }
    }

    private mutating func unicodeEscape(_ unit: UInt16) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            append(Self.hexDigits[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }

    /// One non-ASCII scalar from `index`: copied as it is, or escaped when a terminal must not
    /// obey it. Returns the index after it.
    private mutating func escapeUnsafe(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = utf8[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let end = min(index + length, utf8.count)
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for position in (index + 1)..<end {
            value = value << 6 | UInt32(utf8[position] & 0x3F)
        }
        if let scalar = Unicode.Scalar(value), UntrustedText.needsSanitizing(scalar) {
            for unit in String(scalar).utf16 { unicodeEscape(unit) }
        } else {
            append(utf8.baseAddress! + index, count: end - index)
        }
        return end
    }

    // MARK: Containers

    /// `{` or `[`; in the pretty form the first element goes on the next line.
    public mutating func openContainer(_ bracket: UInt8) {
        append(bracket)
        if format.pretty { append(UInt8(ascii: "\n")) }
    }

    /// Before each element of a container `depth` deep (1 for the outermost).
    public mutating func beginElement(first: Bool, depth: Int) {
        if !first { append(UInt8(ascii: ",")) }
        guard format.pretty else { return }
        if !first { append(UInt8(ascii: "\n")) }
        indent(depth)
    }

    /// A member's key and what follows it.
    public mutating func objectKey(_ name: String) {
        string(name)
        if format.pretty { raw(" : ") } else { append(UInt8(ascii: ":")) }
    }

    /// `"name":` after a comma unless it is the object's first, for hand-written layouts in the
    /// compact form (`inspect --jsonl`).
    @inline(__always)
    public mutating func key(_ name: StaticString, first: Bool = false) {
        assert(!format.pretty, "hand-written layouts are compact")
        if !first { append(UInt8(ascii: ",")) }
        append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// `}` or `]` of a container `depth` deep (0 for the outermost); in the pretty form, on its
    /// own line.
    public mutating func closeContainer(_ bracket: UInt8, depth: Int) {
        if format.pretty {
            append(UInt8(ascii: "\n"))
            indent(depth)
        }
        append(bracket)
    }

    // MARK: Sorted keys

    /// Where a member of an object being written begins (its separator) and where its key does.
    struct MemberStart {
        let name: String
        let separator: Int
        let key: Int
    }

    /// Puts the members of the object `depth` deep, written from `members[0].separator` up to
    /// here, in Foundation's key order, keeping the last of a repeated key as `JSONEncoder` does.
    mutating func sortMembers(_ members: [MemberStart], depth: Int) {
        let end = count
        var spans = members.indices.map { index in
            (name: members[index].name, order: index, start: members[index].key, end: index + 1 < members.count ? members[index + 1].separator : end)
        }
        spans.sort { Self.precedes($0.name, $1.name) || ($0.name == $1.name && $0.order < $1.order) }
        var kept: [(name: String, order: Int, start: Int, end: Int)] = []
        kept.reserveCapacity(spans.count)
        for span in spans {
            if kept.last?.name == span.name { kept[kept.count - 1] = span } else { kept.append(span) }
        }
        guard kept.count != members.count || kept.indices.contains(where: { kept[$0].order != $0 }) else { return }
        let regionStart = members[0].separator
        let region = Array(UnsafeBufferPointer(start: base + regionStart, count: end - regionStart))
        count = regionStart
        region.withUnsafeBufferPointer { region in
            for (position, span) in kept.enumerated() {
                beginElement(first: position == 0, depth: depth)
                append(region.baseAddress! + (span.start - regionStart), count: span.end - span.start)
            }
        }
    }

    /// Key order of Foundation's `.sortedKeys` (a numeric, case-insensitive collation: `_`, then
    /// digits, then letters) for keys of letters, digits and `_`; other keys are compared as
    /// Foundation does.
    static func precedes(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.allSatisfy(isPlainKeyByte), b.allSatisfy(isPlainKeyByte) else { return foundationPrecedes(left, right) }
        return plainPrecedes(a, b)
    }

    /// `keys` in `precedes` order, each key's bytes read once rather than at every comparison.
    static func sortedKeys(_ keys: some Collection<String>) -> [String] {
        let prepared = keys.map { key in
            let bytes = Array(key.utf8)
            return (name: key, bytes: bytes, plain: bytes.allSatisfy(isPlainKeyByte))
        }
        return prepared.sorted { left, right in
            left.plain && right.plain ? plainPrecedes(left.bytes, right.bytes) : foundationPrecedes(left.name, right.name)
        }.map(\.name)
    }

    private static func isPlainKeyByte(_ byte: UInt8) -> Bool { byte.isASCIILetter || byte.isASCIIDigit || byte == .underscore }

    private static func foundationPrecedes(_ left: String, _ right: String) -> Bool {
        left.compare(right, options: [.numeric, .caseInsensitive, .forcedOrdering]) == .orderedAscending
    }

    /// `precedes` for two keys of letters, digits and `_`, as their UTF-8 bytes.
    private static func plainPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        func weight(_ byte: UInt8) -> UInt8 { byte == .underscore ? 0 : byte.asciiLowercased }
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i].isASCIIDigit, b[j].isASCIIDigit {
                let startA = i, startB = j
                while i < a.count, a[i].isASCIIDigit { i += 1 }
                while j < b.count, b[j].isASCIIDigit { j += 1 }
                let digitsA = a[startA..<i].drop { $0 == UInt8(ascii: "0") }, digitsB = b[startB..<j].drop { $0 == UInt8(ascii: "0") }
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count }
                if !digitsA.elementsEqual(digitsB) { return digitsA.lexicographicallyPrecedes(digitsB) }
                continue
            }
            let x = weight(a[i]), y = weight(b[j])
            if x != y { return x < y }
            i += 1
            j += 1
        }
        if (a.count - i) != (b.count - j) { return a.count - i < b.count - j }
        // Equal but for case: lower case first.
        for (x, y) in zip(a, b) where x != y { return x > y }
        return false
    }
}
