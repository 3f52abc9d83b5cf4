import ActionFlowServer
import Foundation
import Testing

/// The built `actionflow serve --as emulator` in its own process, under every hostile client at
/// once, beside a well-behaved one: every answer right, every hostile client refused or cut
/// off, memory back near its start once the users are deleted, and a clean SIGTERM that loses
/// no answered request. Latency is only checked for liveness here; `bench serve --hostile`
/// prints the p99 against its 20 ms target.
@Suite("serve under hostile load")
struct ServeHostileLoadTests {
    @Test("a well-behaved client is answered right while idle, slow, oversized, endless, malformed and flooding clients hit serve")
    func hostileLoad() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeProcessTests.binary.path), "build the package first")
        _ = ServerLimits.raiseOpenFileLimit()
        var plan = HostileLoad.Plan()
        plan.idleConnections = 1000
        plan.slowClients = 20
        plan.oversizedBodies = 4
        plan.endlessBodies = 2
        plan.malformedRounds = 3
        plan.deepNesting = 100_000
        plan.signUps = 3000
        plan.minimumDuration = .seconds(6)
        plan.idleTimeout = .seconds(3)
        let outcome = try await HostileServeRun.run(binary: ServeProcessTests.binary, plan: plan)
        let load = outcome.load

        #expect(load.problemCount == 0 && outcome.problems.isEmpty, "\(outcome.problems + load.problems)")
        #expect(!load.latencies.isEmpty)
        // Liveness, not speed: a debug build on a shared machine.
        #expect(load.percentileMilliseconds(1) < 2000)

        #expect(load.idleOpened == plan.idleConnections)
        #expect(load.slowClientsCut == plan.slowClients)
        #expect(load.slowClientLongest < plan.idleTimeout + .seconds(3))
        #expect(load.oversizedRefused == plan.oversizedBodies)
        #expect(load.endlessCutOff == plan.endlessBodies)
        #expect(load.endlessLargestSent < plan.endlessBodyCeiling)
        #expect(load.malformedRefused == plan.malformedRounds * HostileLoad.malformedRequests.count)
        #expect(load.hostileJSONRefused == HostileLoad.hostileJSONBodies(nesting: plan.deepNesting).count)
        #expect(load.signUps == plan.signUps)
        #expect(load.distinctUsers == plan.signUps)

        #expect(outcome.startMiB > 0 && outcome.afterMiB > 0)
        #expect(outcome.afterMiB <= outcome.startMiB * 1.5, "memory \(outcome.startMiB) MiB at start, \(outcome.afterMiB) MiB after")

        #expect(outcome.exitStatus == 0)
        #expect(outcome.signUpsLogged == outcome.signUpsReceived, "the server answered \(outcome.signUpsLogged) sign-ups, clients received \(outcome.signUpsReceived) whole")
    }
}
