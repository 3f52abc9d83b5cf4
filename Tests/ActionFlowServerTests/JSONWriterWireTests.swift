import ActionFlowModel
@testable import ActionFlowServer
import Foundation
import PropertyBased
import Testing

/// serve writes its answers with `JSONWriter` in the `.wire` format: the JSON `JSONEncoder`
/// writes, scalars byte for byte, with object members in the order encoded. (Debug builds also
/// compare the two on every answer, so every test that talks to serve checks the real wire types.)
@Suite struct JSONWriterWireTests {
    struct Empty: Encodable {}

    struct Sample: Encodable {
        enum Kind: String, Encodable { case plain = "A", awkward = "b\"/\\\n" }
        var text: String
        var optionalText: String?
        var number: Int?
        var wide: Int64?
        var small: UInt8?
        var flag: Bool?
        var ratio: Double?
        var kind: Kind?
        var list: [String]?
        var children: [Sample]?
        var table: [String: Int]?
        var empty: Empty?
        var nested: Nested?
    }

    /// Written by hand with nested containers and nulls, in order.
    struct Nested: Encodable {
        var name: String
        var values: [Int]
        enum Keys: String, CodingKey { case name, inner, values, missing }
        enum InnerKeys: String, CodingKey { case name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try inner.encode(name, forKey: .name)
            var list = container.nestedUnkeyedContainer(forKey: .values)
            for value in values { try list.encode(value) }
            try list.encodeNil()
            try container.encodeNil(forKey: .missing)
            try container.encode(name, forKey: .name)
        }
    }

    static let strings = ["", "a", "\"", "\\", "/", "\n\t\r\u{8}\u{c}", "\u{0}\u{1}\u{1f}\u{7f}", "é漢字🙂", "https://x.example/z?a=b&c=d#e", "\u{2028}", "key\":1,"]
    static let doubles: [Double] = [0, -0.0, 1, 1.5, 0.1, 1e20, 1e-7, 123456789.125, -2.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude]

    /// A sample shaped by `script`: each field takes the next number.
    static func sample(_ script: [Int], depth: Int = 0) -> Sample {
        var cursor = script.makeIterator()
        func next() -> Int { cursor.next() ?? 0 }
        func maybe<T>(_ make: () -> T) -> T? { next() % 3 == 0 ? nil : make() }
        var value = Sample(text: strings[next() % strings.count])
        value.optionalText = maybe { strings[next() % strings.count] }
        value.number = maybe { next() - 50 }
        value.wide = maybe { Int64(next()) * -1_000_000_007 }
        value.small = maybe { UInt8(next() % 256) }
        value.flag = maybe { next() % 2 == 0 }
        value.ratio = maybe { doubles[next() % doubles.count] }
        value.kind = maybe { next() % 2 == 0 ? .plain : .awkward }
        value.list = maybe { (0..<(next() % 4)).map { _ in strings[next() % strings.count] } }
        if depth < 2 { value.children = maybe { (0..<(next() % 3)).map { _ in sample(Array(script.dropFirst(depth + 3)), depth: depth + 1) } } }
        value.table = maybe { ["only": next()] }
        value.empty = maybe { Empty() }
        value.nested = maybe { Nested(name: strings[next() % strings.count], values: (0..<(next() % 3)).map { $0 }) }
        return value
    }

    static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// `json` with its objects' members sorted, everything else as written.
    static func sorted(_ json: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else { return nil }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    }

