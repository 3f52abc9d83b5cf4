import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing
import TestSupport

@Suite("A session's curl script against serve")
struct CurlScriptOverServeTests {
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
