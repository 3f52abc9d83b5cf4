@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import TestSupport
import Testing

/// Mermaid 11's own parser, which nobody here wrote, reads every exported diagram: the PyPI
/// package mermaid-parser-py ships it as a Node.js bundle. `.ci/run` installs it into
/// `.build/mermaid-venv`; the test installs it there when it is missing.
@Suite("Mermaid's parser reads every diagram", .serialized, .onDedicatedThread)
struct MermaidParserTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venv = packageRoot.appendingPathComponent(".build/mermaid-venv")
    static let script = packageRoot.appendingPathComponent("Tests/ActionFlowClientTests/Interop/mermaid_parse.js")

    /// What the parser read from one diagram, entity codes decoded.
    struct Parsed: Decodable {
        struct Actor: Decodable, Equatable {
            var id: String
            var label: String
        }

        struct Message: Decodable {
            var from: String?
            var to: String?
            var text: String
            var type: Int
        }

        var graphType: String?
        var actors: [Actor]?
        var messages: [Message]?
        var error: String?

        /// Mermaid's line types: solid and dotted arrows, notes, `alt` and its `end`.
        func messages(ofType type: Int) -> [Message] { (messages ?? []).filter { $0.type == type } }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let finished = try SpawnedChild.start("/usr/bin/env", [executable] + arguments).finishBlocking()
        return (finished.status, String(decoding: finished.output + finished.errors, as: UTF8.self))
    }

    /// The parser bundle, installed when missing. Only the bundle is needed, not the package's
    /// Python dependencies.
    static func parserBundle() throws -> URL {
        if let bundle = findBundle() { return bundle }
        let created = try run("python3", ["-m", "venv", venv.path])
        try #require(created.status == 0, "python3 -m venv failed: \(created.output)")
        let installed = try run(venv.appendingPathComponent("bin/pip").path, ["install", "--quiet", "--no-deps", "mermaid-parser-py"])
        try #require(installed.status == 0, "pip install mermaid-parser-py failed: \(installed.output)")
        return try #require(findBundle(), "mermaid-parser-py installed no parser.bundle.js")
    }

    static func findBundle() -> URL? {
        let lib = venv.appendingPathComponent("lib")
        let pythons = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return pythons.sorted().map { lib.appendingPathComponent("\($0)/site-packages/mermaid_parser/js/parser.bundle.js") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    static func parse(_ diagram: String) throws -> Parsed {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("diagram-\(UUID().uuidString).mmd")
        try diagram.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run("node", [script.path, try parserBundle().path, file.path])
        try #require(result.status == 0, "node failed: \(result.output)")
        return try #require(try JSONDecoder().decode([Parsed].self, from: Data(result.output.utf8)).first)
    }

    /// Parses the session's diagram and checks what Mermaid read against the diagram and the session.
    func check(_ session: Session) throws {
        let diagram = SequenceDiagram(session)
        let parsed = try Self.parse(diagram.mermaid)
        try #require(parsed.error == nil, "Mermaid refused the diagram: \(parsed.error ?? "")\n\(diagram.mermaid)")
        #expect(parsed.graphType == "sequence")

        // Every label reads back exactly as built: nothing was cut short or added.
        func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces) }
        #expect(parsed.actors == diagram.lifelines.map { Parsed.Actor(id: $0.participant.id, label: trimmed($0.label)) })
        let arrows = (parsed.messages ?? []).filter { $0.type == 0 || $0.type == 1 }
        #expect(arrows.map { trimmed($0.text) } == diagram.messages.map { trimmed($0.text) })
        #expect(arrows.map { "\($0.from ?? "")>\($0.to ?? "")" } == diagram.messages.map { "\($0.from.id)>\($0.to.id)" })
        #expect(parsed.messages(ofType: 2).map { trimmed($0.text) } == diagram.notes.map { trimmed($0.lines.joined(separator: MermaidText.lineBreak)) })

        // Against the session's journal.
        let tally = JournalTally(session)
        #expect(parsed.messages(ofType: 0).filter { $0.to == "Auth" }.count == tally.calls)
        #expect(parsed.messages(ofType: 1).filter { $0.from == "Auth" }.count == tally.replies)
        #expect(parsed.messages(ofType: 0).filter { $0.from == "Auth" && $0.to == "Mailbox" }.count == tally.mails)
        #expect(parsed.messages(ofType: 12).count == tally.routes)
        #expect(parsed.messages(ofType: 14).count == tally.routes)
        // Declared, in a fixed order: exactly the participants an arrow or a note involves (one
        // that is used but not declared would come last, in the order of use).
        let acting = Set((parsed.messages ?? []).flatMap { [$0.from, $0.to] }.compactMap { $0 })
        let expectedActors = ["User", "App", "App2", "Auth", "Mailbox", "Widget", "Store", "Browser", "Scanner"].filter(acting.contains)
        #expect(parsed.actors?.map(\.id) == expectedActors)
        #expect(acting.contains("Scanner") == tally.scannerActed)
    }

    @Test("every shipped scenario and story", arguments: ScenarioLibrary.shippedFiles() + ScenarioLibrary.storyFiles())
    func shipped(_ file: URL) async throws {
        try check(try await shippedSession(file.path))
    }

    @Test("a capture's diagram: one request and one answer per captured call and request to the emulator's API, one email per link listed",
          arguments: ["serve-emulator.har", "production-hand-written.har", "serve-production-browser.har", "flow-chromium-production-hosted-reset.har"])
    func capture(_ name: String) throws {
        let session = try CaptureSessionTests.recording(name).current
        let diagram = SequenceDiagram(session)
        let parsed = try Self.parse(diagram.mermaid)
        try #require(parsed.error == nil, "Mermaid refused the diagram: \(parsed.error ?? "")\n\(diagram.mermaid)")
        let calls = session.journal.filter { entry in
            switch entry.fact {
            case .captured(.call), .captured(.emulatorRequest): true
            default: false
            }
        }.count
        #expect(calls > 0)
        #expect(parsed.messages(ofType: 0).filter { $0.from == "App" && $0.to == "Auth" }.count == calls)
        #expect(parsed.messages(ofType: 1).filter { $0.from == "Auth" && $0.to == "App" }.count == calls)
        #expect(parsed.messages(ofType: 1).filter { $0.to == "Mailbox" }.count == session.sentMail.count)
        #expect((parsed.messages ?? []).filter { $0.type == 0 || $0.type == 1 }.map { $0.text.trimmingCharacters(in: .whitespaces) }
            == diagram.messages.map { $0.text.trimmingCharacters(in: .whitespaces) })
    }

    @Test("hostile emails, continue URLs, subjects, project and device names", arguments: HostileSession.texts)
    func hostile(_ text: String) throws {
        try check(HostileSession.session(text))
    }
}
