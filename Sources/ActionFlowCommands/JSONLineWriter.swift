import ActionFlowModel
import CByteScan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compact JSON written straight into bytes, for `inspect --jsonl`, where `JSONEncoder` and a
/// second pass for unsafe characters cost more than inspecting the link. Writes exactly what
/// `JSONOutput.encodeLine` writes for the same value (the tests compare them byte for byte):
/// keys sorted, slashes unescaped, and every character `UntrustedText` would replace written as
/// a `\u` escape.
struct JSONLineWriter: ~Copyable {
    /// An owned buffer rather than `[UInt8]`: a line takes hundreds of small appends, and an
    /// array checks uniqueness and capacity on each.
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// What was written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func removeAll() {
        count = 0
    }

    /// Writes everything gathered to `descriptor` and empties the buffer.
    mutating func flush(to descriptor: Int32) throws(StreamError) {
        if let code = DescriptorWrite.all(descriptor, UnsafeRawBufferPointer(start: base, count: count)) {
            throw StreamError(action: "write the results", code: code)
        }
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
    mutating func append(_ byte: UInt8) {
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

    // MARK: Values

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Runs of plain ASCII are copied whole, sixteen bytes at a time (`CByteScan`); only what
    /// JSON or a terminal needs escaped is looked at byte by byte.
    mutating func string(_ text: String) {
        append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return }
            let end = utf8.count
            var index = 0
            while true {
                reserve(end - index)
                let plain = byte_scan_copy_json_plain(start + index, end - index, base + count)
                count += plain
                index += plain
                guard index < end else { break }
                let byte = start[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    append(UInt8(ascii: "\\"))
                    append(byte)
                    index += 1
                } else if byte < 0x80 {
                    escapeControl(byte)
                    index += 1
                } else {
                    index = nonASCII(utf8, at: index)
                }
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// A string known to need no escape (the model's literals), copied between quotes as it is.
    mutating func quotedRaw(_ text: StaticString) {
        assert(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount).allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }, "\(text) needs escaping")
        append(UInt8(ascii: "\""))
        raw(text)
        append(UInt8(ascii: "\""))
    }

    mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    mutating func optionalBool(_ value: Bool?) {
        switch value {
        case true?: raw("true")
        case false?: raw("false")
        case nil: raw("null")
        }
    }

    mutating func integer(_ value: Int) {
        var text = String(value)
        text.withUTF8 { append($0.baseAddress!, count: $0.count) }
    }

    /// `"key":` after a comma unless it is the object's first.
    @inline(__always)
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { append(UInt8(ascii: ",")) }
        append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONLineWriter, Element) -> Void) {
        append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        append(UInt8(ascii: "]"))
    }

    // MARK: Escapes

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
    private mutating func nonASCII(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
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
}

extension JSONLineWriter {
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
            raw("null")
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
            if let meaning = parameter.knownMeaning { writer.quotedRaw(meaning) } else { writer.raw("null") }
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
