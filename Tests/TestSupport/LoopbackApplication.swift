import Hummingbird
import HummingbirdCore
import Logging

/// A Hummingbird application on a free loopback port, answering with `respond`: running until
/// its task is cancelled.
public enum LoopbackApplication {
    public static func start(server: HTTPServerBuilder = .http1(), _ respond: @escaping @Sendable (Request) async throws -> Response) async throws -> (task: Task<Void, any Error>, port: Int) {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "loopback-application")
        logger.logLevel = .critical
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in try await respond(request) },
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
            logger: logger
        )
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return (task, port)
    }
}
