import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow-bench`: prints speed and memory figures beside their references; with no
/// subcommand it runs every section. It lives outside the product: neither `actionflow` nor
/// `actionflow-serve` links it, and it measures them as the programs beside it.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actionflow-bench",
        abstract: "Measure throughput and memory (build with -c release first). No subcommand: every section.",
        subcommands: [BenchCoreCommand.self, BenchInspectCommand.self, BenchServeCommand.self, BenchTerminalCommand.self, BenchCaptureCommand.self, BenchPicturesCommand.self]
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

/// `actionflow-bench core`: link inspections and full headless flows per second, peak memory.
struct BenchCoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core",
        abstract: "Link inspections per second, full headless flows per second (scenario 1, embedded), peak memory."
    )

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 2

    @Option(help: "Starts of the headless run and of the Swift floor program (the median of each is reported).")
    var starts = 9

    @Option(help: ArgumentHelp("The Swift floor program: its source (built here with swiftc -O) or an executable built from it.", valueName: "path"))
    var floor = "../shared/bench/swift_floor.swift"

    /// Plays this many flows and exits, printing nothing: what the instruction count measures.
    @Option(help: .hidden)
    var flows: Int?

    static let headlessScenario = "password-reset-in-app"
    /// The whole-process headless run may cost at most this multiple of the floor process.
    static let headlessTarget = 2.0

    func validate() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 600 else {
            throw ValidationError("--seconds must be above 0 and at most 600, not \(seconds)")
        }
        guard (1...99).contains(starts) else { throw ValidationError("--starts must be between 1 and 99, not \(starts)") }
        if let flows, !(0...1_000_000).contains(flows) {
            throw ValidationError("--flows must be between 0 and 1000000, not \(flows)")
        }
    }

    func run() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(Self.headlessScenario))
        if let flows {
            for _ in 0..<flows { _ = await ScenarioLibrary.runEmbedded(scenario, baseProject: project) }
            return
        }
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
        try headlessRun()
        if let instructions = try Self.instructionsPerFlow() {
            print("  instructions per full flow: \(Int(instructions.rounded())) (callgrind, difference of two flow counts)")
        }
    }

    /// `run SCENARIO --quiet` as a whole process beside the Swift floor process, started in
    /// turn so that drift hits both alike.
    private func headlessRun() throws {
        let executable = try ChildProcess.besideThis("actionflow")
        let arguments = ["run", Self.headlessScenario, "--quiet"]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-floor-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let floorExecutable = try SwiftFloor.executable(floor, buildingIn: folder.path) else {
            print("  headless run: no Swift floor at \(floor) (--floor), or no swiftc to build it")
            return
        }
        // The first start of each reads the files into the page cache.
        _ = try ChildProcess.time(executable, arguments)
        _ = try ChildProcess.time(floorExecutable, [])
        var own: [Double] = []
        var reference: [Double] = []
        for _ in 0..<starts {
            own.append(try ChildProcess.time(executable, arguments))
            reference.append(try ChildProcess.time(floorExecutable, []))
        }
        let ownMedian = Self.median(own), floorMedian = Self.median(reference)
        let ratio = ownMedian / floorMedian
        let verdict = ratio <= Self.headlessTarget ? "meets" : "above"
        print("  headless run (run \(Self.headlessScenario) --quiet, whole process, median of \(starts)): \(Self.milliseconds(ownMedian)) ms; Swift floor: \(Self.milliseconds(floorMedian)) ms; ratio \(String(format: "%.1f", ratio))x (target at most \(Int(Self.headlessTarget))x: \(verdict))")
    }

    /// Instructions of one full flow, counted by callgrind: the difference between two runs of
    /// `--flows`, so that the process start and loading cancel out. Nil without valgrind, a C
    /// compiler and objcopy.
    static func instructionsPerFlow(fewer: Int = 4, more: Int = 24) throws -> Double? {
        guard let callgrind = try CallgrindCopy() else { return nil }
        defer { callgrind.remove() }
        func collected(_ flows: Int) throws -> Double? {
            let errors = try ChildProcess.standardError("/usr/bin/env", callgrind.command(["core", "--flows", String(flows)], output: "/dev/null"))
            // `==PID== Collected : 123456789`
            guard let line = errors.split(separator: "\n").last(where: { $0.contains("Collected :") }),
                  let count = line.split(separator: " ").last.flatMap({ Double($0) }) else { return nil }
            return count
        }
        guard let few = try collected(fewer), let many = try collected(more) else { return nil }
        return (many - few) / Double(more - fewer)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.1f", seconds * 1000)
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

/// The reference for whole-process figures: `../shared/bench/swift_floor.swift` (the Swift
/// runtime and Foundation, one line printed), built with `swiftc -O`.
enum SwiftFloor {
    /// An executable floor program: `path` itself, or built from it when it is Swift source;
    /// nil when there is none or no compiler.
    static func executable(_ path: String, buildingIn folder: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard path.hasSuffix(".swift") else { return path }
        guard let compiler = onPath("swiftc") else { return nil }
        let output = folder + "/swift_floor"
        _ = try ChildProcess.time(compiler, ["-O", path, "-o", output])
        return output
    }

    /// The first executable `name` on `PATH`.
    static func onPath(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
