import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation

extension CaptureComparison {
    public static func compare(_ flow: CapturedFlow, project: ProjectConfiguration) async -> CaptureComparison {
        // Like for like: a capture of an emulator's traffic against serve as the emulator answers.
        let behaviour: ServeBehaviour = flow.operations.contains(where: \.toEmulator) ? .emulator : .production
        let api = behaviour == .production
            ? EmulatorAPI(transport: EmbeddedTransport(configuration: project), project: ServedProject(project))
            : EmulatorAPI(configuration: project, behaviour: .emulator)
        let transport = api.transport
        var replacements: [String: String] = [:]
        var usedCodes: Set<String> = []
        var rows: [Row] = []
        for operation in flow.operations {
            let exchange = operation.exchange
            var body = String(decoding: exchange.requestBody, as: UTF8.self)
            var (path, query) = servedPath(exchange.url)
            for (captured, simulated) in replacements {
                body = body.replacingOccurrences(of: captured, with: simulated)
                query = query?.replacingOccurrences(of: captured, with: simulated)
            }
            // An action code the capture's server issued stands for the newest one the
            // simulated project issued for the same kind of email.
            if let code = actionCode(in: exchange), replacements[code] == nil,
               let issued = transport.issuedCodes().last(where: { fits($0, operation.operation) && !usedCodes.contains($0.oobCode) }) {
                replacements[code] = issued.oobCode
                usedCodes.insert(issued.oobCode)
                body = body.replacingOccurrences(of: code, with: issued.oobCode)
            }
            var headers = exchange.requestHeaders.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value }
            headers["host"] = "127.0.0.1"
            let response = await api.handle(APIRequest(method: exchange.method, path: path, rawQuery: query, headers: headers, body: Data(body.utf8)))
            let simulated = Answer(status: response.status, error: errorCode(response.body))
            let captured = Answer(status: exchange.status, error: operation.error.map(errorCode(message:)))
            mapTokens(captured: exchange.responseBody, simulated: response.body, into: &replacements)
            let differs = captured.status != 0 && captured != simulated
            rows.append(Row(entry: exchange.entry, operation: operation.operation, captured: captured, simulated: simulated,
                            differs: differs, note: differs ? note(operation, captured: captured, simulated: simulated, project: project) : nil))
        }
        return CaptureComparison(behaviour: behaviour.rawValue, rows: rows)
    }

    /// The path serve answers a captured URL at: a production host becomes the emulator's
    /// `/HOST/...` prefix; an emulator's path stays.
    static func servedPath(_ url: String) -> (path: String, query: String?) {
        guard let components = URLComponents(string: url) else { return (url, nil) }
        let host = components.host?.lowercased() ?? ""
        let path = host.hasSuffix("googleapis.com") ? "/\(host)\(components.percentEncodedPath)" : components.percentEncodedPath
        return (path, components.percentEncodedQuery)
    }
}
