import Foundation
import TestSupport
import Testing

/// `import --compare` hands over to actionflow-serve, which answers each captured request with
/// serve's own API: the real programs, as a user runs them.
@Suite("import --compare", .onDedicatedThread)
struct ImportCompareEndToEndTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ActionFlowCommandTests/Fixtures/Captures")

    func comparison(_ capture: String) throws -> (behaviour: String?, rows: [[String: Any]]) {
        let result = try Spawn.run(BuiltBinary.url.path, ["import", Self.captures.appendingPathComponent(capture).path, "--compare", "--json"], capture: true)
        #expect(result.status == 0, "\(result.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["operations"] != nil, "the import's own report stays")
        let comparison = try #require(object["comparison"] as? [String: Any])
        return (comparison["behaviour"] as? String, try #require(comparison["rows"] as? [[String: Any]]))
    }

    @Test("a capture of serve as the Auth Emulator is answered alike by serve's emulator behaviour, request by request")
    func emulatorCaptureMatches() throws {
        let (behaviour, rows) = try comparison("serve-emulator.har")
        #expect(behaviour == "emulator", "an emulator's capture is compared with the emulator's answers")
        #expect(rows.count == 6)
        #expect(rows.allSatisfy { $0["differs"] as? Bool == false }, "\(rows)")
        let signIn = try #require(rows.last)
        #expect((signIn["simulated"] as? [String: Any])?["error"] as? String == "EMAIL_NOT_FOUND")
    }

    @Test("a production capture: each difference is listed, with what explains it where it can be told")
    func productionCaptureDiffers() throws {
        let (behaviour, rows) = try comparison("production-hand-written.har")
        #expect(behaviour == "production")
        let refresh = try #require(rows.first { $0["operation"] as? String == "token" })
        #expect(refresh["differs"] as? Bool == true)
        #expect((refresh["captured"] as? [String: Any])?["status"] as? Int == 200)
        #expect((refresh["simulated"] as? [String: Any])?["error"] as? String == "INVALID_REFRESH_TOKEN")
        #expect(refresh["note"] as? String == "the token came from a sign-in the capture does not hold")
        let text = try Spawn.run(BuiltBinary.url.path, ["import", Self.captures.appendingPathComponent("production-hand-written.har").path, "--compare"], capture: true)
        #expect(text.output.contains("Compared with the simulated project as production answers (serve --as production)"))
        #expect(!text.output.contains("\u{1B}"), "hostile text from the capture stays inert")
    }
}
