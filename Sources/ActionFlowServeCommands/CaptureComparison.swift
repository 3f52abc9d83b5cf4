import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation

extension CaptureComparison {
    public static func compare(_ flow: CapturedFlow, project given: ProjectConfiguration) async -> CaptureComparison {
        // The simulated project authorizes what the captured one showed it authorizes.
        let project = flow.judged(given)
        let behaviour = behaviour(of: flow)
        let api = behaviour == .production
            ? EmulatorAPI(transport: EmbeddedTransport(configuration: project), project: ServedProject(project))
            : EmulatorAPI(configuration: project, behaviour: .emulator)
        let transport = api.transport
        let operations = Dictionary(flow.operations.map { ($0.exchange.entry, $0) }) { first, _ in first }
        // The requests to a link itself (a browser opening it, its page's form sent): they
        // spend codes and change passwords as calls do.
        let visited = Set(flow.actionLinks.flatMap { $0.visits.map(\.entry) })
        // The address each listed code was sent to, where the capture says.
        let addressed = Dictionary(flow.actionLinks.compactMap { link in link.anatomy.oobCode.flatMap { code in link.email.map { (code, $0.lowercased()) } } }) { first, _ in first }
        // The codes the capture shows its server issued (listed, answered, opened), in the order it shows them.
        let issuedInCapture = flow.actionLinks.compactMap { link in link.anatomy.oobCode.map { (code: $0, mode: link.anatomy.mode) } }
        var replacements: [String: String] = [:]
        var usedCodes: Set<String> = []
        var rows: [Row] = []
        var emulatorRequests: [EmulatorRequest] = []

        /// An action code the capture shows its server issued stands for the simulated code
        /// issued in the same place: the same kind of email, to the same address when the
        /// capture says which, the n-th of them as the capture's is the n-th. A code the capture
        /// never shows issued (made up, or from elsewhere) is sent as it is: the simulated
        /// project never issued it either.
        @discardableResult
        func standIn(for code: String, spentBy operation: String?, checkOnly: Bool) -> String? {
            if let known = replacements[code] { return known }
            guard let shown = issuedInCapture.first(where: { $0.code == code }) else { return nil }
            let mode = shown.mode
            let candidates = transport.issuedCodes().filter { issued in
                let issuedMode = ActionCodeOperation(requestType: issued.requestType).mode
                return (checkOnly || operation.map { fits(issued, $0) } ?? true)
                    && (mode == nil || issuedMode == mode)
                    && addressed[code].map { $0 == issued.email.lowercased() || $0 == issued.newEmail?.lowercased() } != false
            }
            let sameKind = issuedInCapture.filter { other in addressed[other.code] == addressed[code] && other.mode == mode }
            let rank = sameKind.firstIndex { $0.code == code } ?? 0
            let issued = candidates.indices.contains(rank) && !usedCodes.contains(candidates[rank].oobCode) ? candidates[rank]
                : candidates.last { !usedCodes.contains($0.oobCode) }
            guard let issued else { return nil }
            replacements[code] = issued.oobCode
            usedCodes.insert(issued.oobCode)
            return issued.oobCode
        }

        for exchange in flow.exchanges {
            guard let operation = operations[exchange.entry] else {
                // The emulator's own requests that change its state (a project restarted with
                // its users, a reset, the clock moved), and the requests to the links, are sent
                // again too, so that the calls after them meet the same project.
                let isVisit = visited.contains(exchange.entry)
                guard isVisit || exchange.changesEmulatorState else { continue }
                var (path, query) = servedPath(exchange.url)
                var body = String(decoding: exchange.requestBody, as: UTF8.self)
                if isVisit, let code = URLComponents(string: exchange.url)?.queryItems?.first(where: { $0.name == "oobCode" })?.value,
                   let simulated = standIn(for: code, spentBy: nil, checkOnly: false) {
                    query = query?.replacingOccurrences(of: code, with: simulated)
                    body = body.replacingOccurrences(of: code, with: simulated)
                }
                var headers = lowercased(exchange.requestHeaders)
                if isVisit { headers["host"] = "127.0.0.1" }
                let response = await api.handle(APIRequest(method: exchange.method, path: path, rawQuery: query, headers: headers, body: Data(body.utf8)))
                emulatorRequests.append(EmulatorRequest(entry: exchange.entry, request: "\(exchange.method) \(path)", captured: exchange.status, simulated: response.status))
                continue
            }
            var body = String(decoding: exchange.requestBody, as: UTF8.self)
            var (path, query) = servedPath(exchange.url)
            if let code = actionCode(in: exchange) {
                standIn(for: code, spentBy: operation.operation, checkOnly: operation.operation == "resetPassword" && !operation.setsPassword)
            }
            for (captured, simulated) in replacements {
                body = body.replacingOccurrences(of: captured, with: simulated)
                query = query?.replacingOccurrences(of: captured, with: simulated)
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
                    ?? rows.lastIndex(where: \.differs).map { "an earlier answer differed (\(CaptureNumbering.call($0))): this call meets the state that difference left" }
                    ?? emulatorRequests.last(where: { $0.captured != $0.simulated }).map { "the capture's \($0.request) (\(CaptureNumbering.entry($0.entry))) was answered \($0.captured), the simulated one \($0.simulated): this call meets the state that left" }
                    ?? "the simulated project answers this differently, and the capture does not show why"
            }
            rows.append(Row(entry: exchange.entry, operation: operation.operation, captured: captured, simulated: simulated, differs: differs, note: why))
        }
        return CaptureComparison(behaviour: behaviour.rawValue, rows: rows, emulatorRequests: emulatorRequests)
    }

    /// Like for like: a capture of an Auth Emulator's traffic is compared with serve as the
    /// emulator answers, unless the captured server showed that it answers as production does.
    public static func behaviour(of flow: CapturedFlow) -> ServeBehaviour {
        flow.answersAsProduction ? .production : .emulator
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
