import Foundation

/// Reads a request body in normal form (see `RESTMapping.looksNormal`) as `JSONDecoder` reads
/// it, in a fraction of the time: in `serve`'s profile `JSONDecoder` was a fifth of a lookup.
/// It knows only the JSON such bodies hold: objects, lists, strings without `\u` escapes,
/// `true`, `false` and `null`, each key once per object. Whatever else it meets (a number, a
/// `\u` escape, a repeated key, text that is not JSON or not UTF-8, a `Date`, `Data`, `URL` or
/// `Decimal`, which `JSONDecoder` reads its own way, or a type asking for what is not there)
/// makes it throw, and the caller goes the general way, which gives the emulator's errors.
struct WireJSONDecoder {
    struct Unsupported: Error {}

    func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        let root = try json.withUnsafeBytes { bytes in
            var parser = WireJSONParser(bytes: bytes)
            return try parser.document()
        }
        return try WireValueDecoder(value: root, codingPath: []).decode(Value.self)
    }
}

/// A parsed value; an object keeps its members in the order written.
enum WireJSONValue {
    case string(String)
    case bool(Bool)
    case null
    case list([WireJSONValue])
    case object([(key: String, value: WireJSONValue)])
}

/// A strict parser of the JSON `WireJSONDecoder` knows, refusing anything else.
private struct WireJSONParser {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    /// Nesting allowed before refusing (`JSONDecoder` allows 512).
    static let maxDepth = 256

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func document() throws -> WireJSONValue {
        let value = try self.value(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw WireJSONDecoder.Unsupported() }
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) throws -> WireJSONValue {
        skipSpace()
        guard index < bytes.count, depth < Self.maxDepth else { throw WireJSONDecoder.Unsupported() }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try list(depth: depth)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: throw WireJSONDecoder.Unsupported()
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]).elementsEqual(UnsafeRawBufferPointer(start: word.utf8Start, count: count))
        else { throw WireJSONDecoder.Unsupported() }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw WireJSONDecoder.Unsupported() }
        index += 1
    }

    /// Whether the next byte, after space, is `byte`; taken if so.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func object(depth: Int) throws -> WireJSONValue {
        index += 1
        var members: [(key: String, value: WireJSONValue)] = []
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw WireJSONDecoder.Unsupported() }
            let key = try string()
            // The two parsers keep different members of a repeated key.
            guard !members.contains(where: { $0.key == key }) else { throw WireJSONDecoder.Unsupported() }
            try expect(UInt8(ascii: ":"))
            members.append((key, try value(depth: depth + 1)))
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func list(depth: Int) throws -> WireJSONValue {
        index += 1
        var elements: [WireJSONValue] = []
        if take(UInt8(ascii: "]")) { return .list(elements) }
        repeat {
            elements.append(try value(depth: depth + 1))
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return .list(elements)
    }

    /// A string at `index` (its opening quote): UTF-8, no raw control character, short escapes only.
    private mutating func string() throws -> String {
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] >= 0x20 else { throw WireJSONDecoder.Unsupported() }
            if bytes[index] == UInt8(ascii: "\\") {
                escaped = true
                index += 1
            }
            index += 1
        }
        guard index < bytes.count else { throw WireJSONDecoder.Unsupported() }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        index += 1
        guard escaped else {
            guard let text = String(validating: raw, as: UTF8.self) else { throw WireJSONDecoder.Unsupported() }
            return text
        }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(raw.count)
        var position = 0
        while position < raw.count {
            let byte = raw[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                unescaped.append(byte)
                continue
            }
            switch raw[position] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(raw[position])
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            default: throw WireJSONDecoder.Unsupported()
            }
            position += 1
        }
        guard let text = String(validating: unescaped, as: UTF8.self) else { throw WireJSONDecoder.Unsupported() }
        return text
    }
}

