import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("e: the session exported in every format")
struct SessionExportTests {
    func recording() async throws -> SessionRecording {
        let world = try await World.start()
        let start = world.session
        let events: [AppEvent] = [.openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: "alice@example.com")]
        for event in events { await world.send(event) }
        return SessionRecording(start: start, events: events, current: world.session)
    }

    func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    @Test("e in the main screen asks for an export")
    func key() async throws {
        var ui = mainUI()
        let commands = Controller.handle(.character("e"), session: try await World.start().state(), ui: &ui, width: 100, height: 30)
        #expect(commands == [.exportSession])
    }

    @Test("three files named after the session, numbered so that a second export keeps the first")
    func counter() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = try await recording()
        let first = try SessionExport.writeAll(recording: recording, title: "reset / demo", into: folder, drawing: SessionExport.Drawing(columns: 100, rows: 30))
        #expect(first.map { URL(fileURLWithPath: $0).lastPathComponent } == ["reset---demo-1.mmd", "reset---demo-1.md", "reset---demo-1.cast", "reset---demo-1.html"])
        let second = try SessionExport.writeAll(recording: recording, title: "reset / demo", into: folder, drawing: SessionExport.Drawing(columns: 100, rows: 30))
        #expect(second.map { URL(fileURLWithPath: $0).lastPathComponent } == ["reset---demo-2.mmd", "reset---demo-2.md", "reset---demo-2.cast", "reset---demo-2.html"])
        #expect(try String(contentsOfFile: first[0], encoding: .utf8) == SequenceDiagram(recording.current).mermaid)
        #expect(try String(contentsOfFile: first[2], encoding: .utf8).hasPrefix("{\"height\":30,\"title\":\"reset / demo\",\"version\":2,\"width\":100}\n"))
    }

    @Test("a missing or unwritable folder is refused with a message, nothing written")
    func refusals() async throws {
        let recording = try await recording()
        #expect(throws: SessionExportError.self) {
            try SessionExport.writeAll(recording: recording, title: "x", into: "/no/such/folder", drawing: SessionExport.Drawing(columns: 100, rows: 30))
        }
        let folder = try temporaryFolder()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            try? FileManager.default.removeItem(atPath: folder)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        // Root writes anywhere: the refusal is only checkable as another user.
        if access(folder, W_OK) != 0 {
            do {
                _ = try SessionExport.writeAll(recording: recording, title: "x", into: folder, drawing: SessionExport.Drawing(columns: 100, rows: 30))
                Issue.record("an unwritable folder was accepted")
            } catch {
                #expect(error.description.contains("no write permission"))
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test("a cast's frames: the start, then one per event, each a full redraw")
    func castFrames() async throws {
        let recording = try await recording()
        let cast = SessionCast(recording: recording, title: "demo", width: 80, height: 24)
        let frames = cast.frames
        #expect(frames.count == recording.events.count + 1)
        // A recording made in milliseconds plays at a presenter's pace: each step has time to be read.
        #expect(frames.map { $0.time } == [0, Replay.readingPause, 2 * Replay.readingPause, 3 * Replay.readingPause])
        #expect(SessionCast.drawing(frames[0].frame).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;1H"))
    }

    @Test("the status line gives up the clock, not the end of the paths, when an export's message is long")
    func statusLine() async throws {
        let session = try await World.start().state()
        var ui = mainUI()
        ui.message = "exported out/password-reset-in-app-12.{mmd,md,cast}"
        let lines = render(session, ui, (100, 30)).text.split(separator: "\n")
        let status = String(lines[lines.count - 2])
        #expect(status.contains("exported out/password-reset-in-app-12.{mmd,md,cast}"))
        #expect(!status.contains("⏱"))
        ui.message = "world reset"
        #expect(render(session, ui, (100, 30)).text.contains("⏱"))
    }
}
