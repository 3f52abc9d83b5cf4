import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `serve` runs in `actionflow-serve`, a program of its own that `swift build` puts beside this
/// one: the HTTP server's framework (Hummingbird) is linked into no other command's process.
/// Both programs parse the same options, so help and errors are the same in either.
public enum ServerProgram {
    /// How `actionflow-serve` runs `serve` in its own process (`ServerCommands.install()`); nil in
    /// `actionflow`. Set once by that program's entry point, before anything else runs.
    nonisolated(unsafe) public static var runsHere: ((ServeCommand) async throws -> Void)?

    /// How `actionflow-serve` answers a capture's requests with serve's own API
    /// (`import --compare`); nil in `actionflow`, which hands the command over.
    nonisolated(unsafe) public static var comparesCaptures: (@Sendable (CapturedFlow, ProjectConfiguration) async -> CaptureComparison)?

    static let executableName = "actionflow-serve"

    /// Not a usage error: it prints without the command's usage line.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ command: ServeCommand) async throws {
        if let runsHere { return try await runsHere(command) }
        try handOver()
    }

    /// Runs this command line in `actionflow-serve` instead, which takes this process over (so
    /// signals sent to it reach the server); returns only by throwing.
    static func handOver() throws -> Never {
        let program = try location()
        let argv = ([program] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
        // A program starts with no signal blocked; this thread may be one of the runtime's,
        // which block them all, and the new program would inherit that.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        execv(program, argv)
        throw Failure(description: "cannot start \(program): \(String(cString: strerror(errno)))")
    }

    /// `actionflow-serve` beside this program.
    static func location() throws -> String {
        guard let program = ProgramLocation.sibling(executableName) else { throw Failure(description: "cannot find the folder of the actionflow executable") }
        guard program.runnable else {
            throw Failure(description: "\(executableName), which runs the server, is not beside this program at \(program.path): build it with `swift build` (or `swift build -c release`)")
        }
        return program.path
    }
}
