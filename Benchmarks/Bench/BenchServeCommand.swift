import ArgumentParser

/// `actionflow-bench serve`: `serve` under a bounded loopback load, and what the REST transport
/// adds to each call over the embedded one.
struct BenchServeCommand: AsyncParsableCommand, Sendable {
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

    @Flag(help: "Instead: serve --inspect on a pseudo-terminal under a steady load (--rate, --seconds): key-to-frame latency, the server's latency against plain serve, memory over the run.")
    var inspect = false

    @Option(help: "With --inspect: calls a second.")
    var rate = 1000

    @Flag(help: "Instead: serve in its own process under hostile clients, beside a well-behaved one (docs/testing.md, \"Hostile load on serve\").")
    var hostile = false

    @Option(help: "With --hostile: distinct users signed up during the load.")
    var signUps = 100_000

    @Flag(help: "With --hostile: print the whole outcome as one JSON object, for scripts.")
    var json = false

    func validate() throws {
        guard (1...1024).contains(connections) else { throw ValidationError("--connections must be from 1 to 1024, not \(connections)") }
        guard seconds.isFinite, seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be above 0 and at most 600, not \(seconds)") }
        guard (1...1_000_000).contains(calls) else { throw ValidationError("--calls must be from 1 to 1000000, not \(calls)") }
        guard (1...100_000).contains(rate) else { throw ValidationError("--rate must be from 1 to 100000, not \(rate)") }
        guard !(inspect && hostile) else { throw ValidationError("--inspect and --hostile are separate measurements: choose one") }
        guard !json || hostile else { throw ValidationError("--json goes with --hostile") }
        guard (0...10_000_000).contains(signUps) else { throw ValidationError("--sign-ups must be from 0 to 10000000, not \(signUps)") }
    }


    func run() async throws {
        try await runBenchmark()
    }
}
