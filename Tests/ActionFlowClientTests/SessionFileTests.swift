import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

@Suite("Session files: saved whole, reopened equal, bad files refused and left alone")
final class SessionFileTests {
    /// Each test's folders, removed once it ends.
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-session-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: base) }

    /// A new folder, in this test's.
    func folder() throws -> URL {
        let url = base.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func fresh() throws -> SessionDriver {
        SessionDriver.embedded(project: try ProjectConfigLoader.loadDefault(), app: AppState(device: .iPhone, settings: ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios")))
    }

    /// The password-reset flow played up to the email in the inbox, the clock moved on.
    func midFlowRecording() async throws -> SessionRecording {
        var driver = try fresh()
        await driver.send(.openRoute("/articles/42"))
        await driver.send(.forgotPasswordTapped)
        await driver.send(.draftEdited(field: "forgot.email", text: "bob@example.com"))
        await driver.send(.passwordResetRequested(email: "bob@example.com"))
        await driver.send(.clockAdvanceRequested(seconds: 600))
        return SessionRecording(driver)
    }

    @Test("a saved session loads back equal: world, app, journal, exchanges, drafts and events")
    func roundTrip() async throws {
        let recording = try await midFlowRecording()
        let path = try folder().appendingPathComponent("demo.json").path
        try SessionFile.save(recording, to: path)
        let loaded = try #require(try SessionFile.load(path, transport: "embedded"))
        #expect(loaded == recording)
        #expect(loaded.current.inbox.count == 1)
        #expect(loaded.current.drafts["forgot.email"] == "bob@example.com")
        #expect(loaded.current.now == loaded.current.project.clockStart.addingTimeInterval(600))
    }

    @Test("a session file is byte for byte what JSONEncoder writes: sorted keys, escaped slashes, seconds since 1970")
    func sameAsEncoder() async throws {
        var timed = try await midFlowRecording()
        timed.times = timed.events.indices.map { Date(timeIntervalSince1970: 1_768_467_600.125 + Double($0) / 3) }
        for recording in [try await midFlowRecording(), timed] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .secondsSince1970
            let expected = try encoder.encode(SessionFile.envelope(recording))
            #expect(try SessionFile.encode(recording) == expected)
        }
    }

    @Test("the reopened session goes on: the saved link completes the flow at the article")
    func reopenedGoesOn() async throws {
        let path = try folder().appendingPathComponent("demo.json").path
        try SessionFile.save(try await midFlowRecording(), to: path)
        var driver = SessionDriver(try #require(try SessionFile.load(path, transport: "embedded")), remote: nil)
        await driver.send(.linkTapped(messageID: driver.session.inbox.last?.id ?? "none"))
        await driver.send(.newPasswordSubmitted("correct-horse-battery"))
        #expect(driver.session.app.location == .app)
        #expect(driver.session.app.screen == .article(id: "42"))
        #expect(driver.session.app.session?.email == "bob@example.com")
    }

    @Test("a file that does not exist is a new session; its folder must exist")
    func missing() throws {
        let base = try folder()
        #expect(try SessionFile.load(base.appendingPathComponent("new.json").path, transport: "embedded") == nil)
        let error = #expect(throws: SessionFileError.self) {
            try SessionFile.load(base.appendingPathComponent("no-such-folder/new.json").path, transport: "embedded")
        }
        #expect(error?.reason.contains("does not exist") == true)
    }

    @Test("empty, not JSON, another format, a newer version, a count at the end of its range, another transport, a folder: each refused with its reason")
    func refused() async throws {
        let base = try folder()
        let good = try SessionFile.encode(try await midFlowRecording())
        var newer = try #require(try JSONSerialization.jsonObject(with: good) as? [String: Any])
        newer["version"] = SessionFile.version + 1
        var other = newer
        other["version"] = SessionFile.version
        other["format"] = "something-else"
        var counted = try #require(try JSONSerialization.jsonObject(with: good) as? [String: Any])
        var current = try #require(counted["current"] as? [String: Any])
        current["exchangeCount"] = Int.max
        counted["current"] = current
        var listed = try #require(try JSONSerialization.jsonObject(with: good) as? [String: Any])
        var listedCurrent = try #require(listed["current"] as? [String: Any])
        var app = try #require(listedCurrent["app"] as? [String: Any])
        app["listedMessages"] = -1
        listedCurrent["app"] = app
        listed["current"] = listedCurrent
        let cases: [(String, Data, String)] = [
            ("empty", Data(), "is empty"),
            ("blank", Data("  \n".utf8), "is empty"),
            ("text", Data("hello".utf8), "is not JSON"),
            ("other", try JSONSerialization.data(withJSONObject: other), "is not an actionflow session"),
            ("newer", try JSONSerialization.data(withJSONObject: newer), "newer actionflow"),
            ("counted", try JSONSerialization.data(withJSONObject: counted), "exchangeCount is 9223372036854775807, not a count from 0 to 2147483647"),
            ("listed", try JSONSerialization.data(withJSONObject: listed), "iphone listedMessages is -1, not a count from 0 to 2147483647"),
        ]
        for (name, data, reason) in cases {
            let path = base.appendingPathComponent("\(name).json").path
            try data.write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: SessionFileError.self) { try SessionFile.load(path, transport: "embedded") }
            #expect(error?.reason.contains(reason) == true, "\(name): \(error?.reason ?? "loaded")")
            #expect(error?.description.hasPrefix("session file \(path): ") == true)
        }
        let path = base.appendingPathComponent("embedded.json").path
        try good.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SessionFileError.self) { try SessionFile.load(path, transport: "rest") }
        #expect(error?.reason.contains("session of the embedded transport") == true)
        #expect(throws: SessionFileError.self) { try SessionFile.load(base.path, transport: "embedded") }
    }

    /// A smaller flow than `midFlowRecording`, so that every byte of its file can be cut.
    func shortRecording(email: String) async throws -> SessionRecording {
        var driver = try fresh()
        await driver.send(.openRoute("/articles/42"))
        await driver.send(.draftEdited(field: "signIn.email", text: email))
        return SessionRecording(driver)
    }

    @Test("a file cut at any byte is refused with a clear reason; whole, it loads as saved")
    func truncatedAtEveryByte() async throws {
        let recording = try await shortRecording(email: "bob@example.com")
        let data = try SessionFile.encode(recording)
        for offset in 0...data.count {
            do {
                let loaded = try SessionFile.decode(data.prefix(offset), path: "cut.json", transport: "embedded")
                #expect(offset == data.count && loaded == recording, "cut at \(offset) of \(data.count) loaded as a session")
            } catch {
                #expect(offset < data.count, "the whole file is refused: \(error)")
                #expect(error.reason.contains("cut short") || error.reason.contains("is empty"), "cut at \(offset): \(error.reason)")
                #expect(error.description.hasPrefix("session file cut.json: "))
            }
        }
    }

    @Test("a save interrupted at any byte leaves the previous session loadable, and the next save goes through")
    func interruptedSave() async throws {
        let base = try folder()
        let path = base.appendingPathComponent("demo.json").path
        let previous = try await shortRecording(email: "alice@example.com")
        try SessionFile.save(previous, to: path)
        let next = try await shortRecording(email: "bob@example.com")
        let data = try SessionFile.encode(next)
        // What a kill during `save` leaves: part of the new file under the temporary name of the
        // process that was writing it, the previous file untouched (the rename never happened).
        let temporary = base.appendingPathComponent(".demo.json.99999.tmp")
        for offset in stride(from: 0, through: data.count, by: max(1, data.count / 64)) {
            try data.prefix(offset).write(to: temporary)
            #expect(try SessionFile.load(path, transport: "embedded") == previous, "temporary file cut at \(offset)")
        }
        try SessionFile.save(next, to: path)
        #expect(try SessionFile.load(path, transport: "embedded") == next)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).sorted() == [".demo.json.99999.tmp", "demo.json"],
                "the save left no file of its own, and did not touch another process's")
    }

    @Test("saving replaces the file whole and leaves no temporary file behind")
    func atomicSave() async throws {
        let base = try folder()
        let path = base.appendingPathComponent("demo.json").path
        let first = try await midFlowRecording()
        try SessionFile.save(first, to: path)
        var second = first
        second.current.drafts["note"] = "second"
        try SessionFile.save(second, to: path)
        #expect(try SessionFile.load(path, transport: "embedded") == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["demo.json"])
    }

    @Test("a file in a folder that cannot be written is refused before the session starts")
    func unwritable() throws {
        let error = #expect(throws: SessionFileError.self) {
            try SessionFile.save(SessionRecording(try fresh()), to: "/proc/actionflow-session.json")
        }
        #expect(error?.reason.contains("cannot be written") == true)
    }
}
