import ActionFlowModel
import Foundation

/// Where a `RESTTransport` sends its calls and how long it waits.
public struct RESTTransportConfiguration: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        /// A Firebase Auth Emulator (or `actionflow serve`) at `http://HOST:PORT`.
        case emulator(host: String, port: Int)
        /// The production Identity Toolkit at `https://identitytoolkit.googleapis.com`.
        case production
    }

    /// The emulator's conventional environment variable.
    public static let emulatorHostVariable = "FIREBASE_AUTH_EMULATOR_HOST"
    /// The API key the emulator's own links carry; the emulator accepts any key.
    public static let emulatorAPIKey = "fake-api-key"
    public static let defaultTimeout: TimeInterval = 5

    public var target: Target
    /// Sent as `?key=` on every client call.
    public var apiKey: String
    public var projectId: String
    /// Seconds before a call gives up with `NetworkFailure.timedOut`.
    public var timeout: TimeInterval
    /// Sent as `X-Client-Version`, as the iOS SDK sends it.
    public var clientVersion: String = RESTTransportConfiguration.defaultClientVersion
    /// The Firebase app id, sent as `X-Firebase-gmpid` when set.
    public var appId: String?
    /// The iOS app's bundle id, sent as `X-Ios-Bundle-Identifier` when set.
    public var iOSBundleId: String?

    public static let defaultClientVersion = "iOS/FirebaseSDK/11.0.0/FirebaseCore-iOS"

    /// The headers the SDKs send with every Identity Toolkit call (the locale is per call).
    public var sdkHeaders: [String: String] {
        var headers = ["X-Client-Version": clientVersion]
        if let appId, !appId.isEmpty { headers["X-Firebase-gmpid"] = appId }
        if let iOSBundleId, !iOSBundleId.isEmpty { headers["X-Ios-Bundle-Identifier"] = iOSBundleId }
        return headers
    }

    public init(target: Target, apiKey: String, projectId: String, timeout: TimeInterval = RESTTransportConfiguration.defaultTimeout) {
        self.target = target
        self.apiKey = apiKey
        self.projectId = projectId
        self.timeout = timeout
    }

    /// Identity Toolkit's production host; an emulator serves the same paths below `/HOST`
    /// (`EmulatorPaths.identityToolkitPrefix`).
    public static let identityToolkitHost = "identitytoolkit.googleapis.com"
    public static let productionOrigin = "https://\(identityToolkitHost)"

    /// `/v1/accounts:sendOobCode`: an operation's path below Identity Toolkit's root.
    public static func path(of operation: IdentityToolkitOperation) -> String {
        "/\(operation.version)/\(operation.rawValue)"
    }

    /// The API key as the `key` query parameter's value.
    public static func queryValue(apiKey: String) -> String {
        apiKey.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))) ?? ""
    }

    /// `http://HOST:PORT` or `https://identitytoolkit.googleapis.com`.
    public var origin: String {
        switch target {
        case .emulator(let host, let port):
            // IPv6 literals need brackets in a URL.
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return "http://\(bracketed):\(port)"
        case .production:
            return Self.productionOrigin
        }
    }

    /// Identity Toolkit's root, where each operation's `path(of:)` begins.
    public var identityToolkitRoot: String {
        switch target {
        case .emulator: origin + EmulatorPaths.identityToolkitPrefix
        case .production: origin
        }
    }

    /// The Identity Toolkit v1 base: the emulator serves it below `/identitytoolkit.googleapis.com`.
    public var identityToolkitBase: String { identityToolkitRoot + "/v1" }

    /// Where an operation is called, with the API key.
    public func url(of operation: IdentityToolkitOperation) -> String {
        "\(identityToolkitRoot)\(Self.path(of: operation))?key=\(Self.queryValue(apiKey: apiKey))"
    }

    /// The emulator's own API (`/emulator/v1/projects/PROJECT`), nil against production.
    public var emulatorProjectBase: String? {
        guard case .emulator = target else { return nil }
        return "\(origin)/emulator/v1/projects/\(Self.pathSegment(projectId))"
    }

    public var isEmulator: Bool {
        if case .emulator = target { true } else { false }
    }

    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }
}

