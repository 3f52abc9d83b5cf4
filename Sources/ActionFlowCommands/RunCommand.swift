import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow run SCENARIO`: plays a scenario file headless and prints its narrated transcript.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a scenario file headless and print the narrated transcript.",
        discussion: """
        SCENARIO is a path to a scenario file or the name of a shipped scenario \
        (for example password-reset-in-app). Exit status: 0 when every expectation is met, \
        1 on the first unmet expectation, 2 when the file or the transport cannot be used.
        """
    )

    @Argument(help: ArgumentHelp("A scenario file, or the name of a shipped scenario.", valueName: "scenario"))
    var scenario: String

    @Flag(help: "Print only the expectations and the result, not the narration.")
    var quiet = false

    @OptionGroup var transportOptions: TransportOptions

    @OptionGroup var deviceOptions: DeviceOptions

    @Option(help: ArgumentHelp("Write the session to this file when the run ends (also when an expectation fails), to open with `actionflow --session`.", valueName: "file"))
    var save: String?

    @Flag(help: "Let --save replace a file that is already there (never the scenario itself).")
    var force = false

    func run() async throws {
        try await RunLaunch(
            scenario: scenario, quiet: quiet, transport: transportOptions, devices: try deviceOptions.names(), sdk: try deviceOptions.profile(), save: save, force: force
        ).perform()
    }
}

/// What `run` plays, as plain values: the parsed options, or `run SCENARIO [--quiet]` read
/// straight from the command line. That form, the one a CI job repeats, skips ArgumentParser,
/// whose reflection over the options cost more than the whole flow; anything else is parsed.
struct RunLaunch {
    var scenario: String
    var quiet = false
    /// nil: the embedded transport over the bundled project.
    var transport: TransportOptions?
    var devices: [DeviceName]?
    var sdk: SDKProfile?
    var save: String?
    var force = false

    func perform() async throws {
        let rest = transport.restOptions
        var parsed: Scenario
        let project: ProjectConfiguration
        do {
            parsed = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(scenario))
            DeviceOptions.apply(devices, to: &parsed)
            try DeviceOptions.apply(sdk, to: &parsed)
            project = try transport.loadProject()
            _ = try parsed.project.validated(appliedTo: project, source: parsed.source)
            if let save {
                // Refused before the run, so that the run's result is not lost afterwards.
                try OutputFile.check(save, inputs: [parsed.source], force: force, option: "--save")
            }
        } catch {
            throw failing("actionflow run: \(error)")
        }
        let transcript: ScenarioTranscript
        if let rest {
            transcript = await ScenarioLibrary.run(parsed, baseProject: project, over: try await rest.makeTransport())
        } else {
            transcript = await ScenarioLibrary.runEmbedded(parsed, baseProject: project)
        }
        print(transcript.text(quiet: quiet))
        if let save, let recording = transcript.recording {
            do throws(SessionFileError) {
                try SessionFile.save(recording, to: save)
            } catch {
                throw failing("actionflow run: \(error)")
            }
        }
        if let failure = transcript.failure {
            throw failing("actionflow run: \(failure)", failure.isSetup ? ExitCode(2) : .failure)
        }
    }
}

extension RunLaunch {
    /// `["run", SCENARIO]` with an optional `--quiet` before or after it, else nil.
    init?(plainArguments arguments: [String]) {
        guard arguments.first == RunCommand.configuration.commandName, (2...3).contains(arguments.count) else { return nil }
        let rest = arguments.dropFirst()
        let named = rest.filter { !$0.hasPrefix("-") }
        guard named.count == 1, let scenario = named.first, scenario != "help",
              rest.allSatisfy({ $0 == scenario || $0 == "--quiet" }) else { return nil }
        self.init(scenario: scenario, quiet: rest.contains("--quiet"))
    }
}
