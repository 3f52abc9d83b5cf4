import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import ArgumentParser
import Foundation

/// `--transport embedded|rest` and the options that pick the backend; shared by every command
/// that runs a flow (`@OptionGroup var transportOptions: TransportOptions`).
struct TransportOptions: ParsableArguments {
    enum Kind: String, ExpressibleByArgument, CaseIterable, Sendable {
        case embedded, rest
    }

    @Option(help: "Which backend the flow talks to: the in-process simulated project (embedded) or Identity Toolkit over HTTP (rest).")
    var transport: Kind = .embedded

    @Option(help: ArgumentHelp("An Auth Emulator or `actionflow serve` to use with --transport rest (default: $FIREBASE_AUTH_EMULATOR_HOST).", valueName: "host:port"))
    var emulator: String?

    @Option(help: "The API key sent as ?key= (production; an emulator accepts any key).")
    var apiKey: String?

    @Option(help: "The Firebase project id (default: the simulated project's id).")
    var projectId: String?

    @Option(help: "Seconds a REST call may take before it fails as timed out.")
    var timeout: Double = RESTTransportConfiguration.defaultTimeout

    @OptionGroup var project: ProjectFileOption

    func validate() throws {
        if transport == .embedded {
            let restOnly = [("--emulator", emulator), ("--api-key", apiKey), ("--project-id", projectId)].filter { $0.1 != nil }.map(\.0)
            if !restOnly.isEmpty {
                throw ValidationError("\(restOnly.joined(separator: ", ")): for --transport rest only")
            }
        }
        _ = try restConfiguration()
    }

    /// The REST target these options name, or nil for the embedded transport.
    func restConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RESTTransportConfiguration? {
        guard transport == .rest else { return nil }
        do {
            let simulated = try project.load()
            var configuration = try RESTTransportConfiguration.resolve(
                emulator: emulator, apiKey: apiKey, projectId: projectId, timeout: timeout,
                environment: environment, defaultProjectId: simulated.projectId
            )
            // The simulated phone is the project's iOS app: its SDK names the bundle.
            configuration.iOSBundleId = simulated.iOSApp?.bundleId
            return configuration
        } catch let error as TransportSelectionError {
            throw ValidationError(error.description)
        }
    }

    func makeTransport() async throws -> any AuthTransport {
        if let rest = try restConfiguration() {
            return await RESTTransport.connect(configuration: rest)
        }
        return EmbeddedTransport(configuration: try project.load())
    }
}

/// A launch's transport options: nil when it skipped parsing, which means the embedded
/// transport over the bundled project (`InterfaceLaunch`, `RunLaunch`).
extension Optional where Wrapped == TransportOptions {
    var kind: TransportOptions.Kind { self?.transport ?? .embedded }

    /// The options when they pick the REST transport.
    var restOptions: TransportOptions? { kind == .rest ? self : nil }

    /// The simulated project they name.
    func loadProject() throws -> ProjectConfiguration {
        try self?.project.load() ?? ProjectConfigLoader.loadDefault()
    }
}

/// `--project FILE`: the simulated project's configuration (shared by the flow commands and `serve`).
public struct ProjectFileOption: ParsableArguments, Sendable {
    @Option(name: .customLong("project"), help: ArgumentHelp("A YAML project file overriding the bundled simulated project.", valueName: "file"))
    public var projectFile: String?

    public init() {}

    public func validate() throws {
        if projectFile != nil { _ = try load() }
    }

    /// The bundled project, with the file's settings laid over it.
    public func load() throws -> ProjectConfiguration {
        try Self.load(projectFile)
    }

    /// The bundled project, with `file`'s settings laid over it (for options read in `run`).
    public static func load(_ file: String?) throws -> ProjectConfiguration {
        let bundled = try ProjectConfigLoader.loadDefault()
        guard let file else { return bundled }
        return try ProjectConfigLoader.load(overridesFrom: URL(fileURLWithPath: file), base: bundled)
    }
}
