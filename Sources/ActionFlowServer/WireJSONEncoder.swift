import Foundation

enum WireJSON {
    /// Types Foundation's JSON coders read and write their own way, which the wire coders refuse.
    static let foundationOwnTypes: Set<ObjectIdentifier> = Set([Date.self, Data.self, URL.self, Decimal.self].map { ObjectIdentifier($0 as Any.Type) })
}

/// Writes a wire value as `JSONEncoder` with `.withoutEscapingSlashes` writes it: the same
/// values, escapes and number forms, with an object's members in the order they are encoded
/// (`JSONEncoder` orders them by its dictionary's hash, which changes from process to process).
/// It writes in one pass into a byte buffer instead of through a tree of boxed values: in
/// `serve`'s profile that tree was a seventh of a lookup. A value it does not write the same way
/// (a `Float`, `Data`, `Date`, `URL` or `Decimal`, which `JSONEncoder` special-cases, a super
/// encoder, or containers used out of order) makes it throw, and the caller uses `JSONEncoder`.
/// Like synthesized `Codable`, it expects each key once per object (`JSONEncoder` keeps the last).
struct WireJSONEncoder {
    struct Unsupported: Error {}

    func encode(_ value: some Encodable) throws -> Data {
        let writer = WireJSONWriter()
        try writer.writeValue(value, codingPath: [])
        guard !writer.refused else { throw Unsupported() }
        return Data(writer.bytes)
    }
}

/// The bytes written so far and the containers still open, innermost last.
final class WireJSONWriter {
    var bytes: [UInt8] = []
    /// Each open container's closing byte and whether it has an element yet.
    private var open: [(close: UInt8, hasElement: Bool)] = []
    /// Set by a use that `JSONEncoder` would write otherwise: the bytes are then not its JSON.
    /// (Containers and super encoders cannot throw when they are made, only record it.)
    private(set) var refused = false

    init() { bytes.reserveCapacity(512) }

    var depth: Int { open.count }

    /// The types `writeValue` writes or refuses itself (`Float`, which `JSONEncoder` writes
    /// otherwise, and the types Foundation's JSON coders treat their own way); any other goes
    /// straight to its encoder.
    private static let scalarTypes: Set<ObjectIdentifier> = WireJSON.foundationOwnTypes.union([
        String.self, Bool.self, Int.self, Double.self, Int64.self, Int32.self, Int16.self, Int8.self,
        UInt.self, UInt64.self, UInt32.self, UInt16.self, UInt8.self, Float.self, Float16.self,
    ].map { ObjectIdentifier($0 as Any.Type) })

