import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import ArgumentParser
import Foundation
import Logging

/// `actionflow replay FILE`: a session file's recording, or a scenario run headless, played back
/// in the interface one event at a time.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a session file's recording (or a capture, or a scenario) back in the interface: n next, b back, g play.",
        discussion: """
        FILE is a session file written by --session, run --save or import --save, an HTTP capture \
        (HAR: each call and action link is an event), or a scenario (a file or the name of a \
        shipped one), which is first played headless on the embedded project. n plays the \
        next event, b steps back (the session is rebuilt from the start), g plays to the end at a presenter's \
        pace, or the recorded one where it is slower (pauses over 3 s are cut), --speed times faster; any key stops it.
        """
    )

    @Argument(help: ArgumentHelp("A session file, a HAR capture, or a scenario.", valueName: "file"))
    var file: String

    @Option(help: "How many times faster than recorded g plays.")
    var speed: Double = 1

    @OptionGroup var project: ProjectFileOption

    @OptionGroup var interface: InterfaceOptions

    func validate() throws {
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number, not \(speed)") }
    }

    /// Nil, with the reason on standard error, when FILE cannot be played (see `ExportCommand.prepare`).
    private func load() async -> SessionRecording? {
        do {
            return try await SessionSource.load(file, project: project).recording
        } catch {
            FileHandle.standardError.write(Data("actionflow replay: \(error)\n".utf8))
            return nil
        }
    }

    func run() async throws {
        guard let recording = await load() else { throw ExitCode(2) }
        let interface = interface.settings
        interface.startLogging()
        let title = "replay " + URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let options = TUIApplication.Options(monochrome: interface.monochrome, theme: interface.theme, logFile: interface.logFile, speed: speed)
        try await interface.run(await TUIApplication(replaying: recording, title: title, options: options, logger: Logger(label: "actionflow.replay")))
    }
}
