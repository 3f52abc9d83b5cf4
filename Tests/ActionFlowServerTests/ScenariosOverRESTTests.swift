import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Logging
import Testing

/// Servers started for one scenario run, stopped when it is over.
actor StartedServers {
    private var servers: [RunningEmulatorServer] = []
    func add(_ server: RunningEmulatorServer) { servers.append(server) }
    func stopAll() async {
        for server in servers { await server.stop() }
        servers.removeAll()
    }
}

@Suite("shipped scenarios with --transport rest against serve")
struct ScenariosOverRESTTests {
    static let shipped = ScenarioLibrary.shippedFiles()

    @Test("every shipped scenario passes over REST with the same transcript as embedded", arguments: shipped)
    func scenario(_ file: URL) async throws {
        let scenario = try ScenarioParser.load(contentsOf: file)
        let base = try ProjectConfigLoader.loadDefault()
        let embedded = await ScenarioLibrary.runEmbedded(scenario, baseProject: base)
        let servers = StartedServers()
        // A serve of its own, started on the scenario's project.
        let project = scenario.project.applied(to: base)
        var logger = Logger(label: "scenario-serve")
        logger.logLevel = .critical
        let api = EmulatorAPI(transport: EmbeddedTransport(configuration: project), project: ServedProject(project))
        let server = try await AuthEmulatorServer(api: api, host: "127.0.0.1", port: 0, logger: logger).start()
        await servers.add(server)
        let rest = await RESTTransport.connect(configuration: RESTTransportConfiguration(
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: project.apiKey, projectId: project.projectId
        ))
        let overREST = await ScenarioLibrary.run(scenario, baseProject: base, over: rest)
        await servers.stopAll()
        #expect(embedded.passed, "embedded: \(embedded.failure.map(String.init(describing:)) ?? "")")
        #expect(overREST.passed, "rest: \(overREST.failure.map(String.init(describing:)) ?? "")")
        #expect(overREST.lines == embedded.lines)
        // The same emails in the sequence diagram: over REST each is drawn when the mailbox lists it.
        func emails(_ transcript: ScenarioTranscript) -> [String]? {
            transcript.finalSession.map { SequenceDiagram($0).messages.filter { $0.from == .auth && $0.to == .mailbox }.map(\.text) }
        }
        #expect(emails(overREST) == emails(embedded))
    }

    @Test("one long-running serve plays every shipped scenario in turn, each on the scenario's own project")
    func oneServerForAll() async throws {
        let base = try ProjectConfigLoader.loadDefault()
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        for file in Self.shipped {
            let scenario = try ScenarioParser.load(contentsOf: file)
            let transcript = await ScenarioLibrary.run(scenario, baseProject: base, over: fixture.rest)
            #expect(transcript.passed, "\(file.lastPathComponent): \(transcript.failure.map(String.init(describing:)) ?? "")")
        }
    }
}
