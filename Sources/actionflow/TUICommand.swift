import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import ArgumentParser
import CTerminalSupport
import Foundation
import Logging

/// `actionflow` (or `actionflow tui`): the full-screen interface over the embedded project.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the full-screen interface (the default when no command is given).",
        discussion: """
        Keys: Tab switches between the phone and the inspector, arrows or h/j/k/l move, Enter \
        presses, 1-7 pick an inspector pane, ? shows every key, q quits. With --scenario FILE \
        the scenario is played one step per press of n, with narration, for a presenter.
        """
    )

    @Option(help: ArgumentHelp("Present a scenario (a file, or the name of a shipped scenario) one step per key press.", valueName: "file"))
    var scenario: String?

    @OptionGroup var transportOptions: TransportOptions

    @Flag(help: "Draw without colour (also when NO_COLOR is set).")
    var monochrome = false

    @Option(help: ArgumentHelp("Where log lines go (never the screen).", valueName: "path"))
    var logFile: String = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow.log").path

    func run() async throws {
        let base: ProjectConfiguration
        var playback: ScenarioPlayback?
        var project: ProjectConfiguration
        do {
            base = try transportOptions.project.load()
            project = base
            if let scenario {
                let parsed = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(scenario))
                project = try parsed.project.validated(appliedTo: base, source: parsed.source)
                playback = ScenarioPlayback(parsed)
            }
        } catch {
            FileHandle.standardError.write(Data("actionflow: \(error)\n".utf8))
            throw ExitCode(2)
        }

        let path = logFile
        LoggingSystem.bootstrap { label in
            FileLogHandler(label: label, path: path).map { $0 as LogHandler } ?? SwiftLogNoOpLogHandler()
        }
        let logger = Logger(label: "actionflow.tui")
        let state = playback.map { ScenarioPlayback.initialState(for: $0.scenario, project: project, now: nil) }
        let runtime: AppRuntime
        if transportOptions.transport == .rest {
            runtime = await EmbeddedWorld.runtime(over: try await transportOptions.makeTransport(), project: project, state: state)
        } else {
            runtime = await EmbeddedWorld.runtime(project: project, state: state)
        }
        let application = await TUIApplication(runtime: runtime, options: .init(monochrome: monochrome, logFile: logFile), scenario: playback, logger: logger)
        let endingSignal: Int32?
        do {
            endingSignal = try await application.run()
        } catch {
            FileHandle.standardError.write(Data("\(error.description)\n".utf8))
            throw ExitCode(1)
        }
        if let endingSignal {
            // The terminal is restored; end the way the signal asked.
            ts_reraise(endingSignal)
        }
    }
}
