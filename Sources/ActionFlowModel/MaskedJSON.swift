import Foundation

extension SecretMasking {
    /// The masked JSON of a request or reply body, exactly as `maskJSON` writes what
    /// `JSONEncoder` makes of it (pretty-printed, keys sorted, slashes unescaped), but built
    /// straight from the value: every exchange of a flow is recorded, and encoding, parsing
    /// and re-serializing through Foundation cost more than the rest of the flow.
    public static func maskedJSON(_ value: some Encodable) -> String {
        let root = MaskedJSONNode()
        do {
            try value.encode(to: MaskedJSONEncoder(node: root))
        } catch {
            return "{}"
        }
        // `JSONEncoder` refuses a value that encodes nothing; `maskJSON` then has no JSON.
        guard !root.isEmpty else { return "{}" }
        var writer = MaskedJSONWriter()
        writer.write(root, key: nil)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// One value of the tree an `Encodable` is turned into.
final class MaskedJSONNode {
    enum Content {
        case empty
        case string(String)
        /// A number as `JSONSerialization` writes it back.
        case number(String)
        case bool(Bool)
        case null
        case object([(key: String, node: MaskedJSONNode)])
        case array([MaskedJSONNode])
    }

    var content = Content.empty

    static var emptyObject: MaskedJSONNode {
        let node = MaskedJSONNode()
        node.content = .object([])
        return node
    }

    var isEmpty: Bool {
        if case .empty = content { true } else { false }
    }

    /// The member `key` of an object node, made (or replaced, as `JSONEncoder` does) here.
    func member(_ key: String) -> MaskedJSONNode {
        let child = MaskedJSONNode()
        var members: [(key: String, node: MaskedJSONNode)]
        if case .object(let existing) = content { members = existing } else { members = [] }
        content = .empty
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].node = child
        } else {
            members.append((key, child))
        }
        content = .object(members)
        return child
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    func appendElement() -> MaskedJSONNode {
        let child = MaskedJSONNode()
        var elements: [MaskedJSONNode]
        if case .array(let existing) = content { elements = existing } else { elements = [] }
        content = .empty
        elements.append(child)
        content = .array(elements)
        return child
    }

    func setInteger<Integer: BinaryInteger>(_ value: Integer) {
        content = .number(String(value))
    }

    /// `JSONEncoder` writes integral values without a fraction, which read back as integers.
    func setFloatingPoint(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "not a finite number"))
        }
        if value == value.rounded(), abs(value) < 9.0e15 {
            content = .number(String(Int64(value)))
        } else {
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            content = .number(text)
        }
    }

    func encode<Value: Encodable>(_ value: Value) throws {
        switch value {
        case let url as URL: content = .string(url.absoluteString)
        case let date as Date: try setFloatingPoint(date.timeIntervalSinceReferenceDate)
        default: try value.encode(to: MaskedJSONEncoder(node: self))
        }
    }
}

struct MaskedJSONEncoder: Encoder {
    let node: MaskedJSONNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(MaskedJSONKeyedContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return MaskedJSONUnkeyedContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        MaskedJSONSingleValueContainer(node: node)
    }
}

