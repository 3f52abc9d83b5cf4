import Foundation

extension JSONWriter {
    /// `value` as `JSONEncoder` writes it with `format`'s options (see `Format`), or
    /// `Unsupported`. Like synthesized `Codable`, it expects each key once per object unless
    /// the keys are sorted (`JSONEncoder` keeps the last).
    public static func data(_ value: some Encodable, format: Format) throws -> Data {
        try encoding(value, format: format) { writer, _ in writer.data }
    }

    public static func string(_ value: some Encodable, format: Format) throws -> String {
        try encoding(value, format: format) { writer, _ in writer.text }
    }

    /// `--json`'s text: `value` in the `command` format, or `{}` for one it refuses (the commands
    /// print strings, numbers, Booleans and lists of them only).
    public static func commandOutput(_ value: some Encodable) -> String {
        (try? string(value, format: .command)) ?? "{}"
    }

    /// `value` (a string, integer, Boolean, null, or array or dictionary of them, as built in
    /// code or as `JSONSerialization.jsonObject` returns it) as `JSONSerialization` writes it;
    /// nil for anything else (a fraction, a date...). With `masksSecrets`, strings are masked by
    /// the key they sit under.
    public static func string(plain value: Any, format: Format) -> String? {
        var writer = JSONWriter(format: format)
        do throws(Unsupported) {
            try writer.plain(value, depth: 0, maskKey: nil)
        } catch {
            return nil
        }
        return writer.text
    }

    /// Written directly rather than through an encoder: every exchange `serve --inspect` shows
    /// has its bodies written this way, and the encoder's containers cost more than the reading.
    private mutating func plain(_ value: Any, depth: Int, maskKey: String?) throws(Unsupported) {
        // By the value's own type first: a failed cast to a class (`NSNull`) bridges a whole
        // dictionary to Foundation to find out, and a cast would turn a parsed 0 or 1 into `Bool`.
        let kind = type(of: value)
        if kind == String.self { return plainString(value as! String, maskKey: maskKey) }
        if kind == [String: Any].self { return try plainObject(value as! [String: Any], depth: depth) }
        if kind == [Any].self { return try plainArray(value as! [Any], depth: depth, maskKey: maskKey) }
        if kind is NSNumber.Type {
            let number = unsafeDowncast(value as AnyObject, to: NSNumber.self)
            if IdentityToolkitMapping.isBoolean(number) { return bool(number.boolValue) }
            // Integers only: Foundation writes fractions its own way.
            guard "csilqCSIL".utf8.contains(UInt8(bitPattern: number.objCType.pointee)), let whole = Int(exactly: number.int64Value) else { throw Unsupported() }
            return integer(whole)
        }
        if kind is NSNull.Type { return null() }
        if kind == Int.self { return integer(value as! Int) }
        if kind == Bool.self { return bool(value as! Bool) }
        // Built in code: `[String]`, `[String: String]`... converted by a cast (and an
        // `NSString` to `String`); Booleans and integers were all told apart above.
        switch value {
        case let text as String:
            plainString(text, maskKey: maskKey)
        case let dictionary as [String: Any]:
            try plainObject(dictionary, depth: depth)
        case let array as [Any]:
            try plainArray(array, depth: depth, maskKey: maskKey)
        default:
            throw Unsupported()
        }
    }

    private mutating func plainString(_ text: String, maskKey: String?) {
        guard format.masksSecrets else { return string(text) }
        string(maskKey.map { SecretMasking.mask(text, named: $0) } ?? SecretMasking.maskLinks(in: text))
    }

    private mutating func plainObject(_ dictionary: [String: Any], depth: Int) throws(Unsupported) {
        openContainer(UInt8(ascii: "{"))
        let keys = format.sortedKeys ? Self.sortedKeys(dictionary.keys) : Array(dictionary.keys)
        for (position, key) in keys.enumerated() {
            beginElement(first: position == 0, depth: depth + 1)
            objectKey(key)
            try plain(dictionary[key]!, depth: depth + 1, maskKey: key)
        }
        closeContainer(UInt8(ascii: "}"), depth: depth)
    }

