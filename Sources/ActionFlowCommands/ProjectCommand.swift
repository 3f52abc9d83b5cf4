import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import ArgumentParser
import Foundation

/// `actionflow project`: a project file for the user's own Firebase project.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Make a project file from your app's own Firebase configuration.",
        subcommands: [ProjectInitCommand.self]
    )
}

/// `actionflow project init --from PATH...`: a project file from `GoogleService-Info.plist`,
/// `google-services.json`, `firebase.json` and `.firebaserc`.
struct ProjectInitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a project file from GoogleService-Info.plist, google-services.json, firebase.json and .firebaserc.",
        discussion: """
        Each PATH is one of those files, or a folder searched for them (an app's repository). \
        Every value in the file written says which file and field it came from; what the files \
        cannot tell (the Apple team id, SHA-256 fingerprints, authorized domains, the builds in \
        users' hands) is a QUESTION with a placeholder. The file works with --project FILE on \
        every command.
        """
    )

    @Option(name: .customLong("from"), parsing: .upToNextOption, help: ArgumentHelp("Configuration files, or folders to search for them.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Where to write the project file (default: standard output).", valueName: "file"))
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Option(help: ArgumentHelp("The Android app to take when google-services.json lists several.", valueName: "package"))
    var androidPackage: String?

    @Flag(help: "Ask the project's public configuration (GET /v1/projects?key=KEY) for its authorized domains.")
    var online = false

    @Option(help: ArgumentHelp("With --online: the API key to ask with (default: the one the files give).", valueName: "key"))
    var apiKey: String?

    @Option(help: ArgumentHelp("With --online: an Auth Emulator or `actionflow serve` to ask instead of production (default: $FIREBASE_AUTH_EMULATOR_HOST).", valueName: "host:port"))
    var emulator: String?

    @Option(help: "With --online: seconds the request may take.")
    var timeout: Double = RESTTransportConfiguration.defaultTimeout

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("--from: name the app's configuration files, or a folder holding them") }
        if !online, apiKey != nil || emulator != nil { throw ValidationError("--api-key and --emulator go with --online") }
    }

    func run() async throws {
        do {
            if let output { try OutputFile.check(output, inputs: paths, force: force, option: "--output") }
            var config = try AppConfigReader.read(paths, androidPackage: androidPackage)
            if online { config.authorizedDomains = try await askAuthorizedDomains(config) }
            let text = ProjectFileWriter.yaml(config)
            // What is written must be a project every command runs on.
            _ = try ProjectConfigLoader.parse(text, fileName: output ?? "project file", base: ProjectConfigLoader.loadDefault())
            guard let output else {
                print(text, terminator: "")
                return
            }
            if let failure = Data(text.utf8).withUnsafeBytes({ DescriptorWrite.replaceFile(at: output, with: $0, mode: 0o644) }) {
                throw OutputFile.Refused(path: output, reason: "cannot be written: \(String(cString: strerror(failure)))")
            }
            let questions = text.components(separatedBy: "# QUESTION:").count - 1
            FileHandle.standardError.write(Data((UntrustedText.sanitize("wrote \(output) for \(config.projectId?.value ?? "?") from \(config.files.count) file(s); \(questions) question(s) to answer in it") + "\n").utf8))
        } catch {
            throw failing("actionflow project init: \(error)")
        }
    }

    /// The project's authorized domains from its public configuration, over the REST transport's
    /// HTTP client: production with the API key, or an emulator.
    func askAuthorizedDomains(_ config: AppConfigFiles) async throws -> AppConfigFiles.AuthorizedDomains {
        guard let key = apiKey ?? config.apiKey?.value else { throw ValidationError("--online needs an API key: the files give none; pass --api-key") }
        let configuration: RESTTransportConfiguration
        do {
            configuration = try RESTTransportConfiguration.resolve(emulator: emulator, apiKey: key, projectId: config.projectId?.value, timeout: timeout,
                                                                  environment: ProcessInfo.processInfo.environment, defaultProjectId: config.projectId?.value ?? "")
        } catch {
            throw ValidationError(error.description)
        }
        let answer = try await PublicProjectConfiguration.fetch(configuration)
        return .init(domains: answer.authorizedDomains ?? [], source: "GET \(PublicProjectConfiguration.maskedURL(configuration)) (the project's public configuration)")
    }
}
