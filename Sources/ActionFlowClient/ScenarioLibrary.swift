import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// The scenarios shipped in `Resources/scenarios/` and the user stories in `Resources/stories/`,
/// and running one on the embedded project.
public enum ScenarioLibrary {
    /// Every shipped scenario file, sorted by name.
    public static func shippedFiles() -> [URL] { yamlFiles(in: BundledResources.scenariosDirectory) }

    /// The welcome screen's user stories, in the order shown (file names start with their number).
    public static func storyFiles() -> [URL] { yamlFiles(in: BundledResources.storiesDirectory) }

    /// The user stories, read once; a file that cannot be used is left out (the tests read each).
    public static let stories: [Scenario] = storyFiles().compactMap { try? ScenarioParser.load(contentsOf: $0) }

    private static func yamlFiles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// A path to a scenario file, or the name of a shipped scenario or story (with or without `.yaml`).
    public static func locate(_ nameOrPath: String) throws(ScenarioFileError) -> URL {
        let given = URL(fileURLWithPath: nameOrPath)
        if FileManager.default.fileExists(atPath: given.path) { return given }
        let name = nameOrPath.hasSuffix(".yaml") ? String(nameOrPath.dropLast(5)) : nameOrPath
        let shippedFiles = shippedFiles() + storyFiles()
        if let shipped = shippedFiles.first(where: { $0.deletingPathExtension().lastPathComponent == name }) {
            return shipped
        }
        let known = shippedFiles.map { $0.deletingPathExtension().lastPathComponent }.joined(separator: ", ")
        throw ScenarioFileError(file: nameOrPath, message: "no such file, and no shipped scenario has this name; shipped: \(known)")
    }

    /// Plays the scenario on a fresh embedded project.
    public static func runEmbedded(_ scenario: Scenario, baseProject: ProjectConfiguration) async -> ScenarioTranscript {
        await ScenarioRunner.run(scenario, on: scenario.embeddedSession(baseProject: baseProject))
    }

    /// Plays the scenario over a transport someone else runs (`actionflow serve`, the Auth
    /// Emulator): `serve` restarts with the scenario's project; elsewhere the world is reset
    /// first, and project overrides cannot apply.
    public static func run(_ scenario: Scenario, baseProject: ProjectConfiguration, over transport: any AuthTransport) async -> ScenarioTranscript {
        let project = scenario.project.applied(to: baseProject)
        let now: Date?
        do throws(AuthFailure) {
            now = try await prepareRemoteWorld(transport, project: project, overridesProject: !scenario.project.isEmpty)
        } catch {
            var transcript = ScenarioTranscript(scenario: scenario.name, description: scenario.description, lines: [], failure: nil, recording: nil)
            transcript.failure = ScenarioFailure(source: scenario.source, step: 0, line: nil, message: "cannot start the transport: \(Narration.describe(error))")
            return transcript
        }
        let session = Session.remote(project: project, devices: scenario.initialDevices, now: now)
        return await ScenarioRunner.run(scenario, on: SessionDriver(session: session, runner: .remote(RemoteEffects(transport: transport, apiKey: project.apiKey))))
    }

    /// Makes a remote world start fresh with `project`: `serve` is reconfigured; a server that
    /// cannot take a project (the Auth Emulator) is reset, when `project` is the one it has.
    /// Returns the server's clock.
    public static func prepareRemoteWorld(_ transport: any AuthTransport, project: ProjectConfiguration, overridesProject: Bool) async throws(AuthFailure) -> Date? {
        do throws(AuthFailure) {
            return try await transport.applyProject(project)
        } catch .network(.unsupported) {
            // A plain Auth Emulator: reset below, if the project stays as it is.
        }
        guard !overridesProject else {
            throw .network(.unsupported("the scenario overrides the project, which only the embedded transport and actionflow serve can apply"))
        }
        guard transport.capabilities.listsMailbox else {
            throw .network(.unsupported("\(transport.summary) cannot list the mailbox, which scenarios read"))
        }
        guard transport.capabilities.resetsWorld else {
            throw .network(.unsupported("\(transport.summary) cannot reset its world, so the scenario would not start fresh"))
        }
        try await transport.resetWorld()
        return try? await transport.now()
    }
}