    private mutating func plainArray(_ array: [Any], depth: Int, maskKey: String?) throws(Unsupported) {
        openContainer(UInt8(ascii: "["))
        for (position, element) in array.enumerated() {
            beginElement(first: position == 0, depth: depth + 1)
            // An array's strings are masked by the key the array sits under.
            try plain(element, depth: depth + 1, maskKey: maskKey)
        }
        closeContainer(UInt8(ascii: "]"), depth: depth)
    }

    /// Writes `value` in one pass and hands over the bytes, and whether the value wrote nothing
    /// at all (no container, no scalar).
    static func encoding<Result>(_ value: some Encodable, format: Format, _ body: (borrowing JSONWriter, Bool) -> Result) throws -> Result {
        let state = JSONEncodingState(format: format)
        let wroteSomething = try state.writeValue(value, codingPath: [])
        guard !state.refused else { throw Unsupported() }
        return body(state.output, !wroteSomething)
    }
}

/// The writer and the containers still open, innermost last, shared by the encoders of one value.
final class JSONEncodingState {
    var output: JSONWriter
    /// A copy of the output's, read without an exclusivity check.
    let format: JSONWriter.Format
    private var open: [OpenContainer] = []
    /// Set by a use that `JSONEncoder` would write otherwise: the bytes are then not its JSON.
    /// (Containers and super encoders cannot throw when they are made, only record it.)
    private(set) var refused = false

    struct OpenContainer {
        let close: UInt8
        var hasElement = false
        /// The key strings directly inside are masked by: the current member's in an object,
        /// the enclosing one's in an array.
        var maskKey: String?
        /// Filled only when keys are sorted.
        var members: [JSONWriter.MemberStart] = []
    }

    init(format: JSONWriter.Format) {
        self.format = format
        output = JSONWriter(format: format)
    }

    var depth: Int { open.count }

    /// The types `writeValue` writes or refuses itself; any other goes straight to its encoder.
    private static let scalarTypes: Set<ObjectIdentifier> = Set([
        String.self, Bool.self, Int.self, Double.self, Int64.self, Int32.self, Int16.self, Int8.self,
        UInt.self, UInt64.self, UInt32.self, UInt16.self, UInt8.self, Float.self, Float16.self,
        Date.self, URL.self, Data.self, Decimal.self,
    ].map { ObjectIdentifier($0 as Any.Type) })

    /// Writes one value in place: a scalar, or whatever containers it opens, closed afterwards.
    /// False when it wrote nothing at all.
    @discardableResult
    func writeValue<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> Bool {
        // One set lookup instead of a failed cast per case for every struct and list written:
        // the casts showed in `serve`'s profile.
        guard Self.scalarTypes.contains(ObjectIdentifier(Value.self)) else {
            return try writeEncoded(value, codingPath: codingPath)
        }
        switch value {
        case let string as String: writeString(string)
        case let bool as Bool: output.bool(bool)
        case let int as Int: output.integer(int)
        case let double as Double: try output.number(double)
        // Each integer type by name: a cast to `any FixedWidthInteger` searches the runtime's
        // conformance tables.
        case let integer as Int64: output.integer(integer)
        case let integer as Int32: output.integer(integer)
        case let integer as Int16: output.integer(integer)
        case let integer as Int8: output.integer(integer)
        case let integer as UInt: output.integer(integer)
        case let integer as UInt64: output.integer(integer)
        case let integer as UInt32: output.integer(integer)
        case let integer as UInt16: output.integer(integer)
        case let integer as UInt8: output.integer(integer)
        case let url as URL: writeString(url.absoluteString)
        case let date as Date:
            switch format.dates {
            case .refused: throw JSONWriter.Unsupported()
            case .secondsSinceReferenceDate: try output.number(date.timeIntervalSinceReferenceDate)
            case .secondsSince1970: try output.number(date.timeIntervalSince1970)
            }
        default:
            // Float, Data and Decimal, which `JSONEncoder` writes its own way.
            throw JSONWriter.Unsupported()
        }
        return true
    }

    /// Writes a value through its own `encode(to:)`: whatever containers it opens, closed afterwards.
    private func writeEncoded(_ value: some Encodable, codingPath: [any CodingKey]) throws -> Bool {
        let level = depth
        let start = output.count
        try value.encode(to: JSONValueEncoder(state: self, level: level, codingPath: codingPath))
        let wroteSomething = output.count != start
        // A value that wrote nothing is an empty object to `JSONEncoder`.
        if !wroteSomething { openContainer(UInt8(ascii: "{"), closing: UInt8(ascii: "}"), at: level) }
        close(downTo: level)
        return wroteSomething
    }