    @Test("Generated values, with every escape, number form, optional, nesting and hand-written container, give JSONEncoder's JSON, members in the order encoded")
    func sameJSON() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1000).array(of: 0...40)) { script in
            let value = Self.sample(script)
            let written = try? Self.wireData(value)
            let expected = try? Self.reference.encode(value)
            #expect(written.flatMap(Self.sorted) == expected.flatMap(Self.sorted))
            #expect(APIResponse.sameJSON(written ?? Data(), expected))
            // Members in encode order: the synthesized encoding's first key comes first.
            #expect(written.map { String(decoding: $0, as: UTF8.self).hasPrefix(#"{"text":"#) } == true)
        }
    }

    @Test("Scalars and collections at the top level")
    func topLevel() throws {
        for value in Self.strings { #expect(try Self.wireData(value) == Self.reference.encode(value)) }
        for value in Self.doubles { #expect(try Self.wireData([value]) == Self.reference.encode([value])) }
        #expect(try Self.wireData(Empty()) == Self.reference.encode(Empty()))
        let nested = Nested(name: "n\"/", values: [1, 2])
        #expect(try Self.wireData(nested) == Data(#"{"inner":{"name":"n\"/"},"values":[1,2,null],"missing":null,"name":"n\"/"}"#.utf8))
        #expect(try Self.wireData([String?.none, "x"]) == Self.reference.encode([String?.none, "x"]))
    }

    /// The same key twice: `JSONEncoder` keeps the last.
    struct Twice: Encodable {
        enum Keys: String, CodingKey { case b, a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            try container.encode("x/y", forKey: .b)
            try container.encode(3, forKey: .a)
        }
    }

    @Test("Sorted keys, pretty printing and escaped slashes give JSONEncoder's bytes")
    func sortedFormats() async throws {
        let formats: [(JSONWriter.Format, JSONEncoder.OutputFormatting)] = [
            (JSONWriter.Format(sortedKeys: true), [.sortedKeys, .withoutEscapingSlashes]),
            (JSONWriter.Format(sortedKeys: true, escapesSlashes: true), [.sortedKeys]),
            (JSONWriter.Format(pretty: true, sortedKeys: true), [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
        ]
        for (format, formatting) in formats {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            #expect(try JSONWriter.data(Twice(), format: format) == encoder.encode(Twice()))
            #expect(try JSONWriter.data(Empty(), format: format) == encoder.encode(Empty()))
            for value in Self.strings { #expect(try JSONWriter.data([value: value], format: format) == encoder.encode([value: value])) }
        }
        await propertyCheck(count: 100, input: Gen.int(in: 0...1000).array(of: 0...40)) { script in
            let value = Self.sample(script)
            for (format, formatting) in formats {
                let encoder = JSONEncoder()
                encoder.outputFormatting = formatting
                let written = try? JSONWriter.data(value, format: format)
                #expect(written != nil)
                #expect(written == (try? encoder.encode(value)))
            }
        }
    }

    /// The one writer, in serve's format.
    static func wireData(_ value: some Encodable) throws -> Data { try JSONWriter.data(value, format: .wire) }

    /// Out of order: a nested container written to after its parent moved on.
    struct OutOfOrder: Encodable {
        enum Keys: String, CodingKey { case first, second }
        enum InnerKeys: String, CodingKey { case late }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .first)
            try container.encode(1, forKey: .second)
            try first.encode(2, forKey: .late)
        }
    }

    /// A super encoder, which `JSONEncoder` writes under `super`.
    struct WithSuper: Encodable {
        enum Keys: String, CodingKey { case own }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .own)
            try "parent".encode(to: container.superEncoder())
        }
    }

    /// An object, then a list asked of the same encoder.
    struct TwoKinds: Encodable {
        enum Keys: String, CodingKey { case own }
        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: Keys.self)
            try object.encode(1, forKey: .own)
            var list = encoder.unkeyedContainer()
            try list.encode(2)
        }
    }

    @Test("What it cannot write the same way it refuses, so that serve uses JSONEncoder")
    func refusesWhatItWouldWriteDifferently() {
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData(OutOfOrder()) }
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData(WithSuper()) }
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData(TwoKinds()) }
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData(["when": Date(timeIntervalSince1970: 0)]) }
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData([Float(0.1)]) }
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData([Data([1, 2])]) }
        #expect(throws: JSONWriter.Unsupported.self) { try Self.wireData([Double.nan]) }
        #expect(APIResponse.json(["when": Date(timeIntervalSince1970: 0)]).body == (try? Self.reference.encode(["when": Date(timeIntervalSince1970: 0)])))
    }
}
