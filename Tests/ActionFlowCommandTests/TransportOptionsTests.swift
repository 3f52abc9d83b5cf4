@testable import ActionFlowCommands
import ActionFlowBackend
import ActionFlowClient
import ActionFlowServer
import ActionFlowTransport
import ArgumentParser
import Logging
import Testing

@Suite struct TransportOptionsTests {
    func parse(_ arguments: [String]) throws -> TransportOptions {
        try #require(try ActionFlowCommand.parseAsRoot(["run", "password-reset-in-app"] + arguments) as? RunCommand).transportOptions
    }

    func message(_ arguments: [String]) -> String {
        do {
            _ = try ActionFlowCommand.parseAsRoot(arguments)
            return "accepted"
        } catch {
            return ActionFlowCommand.message(for: error)
        }
    }

    @Test func embeddedIsTheDefault() async throws {
        let transport = try await parse([]).makeTransport()
        #expect(transport.summary == "embedded demo-actionflow")
    }

    @Test func restAgainstAnEmulator() async throws {
        let options = try parse(["--transport", "rest", "--emulator", "127.0.0.1:9", "--timeout", "0.25"])
        let configuration = try #require(try options.restConfiguration(environment: [:]))
        #expect(configuration.target == .emulator(host: "127.0.0.1", port: 9))
        #expect(configuration.timeout == 0.25)
        #expect(configuration.projectId == "demo-actionflow")
        #expect(configuration.sdkHeaders == ["X-Client-Version": RESTTransportConfiguration.defaultClientVersion, "X-Ios-Bundle-Identifier": "com.example.ios"])
        // Nothing listens on port 9: the transport is still made, and says where it points, not what is there.
        let transport = try await options.makeTransport()
        #expect(transport.summary == "rest http://127.0.0.1:9 (project demo-actionflow)")
    }

    @Test func restAgainstProduction() throws {
        let options = try parse(["--transport", "rest", "--api-key", "AIza-key", "--project-id", "prod-project"])
        let configuration = try #require(try options.restConfiguration(environment: [:]))
        #expect(configuration.target == .production)
        #expect(configuration.apiKey == "AIza-key")
    }

    @Test func badCombinationsAreExplained() {
        #expect(message(["run", "x", "--emulator", "127.0.0.1:9099"]) == "--emulator: for --transport rest only")
        #expect(message(["run", "x", "--api-key", "k", "--project-id", "p"]) == "--api-key, --project-id: for --transport rest only")
        #expect(message(["run", "x", "--transport", "rest", "--emulator", "localhost"]) == "--emulator: 'localhost' is not HOST:PORT: missing ':PORT'")
        #expect(message(["run", "x", "--transport", "rest", "--api-key", "k", "--emulator", "127.0.0.1:1", "--timeout", "0"]) == "--timeout must be a number of seconds above zero and at most 86400, not 0.0")
        #expect(message(["run", "x", "--transport", "grpc"]).contains("'grpc'"))
    }

    @Test func runOverRESTAgainstServe() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let embedded = EmbeddedTransport(configuration: project)
        var logger = Logger(label: "run-rest")
        logger.logLevel = .critical
        let api = EmulatorAPI(transport: embedded, project: ServedProject(project))
        let server = try await AuthEmulatorServer(api: api, port: 0, logger: logger).start()
        defer { Task { await server.stop() } }
        for scenario in ["error-paths", "password-reset-web-widget"] {
            let command = try #require(try ActionFlowCommand.parseAsRoot(["run", scenario, "--quiet", "--transport", "rest", "--emulator", "127.0.0.1:\(server.port)"]) as? RunCommand)
            try await command.run()
        }
        await server.stop()
        let refused = try #require(try ActionFlowCommand.parseAsRoot(["run", "password-reset-in-app", "--quiet", "--transport", "rest", "--emulator", "127.0.0.1:\(server.port)"]) as? RunCommand)
        await #expect(throws: ExitCode(2), "a server that is gone is a setup failure") { try await refused.run() }
    }

    @Test func serveOptions() throws {
        let serve = try #require(try ActionFlowCommand.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(serve.host == "127.0.0.1", "loopback by default")
        #expect(serve.port == 9099)
        #expect(message(["serve", "--port", "70000"]) == "--port must be from 0 to 65535, not 70000")
        #expect(message(["serve", "--max-body-bytes", "10"]) == "--max-body-bytes must be at least 1024")
        #expect(message(["serve", "--host", " "]) == "--host is empty")
        #expect(message(["serve", "--project", "/no/such/project.yaml"]).contains("/no/such/project.yaml"))
        #expect(message(["serve", "--max-header-bytes", "100"]) == "--max-header-bytes must be from 1024 to 81920, not 100")
        #expect(message(["serve", "--max-connections", "0"]) == "--max-connections must be at least 1, not 0")
        #expect(message(["serve", "--idle-timeout", "0"]) == "--idle-timeout must be from 0.1 to 86400 seconds, not 0.0")
        #expect(message(["serve", "--idle-timeout", "nan"]).contains("--idle-timeout"))
    }

    @Test("serve --help lists every limit with its default")
    func serveHelpListsLimits() {
        let help = ServeCommand.helpMessage(columns: 200)
        for option in ["--max-body-bytes <max-body-bytes>", "--max-header-bytes <bytes>", "--max-connections <count>", "--idle-timeout <seconds>"] {
            #expect(help.contains(option), "\(option) missing from serve --help")
        }
        for defaultValue in ["(default: 65536)", "(default: 16384)", "(default: 4096)", "(default: 30.0)"] {
            #expect(help.contains(defaultValue), "\(defaultValue) missing from serve --help")
        }
    }
}