    func refuse() { refused = true }

    /// Opens a container at `level`, or takes the one a value asked for before; refuses any other
    /// (a container used out of order, or one of the other kind).
    func openContainer(_ opening: UInt8, closing: UInt8, at level: Int) {
        if depth == level {
            output.openContainer(opening)
            let inherited = format.masksSecrets && opening == UInt8(ascii: "[") && level > 0 ? open[level - 1].maskKey : nil
            open.append(OpenContainer(close: closing, maskKey: inherited))
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
        let first = !open[level].hasElement
        open[level].hasElement = true
        let separator = output.count
        output.beginElement(first: first, depth: level + 1)
        if let key {
            if format.sortedKeys { open[level].members.append(JSONWriter.MemberStart(name: key, separator: separator, key: output.count)) }
            if format.masksSecrets { open[level].maskKey = key }
            output.objectKey(key)
        }
        return true
    }

    func close(downTo level: Int) {
        while depth > level {
            let container = open.removeLast()
            if container.members.count > 1 { output.sortMembers(container.members, depth: depth + 1) }
            output.closeContainer(container.close, depth: depth)
        }
    }

    func writeString(_ string: String) {
        guard format.masksSecrets else { return output.string(string) }
        let key = open.last?.maskKey
        output.string(key.map { SecretMasking.mask(string, named: $0) } ?? SecretMasking.maskLinks(in: string))
    }

    /// A super encoder (`JSONEncoder` nests its value under `super` or the key): refused, and
    /// what is written to it is dropped with the rest.
    fileprivate func refusedEncoder(_ codingPath: [any CodingKey]) -> any Encoder {
        refuse()
        return JSONValueEncoder(state: self, level: depth, codingPath: codingPath)
    }
}

private struct JSONValueEncoder: Encoder {
    let state: JSONEncodingState
    /// The depth at which this value's container opens.
    let level: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONKeyedContainer<Key>(state: state, level: level, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedContainer(state: state, level: level, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(state: state, codingPath: codingPath)
    }
}

/// Opens its object when made, so that an object with no member still writes `{}`.
private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: JSONEncodingState
    let level: Int
    let codingPath: [any CodingKey]

    init(state: JSONEncodingState, level: Int, codingPath: [any CodingKey]) {
        self.state = state
        self.level = level
        self.codingPath = codingPath
        state.openContainer(UInt8(ascii: "{"), closing: UInt8(ascii: "}"), at: level)
    }

    private func begin(_ key: Key) { state.beginElement(in: level, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws {
        begin(key)
        state.output.null()
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        begin(key)
        state.writeString(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        begin(key)
        state.output.bool(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        begin(key)
        state.output.integer(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        begin(key)
        try state.output.number(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        begin(key)
        try state.writeValue(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        begin(key)
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(state: state, level: level + 1, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        begin(key)
        return JSONUnkeyedContainer(state: state, level: level + 1, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { state.refusedEncoder(codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { state.refusedEncoder(codingPath + [key]) }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let state: JSONEncodingState
    let level: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(state: JSONEncodingState, level: Int, codingPath: [any CodingKey]) {
        self.state = state
        self.level = level
        self.codingPath = codingPath
        state.openContainer(UInt8(ascii: "["), closing: UInt8(ascii: "]"), at: level)
    }

    private mutating func begin() {
        if state.beginElement(in: level, key: nil) { count += 1 }
    }

    mutating func encodeNil() throws {
        begin()
        state.output.null()
    }

    mutating func encode(_ value: String) throws {
        begin()
        state.writeString(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        try state.writeValue(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        begin()
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(state: state, level: level + 1, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        begin()
        return JSONUnkeyedContainer(state: state, level: level + 1, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { state.refusedEncoder(codingPath) }
}

private struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let state: JSONEncodingState
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { state.output.null() }
    mutating func encode(_ value: String) throws { state.writeString(value) }
    mutating func encode(_ value: Bool) throws { state.output.bool(value) }
    mutating func encode(_ value: Int) throws { state.output.integer(value) }
    mutating func encode(_ value: Double) throws { try state.output.number(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try state.writeValue(value, codingPath: codingPath) }
}

