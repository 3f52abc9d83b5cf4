import ActionFlowBackend
import ActionFlowLoad
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation

/// `actionflow-bench serve`: the measurement itself.
extension BenchServeCommand {
    /// The share of serve's status route's (`GET /`) requests per second each operation must reach.
    static let floorRatioTarget = 0.5
    static let p99TargetMilliseconds = 10.0

    /// The benchmark itself.
    func runBenchmark() async throws {
        if hostile { return try await BenchServeHostile.run(signUps: signUps, json: json) }
        if inspect { return try await BenchServeInspect.run(rate: rate, seconds: seconds, connections: min(connections, 8)) }
        let project = try ProjectConfigLoader.loadDefault()
        // The server is a second process, so the load generator (here) never takes its time.
        let server = try ServeProcess.start(try ChildProcess.besideThis("actionflow-serve"))
        defer { server.stop() }
        let rest = RESTTransport(configuration: RESTTransportConfiguration(
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: project.apiKey, projectId: project.projectId
        ))
        print("serve (its own process on 127.0.0.1:\(server.port); \(connections) keep-alive connections from this process, \(Self.format(seconds)) s per measurement)")
        #if DEBUG
        print("  note: debug build; build with -c release for representative figures")
        #endif

        let key = project.apiKey
        let idToken = try await BenchSignIn.idToken(on: rest, email: "alice@example.com", password: "alice-password-1")
        let lookupBody = Data(#"{"idToken":"\#(idToken)"}"#.utf8)
        // A new address per request: email-link sign-in needs no account, and the per-address
        // rate limit never triggers, so every call does the full send (validate, issue, mail).
        let operations: [(name: String, makeCall: @Sendable (Int, Int) -> HTTPLoadGenerator.Call)] = [
            ("sendOobCode (EMAIL_SIGNIN)", { connection, sequence in
                let body = #"{"requestType":"EMAIL_SIGNIN","email":"load-\#(connection)-\#(sequence)@example.com","continueUrl":"https://www.example.com/finish","canHandleCodeInApp":true}"#
                return HTTPLoadGenerator.Call(path: "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=\(key)", body: Data(body.utf8))
            }),
            ("lookup", { _, _ in
                HTTPLoadGenerator.Call(path: "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=\(key)", body: lookupBody)
            }),
        ]
        for operation in operations {
            // The floor is measured right before each operation, so both see the same machine.
            let floor = try await load(port: server.port) { _, _ in HTTPLoadGenerator.Call(method: .GET, path: "/", body: Data()) }
            let measured = try await load(port: server.port, operation.makeCall)
            print(Self.line("GET / (the status, serve's cheapest route: the floor)", floor))
            print(Self.line(operation.name, measured))
            let ratio = floor.requestsPerSecond > 0 ? measured.requestsPerSecond / floor.requestsPerSecond : 0
            let p99 = measured.percentileMilliseconds(0.99)
            print("    ratio to the floor \(Self.format(ratio)) (target at least \(Self.format(Self.floorRatioTarget)): \(ratio >= Self.floorRatioTarget ? "meets" : "below")); "
                + "p99 \(Self.format(p99)) ms (target under \(Self.format(Self.p99TargetMilliseconds, digits: 0)) ms: \(p99 < Self.p99TargetMilliseconds ? "meets" : "above"))")
        }

        // Added latency: the same lookup, one call at a time, in process and over loopback HTTP.
        let embedded = EmbeddedTransport(configuration: project)
        let embeddedToken = try await BenchSignIn.idToken(on: embedded, email: "alice@example.com", password: "alice-password-1")
        let direct = try await Self.sequentialLatencies(calls) { () async throws(AuthFailure) in
            _ = try await embedded.perform(.lookup(LookupRequest(idToken: embeddedToken)))
        }
        let overHTTP = try await Self.sequentialLatencies(calls) { () async throws(AuthFailure) in
            _ = try await rest.perform(.lookup(LookupRequest(idToken: idToken)))
        }
        print("REST transport added latency (lookup, \(calls) sequential calls)")
        print("  embedded: p50 \(Self.micros(direct.p50)) µs, mean \(Self.micros(direct.mean)) µs")
        print("  rest:     p50 \(Self.micros(overHTTP.p50)) µs, mean \(Self.micros(overHTTP.mean)) µs")
        print("  added:    p50 +\(Self.micros(overHTTP.p50 - direct.p50)) µs, mean +\(Self.micros(overHTTP.mean - direct.mean)) µs per call")
    }

    private func load(port: Int, _ makeCall: @escaping @Sendable (Int, Int) -> HTTPLoadGenerator.Call) async throws -> HTTPLoadGenerator.Result {
        try await HTTPLoadGenerator.run(host: "127.0.0.1", port: port, connections: connections, duration: .seconds(seconds), makeCall: makeCall)
    }

    static func line(_ name: String, _ result: HTTPLoadGenerator.Result) -> String {
        var text = "  \(name): \(Int(result.requestsPerSecond.rounded())) requests/s, p50 \(format(result.percentileMilliseconds(0.5))) ms, p99 \(format(result.percentileMilliseconds(0.99))) ms (\(result.completed) calls)"
        if result.failedStatus > 0 { text += ", \(result.failedStatus) answers not 2xx" }
        if result.brokenConnections > 0 { text += ", \(result.brokenConnections) connections broke" }
        return text
    }

    /// Seconds per call: median and mean.
    static func sequentialLatencies(_ count: Int, _ call: () async throws(AuthFailure) -> Void) async throws(AuthFailure) -> (p50: Double, mean: Double) {
        var samples: [Double] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let started = clock.now
            try await call()
            let elapsed = clock.now - started
            samples.append(elapsed.seconds)
        }
        samples.sort()
        return (samples[samples.count / 2], samples.reduce(0, +) / Double(samples.count))
    }

    static func micros(_ seconds: Double) -> String { format(seconds * 1_000_000, digits: 1) }

    static func format(_ value: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
}

/// `actionflow serve --port 0`, in a child process.
final class ServeProcess {
    let port: Int
    private let process: Process

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(_ executable: String) throws -> ServeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--port", "0", "--quiet"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Its first line names the address: "... on http://127.0.0.1:PORT".
        var banner = Data()
        while !banner.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner.append(chunk)
        }
        let firstLine = String(decoding: banner, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let address = firstLine.range(of: "http://127.0.0.1:"),
              let port = Int(firstLine[address.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw BenchFailure(description: "actionflow serve did not say where it listens (it printed: \(firstLine))")
        }
        // Nothing more is read: the server is quiet, and its banner fits the pipe.
        return ServeProcess(process: process, port: port)
    }

    var processID: pid_t { process.processIdentifier }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
