import ActionFlowBackend
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import ArgumentParser
import Foundation
import Logging

/// `actionflow bench serve`: `serve` under a bounded loopback load, and what the REST transport
/// adds to each call over the embedded one.
struct BenchServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "serve's requests per second and p99 latency for sendOobCode and lookup at 64 loopback connections; the REST transport's added latency per call."
    )

    @Option(help: "Concurrent keep-alive connections.")
    var connections = 64

    @Option(help: "Seconds of load for each operation.")
    var seconds: Double = 3

    @Option(help: "Sequential calls for the added-latency comparison.")
    var calls = 2000

    @Flag(help: "Instead: serve in its own process under hostile clients, beside a well-behaved one (README, \"Robustness\").")
    var hostile = false

    @Option(help: "With --hostile: distinct users signed up during the load.")
    var signUps = 100_000

    func validate() throws {
        guard (1...1024).contains(connections) else { throw ValidationError("--connections must be from 1 to 1024, not \(connections)") }
        guard seconds.isFinite, seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be above 0 and at most 600, not \(seconds)") }
        guard (1...1_000_000).contains(calls) else { throw ValidationError("--calls must be from 1 to 1000000, not \(calls)") }
        guard (0...10_000_000).contains(signUps) else { throw ValidationError("--sign-ups must be from 0 to 10000000, not \(signUps)") }
    }

    func run() async throws {
        if hostile { return try await BenchServeHostile.run(signUps: signUps) }
        let project = try ProjectConfigLoader.loadDefault()
        var logger = Logger(label: "bench-serve")
        logger.logLevel = .critical
        let api = EmulatorAPI(transport: EmbeddedTransport(configuration: project), project: ServedProject(project))
        let server = try await AuthEmulatorServer(api: api, host: "127.0.0.1", port: 0, logger: logger).start()
        defer { Task { await server.stop() } }
        let rest = RESTTransport(configuration: RESTTransportConfiguration(
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: project.apiKey, projectId: project.projectId
        ))
        print("serve (loopback 127.0.0.1:\(server.port), \(connections) keep-alive connections, \(Self.format(seconds)) s per operation; load generator in the same process)")
        #if DEBUG
        print("  note: debug build; build with -c release for representative figures")
        #endif

        let key = project.apiKey
        // A new address per request: email-link sign-in needs no account, and the per-address
        // rate limit never triggers, so every call does the full send (validate, issue, mail).
        let sendLoad = try await HTTPLoadGenerator.run(host: "127.0.0.1", port: server.port, connections: connections, duration: .seconds(seconds)) { connection, sequence in
            let body = #"{"requestType":"EMAIL_SIGNIN","email":"load-\#(connection)-\#(sequence)@example.com","continueUrl":"https://www.example.com/finish","canHandleCodeInApp":true}"#
            return HTTPLoadGenerator.Call(path: "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=\(key)", body: Data(body.utf8))
        }
        print(Self.line("sendOobCode (EMAIL_SIGNIN)", sendLoad))

        let session = try await rest.signInWithPassword(SignInWithPasswordRequest(email: "alice@example.com", password: "alice-password-1"))
        let lookupBody = Data(#"{"idToken":"\#(session.idToken ?? "")"}"#.utf8)
        let lookupLoad = try await HTTPLoadGenerator.run(host: "127.0.0.1", port: server.port, connections: connections, duration: .seconds(seconds)) { _, _ in
            HTTPLoadGenerator.Call(path: "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=\(key)", body: lookupBody)
        }
        print(Self.line("lookup", lookupLoad))
        print("  targets: at least 5,000 requests/s and p99 under 10 ms at 64 connections")

        // Added latency: the same lookup, one call at a time, in process and over loopback HTTP.
        let embedded = EmbeddedTransport(configuration: project)
        let embeddedSession = try await embedded.signInWithPassword(SignInWithPasswordRequest(email: "alice@example.com", password: "alice-password-1"))
        let direct = try await Self.sequentialLatencies(calls) { () async throws(AuthFailure) in
            _ = try await embedded.lookup(LookupRequest(idToken: embeddedSession.idToken))
        }
        let overHTTP = try await Self.sequentialLatencies(calls) { () async throws(AuthFailure) in
            _ = try await rest.lookup(LookupRequest(idToken: session.idToken))
        }
        print("REST transport added latency (lookup, \(calls) sequential calls)")
        print("  embedded: p50 \(Self.micros(direct.p50)) µs, mean \(Self.micros(direct.mean)) µs")
        print("  rest:     p50 \(Self.micros(overHTTP.p50)) µs, mean \(Self.micros(overHTTP.mean)) µs")
        print("  added:    p50 +\(Self.micros(overHTTP.p50 - direct.p50)) µs, mean +\(Self.micros(overHTTP.mean - direct.mean)) µs per call")
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
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        samples.sort()
        return (samples[samples.count / 2], samples.reduce(0, +) / Double(samples.count))
    }

    static func micros(_ seconds: Double) -> String { format(seconds * 1_000_000, digits: 1) }

    static func format(_ value: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
}
