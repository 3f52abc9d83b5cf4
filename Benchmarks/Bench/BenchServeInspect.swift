import ActionFlowBackend
import ActionFlowLoad
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// `actionflow-bench serve --inspect`: `serve --inspect` on a pseudo-terminal under a steady
/// load, against plain `serve` under the same load: the interface's key-to-frame latency, the
/// server's own latency, and the interface's memory over the run. The load is `lookup` of a
/// signed-in account: a call the interface shows like any other, which leaves the simulated
/// project as it was, so that the process's memory over the run is the interface's.
enum BenchServeInspect {
    static let keyToFrameP99Target = 16.7
    static let latencyRatioTarget = 2.0
    /// The memory at the end may be at most this multiple of the memory a quarter in.
    static let memoryGrowthTarget = 1.25

    static func run(rate: Int, seconds: Double, connections: Int) async throws {
        let program = try ChildProcess.besideThis("actionflow-serve")
        let pace = Duration.seconds(Double(connections) / Double(rate))
        print("serve --inspect under \(rate) calls/s (lookup, \(connections) paced connections) for \(BenchServeCommand.format(seconds, digits: 0)) s, beside plain serve under the same load")
        #if DEBUG
        print("  note: debug build; build with -c release for representative figures")
        #endif

        // Plain serve first: the reference for the server's own latency and memory.
        let plain = try ServeProcess.start(program)
        let plainID = plain.processID
        let plainQuarter = Task {
            try await Task.sleep(for: .seconds(seconds / 4))
            return residentKiB(plainID)
        }
        let reference = try await HTTPLoadGenerator.run(host: "127.0.0.1", port: plain.port, connections: connections, duration: .seconds(seconds), pace: pace,
                                                        makeCall: lookup(try await signIn(port: plain.port)))
        let plainAtQuarter = try await plainQuarter.value
        let plainAtEnd = residentKiB(plain.processID)
        plain.stop()

        let port = try freePort()
        let terminal = try PseudoTerminalSession([program, "serve", "--inspect", "--port", "\(port)", "--log-file", "/dev/null"], width: 80, height: 24)
        defer { terminal.finish() }
        _ = try terminal.waitForText("Live traffic", timeout: 30)
        let call = lookup(try await signIn(port: port))
        let load = Task { try await HTTPLoadGenerator.run(host: "127.0.0.1", port: port, connections: connections, duration: .seconds(seconds), pace: pace, makeCall: call) }

        // Keys while the load runs: switch between two panes, each drawn at once or late.
        var latencies: [Double] = []
        var missed = 0
        var residentAtQuarter = 0
        var residentPeakAtQuarter = 0
        let started = Date()
        var tab = 0
        while Date().timeIntervalSince(started) < seconds {
            let (key, heading) = tab % 2 == 0 ? ("5", "Network") : ("7", "Inbox")
            tab += 1
            if let milliseconds = terminal.keyToText(key, heading, timeout: 1) { latencies.append(milliseconds) } else { missed += 1 }
            if residentAtQuarter == 0, Date().timeIntervalSince(started) >= seconds / 4 {
                residentAtQuarter = terminal.residentKiB()
                residentPeakAtQuarter = terminal.peakResidentKiB()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let loaded = try await load.value
        let residentAtEnd = terminal.residentKiB()
        let peakAtEnd = terminal.peakResidentKiB()

        latencies.sort()
        let p99 = BenchTerminalCommand.percentile(latencies, 0.99)
        print(BenchServeCommand.line("plain serve", reference))
        print(BenchServeCommand.line("serve --inspect", loaded))
        let ratio = loaded.percentileMilliseconds(0.99) / max(0.001, reference.percentileMilliseconds(0.99))
        print(String(format: "    server p99 ratio to plain serve %.2fx (target at most %.0fx: %@)", ratio, latencyRatioTarget, ratio <= latencyRatioTarget ? "meets" : "above"))
        print(String(format: "  key to frame while loaded: median %.2f ms, p99 %.2f ms (%d keys, %d not drawn within 1 s; target p99 under %.1f ms: %@)",
                     BenchTerminalCommand.percentile(latencies, 0.5), p99, latencies.count, missed, keyToFrameP99Target, p99 < keyToFrameP99Target && missed == 0 ? "meets" : "above"))
        // The load leaves the project as it was: what grows is the interface's.
        let growth = Double(residentAtEnd) / Double(max(1, residentAtQuarter))
        print(String(format: "  memory: serve --inspect %.1f MiB a quarter in, %.1f MiB at the end (peak %.1f); growth %.2fx (target at most %.2fx: %@); plain serve %.1f and %.1f MiB",
                     Double(residentAtQuarter) / 1024, Double(residentAtEnd) / 1024, Double(max(peakAtEnd, residentPeakAtQuarter)) / 1024,
                     growth, memoryGrowthTarget, growth <= memoryGrowthTarget ? "meets" : "above", Double(plainAtQuarter) / 1024, Double(plainAtEnd) / 1024))
    }

    /// A process's resident size now (`VmRSS`), in KiB.
    static func residentKiB(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// The project's preset account signed in: its ID token, for `lookup`.
    static func signIn(port: Int) async throws -> String {
        let project = try ProjectConfigLoader.loadDefault()
        guard let user = project.users.first(where: { !$0.disabled }) else { throw BenchFailure(description: "the project has no account to sign in with") }
        let rest = RESTTransport(configuration: RESTTransportConfiguration(target: .emulator(host: "127.0.0.1", port: port), apiKey: project.apiKey, projectId: project.projectId))
        return try await BenchSignIn.idToken(on: rest, email: user.email, password: user.password)
    }

    static func lookup(_ idToken: String) -> @Sendable (Int, Int) -> HTTPLoadGenerator.Call {
        let body = Data(#"{"idToken":"\#(idToken)"}"#.utf8)
        return { _, _ in HTTPLoadGenerator.Call(path: "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=bench", body: body) }
    }

    /// A loopback port nothing listens on right now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw BenchFailure(description: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension PseudoTerminalSession {
    /// Writes `key` and reads until `text` is drawn after it: the milliseconds between, or nil
    /// when it is not drawn within `timeout` seconds.
    func keyToText(_ key: String, _ text: String, timeout: Double) -> Double? {
        discardOutput()
        let sent = Date()
        write(key)
        guard (try? waitForText(text, timeout: timeout)) != nil else { return nil }
        return Date().timeIntervalSince(sent) * 1000
    }

    /// The program's resident size now, in KiB.
    func residentKiB() -> Int { BenchServeInspect.residentKiB(processID) }
}

/// An account signed in over a transport, for the calls that need its ID token.
enum BenchSignIn {
    static func idToken(on transport: any AuthTransport, email: String, password: String) async throws -> String {
        guard case .signedIn(let session) = try await transport.perform(.signInWithPassword(SignInWithPasswordRequest(email: email, password: password))),
              let token = session.idToken else {
            throw BenchFailure(description: "signing in as \(email) gave no ID token")
        }
        return token
    }
}
