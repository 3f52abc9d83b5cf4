import ArgumentParser
import Foundation

/// `actionflow-bench pictures`: `export --format svg` and `--format html` of long sessions, as
/// processes of their own: bounded means the peak memory does not follow the number of steps and
/// the time a step does not grow with it.
struct BenchPicturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pictures",
        abstract: "Time and peak memory of the pictures and the deck of a 500- and a long session (target: the same peak within 10 MiB, the same time a step within 1.5x)."
    )

    @Option(help: "Steps of the longer session.")
    var steps = 2_000

    static let shortSteps = 500
    static let allowedGrowthMiB = 10.0
    static let allowedSlowdown = 1.5

    func validate() throws {
        guard (1_000...20_000).contains(steps) else { throw ValidationError("--steps must be between 1000 and 20000, not \(steps)") }
    }

    func run() throws {
        let executable = try ChildProcess.besideThis("actionflow")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-pictures-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.json").path
        _ = try ChildProcess.run(executable, ["run", "password-reset-in-app", "--quiet", "--save", base], stdin: "/dev/null")
        print("pictures (export of story 1 followed by steps that open the mailbox and go back to an article, 100x30)")
        for format in ["svg", "html"] {
            var results: [(steps: Int, result: ChildProcess.Result)] = []
            for count in [Self.shortSteps, steps] {
                let session = folder.appendingPathComponent("session-\(count).json").path
                let played = try Self.lengthen(base, to: count, writing: session)
                let output = folder.appendingPathComponent("\(format)-\(count)").path
                let result = try ChildProcess.run(executable, ["export", session, "--format", format, "--output", output], stdin: "/dev/null")
                results.append((played, result))
                let perStep = result.seconds / Double(played) * 1_000
                print("  \(format), \(played) steps: \(String(format: "%.1f", result.seconds)) s (\(String(format: "%.1f", perStep)) ms a step), peak memory \(String(format: "%.1f", result.peakMiB)) MiB")
                try? FileManager.default.removeItem(atPath: output)
            }
            let growth = results[1].result.peakMiB - results[0].result.peakMiB
            let slowdown = (results[1].result.seconds / Double(results[1].steps)) / (results[0].result.seconds / Double(results[0].steps))
            print("  \(format): memory growth \(String(format: "%.1f", growth)) MiB (target within \(Int(Self.allowedGrowthMiB)): \(growth <= Self.allowedGrowthMiB ? "meets" : "above")), "
                + "time a step \(String(format: "%.2f", slowdown))x the short session's (target within \(Self.allowedSlowdown)x: \(slowdown <= Self.allowedSlowdown ? "meets" : "above"))")
        }
    }

    /// The session at `base` with steps added until it has `steps`: each opens the mailbox or
    /// goes back to an article, a step with a frame of its own. Returns the steps written.
    static func lengthen(_ base: String, to steps: Int, writing path: String) throws -> Int {
        guard var file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base))) as? [String: Any],
              var events = file["events"] as? [Any] else {
            throw BenchFailure(description: "\(base) is not a session file")
        }
        let existing = events.count
        for index in 0..<max(0, steps - existing) {
            events.append(index % 2 == 0 ? ["mailboxOpened": [String: Any]()] : ["openRoute": ["_0": "/articles/\(index)"]])
        }
        file["events"] = events
        // The added steps have no times: the pace of a replay without them.
        file["times"] = nil
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
        return events.count
    }
}
