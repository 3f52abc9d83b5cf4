import ActionFlowTransport
import Foundation

/// `serve --upstream HOST:PORT`: every request goes on unchanged to another Auth Emulator
/// (firebase-tools' own), and its answer, redirects included, is what the client gets. The
/// server's own limits (body, head, connections) still apply first.
public struct UpstreamForwarder: Sendable {
    public let address: EmulatorAddress
    /// How long the upstream has to answer.
    public let timeoutSeconds: Double

    public init(address: EmulatorAddress, timeoutSeconds: Double = 30) {
        self.address = address
        self.timeoutSeconds = timeoutSeconds
    }

    /// Headers about this connection, not the request (RFC 9110 section 7.6.1): not forwarded,
    /// and not copied back from the answer, whose length the server sets again.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length"]

    public func forward(_ request: APIRequest) async -> APIResponse {
        let target = "http://\(address)\(request.path)" + (request.rawQuery.map { "?\($0)" } ?? "")
        let headers = request.headers.filter { !Self.hopByHop.contains($0.key.lowercased()) }.map { (name: $0.key, value: $0.value) }
        do {
            let reply = try await HTTPClientExchange.forward(method: request.method, url: target, headers: headers, body: request.body, timeoutSeconds: timeoutSeconds)
            var response = APIResponse(status: reply.status, contentType: "", body: reply.body)
            for (name, value) in reply.headers where !Self.hopByHop.contains(name.lowercased()) {
                if name.lowercased() == "content-type" { response.contentType = value } else { response.headers[name] = value }
            }
            return response
        } catch {
            // In the emulator's error shape, so that a client reports it as it would any error.
            return .apiError(status: 502, message: "UPSTREAM_UNAVAILABLE : the upstream Auth Emulator at \(address) \(error.reason)",
                             reason: "backendError", domain: "global", statusName: "UNAVAILABLE")
        }
    }
}
