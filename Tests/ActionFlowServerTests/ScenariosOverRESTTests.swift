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
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: project.apiKey, projectId: project.projectId, timeout: ServeFixture.loopbackTimeout
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

    @Test("against serve --as emulator, a scenario's preset users are there and the run fails only where the emulator differs: its link opens the web widget")
    func emulatorBehaviourTakesThePresetUsers() async throws {
        let base = try ProjectConfigLoader.loadDefault()
        let fixture = try await ServeFixture.start(as: .emulator)
        defer { Task { await fixture.stop() } }
        let file = try #require(Self.shipped.first { $0.lastPathComponent == "password-reset-in-app.yaml" })
        let transcript = await ScenarioLibrary.run(try ScenarioParser.load(contentsOf: file), baseProject: base, over: fixture.rest)
        let text = transcript.lines.compactMap { line -> String? in
            if case .narration(_, let text) = line { return text }
            return nil
        }.joined(separator: "\n")
        #expect(text.contains("accounts:signInWithPassword → INVALID_PASSWORD"), "bob exists, with a password that is not this one")
        #expect(text.contains("sendOobCode PASSWORD_RESET → sent to bob@example.com"))
        #expect(transcript.failure?.message.contains("expected linkOpensIn app, but the last link went to web widget") == true,
                "\(transcript.failure.map(String.init(describing:)) ?? "passed")")
        // A reset brings the restarted project back with its users; a project created on demand starts empty.
        try await fixture.rest.resetWorld()
        await #expect(throws: AuthFailure.server(.invalidPassword, detail: nil)) {
            _ = try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "bob@example.com", password: "not-it"))
        }
        func accounts(of project: String) async throws -> String {
            try await fixture.http("POST", "/identitytoolkit.googleapis.com/v1/projects/\(project):queryAccounts", body: "{}", headers: ["Content-Type": "application/json", "Authorization": "Bearer owner"]).body
        }
        #expect(try await accounts(of: fixture.configuration.projectId).contains("bob@example.com"))
        let other = try await accounts(of: "another-project")
        #expect(other.contains("recordsCount") && !other.contains("bob@example.com"), "\(other)")
    }
}
