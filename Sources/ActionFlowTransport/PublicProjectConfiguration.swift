import ActionFlowModel
import Foundation

/// `GET /v1/projects?key=KEY` (the legacy `getProjectConfig`): the public configuration of the
/// API key's project, its authorized domains among it, as an app's SDK may read it.
public enum PublicProjectConfiguration {
    public struct Answer: Sendable, Decodable {
        public var projectId: String?
        public var authorizedDomains: [String]?
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The URL asked, the key masked, for saying where a value came from.
    public static func maskedURL(_ configuration: RESTTransportConfiguration) -> String {
        "\(configuration.identityToolkitBase)/projects?key=\(SecretMasking.mask(configuration.apiKey))"
    }

    public static func fetch(_ configuration: RESTTransportConfiguration) async throws(Failure) -> Answer {
        let key = PercentEncoding.encodeComponent(configuration.apiKey)
        let reply: HTTPClientExchange.Reply
        do {
            reply = try await HTTPClientExchange.exchange(method: "GET", url: "\(configuration.identityToolkitBase)/projects?key=\(key)", headers: [:], body: nil,
                                                         backstopSeconds: configuration.timeout)
        } catch {
            throw Failure(description: "\(maskedURL(configuration)) \(error.reason)")
        }
        guard reply.status == 200 else {
            let message = (try? JSONDecoder().decode(ErrorEnvelope.self, from: reply.body))?.error.message ?? "HTTP \(reply.status)"
            throw Failure(description: UntrustedText.sanitize("\(maskedURL(configuration)) answered \(reply.status): \(message)"))
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: reply.body), let domains = answer.authorizedDomains else {
            throw Failure(description: "\(maskedURL(configuration)) answered without authorizedDomains")
        }
        guard domains.count <= 1000, domains.allSatisfy({ $0.utf8.count <= 253 }) else {
            throw Failure(description: "\(maskedURL(configuration)) answered more authorized domains than a project holds")
        }
        return answer
    }
}
