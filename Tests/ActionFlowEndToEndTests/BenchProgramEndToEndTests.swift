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

    @Test("actionflow-bench serve --inspect prints each figure beside its reference, from a real run on a pseudo-terminal")
    func inspectFigures() throws {
        let bench = try Spawn.run(Self.benchBinary, ["serve", "--inspect", "--seconds", "2", "--rate", "200"], capture: true)
        #expect(bench.status == 0, "\(bench.output)")
        #expect(bench.output.contains("server p99 ratio to plain serve"), "\(bench.output)")
        #expect(bench.output.contains("(target at most 2x:"), "\(bench.output)")
        #expect(bench.output.contains("key to frame while loaded"), "\(bench.output)")
        #expect(bench.output.contains("0 not drawn within 1 s"), "every key was drawn: \(bench.output)")
        #expect(bench.output.contains("memory: serve --inspect") && bench.output.contains("(target at most 1.25x:"), "\(bench.output)")
        let refused = try Spawn.run(Self.benchBinary, ["serve", "--inspect", "--hostile"], capture: true)
        #expect(refused.status == 64)
        #expect(refused.output.contains("--inspect and --hostile are separate measurements"), "\(refused.output)")
    }
}
