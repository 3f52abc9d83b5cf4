import Foundation

/// One request the server answered, with its answer: what `serve --inspect` shows.
public struct ServedExchange: Sendable {
    public var request: APIRequest
    public var response: APIResponse
    public var startedAt: Date
    public var milliseconds: Double

    /// The URL the client asked for, with the host it named (`http://127.0.0.1:9099/...`).
    public var url: String {
        "http://\(request.headers["host"] ?? "localhost")\(request.path)" + (request.rawQuery.map { "?\($0)" } ?? "")
    }

    /// The answer's headers, names in lower case, `content-type` among them.
    public var responseHeaders: [String: String] {
        var headers = Dictionary(response.headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        if !response.contentType.isEmpty { headers["content-type"] = response.contentType }
        return headers
    }
}

/// Told of each exchange as soon as it is answered, on the server's threads: it must return
/// quickly and keep the order it is called in.
public struct ExchangeObserver: Sendable {
    public let observe: @Sendable (ServedExchange) -> Void

    public init(_ observe: @escaping @Sendable (ServedExchange) -> Void) {
        self.observe = observe
    }
}
