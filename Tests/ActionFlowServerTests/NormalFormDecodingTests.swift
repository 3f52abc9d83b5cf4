import ActionFlowModel
@testable import ActionFlowServer
import Foundation
import PropertyBased
import Testing

/// serve reads request bodies in normal form straight from their bytes (`RESTMapping.decodeNormal`,
/// with `JSONDecoder`): whatever that path reads, it reads as `JSONDecoder` does, and what it
/// cannot read it refuses (serve then goes the general way).
@Suite struct NormalFormDecodingTests {
    struct Sample: Decodable, Equatable {
        enum Kind: String, Decodable { case plain = "A", awkward = "b\"/\\\n" }
        var text: String
        var optionalText: String?
        var flag: Bool?
        var kind: Kind?
        var list: [String]?
        var flags: [Bool?]?
        var children: [Sample]?
        var table: [String: String]?
        var nested: Nested?
    }

    /// Read by hand through nested containers, `decodeNil` and `allKeys`.
    struct Nested: Decodable, Equatable {
        var name: String?
        var values: [String]
        var keys: [String]
        enum Keys: String, CodingKey { case name, inner, values }
        enum InnerKeys: String, CodingKey { case name }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            keys = container.allKeys.map(\.stringValue).sorted()
            let inner = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            name = try inner.decodeNil(forKey: .name) ? nil : inner.decode(String.self, forKey: .name)
            var list = try container.nestedUnkeyedContainer(forKey: .values)
            values = []
            while !list.isAtEnd {
                if try list.decodeNil() { values.append("null") } else { values.append(try list.decode(String.self)) }
            }
        }
    }

    static let strings = [#""""#, #""a""#, #""\"\\\/\b\f\n\r\t""#, #""é漢字🙂""#, #""A""#, #""b\"/\\\n""#, #""key\":1,""#]
    static let scalars = strings + ["true", "false", "null"]

    /// A JSON text shaped by `script`: members of `Sample`, one in five of a random kind.
    static func json(_ script: [Int], depth: Int = 0) -> String {
        var cursor = script.makeIterator()
        func next() -> Int { cursor.next() ?? 0 }
        func pick(_ values: [String]) -> String { values[next() % values.count] }
        func typed(_ good: () -> String) -> String { next() % 5 == 0 ? pick(scalars) : good() }
        func list(_ element: () -> String) -> String { "[" + (0..<(next() % 4)).map { _ in element() }.joined(separator: ", ") + "]" }
        let text = { pick(strings) }
        let flag = { pick(["true", "false", "null"]) }
        var members = [#""text": \#(typed(text))"#]
        let optional: [(String, () -> String)] = [
            ("optionalText", { typed { pick(strings + ["null"]) } }), ("flag", { typed(flag) }),
            ("kind", { typed { pick([#""A""#, #""b\"/\\\n""#, "null"]) } }),
            ("list", { typed { list(text) } }), ("flags", { typed { list(flag) } }),
            ("table", { typed { "{" + (0..<(next() % 3)).map { #""k\#($0)": \#(text())"# }.joined(separator: ",") + "}" } }),
            ("nested", { typed { #"{"values": \#(list { pick(strings + ["null"]) }), "inner": {"name": \#(pick(strings + ["null"]))}\#(next() % 2 == 0 ? #", "name": "x""# : "")}"# } }),
            ("children", { depth < 2 ? list { json(Array(script.dropFirst(3)), depth: depth + 1) } : "[]" }),
        ]
        for (name, value) in optional where next() % 3 != 0 {
            members.append("\"\(name)\" :\(value())")
        }
        return "{ " + members.joined(separator: ",\n") + " }"
    }

    /// What serve's path for bodies in normal form reads of `json`; nil when it leaves the body
    /// to the general way.
    static func readFromBytes<Value: Decodable>(_ json: String, as _: Value.Type) -> Value? {
        readFromBytes(Data(json.utf8), as: Value.self)
    }

    static func readFromBytes<Value: Decodable>(_ json: Data, as _: Value.Type) -> Value? {
        let request = APIRequest(method: "POST", path: "/", headers: ["Content-Type": "application/json"], body: json)
        return (try? RESTMapping.body(from: request)).flatMap { RESTMapping.decodeNormal($0, as: Value.self)?.wire }
    }

    static func bothRead<Value: Decodable & Equatable>(_ json: String, as _: Value.Type) -> (wire: Value?, foundation: Value?) {
        (readFromBytes(json, as: Value.self), try? JSONDecoder().decode(Value.self, from: Data(json.utf8)))
    }

    @Test("Generated bodies: what it reads, JSONDecoder reads the same; what JSONDecoder reads of them, it reads too")
    func generatedBodiesAgree() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...1_000).array(of: 0...40)) { script in
            let json = Self.json(script)
            let (wire, foundation) = Self.bothRead(json, as: Sample.self)
            #expect(wire == foundation, "\(json)")
        }
    }

    @Test("Most generated bodies are read, so that the agreement above is not between two refusals")
    func mostGeneratedBodiesAreRead() {
        var generator = SystemRandomNumberGenerator()
        let bodies = (0..<400).map { _ in Self.json((0..<30).map { _ in Int.random(in: 0...1_000, using: &generator) }) }
        let read = bodies.filter { Self.bothRead($0, as: Sample.self).wire != nil }.count
        #expect(read > bodies.count / 4 && read < bodies.count, "\(read) of \(bodies.count)")
    }

    @Test("Broken generated bodies: anything it still reads, JSONDecoder reads the same")
    func brokenBodiesNeverReadOtherwise() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...1_000).array(of: 1...40), Gen.int(in: 0...10_000)) { script, cut in
            var bytes = Array(Self.json(script).utf8)
            let position = cut % bytes.count
            switch cut % 4 {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(UInt8(ascii: ","), at: position)
            case 2: bytes.insert(UInt8(ascii: "\\"), at: position)
            default: bytes[position] = 0xC3
            }
            let json = String(decoding: bytes, as: UTF8.self)
            let (wire, foundation) = Self.bothRead(json, as: Sample.self)
            if wire != nil { #expect(wire == foundation, "\(json)") }
        }
    }

    @Test("Real request types read the same", arguments: [
        #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://www.example.com/finish?a=b&c=d","canHandleCodeInApp":true}"#,
        #"{"requestType":"PASSWORD_RESET","email":"q\"u\\o/te@example.com","iOSBundleId":"com.example.ios","androidInstallApp":false,"tenantId":null}"#,
        #"{"requestType":"VERIFY_EMAIL","idToken":"a.b.c","dynamicLinkDomain":"example.page.link","linkDomain":"links.example.com"}"#,
        #"{"requestType":"NOT_A_TYPE","email":"a@example.com"}"#,
        #"{"email":"a@example.com"}"#,
    ])
    func requestTypes(_ json: String) {
        let send = Self.bothRead(json, as: SendOobCodeRequest.self)
        #expect(send.wire == send.foundation)
        let lookup = Self.bothRead(json, as: LookupRequest.self)
        #expect(lookup.wire == lookup.foundation)
    }

    @Test("It refuses what it does not read the way JSONDecoder does, or what is not JSON", arguments: [
        #"{"text":"a","flag":1}"#,
        #"{"text":"\u0041"}"#,
        #"{"text":"a","text":"b"}"#,
        "{\"text\":\"a\u{1}\"}",
        #"{"text":"a"} x"#,
        #"{"text":"a""#,
        #"{"text" "a"}"#,
        #"{"text":"a\q"}"#,
        #"{"text":tru}"#,
        #"["a"]"#,
        "",
    ])
    func refusals(_ json: String) {
        #expect(Self.readFromBytes(json, as: Sample.self) == nil)
    }

    @Test("A trailing comma in an object, which both of Foundation's parsers accept, reads the same from the bytes as the general way")
    func trailingComma() throws {
        let json = #"{"text":"a",}"#
        let general: Sample? = try? RESTMapping.decode(RESTMapping.parseNormalised(Data(json.utf8)))
        #expect(Self.readFromBytes(json, as: Sample.self) == Sample(text: "a"))
        #expect(general == Sample(text: "a"))
    }

    @Test("Bytes that are not UTF-8, numbers wherever a type asks for one, and nesting past JSONDecoder's limit are refused")
    func otherRefusals() throws {
        #expect(Self.readFromBytes(Data([UInt8](#"{"text":""#.utf8) + [0xC3, 0x28] + [UInt8](#""}"#.utf8)), as: Sample.self) == nil)
        struct Count: Decodable { var count: Int }
        #expect(Self.readFromBytes(#"{"count":"1"}"#, as: Count.self) == nil)
        // Lists in lists, to any depth; `JSONDecoder` stops at 512.
        struct Nest: Decodable {
            var inner: [Nest]
            init(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode([Nest].self) }
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(Self.readFromBytes(#"{"lists":"# + deep + "}", as: [String: Nest].self) == nil)
        #expect(Self.readFromBytes(#"{"lists":[[]]}"#, as: [String: Nest].self) != nil)
        struct Lists: Decodable, Equatable { var lists: [[String]] }
        #expect(Self.readFromBytes(#" { "lists" : [ [ "a" ] , [ ] ] } "#, as: Lists.self) == Lists(lists: [["a"], []]))
    }
}
