import ActionFlowModel
@testable import ActionFlowCommands
import Foundation
import Testing

/// `inspect --jsonl`, run as a process the way a reviewer pipes a mail log through it.
@Suite("inspect --jsonl: one link per line in, one JSON object per line out")
struct InspectStreamTests {
    static let binary = CastExportTests.packageRoot.appendingPathComponent(".build/debug/actionflow").path
    static let resetLink = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=CODE123&apiKey=AIzaFake&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42&lang=fr"
    static let wrappedLink = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + resetLink.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

    private func objects(_ output: Data) throws -> [[String: Any]] {
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// The object `inspect LINK --json` prints.
    private func single(_ link: String, _ extra: [String] = []) throws -> [String: Any] {
        let result = try CastExportTests.run(Self.binary, ["inspect", link, "--json"] + extra)
        return try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
    }

    @Test("Errors, empty lines, invalid UTF-8, long lines and CRLF each give one line; the stream goes on")
    func mixedStream() throws {
        var input = Data()
        input.append(Data((Self.resetLink + "\n").utf8))
        input.append(Data("not a link\n".utf8))
        input.append(Data("\n".utf8))
        input.append(Data([0x68, 0x74, 0x74, 0x70, 0xFF, 0xFE, 0x0A]))
        input.append(Data((String(repeating: "a", count: 20_000) + "\n").utf8))
        input.append(Data((Self.wrappedLink + "\r\n").utf8))
        input.append(Data(Self.resetLink.utf8))  // no trailing newline
        let result = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "-"], input: input)
        #expect(result.status == 0, "\(result.errors)")
        let lines = try objects(result.output)
        try #require(lines.count == 7)
        #expect(NSDictionary(dictionary: lines[0]) == NSDictionary(dictionary: try single(Self.resetLink)))
        #expect(lines[1]["line"] as? Int == 2)
        #expect((lines[1]["error"] as? String)?.contains("is not a URL") == true)
        #expect(lines[2]["line"] as? Int == 3)
        #expect((lines[2]["error"] as? String)?.contains("empty") == true)
        #expect(lines[3]["line"] as? Int == 4)
        #expect(lines[3]["error"] as? String == "line 4 is not valid UTF-8")
        #expect(lines[4]["line"] as? Int == 5)
        #expect((lines[4]["error"] as? String)?.contains("20000 bytes long") == true)
        #expect(NSDictionary(dictionary: lines[5]) == NSDictionary(dictionary: try single(Self.wrappedLink)))
        #expect(lines[6]["mode"] as? String == "resetPassword")
    }

    @Test("Thousands of lines across read boundaries come out in order, authorized domains applied")
    func manyLines() throws {
        let links = (1...5_000).map { "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=verifyEmail&oobCode=C\($0)&apiKey=K&continueUrl=https%3A%2F%2F\($0 % 2 == 0 ? "www.example.com" : "evil.example.net")%2F\($0)" }
        let input = Data(links.joined(separator: "\n").utf8)
        let result = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "-", "--authorized-domain", "www.example.com"], input: input)
        let lines = try objects(result.output)
        try #require(lines.count == links.count)
        for (index, object) in lines.enumerated() {
            #expect(object["oobCode"] as? String == "C\(index + 1)")
            #expect(object["continueUrlAuthorized"] as? Bool == ((index + 1) % 2 == 0))
        }
    }

    @Test("Several workers write exactly what one writes, in input order; --jobs is checked")
    func workersKeepOrder() throws {
        var input = Data()
        for index in 1...1_500 {
            let line = switch index % 5 {
            case 0: "not a link \(index)"
            case 1: Self.wrappedLink
            case 2: ""
            default: "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C\(index)&apiKey=K"
            }
            input.append(Data((line + "\n").utf8))
        }
        let one = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "-", "--jobs", "1"], input: input)
        let three = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "-", "--jobs", "3"], input: input)
        #expect(one.status == 0 && three.status == 0)
        #expect(try objects(one.output).count == 1_500)
        #expect(one.output == three.output)
        let zero = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "-", "--jobs", "0"])
        #expect(zero.errors.contains("--jobs must be between 1 and 64, not 0"))
        let single = try CastExportTests.run(Self.binary, ["inspect", Self.resetLink, "--jobs", "2"])
        #expect(single.errors.contains("--jobs applies to --jsonl only"))
    }

    @Test("A line of megabytes is reported by its length, not kept; the next line is still read")
    func hugeLine() throws {
        var input = Data(repeating: UInt8(ascii: "x"), count: 3_000_000)
        input.append(Data(("\n" + Self.resetLink + "\n").utf8))
        let result = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "-"], input: input)
        let lines = try objects(result.output)
        try #require(lines.count == 2)
        #expect((lines[0]["error"] as? String)?.contains("3000000 bytes long") == true)
        #expect(lines[1]["oobCode"] as? String == "CODE123")
    }

    @Test("A file of links is read like standard input; a missing file or --json with --jsonl is refused")
    func filesAndOptions() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString).txt")
        try Data((Self.resetLink + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", file.path])
        #expect(try objects(fromFile.output).first?["oobCode"] as? String == "CODE123")
        let missing = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "/nonexistent/links.txt"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("cannot open /nonexistent/links.txt: No such file or directory"))
        let both = try CastExportTests.run(Self.binary, ["inspect", "--jsonl", "--json", "-"])
        #expect(both.status != 0)
        #expect(both.errors.contains("--json and --jsonl are exclusive"))
    }
}

