import ActionFlowTUI
import ArgumentParser
import CTerminalSupport
import Foundation
import Logging

/// What every command that opens the interface takes (`--monochrome`, `--log-file`).
struct InterfaceOptions: ParsableArguments {
    @Flag(help: "Draw without colour (also when NO_COLOR is set).")
    var monochrome = false

    @Option(help: ArgumentHelp("Where log lines go (never the screen).", valueName: "path"))
    var logFile: String = InterfaceSettings.defaultLogFile

    var settings: InterfaceSettings {
        InterfaceSettings(monochrome: monochrome, logFile: logFile)
    }
}

/// The interface's own settings as plain values, with their defaults: the parsed options give
/// them, and so does `actionflow` with no argument at all, which skips parsing.
struct InterfaceSettings {
    static let defaultLogFile = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow.log").path

    var monochrome = false
    var logFile = InterfaceSettings.defaultLogFile

    /// Logs go to the file from here on.
    func startLogging() {
        let path = logFile
        LoggingSystem.bootstrap { label in
            FileLogHandler(label: label, path: path).map { $0 as LogHandler } ?? SwiftLogNoOpLogHandler()
        }
    }

    /// Runs the interface until the user quits; a signal that ended it ends the program the same
    /// way, once the terminal is restored.
    func run(_ application: TUIApplication) async throws {
        let endingSignal: Int32?
        do {
            endingSignal = try await application.run()
        } catch {
            FileHandle.standardError.write(Data("\(error.description)\n".utf8))
            throw ExitCode(1)
        }
        if let endingSignal { ts_reraise(endingSignal) }
    }
}
