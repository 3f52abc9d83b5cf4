import Foundation
import TestSupport
import Testing

/// The program starts without FoundationNetworking: the REST transport's HTTP engine is a
/// library beside the binary, loaded only when that transport runs.
@Suite("HTTP engine loaded on demand", .onDedicatedThread)
struct HTTPEngineEndToEndTests {
    @Test("A binary without its HTTP engine beside it runs the embedded default, and --transport rest says what is missing and how to build it")
    func missingEngine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-no-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("actionflow").path
        try Spawn.copyProgram(from: BuiltBinary.url, to: URL(fileURLWithPath: binary))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("libActionFlowHTTPEngine.so").path))

        let embedded = try Spawn.run(binary, ["run", "password-reset-in-app", "--quiet"], capture: true)
        #expect(embedded.status == 0, "\(embedded.output)")

        let rest = try Spawn.run(binary, ["run", "password-reset-in-app", "--quiet", "--transport", "rest", "--emulator", "127.0.0.1:9"], capture: true)
        #expect(rest.status != 0)
        #expect(rest.output.contains("HTTP engine \(folder.path)/libActionFlowHTTPEngine.so is not usable"), "\(rest.output)")
        #expect(rest.output.contains("`swift build` builds it beside the program"), "\(rest.output)")
    }
}