@Suite("JSON Lines writer")
struct JSONLineWriterTests {
    /// `JSONEncoder`'s JSON made safe on a terminal the long way: every scalar `UntrustedText`
    /// would replace, outside the layout's line feeds, as `\u` escapes.
    static func escapingUnsafeCharacters(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard scalar != "\n", UntrustedText.needsSanitizing(String(scalar)) else {
                out.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                out.append(contentsOf: String(format: "\\u%04x", unit).unicodeScalars)
            }
        }
        return String(out)
    }

    /// What `JSONEncoder` writes for the value with `formatting`, made terminal-safe as `--json` is.
    static func reference(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return escapingUnsafeCharacters(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    private func reference(_ anatomy: LinkAnatomy) throws -> String {
        try Self.reference(anatomy)
    }

    static let links = [
        InspectStreamTests.resetLink,
        InspectStreamTests.wrappedLink,
        "https://example.page.link/?link=https%3A%2F%2Fdemo-actionflow.firebaseapp.com%2F__%2Fauth%2Faction%3Fmode%3DverifyEmail%26oobCode%3DX%26apiKey%3DK%26continueUrl%3Dhttps%253A%252F%252Fwww.example.com%252F%253Femail%253Duser%2540example.com&apn=com.example.android&amv=12&ibi=com.example.ios",
        "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=abc&apiKey=fake-api-key&continueUrl=http%3A%2F%2Flocalhost%2Fdone&tenantId=t1",
        // Quotes, backslashes, controls, C1, bidi overrides, zero-width, tags, emoji, Hebrew, astral.
        "https://h.example/__/auth/action?mode=resetPassword&oobCode=%22q%5C%0A%09%08%0C%0D%01%7F&apiKey=%C2%85%E2%80%AE%E2%80%8B%F3%A0%80%81&continueUrl=https%3A%2F%2Fx.example%2F%F0%9F%91%A9%E2%80%8D%F0%9F%92%BB%D7%A9%D7%9C%D7%95%D7%9D%F0%9D%95%8F&lang=%E2%80%A8",
    ]

    @Test("Every link's line is byte for byte what JSONEncoder writes, hostile characters escaped")
    func sameAsEncoder() throws {
        for link in Self.links {
            for domains in [nil, ["www.example.com"]] {
                let anatomy = try LinkInspector.inspect(link, authorizedDomains: domains)
                let written = try JSONOutput.string(anatomy, format: .commandLine)
                #expect(written == (try reference(anatomy)), "\(link)")
                #expect(!UntrustedText.needsSanitizing(written))
                // `--jsonl`'s hand-written line is the same bytes.
                var writer = JSONLineWriter()
                writer.anatomy(anatomy)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == written, "\(link)")
                #expect(try JSONOutput.string(anatomy, format: .command) == Self.reference(anatomy, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]), "\(link)")
            }
        }
    }

    @Test("Strings of every length up to 40, with a character to escape at each position, are written as JSONEncoder writes them")
    func stringsAroundBlockEdges() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for length in 0...40 {
            for position in -1..<length {
                for special in ["\"", "\\", "\n", "\u{01}", "\u{7F}", "é", "\u{202E}", "👩‍💻"] {
                    var text = String(repeating: "a", count: max(0, length))
                    if position >= 0 {
                        let index = text.index(text.startIndex, offsetBy: position)
                        text.replaceSubrange(index...index, with: special)
                    }
                    let expected = Self.escapingUnsafeCharacters(String(decoding: try encoder.encode(text), as: UTF8.self))
                    #expect(try JSONOutput.string(text, format: .commandLine) == expected, "length \(length), position \(position)")
                    var writer = JSONLineWriter()
                    writer.lineError(text, line: 0)
                    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"error":"# + expected + #","line":0}"#, "length \(length), position \(position)")
                }
            }
        }
    }

    @Test("An error line is an object with the message and the line number")
    func errorLine() throws {
        var writer = JSONLineWriter()
        writer.lineError("\"bad\"\u{202E} line", line: 12)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"error":"\"bad\"\u202e line","line":12}"#)
    }
}
