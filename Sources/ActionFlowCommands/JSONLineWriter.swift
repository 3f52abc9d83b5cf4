import ActionFlowModel
import Foundation

/// `inspect --jsonl`'s lines, laid out by hand into an owned buffer: exactly what
/// `JSONOutput.string(anatomy, format: .commandLine)` writes (the tests compare them byte for
/// byte). `JSONEncoder` gave 7,500 links/s on one thread, about the Python reference's speed
/// (target 2x); this gives about 100,000 (docs/benchmarks.md, `inspect`). Keys are written in
/// sorted order by the layout itself; strings are escaped as `JSONEncoder` escapes them, and
/// made terminal-safe as `JSONOutput` makes them.
struct JSONLineWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 512) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    mutating func removeAll() {
        count = 0
    }

    /// Writes everything gathered to `descriptor` and empties the buffer.
    mutating func flush(to descriptor: Int32) throws(StreamError) {
        if let code = withUnsafeBytes({ DescriptorWrite.all(descriptor, $0) }) {
            throw StreamError(action: "write the results", code: code)
        }
        removeAll()
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
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ start: UnsafePointer<UInt8>, count length: Int) {
        guard length > 0 else { return }
        reserve(length)
        (base + count).update(from: start, count: length)
        count += length
    }

    @inline(__always)
    private mutating func raw(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    // MARK: Values

    private mutating func null() { raw("null") }

    private mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    private mutating func optionalBool(_ value: Bool?) {
        if let value { raw(value ? "true" : "false") } else { null() }
    }

    private mutating func integer(_ value: Int) {
        var digits = String(value)
        digits.withUTF8 { append($0.baseAddress!, count: $0.count) }
    }

    private mutating func array<Element>(_ elements: [Element], _ write: (inout JSONLineWriter, Element) -> Void) {
        append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        append(UInt8(ascii: "]"))
    }

    /// A string known to need no escape (the model's literals), between quotes as it is.
    private mutating func quotedRaw(_ text: StaticString) {
        append(UInt8(ascii: "\""))
        raw(text)
        append(UInt8(ascii: "\""))
    }

    /// `"name":` after a comma unless it is the object's first.
    @inline(__always)
    private mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { append(UInt8(ascii: ",")) }
        append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// `JSONEncoder`'s escapes (quote, backslash, C0 controls: short forms where JSON has them,
    /// else `\u00xx`), and every scalar `UntrustedText` would replace as `\u` escapes. Runs of
    /// plain ASCII are copied whole.
    private mutating func string(_ text: String) {
        append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return }
            var index = 0
            while index < utf8.count {
                var plainEnd = index
                while plainEnd < utf8.count {
                    let byte = start[plainEnd]
                    if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
                    plainEnd += 1
                }
                append(start + index, count: plainEnd - index)
                index = plainEnd
                guard index < utf8.count else { break }
                let byte = start[index]
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    append(UInt8(ascii: "\\"))
                    append(byte)
                    index += 1
                case 0x08: raw("\\b"); index += 1
                case 0x09: raw("\\t"); index += 1
                case 0x0A: raw("\\n"); index += 1
                case 0x0C: raw("\\f"); index += 1
                case 0x0D: raw("\\r"); index += 1
                case ..<0x20, 0x7F:
                    unicodeEscape(UInt16(byte))
                    index += 1
                default:
                    index = scalar(utf8, at: index)
                }
            }
        }
        append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func unicodeEscape(_ unit: UInt16) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            append(Self.hexDigits[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }

    /// One non-ASCII scalar from `index`: copied as it is, or escaped when a terminal must not
    /// obey it. Returns the index after it.
    private mutating func scalar(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = utf8[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let end = min(index + length, utf8.count)
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for position in (index + 1)..<end {
            value = value << 6 | UInt32(utf8[position] & 0x3F)
        }
        if let scalar = Unicode.Scalar(value), JSONOutput.escapedForTerminal(scalar) {
            for unit in String(scalar).utf16 { unicodeEscape(unit) }
        } else {
            append(utf8.baseAddress! + index, count: end - index)
        }
        return end
    }

    // MARK: The layout

    /// The object `inspect --json` prints for a link, on one line.
    mutating func anatomy(_ anatomy: LinkAnatomy) {
        raw("{")
        key("actionURL", first: true)
        string(anatomy.actionURL)
        key("apiKey")
        optionalString(anatomy.apiKey)
        key("continueLink")
        if let link = anatomy.continueLink {
            raw("{")
            key("destination", first: true)
            string(link.destination)
            key("layers")
            array(link.layers) { $0.layer($1) }
            raw("}")
        } else {
            null()
        }
        key("continueUrl")
        optionalString(anatomy.continueUrl)
        key("continueUrlAuthorized")
        optionalBool(anatomy.continueUrlAuthorized)
        key("findings")
        array(anatomy.findings) { writer, finding in
            writer.raw("{")
            writer.key("code", first: true)
            writer.string(finding.code)
            writer.key("message")
            writer.string(finding.message)
            writer.key("severity")
            writer.string(finding.severity.rawValue)
            writer.raw("}")
        }
        key("lang")
        optionalString(anatomy.lang)
        key("layers")
        array(anatomy.layers) { $0.layer($1) }
        key("link")
        string(anatomy.link)
        key("mode")
        optionalString(anatomy.mode)
        key("oobCode")
        optionalString(anatomy.oobCode)
        key("operation")
        string(anatomy.operation.rawValue)
        key("tenantId")
        optionalString(anatomy.tenantId)
        raw("}")
    }

    mutating func layer(_ layer: LinkLayer) {
        raw("{")
        key("host", first: true)
        string(layer.host)
        key("kind")
        string(layer.kind.rawValue)
        key("parameters")
        array(layer.parameters) { writer, parameter in
            writer.raw("{")
            writer.key("meaning", first: true)
            if let meaning = parameter.knownMeaning { writer.quotedRaw(meaning) } else { writer.null() }
            writer.key("name")
            writer.string(parameter.name)
            writer.key("value")
            writer.string(parameter.value)
            writer.raw("}")
        }
        key("url")
        string(layer.url)
        raw("}")
    }

    /// `{"error": ..., "line": N}` for an input line that is no link.
    mutating func lineError(_ message: String, line: Int) {
        raw("{")
        key("error", first: true)
        string(message)
        key("line")
        integer(line)
        raw("}")
    }
}
