import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow bench`: prints throughput figures; with no subcommand it runs every section.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput and memory (build with -c release first). No subcommand: every section.",
        subcommands: [BenchCoreCommand.self, BenchInspectCommand.self, BenchServeCommand.self, BenchTerminalCommand.self]
    )

    func run() async throws {
        for section in Self.configuration.subcommands {
            var command = try section.parseAsRoot([])
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        }
    }
}

/// `actionflow bench core`: link inspections and full headless flows per second, peak memory.
struct BenchCoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core",
        abstract: "Link inspections per second, full headless flows per second (scenario 1, embedded), peak memory."
    )

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 2

    func validate() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 600 else {
            throw ValidationError("--seconds must be above 0 and at most 600, not \(seconds)")
        }
    }

    func run() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-in-app"))
        print("core (one core, embedded transport, no artificial latency)")

        let link = LinkInspector.representativeLink
        let inspections = Self.measure(seconds: seconds) {
            _ = try? LinkInspector.inspect(link, authorizedDomains: project.authorizedDomains)
        }
        print(Self.line("link inspections", inspections, target: 200_000))

        var failures = 0
        let flows = await Self.measure(seconds: seconds) {
            let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: project)
            if !transcript.passed { failures += 1 }
        }
        print(Self.line("full flows (scenario 1: \(scenario.name))", flows, target: 10_000))
        if failures > 0 { print("  warning: \(failures) runs did not pass") }
        print("  peak memory: \(Self.peakMemoryMiB()) MiB (ru_maxrss)")
    }

    static func line(_ name: String, _ rate: Double, target: Double) -> String {
        let verdict = rate >= target ? "meets" : "below"
        return "  \(name): \(Int(rate.rounded()))/s (target \(Int(target))/s: \(verdict))"
    }

    /// Runs `body` repeatedly for about `seconds`; returns runs per second.
    static func measure(seconds: Double, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .seconds(seconds))
        var runs = 0
        while clock.now < deadline {
            for _ in 0..<64 { body() }
            runs += 64
        }
        return Double(runs) / (clock.now - start).seconds
    }

    static func measure(seconds: Double, _ body: () async -> Void) async -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .seconds(seconds))
        var runs = 0
        while clock.now < deadline {
            for _ in 0..<16 { await body() }
            runs += 16
        }
        return Double(runs) / (clock.now - start).seconds
    }

    static func peakMemoryMiB() -> String {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        // Linux reports kilobytes (macOS bytes; the tool targets Linux).
        return String(format: "%.1f", Double(usage.ru_maxrss) / 1024)
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
