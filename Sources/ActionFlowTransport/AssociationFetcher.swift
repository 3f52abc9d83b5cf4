import ActionFlowModel
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Fetches association files as iOS and Android fetch them: HTTPS GET, no redirect followed, the
/// body read up to a bound. `--cacert` and `--resolve` work as curl's options of those names:
/// the CA file replaces the system's trust roots, and a host is sent to another address.
public final class AssociationFetcher: Sendable {
    /// `--resolve HOST:PORT:ADDRESS`.
    public struct Resolve: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var address: String

        /// `HOST:PORT:ADDRESS`, the address bracketed or not when it is IPv6.
        public init?(_ text: String) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port), !parts[2].isEmpty else { return nil }
            host = parts[0].lowercased()
            self.port = port
            var address = String(parts[2])
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            self.address = address
        }
    }

    public enum SetupError: Error, Sendable, CustomStringConvertible {
        case unreadableCertificates(path: String, reason: String)

        public var description: String {
            switch self {
            case .unreadableCertificates(let path, let reason): UntrustedText.sanitize("--cacert \(path): \(reason)")
            }
        }
    }

    private let client: HTTPClient
    private let timeoutSeconds: Double

    public init(caCertificates: String?, resolve: [Resolve], timeoutSeconds: Double) throws(SetupError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caCertificates {
            do {
                let certificates = try NIOSSLCertificate.fromPEMFile(caCertificates)
                guard !certificates.isEmpty else { throw SetupError.unreadableCertificates(path: caCertificates, reason: "holds no PEM certificate") }
                tls.trustRoots = .certificates(certificates)
            } catch let error as SetupError {
                throw error
            } catch {
                throw SetupError.unreadableCertificates(path: caCertificates, reason: "is not a PEM certificate file (\(error))")
            }
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.dnsOverride = Dictionary(resolve.map { ($0.host, $0.address) }, uniquingKeysWith: { first, _ in first })
        // NIO's shared loops: a fetcher made for each check leaves no thread behind it.
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        self.timeoutSeconds = timeoutSeconds
    }

    /// `https://AUTHORITY/PATH`, its answer or why none came; the body is read up to `limit` bytes.
    public func fetch(authority: String, path: String, limit: Int) async -> FetchedFile {
        var request = HTTPClientRequest(url: "https://\(authority)\(path)")
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeoutSeconds * 1000)))
            var body = Data()
            var cutAt: Int?
            for try await chunk in response.body {
                body.append(contentsOf: chunk.readableBytesView)
                if body.count > limit {
                    cutAt = limit
                    body = body.prefix(limit)
                    break
                }
            }
            return .answered(status: Int(response.status.code), contentType: response.headers.first(name: "content-type"),
                             location: response.headers.first(name: "location"), body: body, cutAt: cutAt)
        } catch {
            let failure = HTTPClientExchange.classify(error)
            let detail = failure.detailMatters ? " (\(UntrustedText.sanitize(String(failure.message.prefix(200)))))" : ""
            return .failed(failure.reason + detail)
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}