    /// Writes one value in place: a scalar, or whatever containers it opens, closed afterwards.
    func writeValue<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        // One set lookup instead of a failed cast per case for every struct and list written:
        // the casts showed in `serve`'s profile.
        guard Self.scalarTypes.contains(ObjectIdentifier(Value.self)) else {
            try writeEncoded(value, codingPath: codingPath)
            return
        }
        switch value {
        case let string as String: writeString(string)
        case let bool as Bool: append(bool ? "true" : "false")
        case let int as Int: append(String(int))
        case let double as Double: try writeNumber(double)
        // Each integer type by name: a cast to `any FixedWidthInteger` searches the runtime's
        // conformance tables.
        case let integer as Int64: append(String(integer))
        case let integer as Int32: append(String(integer))
        case let integer as Int16: append(String(integer))
        case let integer as Int8: append(String(integer))
        case let integer as UInt: append(String(integer))
        case let integer as UInt64: append(String(integer))
        case let integer as UInt32: append(String(integer))
        case let integer as UInt16: append(String(integer))
        case let integer as UInt8: append(String(integer))
        default:
            // Float, and the types Foundation's JSON coders treat their own way.
            throw WireJSONEncoder.Unsupported()
        }
    }

    /// Writes a value through its own `encode(to:)`: whatever containers it opens, closed afterwards.
    private func writeEncoded(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        let level = depth
        let start = bytes.count
        try value.encode(to: WireValueEncoder(writer: self, level: level, codingPath: codingPath))
        // A value that wrote nothing is an empty object to `JSONEncoder`.
        if bytes.count == start { append("{}") }
        close(downTo: level)
    }

    func refuse() { refused = true }

    /// Opens a container at `level`, or takes the one a value asked for before; refuses any other
    /// (a container used out of order, or one of the other kind).
    func openContainer(_ opening: UInt8, closing: UInt8, at level: Int) {
        if depth == level {
            bytes.append(opening)
            open.append((closing, false))
        } else if level > depth || open[level].close != closing {
            refuse()
        }
    }

    /// Starts the next element of the container at `level` (closing any left open inside it);
    /// false, and refused, when that container is closed already.
    @discardableResult
    func beginElement(in level: Int, key: String?) -> Bool {
        guard level < depth else {
            refuse()
            return false
        }
        close(downTo: level + 1)
        if open[level].hasElement { bytes.append(UInt8(ascii: ",")) }
        open[level].hasElement = true
        if let key {
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
        }
        return true
    }

    func close(downTo level: Int) {
        while depth > level { bytes.append(open.removeLast().close) }
    }

    func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    func writeNumber(_ value: Double) throws {
        guard value.isFinite else { throw WireJSONEncoder.Unsupported() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    func writeString(_ string: String) {
        // One access to `bytes` for the whole string: each access to a class's stored property
        // is checked for exclusivity, which cost more than the escaping itself.
        Self.appendEscaped(string, to: &bytes)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendEscaped(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        bytes.append(UInt8(ascii: "\""))
        string.withUTF8 { utf8 in
            // Runs that need no escape are copied whole.
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

private struct WireValueEncoder: Encoder {
    let writer: WireJSONWriter
    /// The depth at which this value's container opens.
    let level: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(WireKeyedContainer<Key>(writer: writer, level: level, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        WireUnkeyedContainer(writer: writer, level: level, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        WireSingleValueContainer(writer: writer, codingPath: codingPath)
    }
}

/// Opens its object when made, so that an object with no member still writes `{}`.
private struct WireKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: WireJSONWriter
    let level: Int
    let codingPath: [any CodingKey]

    init(writer: WireJSONWriter, level: Int, codingPath: [any CodingKey]) {
        self.writer = writer
        self.level = level
        self.codingPath = codingPath
        writer.openContainer(UInt8(ascii: "{"), closing: UInt8(ascii: "}"), at: level)
    }

    private func begin(_ key: Key) { writer.beginElement(in: level, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws {
        begin(key)
        writer.append("null")
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        begin(key)
        writer.writeString(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        begin(key)
        writer.append(value ? "true" : "false")
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        begin(key)
        writer.append(String(value))
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        begin(key)
        try writer.writeNumber(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        begin(key)
        try writer.writeValue(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        begin(key)
        return KeyedEncodingContainer(WireKeyedContainer<NestedKey>(writer: writer, level: level + 1, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        begin(key)
        return WireUnkeyedContainer(writer: writer, level: level + 1, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { writer.refusedEncoder(codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { writer.refusedEncoder(codingPath + [key]) }
}

private struct WireUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: WireJSONWriter
    let level: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(writer: WireJSONWriter, level: Int, codingPath: [any CodingKey]) {
        self.writer = writer
        self.level = level
        self.codingPath = codingPath
        writer.openContainer(UInt8(ascii: "["), closing: UInt8(ascii: "]"), at: level)
    }

    private mutating func begin() {
        if writer.beginElement(in: level, key: nil) { count += 1 }
    }

    mutating func encodeNil() throws {
        begin()
        writer.append("null")
    }

    mutating func encode(_ value: String) throws {
        begin()
        writer.writeString(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        try writer.writeValue(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        begin()
        return KeyedEncodingContainer(WireKeyedContainer<NestedKey>(writer: writer, level: level + 1, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        begin()
        return WireUnkeyedContainer(writer: writer, level: level + 1, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { writer.refusedEncoder(codingPath) }
}

private struct WireSingleValueContainer: SingleValueEncodingContainer {
    let writer: WireJSONWriter
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { writer.append("null") }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Bool) throws { writer.append(value ? "true" : "false") }
    mutating func encode(_ value: Int) throws { writer.append(String(value)) }
    mutating func encode(_ value: Double) throws { try writer.writeNumber(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.writeValue(value, codingPath: codingPath) }
}

extension WireJSONWriter {
    /// A super encoder (`JSONEncoder` nests its value under `super` or the key): refused, and
    /// what is written to it is dropped with the rest.
    fileprivate func refusedEncoder(_ codingPath: [any CodingKey]) -> any Encoder {
        refuse()
        return WireValueEncoder(writer: self, level: depth, codingPath: codingPath)
    }
}
