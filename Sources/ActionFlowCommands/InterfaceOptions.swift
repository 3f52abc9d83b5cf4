import ActionFlowTUI
import ArgumentParser
import CTerminalSupport
import Foundation
import Logging

extension Theme: ExpressibleByArgument {}

/// What every command that opens the interface takes (`--monochrome`, `--theme`, `--log-file`).
struct InterfaceOptions: ParsableArguments {
    @Flag(help: "Draw without colour (also when NO_COLOR is set).")
    var monochrome = false

    @Option(help: ArgumentHelp("Colours for a dark or a light terminal background. Without it, the terminal is asked for its background colour; dark when it does not say.",
                               valueName: "dark|light"))
    var theme: Theme?

    @Option(help: ArgumentHelp("Where log lines go (never the screen).", valueName: "path"))
    var logFile: String = InterfaceSettings.defaultLogFile

    var settings: InterfaceSettings {
        InterfaceSettings(monochrome: monochrome, theme: theme, logFile: logFile)
    }
}

/// The interface's own settings as plain values, with their defaults: the parsed options give
/// them, and so does `actionflow` with no argument at all, which skips parsing.
struct InterfaceSettings {
    static let defaultLogFile = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow.log").path

    var monochrome = false
    /// Nil asks the terminal.
    var theme: Theme?
    var logFile = InterfaceSettings.defaultLogFile

    /// Logs go to the file from here on.
    func startLogging() {
        let path = logFile
        LoggingSystem.bootstrap { label in
            FileLogHandler(label: label, path: path).map { $0 as LogHandler } ?? SwiftLogNoOpLogHandler()
        }
    }

    /// Enters full-screen mode; says why not when it cannot.
    @MainActor
    func startTerminal() throws -> CursesTerminal {
        do {
            return try TUIApplication.startTerminal(monochrome: monochrome, theme: theme, errorLog: logFile)
        } catch {
            throw failing("\(error.description)", ExitCode(1))
        }
    }

    /// Runs the interface until the user quits, on `terminal` or on one it starts; a signal that
    /// ended it ends the program the same way, once the terminal is restored.
    @MainActor
    func run(_ application: TUIApplication, on terminal: CursesTerminal? = nil) async throws {
        let endingSignal = await application.run(on: try terminal ?? startTerminal())
        if let endingSignal { ts_reraise(endingSignal) }
    }
}
