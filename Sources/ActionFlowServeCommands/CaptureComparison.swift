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
        let operations = Dictionary(flow.operations.map { ($0.exchange.entry, $0) }) { first, _ in first }
        // The address each listed code was sent to, where the capture says.
        let addressed = Dictionary(flow.actionLinks.compactMap { link in link.anatomy.oobCode.flatMap { code in link.email.map { (code, $0.lowercased()) } } }) { first, _ in first }
        // The codes the capture shows its server issued (listed, answered, opened), in the order it shows them.
        let issuedInCapture = flow.actionLinks.compactMap { link in link.anatomy.oobCode.map { (code: $0, mode: link.anatomy.mode) } }
        var replacements: [String: String] = [:]
        var usedCodes: Set<String> = []
        var rows: [Row] = []
        var emulatorRequests: [EmulatorRequest] = []
        for exchange in flow.exchanges {
            guard let operation = operations[exchange.entry] else {
                // The emulator's own requests that change its state (a project restarted with
                // its users, a reset, the clock moved) are sent again too, so that the calls after
                // them meet the same project.
                guard exchange.method != "GET", exchange.isToEmulatorAPI else { continue }
                let (path, query) = servedPath(exchange.url)
                let response = await api.handle(APIRequest(method: exchange.method, path: path, rawQuery: query, headers: lowercased(exchange.requestHeaders), body: exchange.requestBody))
                emulatorRequests.append(EmulatorRequest(entry: exchange.entry, request: "\(exchange.method) \(path)", captured: exchange.status, simulated: response.status))
                continue
            }
            var body = String(decoding: exchange.requestBody, as: UTF8.self)
            var (path, query) = servedPath(exchange.url)
            for (captured, simulated) in replacements {
                body = body.replacingOccurrences(of: captured, with: simulated)
                query = query?.replacingOccurrences(of: captured, with: simulated)
            }
            // An action code the capture shows its server issued stands for the simulated code
            // issued in the same place: the same kind of email, to the same address when the
            // capture says which, the n-th of them as the capture's is the n-th. A code the
            // capture never shows issued (made up, or from elsewhere) is sent as it is: the
            // simulated project never issued it either.
            if let code = actionCode(in: exchange), replacements[code] == nil, issuedInCapture.contains(where: { $0.code == code }) {
                let candidates = transport.issuedCodes().filter { issued in
                    fits(issued, operation.operation) && addressed[code].map { $0 == issued.email.lowercased() } != false
                }
                let sameKind = issuedInCapture.filter { other in addressed[other.code] == addressed[code] && other.mode == issuedInCapture.first { $0.code == code }?.mode }
                let rank = sameKind.firstIndex { $0.code == code } ?? 0
                let issued = candidates.indices.contains(rank) && !usedCodes.contains(candidates[rank].oobCode) ? candidates[rank]
                    : candidates.last { !usedCodes.contains($0.oobCode) }
                if let issued {
                    replacements[code] = issued.oobCode
                    usedCodes.insert(issued.oobCode)
                    body = body.replacingOccurrences(of: code, with: issued.oobCode)
                }
            }
            var headers = lowercased(exchange.requestHeaders)
            headers["host"] = "127.0.0.1"
            let response = await api.handle(APIRequest(method: exchange.method, path: path, rawQuery: query, headers: headers, body: Data(body.utf8)))
            let simulated = Answer(status: response.status, error: errorCode(response.body))
            let captured = Answer(status: exchange.status, error: operation.error.map(errorCode(message:)))
            mapTokens(captured: exchange.responseBody, simulated: response.body, into: &replacements)
            let differs = captured.status != 0 && captured != simulated
            var why: String?
            if differs {
                let code = actionCode(in: exchange)
                let known = code.map { code in issuedInCapture.contains { $0.code == code } }
                why = note(operation, captured: captured, simulated: simulated, project: project, codeShownIssued: known)
                    ?? rows.last(where: \.differs).map { "an earlier answer differed (#\($0.entry)): this call meets the state that difference left" }
                    ?? "the simulated project answers this differently, and the capture does not show why"
            }
            rows.append(Row(entry: exchange.entry, operation: operation.operation, captured: captured, simulated: simulated, differs: differs, note: why))
        }
        return CaptureComparison(behaviour: behaviour.rawValue, rows: rows, emulatorRequests: emulatorRequests)
    }

    private static func lowercased(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value }
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
