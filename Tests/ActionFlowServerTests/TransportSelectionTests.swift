import ActionFlowTransport
import Testing

@Suite("choosing the REST target from options and environment")
struct TransportSelectionTests {
    func resolve(emulator: String? = nil, apiKey: String? = nil, projectId: String? = nil, timeout: Double = 5, environment: [String: String] = [:]) throws(TransportSelectionError) -> RESTTransportConfiguration {
        try RESTTransportConfiguration.resolve(emulator: emulator, apiKey: apiKey, projectId: projectId, timeout: timeout, environment: environment, defaultProjectId: "demo-actionflow")
    }

    @Test("--emulator wins over FIREBASE_AUTH_EMULATOR_HOST; the emulator's fake key and the simulated project id are the defaults")
    func emulatorFlag() throws {
        let configuration = try resolve(emulator: "127.0.0.1:9099", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "10.0.0.1:1"])
        #expect(configuration.target == .emulator(host: "127.0.0.1", port: 9099))
        #expect(configuration.apiKey == "fake-api-key")
        #expect(configuration.projectId == "demo-actionflow")
        #expect(configuration.identityToolkitBase == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1")
        #expect(configuration.emulatorProjectBase == "http://127.0.0.1:9099/emulator/v1/projects/demo-actionflow")
    }

    @Test("FIREBASE_AUTH_EMULATOR_HOST is used when --emulator is absent, IPv6 included")
    func environmentVariable() throws {
        let configuration = try resolve(projectId: "my-project", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "[::1]:9199"])
        #expect(configuration.target == .emulator(host: "::1", port: 9199))
        #expect(configuration.origin == "http://[::1]:9199")
        #expect(configuration.projectId == "my-project")
    }

    @Test("a production project needs both an API key and a project id")
    func production() throws {
        let configuration = try resolve(apiKey: "AIza-key", projectId: "prod-project")
        #expect(configuration.target == .production)
        #expect(configuration.identityToolkitBase == "https://identitytoolkit.googleapis.com/v1")
        #expect(configuration.emulatorProjectBase == nil)
        #expect(throws: TransportSelectionError("a production project needs --project-id as well as --api-key (or give --emulator HOST:PORT for an emulator)")) {
            try resolve(apiKey: "AIza-key")
        }
        #expect(throws: TransportSelectionError("a production project needs --api-key as well as --project-id (or give --emulator HOST:PORT for an emulator)")) {
            try resolve(projectId: "prod-project")
        }
    }

    @Test("no target at all says what to give")
    func noTarget() {
        #expect(throws: TransportSelectionError("--transport rest needs a target: --emulator HOST:PORT (or FIREBASE_AUTH_EMULATOR_HOST) for an Auth Emulator or `actionflow serve`, or --api-key and --project-id for a production project")) {
            try resolve()
        }
    }

    @Test("malformed HOST:PORT is named with where it came from", arguments: [
        ("localhost", "--emulator: 'localhost' is not HOST:PORT: missing ':PORT'"),
        ("localhost:http", "--emulator: 'localhost:http' is not HOST:PORT: the port must be a number from 1 to 65535"),
        ("localhost:70000", "--emulator: 'localhost:70000' is not HOST:PORT: the port must be a number from 1 to 65535"),
        (":9099", "--emulator: ':9099' is not HOST:PORT: empty host"),
        ("::1:9099", "--emulator: '::1:9099' is not HOST:PORT: an IPv6 host needs brackets, e.g. [::1]:9099"),
        ("evil/host:9099", "--emulator: 'evil/host:9099' is not HOST:PORT: the host may hold only letters, digits, '-', '.' and ':'"),
    ])
    func malformed(input: String, message: String) {
        #expect(throws: TransportSelectionError(message)) { try resolve(emulator: input) }
    }

    @Test("a malformed FIREBASE_AUTH_EMULATOR_HOST names the variable")
    func malformedEnvironment() {
        #expect(throws: TransportSelectionError("FIREBASE_AUTH_EMULATOR_HOST: 'nohost' is not HOST:PORT: missing ':PORT'")) {
            try resolve(environment: ["FIREBASE_AUTH_EMULATOR_HOST": "nohost"])
        }
    }

    @Test("timeouts must be positive and finite; empty keys and ids are refused")
    func badValues() {
        #expect(throws: TransportSelectionError("--timeout must be a number of seconds above zero and at most 86400, not 0.0")) { try resolve(emulator: "127.0.0.1:9099", timeout: 0) }
        // A far timeout once stopped the program when the request's deadline was computed.
        #expect(throws: TransportSelectionError("--timeout must be a number of seconds above zero and at most 86400, not 1e+300")) { try resolve(emulator: "127.0.0.1:9099", timeout: 1e300) }
        #expect(throws: TransportSelectionError("--api-key is empty")) { try resolve(apiKey: " ", projectId: "p") }
        #expect(throws: TransportSelectionError("--project-id is empty")) { try resolve(apiKey: "k", projectId: "") }
    }

    @Test("http:// prefix and trailing slash are tolerated, as users paste them")
    func tolerant() throws {
        #expect(try EmulatorAddress(parsing: "http://localhost:9099/") == EmulatorAddress(host: "localhost", port: 9099))
    }
}
