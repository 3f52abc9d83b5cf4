import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Testing

/// `serve`'s server on a free loopback port over a fresh copy of the bundled project, and a
/// REST transport pointed at it.
struct ServeFixture {
    let server: RunningEmulatorServer
    let embedded: EmbeddedTransport
    let rest: RESTTransport
    let configuration: ProjectConfiguration

    /// `behaviour`: `serve --as production` (the default) or `--as emulator`.
    /// Seconds a call to a server in this process may take. Generous: the whole suite on two
    /// cores has delayed a loopback answer by ten seconds, and a probe lost to a timeout makes
    /// serve look like a plain emulator. Timeouts have tests of their own (FaultTests).
    static let loopbackTimeout: TimeInterval = 60

    static func start(as behaviour: ServeBehaviour = .production, limits: ServerLimits = ServerLimits(), configure: (inout ProjectConfiguration) -> Void = { _ in }) async throws -> ServeFixture {
        var configuration = try ProjectConfigLoader.loadDefault()
        configure(&configuration)
        var logger = Logger(label: "serve-test")
        logger.logLevel = .critical
        let api: EmulatorAPI
        if behaviour == .production {
            api = EmulatorAPI(transport: EmbeddedTransport(configuration: configuration), project: ServedProject(configuration))
        } else {
            api = EmulatorAPI(configuration: configuration, behaviour: behaviour)
        }
        let embedded = api.transport
        let server = try await AuthEmulatorServer(api: api, host: "127.0.0.1", port: 0, limits: limits, logger: logger).start()
        let rest = await RESTTransport.connect(configuration: RESTTransportConfiguration(
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: configuration.apiKey, projectId: configuration.projectId, timeout: loopbackTimeout
        ))
        return ServeFixture(server: server, embedded: embedded, rest: rest, configuration: configuration)
    }

    var origin: String { "http://127.0.0.1:\(server.port)" }

    func stop() async { await server.stop() }

    /// A raw HTTP call, for what the REST transport never sends (admin paths, bad bodies, v3 names).
    func http(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, body: String, headers: [String: String]) {
        var request = URLRequest(url: try #require(URL(string: origin + path)))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (http.statusCode, String(decoding: data, as: UTF8.self), fields)
    }

    /// The `message` of an error envelope.
    static func errorMessage(_ body: String) -> String? {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body.utf8)))?.error.message
    }
}
