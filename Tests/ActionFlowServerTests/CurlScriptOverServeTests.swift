import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing
import TestSupport

@Suite("A session's curl script against serve")
struct CurlScriptOverServeTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ActionFlowCommandTests/Fixtures/Captures").standardizedFileURL
    /// The captures of serve's own traffic, each with the behaviour it was recorded against.
    static let servedCaptures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: captures.path)) ?? [])
        .filter { $0.hasSuffix(".har") && ($0.hasPrefix("flow-") || $0.hasPrefix("serve-")) }.sorted()

    /// Runs `script` with sh against `fixture`, and returns the statuses it printed.
    static func run(_ script: String, against fixture: ServeFixture) async throws -> (statuses: [Int?], errors: String, status: Int32) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString).sh")
        defer { try? FileManager.default.removeItem(at: file) }
        try script.write(to: file, atomically: true, encoding: .utf8)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for tool in ["curl", "jq"] {
            try #require(path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") },
                         "this test runs the real \(tool) (Debian package \(tool)), which is not on PATH")
        }
        let child = try SpawnedChild.start("/bin/sh", [file.path], environment: ["PATH": path, "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(fixture.server.port)"])
        let finished = await child.finish()
        let printed = String(decoding: finished.output, as: UTF8.self)
        return (printed.split(separator: "\n").filter { $0.hasPrefix("HTTP ") }.map { Int($0.dropFirst(5)) },
                String(decoding: finished.errors, as: UTF8.self), finished.status)
    }

    @Test("a capture's script, secrets revealed, against a fresh serve: every call, link and emulator request answers as captured, tokens and codes carried from the new answers", arguments: servedCaptures)
    func captureScriptAgainstServe(_ name: String) async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent(name)), project: project)
        let session = flow.recording(project: project, source: name, keepsValues: true).current
        let script = CurlScript(title: name, session: session, revealsSecrets: true)
        // Each step the script sends prints its status; a call it leaves out (not a v1 accounts call) prints none.
        var expected: [Int?] = []
        for step in script.steps {
            switch step {
            case .exchange(let record): if record.operation != nil { expected.append(record.status) }
            case .page(let link): expected.append(link.status)
            case .emulator(let request): expected.append(request.status)
            }
        }
        let fixture = try await ServeFixture.start(as: name.contains("emulator") ? .emulator : .production)
        defer { Task { await fixture.stop() } }
        let ran = try await Self.run(script.script, against: fixture)
        #expect(ran.status == 0, "\(ran.errors)")
        #expect(ran.statuses == expected, "\(name)\n\(script.script)")
        #expect(script.script.contains("# Needs sh, curl and jq"))
    }

    @Test("password-reset-in-app's script, secrets revealed, run by sh and curl against a fresh serve, gets every answer the session recorded")
    func scriptAgainstServe() async throws {
        let scenario = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate("password-reset-in-app"))
        let base = try ProjectConfigLoader.loadDefault()
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: base)
        let session = try #require(transcript.recording).current
        // A fresh project gives the same codes and tokens to the same calls (docs/file-formats.md).
        let fixture = try await ServeFixture.start { $0 = scenario.project.applied(to: base) }
        defer { Task { await fixture.stop() } }

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString).sh")
        defer { try? FileManager.default.removeItem(at: script) }
        try CurlScript(title: scenario.name, session: session, revealsSecrets: true).script.write(to: script, atomically: true, encoding: .utf8)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        try #require(path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/curl") },
                     "this test runs the real curl (Debian package curl), which is not on PATH")
        let child = try SpawnedChild.start("/bin/sh", [script.path], environment: ["PATH": path, "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(fixture.server.port)"])
        let finished = await child.finish()
        let printed = String(decoding: finished.output, as: UTF8.self)
        let complaints = String(decoding: finished.errors, as: UTF8.self)
        #expect(finished.status == 0, "\(complaints)")
        // Each command ends its output with the status it got (curl's -w).
        let statuses = printed.split(separator: "\n").filter { $0.hasPrefix("HTTP ") }.map { Int($0.dropFirst(5)) }
        #expect(statuses == session.exchanges.map(\.status), "\(printed)")
        #expect(session.exchanges.count >= 4)
        #expect(session.exchanges.contains { $0.operation == .resetPassword && $0.status == 200 }, "the recorded code is used again")
    }
}
