import ActionFlowLoad
import ActionFlowModel
import ActionFlowServer
import Foundation

/// `actionflow-bench serve --hostile`: `actionflow-serve serve` in its own process under
/// `HostileLoad`, with the well-behaved client's latency beside its 20 ms target.
enum BenchServeHostile {
    static let p99TargetMilliseconds = 20.0

    static func run(signUps: Int, json: Bool) async throws {
        var plan = HostileLoad.Plan()
        plan.signUps = signUps
        let idleTimeout = plan.idleTimeout
        let binary = URL(fileURLWithPath: try ChildProcess.besideThis("actionflow-serve"))
        if !json {
            print("serve under hostile load (`serve \(HostileServeRun.serveArguments(idleTimeout: idleTimeout).dropFirst().joined(separator: " "))` in its own process)")
        }
        let outcome = try await HostileServeRun.run(binary: binary, plan: plan)
        if json {
            FileHandle.standardOutput.write(try JSONEncoder().encode(outcome) + Data("\n".utf8))
            return
        }
        let load = outcome.load
        let p99 = load.percentileMilliseconds(0.99)
        print(String(format: "  well-behaved client: %d calls, p50 %.2f ms, p99 %.2f ms (target under %.0f ms: %@), max %.2f ms",
                     load.latencies.count, load.percentileMilliseconds(0.5), p99, p99TargetMilliseconds,
                     p99 < p99TargetMilliseconds ? "meets" : "above", load.percentileMilliseconds(1)))
        print("  idle connections held open: \(load.idleOpened) of \(plan.idleConnections), opened again each time the idle timeout closed one (\(load.idleClosedByServer) times)")
        print(String(format: "  slow clients (a header byte a second) cut off: %d of %d, the longest after %.1f s (idle timeout %d s)",
                     load.slowClientsCut, plan.slowClients, load.slowClientLongest.seconds, idleTimeout.components.seconds))
        print("  10 MB bodies refused with 413: \(load.oversizedRefused) of \(plan.oversizedBodies); endless chunked bodies cut off: \(load.endlessCutOff) of \(plan.endlessBodies), at most \(load.endlessLargestSent / 1_048_576) MiB sent")
        print("  malformed requests refused (400/431): \(load.malformedRefused) of \(plan.malformedRounds * HostileLoad.malformedRequests.count); hostile JSON bodies refused: \(load.hostileJSONRefused)")
        print(String(format: "  sign-ups: %d (distinct users %d) in %.1f s", load.signUps, load.distinctUsers, load.elapsed.seconds))
        print(String(format: "  memory: %.1f MiB at start, %.1f MiB at peak, %.1f MiB once the users are deleted (codes and mail kept), %.1f MiB once the project is reset (%.2fx the start)",
                     outcome.startMiB, outcome.peakMiB, outcome.accountsDeletedMiB, outcome.afterMiB, outcome.startMiB > 0 ? outcome.afterMiB / outcome.startMiB : 0))
        print(String(format: "  SIGTERM: exit %@ after %.0f ms; sign-ups answered by the server %d, received whole %d",
                     outcome.exitStatus.map { "\($0)" } ?? "(still running)", outcome.shutdown.seconds * 1000, outcome.signUpsLogged, outcome.signUpsReceived))
        let problems = outcome.problems + load.problems
        if load.problemCount + outcome.problems.count > 0 {
            print("  wrong answers: \(load.problemCount + outcome.problems.count)")
            for problem in problems { print("    \(problem)") }
        }
    }
}
