import ActionFlowBackend
import ActionFlowClient
@testable import ActionFlowCommands
import ArgumentParser
import Foundation
import Testing

/// No command replaces a user's file without `--force`, and none replaces its own input, even
/// with it: each refusal leaves the file byte for byte as it was and writes nothing.
@Suite("Nothing of the user's is overwritten")
struct OverwriteTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Captures")

    /// A folder of its own with a copy of the emulator capture and a user's notes in it.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("overwrite-\(UUID().uuidString)")
        var capture: String { url.appendingPathComponent("app.har").path }
        var notes: String { url.appendingPathComponent("notes.md").path }
        static let notesText = "# My notes\nnot to be lost\n"

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: OverwriteTests.captures.appendingPathComponent("serve-emulator.har").path, toPath: capture)
            try Data(Self.notesText.utf8).write(to: URL(fileURLWithPath: notes))
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
        func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
    }

    func run(_ arguments: [String]) async throws {
        var command = try ActionFlowCommand.parseAsRoot(arguments)
        if var asyncCommand = command as? AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }

    @Test("import --save: the capture itself is refused even with --force; another file only with --force")
    func importSave() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let capture = try #require(folder.bytes(folder.capture))
        // The same file by another spelling is the same file.
        let sameCapture = folder.url.appendingPathComponent("./app.har").path
        for arguments in [["import", folder.capture, "--save", folder.capture], ["import", folder.capture, "--save", sameCapture, "--force"]] {
            await #expect(throws: ExitCode(2)) { try await run(arguments) }
            #expect(folder.bytes(folder.capture) == capture, "\(arguments): the capture is unchanged")
        }
        await #expect(throws: ExitCode(2)) { try await run(["import", folder.capture, "--save", folder.notes]) }
        #expect(folder.bytes(folder.notes) == Data(Folder.notesText.utf8))
        try await run(["import", folder.capture, "--save", folder.notes, "--force"])
        #expect(try SessionFile.load(folder.notes, transport: "rest")?.events.isEmpty == false, "the session replaced the notes, as --force asked")
        #expect(folder.bytes(folder.capture) == capture)
    }

    @Test("export --output: FILE itself is refused even with --force; another file only with --force")
    func exportOutput() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let capture = try #require(folder.bytes(folder.capture))
        await #expect(throws: ExitCode(2)) { try await run(["export", folder.capture, "--format", "markdown", "--output", folder.capture, "--force"]) }
        #expect(folder.bytes(folder.capture) == capture)
        await #expect(throws: ExitCode(2)) { try await run(["export", folder.capture, "--format", "markdown", "--output", folder.notes]) }
        #expect(folder.bytes(folder.notes) == Data(Folder.notesText.utf8))
        try await run(["export", folder.capture, "--format", "markdown", "--output", folder.notes, "--force"])
        #expect(String(decoding: folder.bytes(folder.notes) ?? Data(), as: UTF8.self).hasPrefix("# Review"))
        let fresh = folder.url.appendingPathComponent("new.mmd").path
        try await run(["export", folder.capture, "--format", "mermaid", "--output", fresh])
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    @Test("run --save: the scenario file is refused even with --force; an existing session only with --force")
    func runSave() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let scenario = folder.url.appendingPathComponent("mine.yaml").path
        let text = try String(contentsOf: ScenarioLibrary.locate("password-reset-in-app"), encoding: .utf8)
        try Data(text.utf8).write(to: URL(fileURLWithPath: scenario))
        await #expect(throws: ExitCode(2)) { try await run(["run", scenario, "--quiet", "--save", scenario, "--force"]) }
        #expect(folder.bytes(scenario) == Data(text.utf8))
        let session = folder.url.appendingPathComponent("session.json").path
        try await run(["run", scenario, "--quiet", "--save", session])
        let first = try #require(folder.bytes(session))
        await #expect(throws: ExitCode(2)) { try await run(["run", scenario, "--quiet", "--save", session]) }
        #expect(folder.bytes(session) == first, "a second run does not replace the first's session")
        await #expect(throws: ExitCode(2)) { try await run(["run", scenario, "--quiet", "--save", folder.notes]) }
        #expect(folder.bytes(folder.notes) == Data(Folder.notesText.utf8))
        try await run(["run", scenario, "--quiet", "--save", session, "--force"])
    }

    @Test("serve --inspect --save: an existing file or the project file is refused before the server starts")
    func serveSave() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(throws: (any Error).self) { _ = try ActionFlowCommand.parseAsRoot(["serve", "--inspect", "--save", folder.notes]) }
        _ = try ActionFlowCommand.parseAsRoot(["serve", "--inspect", "--save", folder.notes, "--force"])
        let project = folder.url.appendingPathComponent("project.yaml").path
        try FileManager.default.copyItem(atPath: BundledResources.defaultProjectFile.path, toPath: project)
        #expect(throws: (any Error).self) {
            _ = try ActionFlowCommand.parseAsRoot(["serve", "--project", project, "--inspect", "--save", project, "--force"])
        }
        #expect(folder.bytes(folder.notes) == Data(Folder.notesText.utf8))
    }

    @Test("the refusals say why, naming the file and the way out")
    func reasons() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(throws: OutputFile.Refused(path: folder.notes, reason: "already exists: add --force to replace it")) {
            try OutputFile.check(folder.notes, inputs: [folder.capture], force: false, option: "--save")
        }
        #expect {
            try OutputFile.check(folder.capture, inputs: [folder.capture], force: true, option: "--save")
        } throws: { error in
            (error as? OutputFile.Refused)?.reason.hasPrefix("is the command's own input") == true
        }
        #expect {
            try OutputFile.check(folder.url.path, inputs: [], force: true, option: "--output")
        } throws: { error in
            (error as? OutputFile.Refused)?.reason == "is a folder; --output takes a file's path"
        }
        #expect {
            try OutputFile.check(folder.url.appendingPathComponent("missing/out.md").path, inputs: [], force: false, option: "--output")
        } throws: { error in
            (error as? OutputFile.Refused)?.reason.contains("does not exist") == true
        }
        try OutputFile.check(folder.url.appendingPathComponent("new.md").path, inputs: [folder.capture], force: false, option: "--output")
    }
}