/// A `HOST:PORT` as given to `--emulator` or `FIREBASE_AUTH_EMULATOR_HOST`.
public struct EmulatorAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var input: String
        public var reason: String
        public var description: String { "'\(input)' is not HOST:PORT: \(reason)" }
    }

    /// Accepts `HOST:PORT`, `[IPv6]:PORT`, and tolerates a leading `http://` and a trailing `/`.
    public init(parsing input: String) throws(ParseError) {
        var text = input.trimmingWhitespace()
        if text.lowercased().hasPrefix("http://") { text.removeFirst("http://".count) }
        if text.hasSuffix("/") { text.removeLast() }
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw ParseError(input: input, reason: "unclosed '[' in an IPv6 host") }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ParseError(input: input, reason: "missing ':PORT' after the IPv6 host") }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw ParseError(input: input, reason: "missing ':PORT'") }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") { throw ParseError(input: input, reason: "an IPv6 host needs brackets, e.g. [::1]:9099") }
        }
        guard !hostPart.isEmpty else { throw ParseError(input: input, reason: "empty host") }
        guard hostPart.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }) else {
            throw ParseError(input: input, reason: "the host may hold only letters, digits, '-', '.' and ':'")
        }
        guard let port = Int(portPart), (1...65535).contains(port) else {
            throw ParseError(input: input, reason: "the port must be a number from 1 to 65535")
        }
        self.host = String(hostPart)
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why the command-line choice of a REST target does not work, in words a user can act on.
public struct TransportSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension RESTTransportConfiguration {
    /// The REST target the options name: `--emulator` first, then `FIREBASE_AUTH_EMULATOR_HOST`,
    /// then a production project, which needs both an API key and a project id.
    public static func resolve(
        emulator: String?,
        apiKey: String?,
        projectId: String?,
        timeout: TimeInterval,
        environment: [String: String],
        defaultProjectId: String
    ) throws(TransportSelectionError) -> RESTTransportConfiguration {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw TransportSelectionError("--timeout must be a number of seconds above zero and at most 86400, not \(timeout)")
        }
        if let apiKey, apiKey.trimmingWhitespace().isEmpty {
            throw TransportSelectionError("--api-key is empty")
        }
        if let projectId, projectId.trimmingWhitespace().isEmpty {
            throw TransportSelectionError("--project-id is empty")
        }
        let emulatorSource: (text: String, origin: String)? =
            if let emulator { (emulator, "--emulator") }
            else if let fromEnvironment = environment[emulatorHostVariable], !fromEnvironment.isEmpty { (fromEnvironment, emulatorHostVariable) }
            else { nil }
        if let emulatorSource {
            let address: EmulatorAddress
            do {
                address = try EmulatorAddress(parsing: emulatorSource.text)
            } catch {
                throw TransportSelectionError("\(emulatorSource.origin): \(error)")
            }
            return RESTTransportConfiguration(
                target: .emulator(host: address.host, port: address.port),
                apiKey: apiKey ?? emulatorAPIKey,
                projectId: projectId ?? defaultProjectId,
                timeout: timeout
            )
        }
        switch (apiKey, projectId) {
        case let (apiKey?, projectId?):
            return RESTTransportConfiguration(target: .production, apiKey: apiKey, projectId: projectId, timeout: timeout)
        case (nil, nil):
            throw TransportSelectionError("--transport rest needs a target: --emulator HOST:PORT (or \(emulatorHostVariable)) for an Auth Emulator or `actionflow serve`, or --api-key and --project-id for a production project")
        case (nil, _):
            throw TransportSelectionError("a production project needs --api-key as well as --project-id (or give --emulator HOST:PORT for an emulator)")
        case (_, nil):
            throw TransportSelectionError("a production project needs --project-id as well as --api-key (or give --emulator HOST:PORT for an emulator)")
        }
    }
}