struct MaskedJSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: MaskedJSONNode
    var codingPath: [any CodingKey] = []

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.member(key.stringValue).content = .bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.member(key.stringValue).content = .string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try node.member(key.stringValue).setFloatingPoint(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try node.member(key.stringValue).setFloatingPoint(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.member(key.stringValue).setInteger(value) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { try node.member(key.stringValue).encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(MaskedJSONKeyedContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.makeArray()
        return MaskedJSONUnkeyedContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder { MaskedJSONEncoder(node: node.member("super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { MaskedJSONEncoder(node: node.member(key.stringValue)) }
}

struct MaskedJSONUnkeyedContainer: UnkeyedEncodingContainer {
    let node: MaskedJSONNode
    var codingPath: [any CodingKey] = []
    var count: Int {
        if case .array(let elements) = node.content { elements.count } else { 0 }
    }

    mutating func encodeNil() throws { node.appendElement().content = .null }
    mutating func encode(_ value: Bool) throws { node.appendElement().content = .bool(value) }
    mutating func encode(_ value: String) throws { node.appendElement().content = .string(value) }
    mutating func encode(_ value: Double) throws { try node.appendElement().setFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try node.appendElement().setFloatingPoint(Double(value)) }
    mutating func encode(_ value: Int) throws { node.appendElement().setInteger(value) }
    mutating func encode(_ value: Int64) throws { node.appendElement().setInteger(value) }
    mutating func encode(_ value: UInt64) throws { node.appendElement().setInteger(value) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try node.appendElement().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendElement()
        child.makeObject()
        return KeyedEncodingContainer(MaskedJSONKeyedContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendElement()
        child.makeArray()
        return MaskedJSONUnkeyedContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder { MaskedJSONEncoder(node: node.appendElement()) }
}

struct MaskedJSONSingleValueContainer: SingleValueEncodingContainer {
    let node: MaskedJSONNode
    var codingPath: [any CodingKey] = []

    mutating func encodeNil() throws { node.content = .null }
    mutating func encode(_ value: Bool) throws { node.content = .bool(value) }
    mutating func encode(_ value: String) throws { node.content = .string(value) }
    mutating func encode(_ value: Double) throws { try node.setFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try node.setFloatingPoint(Double(value)) }
    mutating func encode(_ value: Int) throws { node.setInteger(value) }
    mutating func encode(_ value: Int8) throws { node.setInteger(value) }
    mutating func encode(_ value: Int16) throws { node.setInteger(value) }
    mutating func encode(_ value: Int32) throws { node.setInteger(value) }
    mutating func encode(_ value: Int64) throws { node.setInteger(value) }
    mutating func encode(_ value: UInt) throws { node.setInteger(value) }
    mutating func encode(_ value: UInt8) throws { node.setInteger(value) }
    mutating func encode(_ value: UInt16) throws { node.setInteger(value) }
    mutating func encode(_ value: UInt32) throws { node.setInteger(value) }
    mutating func encode(_ value: UInt64) throws { node.setInteger(value) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try node.encode(value) }
}

/// Compact JSON as `JSONSerialization` writes it with `.sortedKeys, .withoutEscapingSlashes`,
/// for the simulated project's tokens, made on every sign-in.
public enum CompactJSON {
    /// `object` holds strings, integers, Booleans, arrays and dictionaries of them; nil for
    /// anything else.
    public static func string(_ object: [String: Any]) -> String? {
        guard let root = node(object) else { return nil }
        var writer = MaskedJSONWriter(pretty: false, masking: false)
        writer.write(root, key: nil)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func node(_ value: Any) -> MaskedJSONNode? {
        let node = MaskedJSONNode()
        switch value {
        case let text as String: node.content = .string(text)
        case let flag as Bool: node.content = .bool(flag)
        case let number as Int: node.setInteger(number)
        case let dictionary as [String: Any]:
            var members: [(key: String, node: MaskedJSONNode)] = []
            for (key, member) in dictionary {
                guard let child = self.node(member) else { return nil }
                members.append((key, child))
            }
            node.content = .object(members)
        case let array as [Any]:
            var elements: [MaskedJSONNode] = []
            for element in array {
                guard let child = self.node(element) else { return nil }
                elements.append(child)
            }
            node.content = .array(elements)
        default: return nil
        }
        return node
    }
}

/// Writes the tree the way `JSONSerialization` writes with `.sortedKeys,
/// .withoutEscapingSlashes` (and `.prettyPrinted` when `pretty`), masking strings by the key
/// they sit under when `masking`.
struct MaskedJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var indent = 0
    let pretty: Bool
    let masking: Bool

    init(pretty: Bool = true, masking: Bool = true) {
        self.pretty = pretty
        self.masking = masking
        bytes.reserveCapacity(512)
    }

    mutating func write(_ node: MaskedJSONNode, key: String?) {
        switch node.content {
        // A value that encoded nothing is an empty object to `JSONEncoder`.
        case .empty: write(MaskedJSONNode.emptyObject, key: key)
        case .null: append("null")
        case .string(let text):
            guard masking else { return string(text) }
            string(key.map { SecretMasking.mask(text, named: $0) } ?? SecretMasking.maskLinks(in: text))
        case .number(let text): append(text)
        case .bool(let value): append(value ? "true" : "false")
        case .array(let elements):
            open("[")
            for (index, element) in elements.enumerated() {
                separate(index)
                // Strings in an array are masked by the array's key.
                write(element, key: key)
            }
            close("]")
        case .object(let members):
            open("{")
            let sorted = members.sorted { MaskedJSONWriter.precedes($0.key, $1.key) }
            for (index, member) in sorted.enumerated() {
                separate(index)
                string(member.key)
                append(pretty ? " : " : ":")
                write(member.node, key: member.key)
            }
            close("}")
        }
    }

    private mutating func open(_ bracket: String) {
        append(bracket)
        guard pretty else { return }
        append("\n")
        indent += 2
    }

    private mutating func separate(_ index: Int) {
        if index > 0 { append(pretty ? ",\n" : ",") }
        if pretty { writeIndent() }
    }

    private mutating func close(_ bracket: String) {
        if pretty {
            append("\n")
            indent -= 2
            writeIndent()
        }
        append(bracket)
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeIndent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    /// `JSONSerialization`'s escapes: quote, backslash, and C0 controls (short forms where JSON
    /// has them, else `\u00xx` in lower case); everything else as it is.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x00..<0x20: append("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Key order of `JSONSerialization`'s `.sortedKeys` (a numeric, case-insensitive collation:
    /// `_`, then digits, then letters) for keys of letters, digits and `_`; other keys are
    /// compared as Foundation does.
    static func precedes(_ left: String, _ right: String) -> Bool {
        func isPlain(_ byte: UInt8) -> Bool { byte.isASCIILetter || byte.isASCIIDigit || byte == .underscore }
        guard left.utf8.allSatisfy(isPlain), right.utf8.allSatisfy(isPlain) else {
            return left.compare(right, options: [.numeric, .caseInsensitive, .forcedOrdering]) == .orderedAscending
        }
        func weight(_ byte: UInt8) -> UInt8 { byte == .underscore ? 0 : byte.asciiLowercased }
        let a = Array(left.utf8), b = Array(right.utf8)
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
