import ActionFlowBackend
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Serves an `EmulatorAPI` over HTTP/1.1 with Hummingbird: one log line per request (path only,
/// never the query, which can hold `oobCode` and `apiKey`), bodies over the limit refused in
/// the emulator's error shape as soon as they are known to be too large, and `limits` on heads,
/// connections and idle time.
public struct AuthEmulatorServer: Sendable {
    public let api: EmulatorAPI
    public let host: String
    public let port: Int
    public let limits: ServerLimits
    public let logger: Logger
    /// Forwards every request to another Auth Emulator instead of answering it.
    public let upstream: UpstreamForwarder?
    /// Told of every exchange once it is answered (`serve --inspect`).
    public let observer: ExchangeObserver?

    public init(api: EmulatorAPI, host: String = ServeDefaults.host, port: Int = ServeDefaults.port, limits: ServerLimits = ServerLimits(), logger: Logger, upstream: UpstreamForwarder? = nil,
                observer: ExchangeObserver? = nil) {
        self.api = api
        self.observer = observer
        self.upstream = upstream
        self.host = host
        self.port = port
        self.limits = limits
        self.logger = logger
    }

    /// Runs until SIGINT or SIGTERM, then finishes the requests in flight and returns.
    /// `onListening` receives the bound port (useful with port 0).
    public func runUntilSignalled(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(onListening: onListening).runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// Starts in the background (for tests and the benchmark); stop it with `RunningEmulatorServer.stop()`.
    public func start() async throws -> RunningEmulatorServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = application { port in continuation.yield(port) }
        // In a group of its own, so that stopping it can be graceful (see `stop`).
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await port in ports {
            return RunningEmulatorServer(port: port, task: task, group: group)
        }
        // The stream ended without a port: the server failed to start.
        try await task.value
        throw ServerStartError(host: host, port: port)
    }

    private func application(onListening: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let logger = self.logger
        let limits = self.limits
        let headerBytes = limits.enforcedHeaderBytes
        var channel = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuard(limits: limits)],
            idleTimeout: TimeAmount(limits.idleTimeout)
        )
        channel.httpDecoder = .init(maxHeaderFieldSize: headerBytes, maxHeaderListSize: headerBytes)
        return Application(
            responder: EmulatorResponder(api: api, limits: limits, logger: logger, upstream: upstream, observer: observer),
            server: .http1(configuration: channel),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port),
                serverName: "actionflow",
                availableConnectionsDelegate: .maximum(limits.maxConnections, logger: logger)
            ),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}

public struct ServerStartError: Error, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var description: String { "could not listen on \(host):\(port)" }
}

/// A server started with `AuthEmulatorServer.start()`.
public struct RunningEmulatorServer: Sendable {
    public let port: Int
    let task: Task<Void, any Error>
    let group: ServiceGroup

    /// Stops accepting, lets the connections already accepted be served and closed, then ends;
    /// a connection still open after `patience` is cut. Cancelling at once would drop
    /// connections accepted but not yet handed to the server, which SwiftNIO treats as a
    /// programming error (`NIOAsyncWriter` deinited without `finish()`).
    public func stop(patience: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let deadline = Task {
            try await Task.sleep(for: patience)
            task.cancel()
        }
        _ = try? await task.value
        deadline.cancel()
    }
}

struct EmulatorResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let api: EmulatorAPI
    let limits: ServerLimits
    let logger: Logger
    let upstream: UpstreamForwarder?
    let observer: ExchangeObserver?

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let startedAt = Date()
        var request = request
        let response: APIResponse
        var received: APIRequest?
        var headers = Self.headers(request.headers)
        // HTTP/1's Host arrives as the `:authority` pseudo-header; the emulator's links use it.
        if headers["host"] == nil, let authority = request.head.authority { headers["host"] = authority }
        do {
            // A declared length over the limit is refused before reading any of it.
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > api.maxBodyBytes {
                throw NIOTooManyBytesError(maxBytes: api.maxBodyBytes)
            }
            let body = try await request.collectBody(upTo: api.maxBodyBytes)
            let whole = APIRequest(method: request.method.rawValue, path: request.uri.path, rawQuery: request.uri.query, headers: headers, body: Data(buffer: body))
            received = whole
            if let upstream {
                response = await upstream.forward(whole)
            } else {
                response = await api.handle(whole)
            }
        } catch is NIOTooManyBytesError {
            // Refused before routing; still with CORS headers, so a browser can read why. The
            // connection closes once the rest of the body is dropped (`ConnectionGuard`).
            var refusal = EmulatorAPI.withCORS(
                .failure(status: 413, code: .init("PAYLOAD_TOO_LARGE"), detail: "the request body exceeds \(api.maxBodyBytes) bytes"),
                for: APIRequest(method: request.method.rawValue, path: request.uri.path, headers: headers)
            )
            refusal.headers["Connection"] = "close"
            response = refusal
        } catch let error as HTTPParserError {
            // A body the parser refuses (a broken chunk): the same answer as a broken head.
            response = ConnectionGuard.refusal(for: error, limits: limits)
        }
        let elapsed = ContinuousClock.now - started
        let millis = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        logger.info("\(request.method.rawValue) \(request.uri.path) \(response.status) \(String(format: "%.2f", millis)) ms")
        // Only requests read whole: one refused before its body was read shows nothing of a flow.
        if let observer, let received {
            observer.observe(ServedExchange(request: received, response: response, startedAt: startedAt, milliseconds: millis))
        }
        return Self.response(response)
    }

    static func headers(_ fields: HTTPFields) -> [String: String] {
        var result: [String: String] = [:]
        for field in fields where result[field.name.canonicalName] == nil {
            result[field.name.canonicalName] = field.value
        }
        return result
    }

    static func response(_ response: APIResponse) -> Response {
        var fields = HTTPFields()
        // A preflight has no body and, as the emulator's, no `Content-Type`.
        if !response.contentType.isEmpty { fields[.contentType] = response.contentType }
        for (name, value) in response.headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        return Response(
            status: HTTPResponse.Status(code: response.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body))
        )
    }
}
