import ActionFlowClient
@testable import ActionFlowCommands
import ArgumentParser
import Foundation
import Testing

@Suite struct ExportCommandTests {
    func export(_ arguments: [String]) async throws {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["export"] + arguments) as? ExportCommand)
        try await command.run()
    }

    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)-\(name)").path
    }

    func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// `run SCENARIO --save PATH`, then `export PATH` with `arguments`; returns the saved recording.
    func exportSaved(_ scenario: String, to session: String, _ arguments: [String]) async throws -> SessionRecording {
        let run = try #require(try ActionFlowCommand.parseAsRoot(["run", scenario, "--quiet", "--save", session]) as? RunCommand)
        try await run.run()
        try await export([session] + arguments)
        return try #require(try SessionFile.load(session, transport: "embedded"))
    }

    @Test("a shipped scenario, played headless, as a diagram and as a report")
    func scenarioByName() async throws {
        let diagram = temporaryPath("reset.mmd")
        let report = temporaryPath("reset.md")
        defer { [diagram, report].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try await export(["password-reset-in-app", "--format", "mermaid", "--output", diagram])
        try await export(["password-reset-in-app", "--format", "markdown", "--output", report])
        let text = try read(diagram)
        #expect(text.hasPrefix("sequenceDiagram\n    participant User as User\n"))
        #expect(text.contains("App->>Auth: accounts:sendOobCode PASSWORD_RESET"))
        let markdown = try read(report)
        #expect(markdown.hasPrefix("# Review: password-reset-in-app\n"))
        #expect(markdown.contains("```mermaid\n" + text + "```"))
    }

    @Test("a session file saved by run --save exports the session where the run stopped")
    func sessionFile() async throws {
        let session = temporaryPath("demo.json")
        let diagram = temporaryPath("demo.mmd")
        defer { [session, diagram].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let recording = try await exportSaved("verify-email-web-widget", to: session, ["--format", "mermaid", "--output", diagram])
        #expect(try read(diagram) == SequenceDiagram(recording.current).mermaid)
    }

    @Test("--format curl writes a runnable script, masked unless --reveal-secrets, and only the owner's when revealed")
    func curlScript() async throws {
        let masked = temporaryPath("reset.sh")
        let revealed = temporaryPath("reset-revealed.sh")
        defer { [masked, revealed].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try await export(["password-reset-in-app", "--format", "curl", "--output", masked])
        try await export(["password-reset-in-app", "--format", "curl", "--reveal-secrets", "--output", revealed])
        let script = try read(masked)
        #expect(script.hasPrefix("#!/bin/sh\n# password-reset-in-app: "))
        #expect(script.contains("API_KEY_1='fake-a%E2%80%A6(masked)'"))
        #expect(!script.contains("fake-api-key-demo"))
        #expect(try read(revealed).contains("API_KEY_1='fake-api-key-demo"))
        let permissions = { (path: String) in try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) }
        #expect(try permissions(masked) & 0o100 != 0, "runs as it is")
        #expect(try permissions(revealed) & 0o100 != 0)
        #expect(try permissions(revealed) & 0o077 == 0, "the secrets are the owner's alone")
    }

    @Test("a session file keeps what --reveal-secrets writes: the calls as sent")
    func curlFromSessionFile() async throws {
        let session = temporaryPath("reset.json")
        let script = temporaryPath("reset.sh")
        defer { [session, script].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let recording = try await exportSaved("password-reset-in-app", to: session, ["--format", "curl", "--reveal-secrets", "--output", script])
        #expect(try read(script) == CurlScript(title: URL(fileURLWithPath: session).lastPathComponent, session: recording.current, revealsSecrets: true).script)
        #expect(try read(script).contains("API_KEY_1='fake-api-key-demo-actionflow'"))
        #expect(recording.current.exchanges.allSatisfy { $0.unmasked != nil })
    }

    @Test("a file, a format or an output that cannot be used: exit status 2")
    func refusals() async throws {
        let notJSON = temporaryPath("broken.json")
        try "{ cut short".write(toFile: notJSON, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: notJSON) }
        let refused: [[String]] = [
            ["password-reset-in-app", "--format", "cast", "--size", "100"],
            ["password-reset-in-app", "--format", "cast", "--size", "0x30"],
            ["password-reset-in-app", "--format", "svg"],
            ["password-reset-in-app", "--format", "mermaid", "--reveal-secrets"],
            ["no-such-scenario", "--format", "mermaid"],
            [temporaryPath("missing.json"), "--format", "mermaid"],
            [notJSON, "--format", "markdown"],
            ["password-reset-in-app", "--format", "mermaid", "--output", "/no/such/folder/out.mmd"],
            ["password-reset-in-app", "--format", "mermaid", "--output", FileManager.default.temporaryDirectory.path],
        ]
        for arguments in refused {
            await #expect(throws: ExitCode(2), "\(arguments)") { try await export(arguments) }
        }
    }

    @Test("a scenario whose expectation fails is still exported, with exit status 1")
    func unmetExpectation() async throws {
        let scenario = temporaryPath("unmet.yaml")
        let diagram = temporaryPath("unmet.mmd")
        try "name: unmet\nsteps:\n  - open: /account\n  - expect: {landsAt: /account}\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { [scenario, diagram].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        await #expect(throws: ExitCode.failure) { try await export([scenario, "--format", "mermaid", "--output", diagram]) }
        #expect(try read(diagram).contains("User->>App: open /account"))
    }
}
