import ActionFlowModel
import ActionFlowServer
import Foundation

/// `HostileLoad` against a real `actionflow serve --as emulator` process: its memory before,
/// at its peak and after the load (once the users are deleted and the clients gone), then a
/// SIGTERM in the middle of a stream of sign-ups. Every sign-up the server logged as answered
/// must have reached its client whole, and the process must exit 0.
public enum HostileServeRun {
    public struct Outcome: Sendable, Codable {
        public var load: HostileLoad.Report
        public var startMiB: Double
        public var peakMiB: Double
        /// Once the users are deleted (their codes and mail kept, as the emulator does).
        public var accountsDeletedMiB: Double
        /// Once the project is reset to its start as well.
        public var afterMiB: Double
        /// Sign-ups the server logged with 200, and those whose whole answer a client read.
        public var signUpsLogged: Int
        public var signUpsReceived: Int
        public var shutdown: Duration
        public var exitStatus: Int32?
        public var problems: [String]
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The options `serve` runs with: the body limit is raised so that deeply nested JSON
    /// reaches the parser instead of being refused for its size.
    public static func serveArguments(idleTimeout: Duration) -> [String] {
        ["serve", "--as", "emulator", "--port", "0", "--max-body-bytes", "1048576",
         "--idle-timeout", String(idleTimeout.seconds)]
    }

    public static func run(binary: URL, plan: HostileLoad.Plan) async throws -> Outcome {
        // A descriptor per idle connection: more than many systems' first 1,024.
        _ = ServerLimits.raiseOpenFileLimit()
        let process = Process()
        process.executableURL = binary
        process.arguments = serveArguments(idleTimeout: plan.idleTimeout)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let log = LogWatch()
        output.fileHandleForReading.readabilityHandler = { log.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        guard let banner = await log.waitFor("FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:", seconds: 30),
              let port = Int(banner.components(separatedBy: "FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:").last?.prefix { $0.isNumber } ?? ""),
              let projectId = banner.components(separatedBy: "default project ").last?.split(separator: " ").first.map(String.init) else {
            throw Failure(description: "serve did not start: \(log.text.suffix(500))")
        }
        let pid = process.processIdentifier
        var problems: [String] = []

        // Warm up, so the start figure includes what any first requests allocate.
        let warmup = { var plan = HostileLoad.Plan.quiet; plan.signUps = 200; return plan }()
        let warm = await DedicatedThread.run { HostileLoad.run(port: port, plan: warmup) }
        problems += warm.problems
        let startMiB = memoryMiB(pid, "VmRSS")

        let load = await DedicatedThread.run { HostileLoad.run(port: port, plan: plan) }
        let peakMiB = memoryMiB(pid, "VmHWM")

        // The clients are gone. Delete every user (codes and mail stay, as in the emulator), then
        // reset the project to its start: what is left above the start is what leaked.
        let accountsDeletedMiB = try await cleanUp(port: port, "DELETE", "/emulator/v1/projects/\(projectId)/accounts", pid: pid, problems: &problems)
        let afterMiB = try await cleanUp(port: port, "POST", "/emulator/v1/projects/\(projectId)/reset", pid: pid, problems: &problems)

        // SIGTERM while sign-ups stream in on four connections.
        async let stream = DedicatedThread.run { streamSignUps(port: port, connections: 4) }
        try await Task.sleep(for: .milliseconds(500))
        let signalled = ContinuousClock.now
        kill(pid, SIGTERM)
        let received = await stream
        let exitDeadline = ContinuousClock.now + .seconds(15)
        while process.isRunning && ContinuousClock.now < exitDeadline { try await Task.sleep(for: .milliseconds(10)) }
        let shutdown = ContinuousClock.now - signalled
        let exitStatus: Int32? = process.isRunning ? nil : process.terminationStatus
        try await Task.sleep(for: .milliseconds(100))
        output.fileHandleForReading.readabilityHandler = nil

        let receivedTotal = warm.signUps + warm.wellBehavedSignUps + load.signUps + load.wellBehavedSignUps + received
        return Outcome(
            load: load, startMiB: startMiB, peakMiB: peakMiB, accountsDeletedMiB: accountsDeletedMiB, afterMiB: afterMiB,
            signUpsLogged: log.count(of: "accounts:signUp 200"), signUpsReceived: receivedTotal,
            shutdown: shutdown, exitStatus: exitStatus, problems: problems
        )
    }

    /// Sends one clean-up request, waits a second for the server to settle, and returns its
    /// memory then.
    static func cleanUp(port: Int, _ method: String, _ path: String, pid: Int32, problems: inout [String]) async throws -> Double {
        do {
            let client = try LoopbackHTTPClient(port: port)
            let answer = try client.exchange(method, path)
            if answer.status != 200 { problems.append("\(method) \(path) answered \(answer.status)") }
            client.close()
        } catch {
            problems.append("\(method) \(path): \(error)")
        }
        try await Task.sleep(for: .seconds(1))
        return memoryMiB(pid, "VmRSS")
    }

    /// Sign-ups on `connections` connections until the server stops answering; returns how
    /// many whole 200 answers arrived.
    static func streamSignUps(port: Int, connections: Int) -> Int {
        let received = HostileLoad.Tally()
        let tag = HostileLoad.runTag()
        let group = DispatchGroup()
        for connection in 0..<connections {
            HostileLoad.spawnClient(in: group) {
                var answered = 0
                defer { received.update { $0.signUps += answered } }
                guard let client = try? LoopbackHTTPClient(port: port, timeout: .seconds(5)) else { return }
                for number in 0... {
                    guard let answer = try? client.exchange("POST", "\(HostileLoad.clientPath):signUp?\(HostileLoad.apiKey)",
                                                            json: #"{"email":"stop-\#(tag)-\#(connection)-\#(number)@example.com","password":"secret-1"}"#),
                          answer.status == 200 else { return }
                    answered += 1
                }
            }
        }
        group.wait()
        return received.update { $0.signUps }
    }

    /// A `/proc/PID/status` figure (`VmRSS`, `VmHWM`) in MiB, 0 when unreadable.
    public static func memoryMiB(_ pid: Int32, _ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }

    /// The server's output: kept whole until the banner, then only counted by line.
    final class LogWatch: @unchecked Sendable {
        // `@unchecked`: everything is only touched under `lock`.
        private let lock = NSLock()
        private var head = ""
        private var partial = ""
        private var counts: [String: Int] = [:]
        static let counted = ["accounts:signUp 200"]

        func append(_ data: Data) {
            lock.withLock {
                let text = partial + String(decoding: data, as: UTF8.self)
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                partial = String(lines.removeLast())
                for line in lines {
                    if head.utf8.count < 64 * 1024 { head += line + "\n" }
                    for needle in Self.counted where line.contains(needle) { counts[needle, default: 0] += 1 }
                }
            }
        }

        var text: String { lock.withLock { head } }
        func count(of needle: String) -> Int { lock.withLock { counts[needle, default: 0] } }

        func waitFor(_ needle: String, seconds: Double) async -> String? {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                let text = self.text
                if text.contains(needle) { return text }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
    }
}

extension HostileLoad.Plan {
    /// No hostile client: only sign-ups and the well-behaved client.
    public static var quiet: Self {
        var plan = Self()
        plan.idleConnections = 0
        plan.slowClients = 0
        plan.oversizedBodies = 0
        plan.endlessBodies = 0
        plan.malformedRounds = 0
        plan.deepNesting = 0
        plan.minimumDuration = .zero
        return plan
    }
}
