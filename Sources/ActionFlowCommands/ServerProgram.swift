import ActionFlowModel
import ArgumentParser
import Foundation

/// `serve` and `bench serve` run in `actionflow-serve`, a program of its own that `swift build`
/// puts beside this one: the HTTP server's frameworks (SwiftNIO, Hummingbird) are linked into
/// no other command's process, the interface's least of all (README, "Benchmark": peak memory).
/// Both programs parse the same options, so help and errors are the same in either.
public enum ServerProgram {
    public enum Command {
        case serve(ServeCommand)
        case benchServe(BenchServeCommand)
    }

    /// How `actionflow-serve` runs these commands in its own process (`ServerCommands.install()`);
    /// nil in `actionflow`. Set once by that program's entry point, before anything else runs.
    nonisolated(unsafe) public static var runsHere: ((Command) async throws -> Void)?

    static let executableName = "actionflow-serve"

    static func run(_ command: Command) async throws {
        if let runsHere { return try await runsHere(command) }
        let program = try location()
        switch command {
        case .serve:
            // The server takes this process over, so signals sent to it reach the server.
            let argv = ([program] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
            execv(program, argv)
            throw ChildProcess.Failure(description: "cannot start \(program): \(String(cString: strerror(errno)))")
        case .benchServe(let bench):
            // A child: `bench` with no subcommand goes on to its next section afterwards.
            let status = try ChildProcess.passingThrough(program, bench.arguments)
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// `actionflow-serve` beside this program.
    static func location() throws -> String {
        // Not a usage error: these errors print without the command's usage line.
        guard let folder = ProgramLocation.folder else { throw ChildProcess.Failure(description: "cannot find the folder of the actionflow executable") }
        let program = folder.appendingPathComponent(executableName).path
        guard access(program, X_OK) == 0 else {
            throw ChildProcess.Failure(description: "\(executableName), which runs the server, is not beside this program at \(program): build it with `swift build` (or `swift build -c release`)")
        }
        return program
    }
}
