import Foundation
import TestSupport
import Testing

/// The benchmarks are a program of their own beside the product: `actionflow` offers no
/// `bench`, and `actionflow-bench` checks its options as the product's commands do.
@Suite("The benchmark program", .onDedicatedThread)
struct BenchProgramEndToEndTests {
    static var benchBinary: String { BuiltBinary.url.deletingLastPathComponent().appendingPathComponent("actionflow-bench").path }

    @Test("actionflow's help lists no bench, and `actionflow bench` is refused as an unknown command")
    func productHasNoBench() throws {
        let help = try Spawn.run(BuiltBinary.url.path, ["--help"], capture: true)
        #expect(help.status == 0)
        #expect(help.output.contains("inspect"), "\(help.output)")
        #expect(!help.output.contains("bench"), "\(help.output)")
        let bench = try Spawn.run(BuiltBinary.url.path, ["bench", "core"], capture: true)
        #expect(bench.status == 64, "\(bench.output)")
        #expect(bench.output.contains("bench"), "\(bench.output)")
    }

    @Test("actionflow-bench refuses a measurement of no time with the option's name")
    func benchSecondsMustBePositive() throws {
        let bench = try Spawn.run(Self.benchBinary, ["core", "--seconds", "0"], capture: true)
        #expect(bench.status == 64, "\(bench.output)")
        #expect(bench.output.contains("--seconds must be above 0 and at most 600, not 0.0"), "\(bench.output)")
    }
}
