@testable import ActionFlowBackend
import Foundation
import PropertyBased
import Testing
import Yams

/// The hand-written matcher must give every plain scalar the tag Yams' regex rules give it:
/// project and scenario files read `true`, `0x1F`, `1:30` or `~` exactly as before.
@Suite struct YAMLComposerTests {
    static func defaultTag(of text: String) -> Yams.Tag.Name {
        Resolver.default.resolveTag(of: Node(text, Yams.Tag(.implicit, .default, .default)))
    }

    static func expectSameTag(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = defaultTag(of: text)
        #expect(YAMLComposer.implicitTag(of: text) == expected, "\(text.debugDescription) should resolve to \(expected.rawValue)", sourceLocation: sourceLocation)
    }

    /// Every example in Yams' rules and the YAML 1.1 type pages, and near misses of each.
    static let examples = [
        // bool
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "tRue", "yEs", "oN", "y", "n", "Y", "N", "TRUE ", " true", "truee",
        // int
        "0b1010_0111_0100_1010_1110", "-0b1", "+0b_", "0b", "0b2", "0B1", "017", "02472256", "0o17", "-0o17", "+0o_7",
        "0o", "0o8", "00", "0_", "08", "0", "-0", "+0", "-", "+", "12", "685230", "+685_230", "1_000", "-1_000", "_1", "1__",
        "0x1F", "0xff_FF", "-0x1f", "+0x_", "0x", "0xg", "0X1F", "0x0A74AE", "1:30", "190:20:30", "1:60", "1:5", "1:05",
        "1:65", "0:30", "-1:30", "+1:30:00", "1:30:", "1::30", "1:300", "1_0:3_0", ":30", "1:3a",
        // float
        "1.5", "1.", ".5", "._", "._5", ".", "1e5", "1E+5", "1.5e-3", "1e", "1e+", "1e+-5", ".5e5", ".5e+5", ".5E-5",
        "6.8523015e+5", "685.230_15e+03", "685_230.15", "190:20:30.15", "0:30.5", "-1:30.", "1:30.5e3", "1.2.3",
        "--1", "+-1", "1_.5", "0.", "-.5", "+.5", "1.5_", "1e5.5", "1e_5", "09", "-09.9",
        ".inf", "-.inf", "+.inf", "+.Inf", ".INF", ".iNf", "inf", "-.NaN", ".nan", ".NaN", ".NAN", "+.nan", "nan", ".nAn",
        // merge, value
        "<<", "<", "<<<", " <<", "=", "==", "= ",
        // null
        "", "~", "null", "Null", "NULL", "nULL", "~~", "None", " ", "\t",
        // timestamp
        "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-15T02:59:43.1Z",
        "2001-12-15 2:59:43.10", "2002-12-14", "2001-1-1", "2001-1-1T1:00:00", "2001-12-14\t21:59:43",
        "2001-12-14  21:59:43 Z", "2001-12-14 21:59:43 ", "2001-12-14T21:59:43+05:3", "2001-12-14T21:59:43+005",
        "2001-12-14T21:59:43.", "2001-12-14T21:59:43z", "2001-12-14T21:59:43Z ", "201-12-14", "20011-12-14",
        "2001-123-14", "2001-12-14T", "2001-12-14T21:59", "2026-01-15T09:00:00Z", "2001-12-14T21:59:43-0500",
        "2001-12-14T21:59:43 +05:00", "2001-12-14T21:59:43.123456789Z", "2001-12-14T121:59:43Z", "2001-12-14 \t 1:02:03",
        "2001-1-14", "2001-12-1", "2001-12-14 ", "2001-12-14T21:59:43+5:00",
        // text the project and scenario files hold
        "hello", "example.com", "alice@example.com", "1h30m", "90s", "com.example.ios", "HOSTING_DOMAIN",
        "https://example.com/finish?x=1", "password-reset-in-app", "１２", "١٢", "é", "1 2", "true false",
        // a final line break, which the rules' `$` allows
        "true\n", "1\r\n", "\n", "\r\n", "~\u{2028}", "1\u{85}", "null\u{0B}", "1\u{0C}", "1\n\n", "1.5\r",
        "2001-12-14\u{2029}", "\n1", "<<\n", "=\r\n", "1\u{2028}\n",
    ]

