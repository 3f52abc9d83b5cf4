import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The REST transport's HTTP client: AsyncHTTPClient on SwiftNIO, linked into the program. Its
/// event loops start with the first call, so a start that never uses the REST transport never
/// runs any of it.
public enum HTTPClientExchange {
    struct Reply: Sendable {
        var status: Int
        var body: Data
    }

    /// Why an exchange got no HTTP reply.
    enum Outcome: Sendable {
        case timedOut, connectionRefused, dnsFailure, tlsFailure, connectionLost, notHTTP, otherFailure
    }

    /// No HTTP reply: why, and the client's own words (untrusted text: it may quote the URL).
    public struct Failure: Error, Sendable {
        var outcome: Outcome
        public var message: String

        /// Whether the client's own words add to `reason`: they say which TLS check failed, or
        /// what an unclassified failure was; for DNS, refusals and timeouts the reason says it all.
        public var detailMatters: Bool { outcome == .tlsFailure || outcome == .otherFailure }

        /// In a sentence: "refused the connection", "did not answer in time"...
        public var reason: String {
            switch outcome {
            case .timedOut: "did not answer in time"
            case .connectionRefused: "refused the connection"
            case .dnsFailure: "has a name that does not resolve"
            case .tlsFailure: "failed the TLS handshake"
            case .connectionLost: "closed the connection before answering"
            case .notHTTP: "did not answer in HTTP"
            case .otherFailure: "could not be reached"
            }
        }
    }

    /// Replies larger than this are refused rather than held in memory.
    static let maximumReplyBytes = 16 * 1024 * 1024

    /// One client for the process, made on first use and never shut down: it lives as long as
    /// the program, like URLSession's shared session. Its event loop is its own, so a server in
    /// the same process (a test's) never delays it. A refused connection fails the request at
    /// once instead of being retried until the deadline.
    private static let client = makeClient(.follow(max: 5, allowCycles: false))

    /// For forwarding (`serve --upstream`): redirects are the client's to follow, not ours.
    private static let forwardingClient = makeClient(.disallow)

    private static func makeClient(_ redirects: HTTPClient.Configuration.RedirectConfiguration) -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: redirects)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: 1), configuration: configuration)
    }

    /// A reply as it came, headers included, redirects not followed.
    public struct ForwardedReply: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: Data
    }

    /// Sends a request on as it came and returns the reply as it came (`serve --upstream`).
    public static func forward(method: String, url: String, headers: [(name: String, value: String)], body: Data, timeoutSeconds: Double) async throws(Failure) -> ForwardedReply {
        let (response, bytes) = try await send(forwardingClient, method: method, url: url, headers: headers, body: body.isEmpty ? nil : body, timeoutSeconds: timeoutSeconds)
        return ForwardedReply(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(bytes.readableBytesView))
    }

    /// One request and its reply; cancelling the task cancels the request. `backstopSeconds`
    /// bounds the exchange even if the caller's own deadline is never reached.
    static func exchange(method: String, url: String, headers: [String: String], body: Data?, backstopSeconds: Double) async throws(Failure) -> Reply {
        let (response, bytes) = try await send(client, method: method, url: url, headers: headers.map { ($0.key, $0.value) }, body: body, timeoutSeconds: backstopSeconds)
        return Reply(status: Int(response.status.code), body: Data(bytes.readableBytesView))
    }

    /// The request sent, its reply's head and its body (at most `maximumReplyBytes`).
    private static func send(_ client: HTTPClient, method: String, url: String, headers: [(name: String, value: String)], body: Data?,
                             timeoutSeconds: Double) async throws(Failure) -> (HTTPClientResponse, ByteBuffer) {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeoutSeconds * 1000)))
            return (response, try await response.body.collect(upTo: maximumReplyBytes))
        } catch {
            throw classify(error)
        }
    }

    /// The client's error as the transport distinguishes it.
    static func classify(_ error: any Error) -> Failure {
        let description = String(describing: error)
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return Failure(outcome: .timedOut, message: description)
            case .tlsHandshakeTimeout:
                return Failure(outcome: .tlsFailure, message: "the TLS handshake timed out")
            case .remoteConnectionClosed:
                return Failure(outcome: .connectionLost, message: description)
            case .invalidURL, .emptyHost, .emptyScheme:
                return Failure(outcome: .otherFailure, message: "cannot build a URL from the configured host")
            default:
                return Failure(outcome: .otherFailure, message: description)
            }
        case let error as NIOConnectionError:
            // Every address refused, or none found.
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return Failure(outcome: .dnsFailure, message: description)
            }
            if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return Failure(outcome: .connectionRefused, message: description)
            }
            return Failure(outcome: .otherFailure, message: description)
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return Failure(outcome: .connectionRefused, message: description)
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            return Failure(outcome: .connectionLost, message: description)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return Failure(outcome: .tlsFailure, message: description)
        case is HTTPParserError:
            return Failure(outcome: .notHTTP, message: description)
        case is SocketAddressError:
            return Failure(outcome: .dnsFailure, message: description)
        case is NIOTooManyBytesError:
            return Failure(outcome: .otherFailure, message: "the reply is larger than \(maximumReplyBytes / 1_048_576) MiB")
        case ChannelError.connectTimeout:
            return Failure(outcome: .timedOut, message: description)
        default:
            return Failure(outcome: .otherFailure, message: description)
        }
    }
}
