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

    func run() async throws {
        StartupTrace.mark("options read")
        var parsed: Scenario
        let project: ProjectConfiguration
        do {
            parsed = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(scenario))
            DeviceOptions.apply(try deviceOptions.names(), to: &parsed)
            StartupTrace.mark("scenario loaded")
            project = try transportOptions.project.load()
            StartupTrace.mark("project loaded")
            _ = try parsed.project.validated(appliedTo: project, source: parsed.source)
            if let save {
                // Refused before the run, so that the run's result is not lost afterwards.
                _ = try SessionFile.load(save, transport: transportOptions.transport == .rest ? "rest" : "embedded")
                try SessionFile.checkWritable(save)
            }
        } catch {
            FileHandle.standardError.write(Data("actionflow run: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let transcript: ScenarioTranscript
        if transportOptions.transport == .rest {
            transcript = await ScenarioLibrary.run(parsed, baseProject: project, over: try await transportOptions.makeTransport())
        } else {
            transcript = await ScenarioLibrary.runEmbedded(parsed, baseProject: project)
        }
        print(transcript.text(quiet: quiet))
        StartupTrace.mark("flow printed")
        if let save, let recording = transcript.recording {
            do throws(SessionFileError) {
                try SessionFile.save(recording, to: save)
            } catch {
                FileHandle.standardError.write(Data("actionflow run: \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        if let failure = transcript.failure {
            FileHandle.standardError.write(Data("actionflow run: \(failure)\n".utf8))
            throw failure.isSetup ? ExitCode(2) : ExitCode.failure
        }
    }
}