    @Test("each example of Yams' rules, and its near misses, gets the default resolver's tag")
    func examplesMatchTheDefaultResolver() {
        for text in Self.examples { Self.expectSameTag(text) }
        // Sanity: the examples reach every tag.
        let tags = Set(Self.examples.map(YAMLComposer.implicitTag(of:)))
        #expect(tags == [.bool, .int, .float, .merge, .null, .timestamp, .value, .str])
    }

    /// Every string of up to 3 characters from an alphabet of what the rules look at, and of
    /// up to 4 from the characters of numbers.
    @Test("every short string of number-like characters gets the default resolver's tag")
    func shortStringsMatchTheDefaultResolver() {
        func strings(of alphabet: [Character], upTo length: Int) -> [String] {
            var all = [""]
            var current = [""]
            for _ in 0..<length {
                current = current.flatMap { prefix in alphabet.map { prefix + String($0) } }
                all += current
            }
            return all
        }
        for text in strings(of: Array("019_:.-+xobeE~nT<=Z t"), upTo: 3) { Self.expectSameTag(text) }
        for text in strings(of: Array("058_:.-e"), upTo: 4) { Self.expectSameTag(text) }
    }

    static let editCharacters = Array("0123456789_:.-+xXoObBeEaAfFtTzZ ~<=\t\nyesnoulrNYLR\u{2028}é")

    @Test("examples with random edits get the default resolver's tag")
    func editedExamplesMatchTheDefaultResolver() async {
        let edits = zip(Gen.int(in: 0...40), Gen.int(in: 0...2), Gen<Character?>.element(of: Self.editCharacters).map { $0! }).array(of: 1...4)
        await propertyCheck(count: 3000, input: Gen<String?>.element(of: Self.examples).map { $0! }, edits) { example, edits in
            var characters = Array(example)
            for (position, kind, character) in edits {
                let index = characters.isEmpty ? 0 : position % (characters.count + (kind == 1 ? 1 : 0))
                switch kind {
                case 0 where index < characters.count: characters[index] = character
                case 1: characters.insert(character, at: index)
                default: if index < characters.count { characters.remove(at: index) }
                }
            }
            Self.expectSameTag(String(characters))
        }
    }

    @Test("random timestamps and numbers get the default resolver's tag")
    func randomTextMatchesTheDefaultResolver() async {
        let timestampLike = Gen<Character?>.element(of: Array("0123456789-:.Tt Z+\t")).map { $0! }.string(of: 8...32)
        let numberLike = Gen<Character?>.element(of: Array("0123456789_:.-+xobeEaF")).map { $0! }.string(of: 1...12)
        await propertyCheck(count: 2000, input: timestampLike, numberLike) { timestamp, number in
            Self.expectSameTag(timestamp)
            Self.expectSameTag(number)
        }
    }

    /// Plain, quoted, tagged and block scalars whose tags the fast path settles by itself.
    static let document = """
        plain: [yes, On, 0x1F, 0o17, 017, 1_000, "1:30", 1:30, .inf, -.Inf, .NaN, ~, null, '', <<, =, 2001-12-14, tRuE, text]
        quoted: ["true", 'yes', "12", "~", "null", "2001-12-14"]
        tagged: [!!int "12", !!bool "yes", ! 12, !!float 1, !!str text, !!null '']
        blocks:
          literal: |
            true
          folded: >
            12
        anchored: &shared 1:30
        alias: *shared
        empty:
        multiline: 1
          2
        nested: [{one: [off, 1e3]}, [[~]]]
        """

    /// Keys that are not text, and `!!str` on text that reads as another type: Yams' duplicate-key
    /// check settles keys' tags to `str`, so these take the default resolver's way.
    static let typedKeys = [
        "? 12\n: twelve", "? [on, 1.5]\n: complex key", "tagged: [!!str true, !!str 12, !!str ~]",
        "!!str 13: explicit key", "&plainKey 14: anchored key", "&taggedKey !!str 15: anchored explicit key",
        "shared: &sharedValue 16\n*sharedValue : alias key", "é ü: {!!str 19: x, 20: y, ! 21: z}",
    ]
    static let documentWithTypedKeys = typedKeys.joined(separator: "\n")

