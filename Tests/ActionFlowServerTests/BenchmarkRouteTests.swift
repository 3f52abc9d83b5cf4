import ActionFlowServer
import Testing

/// The static route `bench serve` compares the emulator's routes with.
@Suite("serve's benchmark route", .serialized)
struct BenchmarkRouteTests {
    @Test("Only a server started for the benchmark answers the static route, with fixed JSON")
    func onlyWhenAsked() async throws {
        let plain = try await ServeFixture.start()
        let refused = try await plain.http("GET", AuthEmulatorServer.benchmarkStaticPath)
        await plain.stop()
        #expect(refused.status == 404)

        let benchmark = try await ServeFixture.start(benchmarkRoute: true)
        let answered = try await benchmark.http("GET", AuthEmulatorServer.benchmarkStaticPath)
        let lookup = try await benchmark.http("POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=\(benchmark.configuration.apiKey)", body: "{}")
        await benchmark.stop()
        #expect(answered.status == 200)
        #expect(answered.headers["content-type"] == "application/json")
        #expect(answered.body == #"{"kind":"actionflow#benchmark","static":true}"#)
        // The emulator's own routes answer as before beside it.
        #expect(lookup.status == 400)
    }
}