private struct WireValueDecoder: Decoder {
    let value: WireJSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw WireJSONDecoder.Unsupported() }
        return KeyedDecodingContainer(WireKeyedDecoding<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let elements) = value else { throw WireJSONDecoder.Unsupported() }
        return WireUnkeyedDecoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { WireSingleValueDecoding(value: value, codingPath: codingPath) }

    /// Numbers (a body in normal form has none, so `JSONDecoder` would refuse them too; and
    /// each would ask this decoder for itself again) and the types `JSONDecoder` reads its own
    /// way. Any other type reads itself from this decoder.
    private static let refusedTypes: Set<ObjectIdentifier> = Set([
        Date.self, Data.self, URL.self, Decimal.self,
        Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self, Int128.self, UInt128.self,
        Double.self, Float.self, Float16.self,
    ].map { ObjectIdentifier($0 as Any.Type) })

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        switch value {
        case .string(let text) where Value.self == String.self: return text as! Value
        case .bool(let flag) where Value.self == Bool.self: return flag as! Value
        default:
            guard !Self.refusedTypes.contains(ObjectIdentifier(Value.self)) else { throw WireJSONDecoder.Unsupported() }
            return try Value(from: self)
        }
    }

    static func string(_ value: WireJSONValue) throws -> String {
        guard case .string(let text) = value else { throw WireJSONDecoder.Unsupported() }
        return text
    }

    static func bool(_ value: WireJSONValue) throws -> Bool {
        guard case .bool(let flag) = value else { throw WireJSONDecoder.Unsupported() }
        return flag
    }
}

private struct WireKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: WireJSONValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    private func member(_ key: Key) throws -> WireJSONValue {
        guard let value = memberIfPresent(key) else { throw WireJSONDecoder.Unsupported() }
        return value
    }

    private func memberIfPresent(_ key: Key) -> WireJSONValue? {
        let name = key.stringValue
        return members.first(where: { $0.key == name })?.value
    }

    // `decodeIfPresent` as `JSONDecoder` reads it (absent or null is nil), with one look-up
    // instead of the protocol's three: request types are mostly optional fields.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = memberIfPresent(key) else { return nil }
        if case .null = value { return nil }
        return try WireValueDecoder.string(value)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = memberIfPresent(key) else { return nil }
        if case .null = value { return nil }
        return try WireValueDecoder.bool(value)
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard let value = memberIfPresent(key) else { return nil }
        if case .null = value { return nil }
        return try WireValueDecoder(value: value, codingPath: codingPath + [key]).decode(Value.self)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try WireValueDecoder.string(member(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try WireValueDecoder.bool(member(key)) }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try WireValueDecoder(value: member(key), codingPath: codingPath + [key]).decode(Value.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try WireValueDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try WireValueDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    // `JSONDecoder` reads a super decoder's value under `super` or the key; not worth copying.
    func superDecoder() throws -> any Decoder { throw WireJSONDecoder.Unsupported() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw WireJSONDecoder.Unsupported() }
}

private struct WireUnkeyedDecoding: UnkeyedDecodingContainer {
    let elements: [WireJSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [WireJSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> WireJSONValue {
        guard !isAtEnd else { throw WireJSONDecoder.Unsupported() }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw WireJSONDecoder.Unsupported() }
        guard case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: String.Type) throws -> String { try WireValueDecoder.string(next()) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try WireValueDecoder.bool(next()) }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let path = codingPath
        return try WireValueDecoder(value: next(), codingPath: path).decode(Value.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = codingPath
        return try WireValueDecoder(value: next(), codingPath: path).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = codingPath
        return try WireValueDecoder(value: next(), codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw WireJSONDecoder.Unsupported() }
}

private struct WireSingleValueDecoding: SingleValueDecodingContainer {
    let value: WireJSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: String.Type) throws -> String { try WireValueDecoder.string(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try WireValueDecoder.bool(value) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try WireValueDecoder(value: value, codingPath: codingPath).decode(Value.self)
    }
}
