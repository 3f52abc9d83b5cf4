import Foundation
import TestSupport
import Testing

/// The REST transport's HTTP client is linked into the program: `actionflow` alone in a folder,
/// with nothing built beside it, plays a story against `serve` over loopback HTTP.
@Suite("REST transport from the program alone", .onDedicatedThread)
struct RESTTransportEndToEndTests {
    @Test("A copy of actionflow with nothing beside it plays story 1 over --transport rest against serve --as production")
    func loneProgramOverREST() throws {
        let serve = try ServeProgramProcess(["serve", "--as", "production"])
        defer { _ = serve.stop() }
        let port = serve.port

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("actionflow").path
        try Spawn.copyProgram(from: BuiltBinary.url, to: URL(fileURLWithPath: binary))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["actionflow"])

        let rest = try Spawn.run(binary, ["run", "password-reset-in-app", "--quiet", "--transport", "rest", "--emulator", "127.0.0.1:\(port)"], capture: true)
        #expect(rest.status == 0, "\(rest.output)")
        #expect(rest.output.contains("PASS"), "\(rest.output)")

        // Nothing listening: a specific error naming the address, not a hang.
        let refused = try Spawn.run(binary, ["run", "password-reset-in-app", "--quiet", "--transport", "rest", "--emulator", "127.0.0.1:9"], capture: true)
        #expect(refused.status != 0)
        #expect(refused.output.contains("127.0.0.1:9"), "\(refused.output)")
    }
}
