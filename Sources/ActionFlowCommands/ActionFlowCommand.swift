import ActionFlowModel
import ArgumentParser
import CTerminalSupport
import Foundation

struct ActionFlowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actionflow",
        abstract: "Explore how Firebase Authentication email actions carry state through a continue URL.",
        discussion: """
        With no command, the full-screen interface opens on the embedded project. Its options \
        (see `actionflow help tui`): --scenario NAME (presenter mode; `actionflow scenarios` lists \
        the names), --session FILE, --theme dark|light, --monochrome, --devices iphone,laptop, \
        --project FILE, --transport rest --emulator HOST:PORT, --export-dir DIR.
        """,
        version: ActionFlowCommand.version,
        subcommands: [
            InspectCommand.self,
            MatrixCommand.self,
            RunCommand.self,
            ReplayCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            ServeCommand.self,
            ScenariosCommand.self,
            ProjectCommand.self,
            DoctorCommand.self,
            TUICommand.self,
        ]
    )

    /// The program's version, as `actionflow --version` prints it.
    static let version = "0.9.0"

    /// Arguments the root command itself answers; any other option opens the interface.
    static let rootOptions = ["-h", "--help", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// With no arguments, straight to the interface on its defaults, without parsing: ArgumentParser
    /// builds every option of a command by reflection, which costs the first frame about 10 ms.
    static func main() async {
        guard CommandLine.arguments.count > 1 else {
            do {
                try await InterfaceLaunch().open()
            } catch {
                TUICommand.exit(withError: error)
            }
            return
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let launch = RunLaunch(plainArguments: arguments) {
            do {
                try await launch.perform()
            } catch {
                RunCommand.exit(withError: error)
            }
            return
        }
        // The interface is the default command, routed here: as ArgumentParser's
        // `defaultSubcommand` it would have the interface's options built by reflection on every
        // parse, whatever the command, to learn whether they take the remaining arguments.
        await main(opensInterface(arguments) ? [TUICommand.configuration.commandName ?? "tui"] + arguments : arguments)
    }

    /// Options without a command before them are the interface's (`actionflow --devices ...`).
    static func opensInterface(_ arguments: [String]) -> Bool {
        guard let first = arguments.first, first.hasPrefix("-") else { return false }
        return !rootOptions.contains { first == $0 || first.hasPrefix($0 + "=") }
    }
}

/// Says `message` on standard error, a line of its own, and gives the exit status to throw
/// (2, a usage or input error, unless told).
public func failing(_ message: String, _ status: ExitCode = ExitCode(2)) -> ExitCode {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return status
}

/// The program's entry point, called on the main thread by the `actionflow` executable's
/// main.swift: the command runs in a task, and the main thread serves the main actor's queue
/// with libdispatch's public `dispatchMain()` until the command exits.
@MainActor
public func runActionFlow() -> Never {
    Task {
        await ActionFlowCommand.main()
        exit(0)
    }
    dispatchMain()
}