    /// Compares two trees node by node: kind, text, tag, style, place and the typed reads.
    static func expectSame(_ node: Node, _ expected: Node, at path: String) {
        #expect(node.tag == expected.tag, "\(path): tag \(node.tag) instead of \(expected.tag)")
        #expect(node.mark?.line == expected.mark?.line && node.mark?.column == expected.mark?.column, "\(path): mark")
        switch (node, expected) {
        case (.scalar(let scalar), .scalar(let expectedScalar)):
            #expect(scalar.string == expectedScalar.string, "\(path): text")
            #expect(scalar.style == expectedScalar.style, "\(path): style")
            #expect(node.bool == expected.bool && node.int == expected.int && node.string == expected.string, "\(path): typed reads")
            #expect((node.null == nil) == (expected.null == nil), "\(path): null")
        case (.mapping(let mapping), .mapping(let expectedMapping)):
            #expect(mapping.count == expectedMapping.count, "\(path): entries")
            for ((key, value), (expectedKey, expectedValue)) in zip(mapping, expectedMapping) {
                expectSame(key, expectedKey, at: "\(path).key(\(expectedKey.string ?? "?"))")
                expectSame(value, expectedValue, at: "\(path).\(expectedKey.string ?? "?")")
            }
        case (.sequence(let sequence), .sequence(let expectedSequence)):
            #expect(sequence.count == expectedSequence.count, "\(path): items")
            for (index, (item, expectedItem)) in zip(sequence, expectedSequence).enumerated() {
                expectSame(item, expectedItem, at: "\(path)[\(index)]")
            }
        default:
            Issue.record("\(path): \(node) instead of \(expected)")
        }
    }

    @Test("a composed document has the tags, text, styles and lines Yams' default composition gives",
          arguments: [document, documentWithTypedKeys])
    func composedDocumentMatchesYams(_ document: String) throws {
        let node = try #require(try YAMLComposer.compose(document))
        Self.expectSame(node, try #require(try Yams.compose(yaml: document)), at: "root")
    }

    @Test("the regex rules are left out unless a key or a !!str leaves the tag to them")
    func whenTheDefaultResolverDecides() throws {
        let basic = try #require(try Yams.compose(yaml: Self.document, .basic))
        let node = try #require(YAMLComposer.resolvingPlainScalars(basic))
        #expect(node["plain"]?[0]?.bool == true)
        #expect(node["plain"]?[2]?.int == 31)
        #expect(node["plain"]?[17]?.bool == true, "Yams reads tRuE as true unless it is quoted")
        #expect(node["quoted"]?[0]?.bool == nil)
        #expect(node["tagged"]?[0]?.tag == Yams.Tag(.int))
        #expect(node["alias"]?.tag == Yams.Tag(.int))
        #expect(node["nested"]?[0]?["one"]?[1]?.tag == Yams.Tag(.float))
        for document in Self.typedKeys {
            let basic = try #require(try Yams.compose(yaml: document, .basic))
            #expect(YAMLComposer.resolvingPlainScalars(basic) == nil, "\(document)")
        }
    }

    @Test("the shipped project, scenarios and stories are read without the regex rules")
    func shippedFilesTakeTheFastPath() throws {
        let folders = [BundledResources.scenariosDirectory, BundledResources.storiesDirectory]
        let files = try [BundledResources.defaultProjectFile] + folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "yaml" }
        }
        #expect(files.count > 10)
        for file in files {
            let basic = try #require(try Yams.compose(yaml: String(contentsOf: file, encoding: .utf8), .basic))
            #expect(YAMLComposer.resolvingPlainScalars(basic) != nil, "\(file.lastPathComponent) needs the default resolver")
        }
    }

    @Test("a plain key and a quoted key with the same text are two keys; real duplicates are still refused")
    func duplicateKeys() throws {
        let node = try #require(try YAMLComposer.compose("1: plain\n\"1\": quoted\n"))
        #expect(node.mapping?.count == 2)
        #expect(node.mapping?.keys.map(\.tag) == [Yams.Tag(.int), Yams.Tag(.str)])
        #expect(throws: YamlError.self) { try YAMLComposer.compose("a: 1\nb: 2\na: 3\n") }
        #expect(try YAMLComposer.compose("") == nil)
    }
}
