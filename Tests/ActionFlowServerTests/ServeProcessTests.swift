import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// The built `actionflow serve` as a user runs it: banner, one log line per request without
/// query strings, and a clean exit on SIGTERM and SIGINT.
// On a thread of its own: the suite's waits run there, not queued behind the rest of the
// suite on the cooperative pool, which once kept a banner already printed unread for 20 s.
@Suite("actionflow serve as a process", .onDedicatedThread)
struct ServeProcessTests {
    static let binary = FirebaseAdminInteropTests.packageRoot.appendingPathComponent(".build/debug/actionflow")

    /// Collects a pipe's text as it arrives.
    final class Collected: @unchecked Sendable {
        // `@unchecked`: `text` is only touched under `lock`.
        private let lock = NSLock()
        private var text = ""
        func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
        var value: String { lock.withLock { text } }
    }

    static func waitFor(_ collected: Collected, _ needle: String, seconds: Double = 60) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if collected.value.contains(needle) { return collected.value }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no '\(needle)' within \(seconds) s; output so far:\n\(collected.value)")
        throw CancellationError()
    }

    /// `actionflow serve ARGUMENTS` running, its output so far, its banner and the bound port.
    static func launchServe(_ arguments: [String]) async throws -> (SpawnedChild, Collected, String, Int) {
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first")
        let process = try SpawnedChild.start(binary.path, ["serve"] + arguments, errors: .intoOutput)
        let collected = Collected()
        process.streamOutput { collected.append($0) }
        let banner: String
        do {
            banner = try await waitFor(collected, "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:")
        } catch {
            process.terminate()
            throw error
        }
        let portText = try #require(banner.components(separatedBy: "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:").last?.prefix { $0.isNumber })
        return (process, collected, banner, try #require(Int(portText)))
    }

    @Test("banner with the bound port, a log line per request without the query, clean stop", arguments: [SIGTERM, SIGINT])
    func servesAndStops(signal: Int32) async throws {
        let (process, collected, _, port) = try await Self.launchServe(["--port", "0"])

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/__/auth/action?mode=resetPassword&oobCode=SECRET-CODE-123&apiKey=SECRET-KEY"))
        let (_, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        let logged = try await Self.waitFor(collected, "GET /__/auth/action 400")
        #expect(!logged.contains("SECRET-CODE-123"))
        #expect(!logged.contains("SECRET-KEY"))

        process.signal(signal)
        let stopped = try await Self.waitFor(collected, "stopped")
        #expect(stopped.contains("stopped"))
        #expect(await process.exitStatus(within: 10) == 0, "ends within 10 s, with status 0")
    }

    @Test("--as emulator: the banner and GET / say so, and --as refuses anything else")
    func emulatorBehaviourBanner() async throws {
        let (process, _, banner, port) = try await Self.launchServe(["--as", "emulator", "--port", "0"])
        #expect(banner.contains("actionflow serve --as emulator: exactly the Firebase Auth Emulator"))
        let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/")))
        let status = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((status["actionflow"] as? [String: Any])?["behaviour"] as? String == "emulator")
        #expect((status["authEmulator"] as? [String: Any])?["ready"] as? Bool == true)
        process.terminate()

        let refused = await (try SpawnedChild.start(Self.binary.path, ["serve", "--as", "staging"])).finish()
        #expect(refused.status != 0)
        let message = String(decoding: refused.errors, as: UTF8.self)
        #expect(message.contains("staging"))
        #expect(message.contains("emulator") && message.contains("production"))
    }
}
