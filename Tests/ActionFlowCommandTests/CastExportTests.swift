import ActionFlowClient
import ActionFlowTUI
@testable import ActionFlowCommands
import Foundation
import TestSupport
import Testing

/// Casts read by tools written elsewhere: `asciinema cat` (PyPI asciinema 2.4) must accept the
/// file, and its output, drawn by the pyte terminal emulator, must end on the interface's final
/// frame. `.ci/run` prepares the virtual environment; the test creates it when it is missing.
@Suite("export --format cast, read by asciinema and pyte", .serialized, .onDedicatedThread)
struct CastExportTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venv = packageRoot.appendingPathComponent(".build/asciinema-venv")
    static let screenScript = packageRoot.appendingPathComponent("Tests/ActionFlowCommandTests/Interop/cast_screen.py")

    struct ProcessResult {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Runs a program with its input from a temporary file; both outputs are read as they come,
    /// so that no pipe fills.
    static func run(_ executable: String, _ arguments: [String], input: Data = Data()) throws -> ProcessResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cast-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("in")
        try input.write(to: inputFile)
        let finished = try SpawnedChild.start(executable, arguments, input: inputFile.path).finishBlocking()
        return ProcessResult(status: finished.status, output: finished.output, errors: String(decoding: finished.errors, as: UTF8.self))
    }

    /// The virtual environment's python with asciinema and pyte, created when missing.
    static func python() async throws -> String {
        try await virtualEnvironmentPython(venv, importing: "asciinema, pyte", installing: ["asciinema==2.4.*", "pyte"])
    }

    /// What the interface shows once the recording has played to its end.
    static func finalScreen(_ recording: SessionRecording, title: String, width: Int, height: Int) -> String {
        var replay = Replay(recording)
        replay.seek(to: replay.count)
        var ui = UIState(colorMode: .full256)
        ui.mode = .main
        return MainView.render(session: replay.shownSession(title: title), ui: ui, transport: "replay · \(recording.transport) session", width: width, height: height).text
    }

    func exportAndRead(_ file: String, size: (Int, Int)) async throws -> (cast: String, screen: String, recording: SessionRecording, title: String) {
        let castPath = FileManager.default.temporaryDirectory.appendingPathComponent("cast-\(UUID().uuidString).cast").path
        defer { try? FileManager.default.removeItem(atPath: castPath) }
        let command = try #require(try ActionFlowCommand.parseAsRoot(["export", file, "--format", "cast", "--size", "\(size.0)x\(size.1)", "--output", castPath]) as? ExportCommand)
        try await command.run()
        let python = try await Self.python()
        let asciinema = Self.venv.appendingPathComponent("bin/asciinema").path
        let played = try Self.run(asciinema, ["cat", castPath])
        try #require(played.status == 0, "asciinema cat failed: \(played.errors)")
        let drawn = try Self.run(python, [Self.screenScript.path, "\(size.0)", "\(size.1)"], input: played.output)
        try #require(drawn.status == 0, "pyte failed: \(drawn.errors)")
        let source = try await SessionSource.load(file, project: ProjectFileOption.parse([]))
        return (try String(contentsOfFile: castPath, encoding: .utf8), String(decoding: drawn.output, as: UTF8.self), source.recording, source.title)
    }

    @Test("a shipped scenario: asciinema reads the cast, and its last screen is the interface's final frame", arguments: [(100, 30), (160, 48)])
    func scenarioCast(columns: Int, rows: Int) async throws {
        let result = try await exportAndRead("password-reset-in-app", size: (columns, rows))
        var replay = Replay(result.recording)
        replay.seek(to: replay.count)
        #expect(replay.session == result.recording.current)
        let expected = Self.finalScreen(result.recording, title: result.title, width: columns, height: rows)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let drawnLines = result.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(drawnLines.count == rows)
        for (index, (drawn, wanted)) in zip(drawnLines, expectedLines).enumerated() {
            #expect(drawn == wanted, "row \(index + 1)")
        }
        let lines = result.cast.split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == columns)
        #expect(header["height"] as? Int == rows)
        #expect(header["title"] as? String == "password-reset-in-app")
        // The start, then one frame per step (an event and the world's replies to it), and a
        // marker where each step the user took begins.
        let played = Replay(result.recording)
        let steps = played.stepStarts.filter { result.recording.events[$0].isUserStep }
        #expect(lines.count == 2 + played.stepCount + steps.count)
        let markers = try lines.dropFirst().compactMap { line -> String? in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            return event[1] as? String == "m" ? event[2] as? String : nil
        }
        #expect(markers.count == steps.count)
        #expect(markers.first == "step 1: Opens /articles/42 in the app")
        #expect(markers.contains("step 3: Taps “Forgot password?”"), "\(markers)")
    }

    @Test("event times never go back, and no pause is longer than 3 seconds")
    func timing() async throws {
        let session = FileManager.default.temporaryDirectory.appendingPathComponent("cast-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: session) }
        let run = try #require(try ActionFlowCommand.parseAsRoot(["run", "verify-email-web-widget", "--quiet", "--save", session]) as? RunCommand)
        try await run.run()
        let result = try await exportAndRead(session, size: (100, 30))
        #expect(result.screen == Self.finalScreen(result.recording, title: result.title, width: 100, height: 30))
        let times = try result.cast.split(separator: "\n").dropFirst().map { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            #expect(event[1] as? String == "o" || event[1] as? String == "m")
            return try #require(event[0] as? Double)
        }
        #expect(times.first == 0)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later >= earlier && later - earlier <= Replay.longestPause + 0.000_001)
        }
    }
}
