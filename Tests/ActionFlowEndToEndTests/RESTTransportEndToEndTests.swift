import Foundation
import TestSupport
import Testing

/// The REST transport's HTTP client is linked into the program: `actionflow` alone in a folder,
/// with nothing built beside it, plays a story against `serve` over loopback HTTP.
@Suite("REST transport from the program alone", .onDedicatedThread)
struct RESTTransportEndToEndTests {
    @Test("A copy of actionflow with nothing beside it plays story 1 over --transport rest against serve --as production")
    func loneProgramOverREST() throws {
        let serveProgram = BuiltBinary.url.deletingLastPathComponent().appendingPathComponent("actionflow-serve")
        try #require(FileManager.default.isExecutableFile(atPath: serveProgram.path), "build the package first")
        let serve = Process()
        serve.executableURL = serveProgram
        serve.arguments = ["serve", "--as", "production", "--port", "0"]
        let output = Pipe()
        serve.standardOutput = output
        serve.standardError = FileHandle.nullDevice
        try ProcessLaunch.run(serve)
        defer {
            serve.terminate()
            serve.waitUntilExit()
        }
        // The banner names the port: "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT".
        var banner = ""
        let marker = "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:"
        while !banner.contains(marker) || !banner[banner.range(of: marker)!.upperBound...].contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "serve ended before its banner: \(banner)")
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(Int(banner[banner.range(of: marker)!.upperBound...].prefix { $0.isNumber }))

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
