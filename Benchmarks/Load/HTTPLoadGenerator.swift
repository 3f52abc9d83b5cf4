import ActionFlowModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A bounded closed-loop HTTP/1.1 load: a fixed number of keep-alive connections, each sending
/// its next request as soon as the previous answer has arrived (or, paced, at its next turn),
/// until the time is up.
public enum HTTPLoadGenerator {
    public struct Call: Sendable {
        public var method: HTTPMethod
        public var path: String
        public var headers: [(String, String)]
        public var body: Data

        public init(method: HTTPMethod = .POST, path: String, headers: [(String, String)] = [], body: Data) {
            self.method = method
            self.path = path
            self.headers = headers
            self.body = body
        }
    }

    public struct Result: Sendable {
        public var completed: Int
        /// Answers whose status was not 2xx.
        public var failedStatus: Int
        /// Connections that broke before their time was up.
        public var brokenConnections: Int
        public var elapsed: Duration
        /// Sorted, in nanoseconds.
        public var latencies: [UInt64]

        public var requestsPerSecond: Double {
            let seconds = elapsed.seconds
            return seconds > 0 ? Double(completed) / seconds : 0
        }

        /// The latency below which `fraction` of the calls finished, in milliseconds.
        public func percentileMilliseconds(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)
            return Double(latencies[max(0, index)]) / 1e6
        }
    }

    /// `makeCall(connection, sequence)` builds each request. With `pace`, each connection starts a
    /// request at most once per `pace` (a steady rate of `connections / pace`), not at once.
    public static func run(
        host: String,
        port: Int,
        connections: Int,
        duration: Duration,
        pace: Duration? = nil,
        makeCall: @escaping @Sendable (Int, Int) -> Call
    ) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let started = ContinuousClock.now
        let deadline = NIODeadline.now() + .nanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        var futures: [EventLoopFuture<ConnectionTally>] = []
        for connection in 0..<connections {
            let loop = group.next()
            let done = loop.makePromise(of: ConnectionTally.self)
            let bootstrap = ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(LoadConnectionHandler(
                            host: host, connection: connection, deadline: deadline, pace: pace.map { TimeAmount.nanoseconds(Int64($0.seconds * 1e9)) },
                            makeCall: makeCall, done: done
                        ))
                    }
                }
            bootstrap.connect(host: host, port: port).whenFailure { _ in
                done.succeed(ConnectionTally(broken: true))
            }
            futures.append(done.futureResult)
        }
        var result = Result(completed: 0, failedStatus: 0, brokenConnections: 0, elapsed: .zero, latencies: [])
        for future in futures {
            let tally = try await future.get()
            result.completed += tally.latencies.count
            result.failedStatus += tally.failedStatus
            result.brokenConnections += tally.broken ? 1 : 0
            result.latencies.append(contentsOf: tally.latencies)
        }
        result.elapsed = ContinuousClock.now - started
        result.latencies.sort()
        return result
    }
}

struct ConnectionTally: Sendable {
    var latencies: [UInt64] = []
    var failedStatus = 0
    var broken = false
}

/// Lives on one event loop: sends, waits for the whole answer, records the time, sends again.
final class LoadConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let host: String
    private let connection: Int
    private let deadline: NIODeadline
    private let pace: TimeAmount?
    /// When a paced connection's next request is due.
    private var nextTurn = NIODeadline.now()
    private let makeCall: @Sendable (Int, Int) -> HTTPLoadGenerator.Call
    private let done: EventLoopPromise<ConnectionTally>
    private var tally = ConnectionTally()
    private var sequence = 0
    private var sentAt = NIODeadline.now()
    private var status = 0
    private var finished = false

    init(host: String, connection: Int, deadline: NIODeadline, pace: TimeAmount? = nil, makeCall: @escaping @Sendable (Int, Int) -> HTTPLoadGenerator.Call,
         done: EventLoopPromise<ConnectionTally>) {
        self.host = host
        self.pace = pace
        self.connection = connection
        self.deadline = deadline
        self.makeCall = makeCall
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
        context.fireChannelActive()
    }

    private func send(context: ChannelHandlerContext) {
        let call = makeCall(connection, sequence)
        sequence += 1
        var head = HTTPRequestHead(version: .http1_1, method: call.method, uri: call.path)
        head.headers.add(name: "Host", value: host)
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: "\(call.body.count)")
        for (name, value) in call.headers { head.headers.add(name: name, value: value) }
        sentAt = .now()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !call.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: call.body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body:
            break
        case .end:
            let now = NIODeadline.now()
            tally.latencies.append(UInt64(max(0, (now - sentAt).nanoseconds)))
            if !(200..<300).contains(status) { tally.failedStatus += 1 }
            if now < deadline, let pace {
                nextTurn = max(nextTurn + pace, now - pace)
                let wait = nextTurn - now
                if wait <= .zero {
                    send(context: context)
                } else {
                    let context = NIOLoopBound(context, eventLoop: context.eventLoop)
                    context.value.eventLoop.assumeIsolated().scheduleTask(in: wait) { self.send(context: context.value) }
                }
            } else if now < deadline {
                send(context: context)
            } else {
                finish(broken: false)
                context.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(broken: true)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(broken: true)
        context.fireChannelInactive()
    }

    private func finish(broken: Bool) {
        guard !finished else { return }
        finished = true
        tally.broken = broken
        done.succeed(tally)
    }
}
