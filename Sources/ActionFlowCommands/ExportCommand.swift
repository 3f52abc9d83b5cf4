import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import ArgumentParser
import Foundation

/// `actionflow export FILE --format mermaid|markdown|cast|curl`: a session as a sequence diagram,
/// a review report, a terminal recording of the interface playing it, for design reviews, or its
/// calls as a shell script of `curl` commands.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session or a scenario as a Mermaid sequence diagram, a Markdown review report, an asciicast recording or a curl script.",
        discussion: """
        FILE is a session file (JSON, as written by --session, run --save or import --save), an \
        HTTP capture (HAR) or a scenario (a path or the name of a shipped scenario), which is \
        played headless first. Exit status: \
        0 when written, 1 when a scenario's expectation was unmet (the export is still written), \
        2 when the file, the format or the output cannot be used.
        """
    )

    typealias Format = SessionExport.Format

    @Argument(help: ArgumentHelp("A session file, a HAR capture, a scenario file, or the name of a shipped scenario.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("mermaid (a sequenceDiagram), markdown (a review report with the diagram), cast (an asciicast v2 recording of the interface) or curl (a shell script repeating each call).", valueName: "format"))
    var format: String

    @Flag(help: "Write a curl script's passwords, codes, tokens and API key as sent, not masked.")
    var revealSecrets = false

    @Option(help: ArgumentHelp("Write here instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(help: "Let --output replace a file that is already there (never FILE itself).")
    var force = false

    @Option(help: ArgumentHelp("The terminal size of a cast, in columns and rows.", valueName: "colsxrows"))
    var size: String = "100x30"

    @OptionGroup var project: ProjectFileOption

    /// What the options and FILE give, checked before anything is written.
    private struct Prepared {
        var source: SessionSource
        var chosen: Format
        var terminalSize: (columns: Int, rows: Int)
    }

    /// Nil, with the reason on standard error, when the options or FILE cannot be used. A value
    /// rather than `let`s assigned in a `do` whose `catch` throws: an async function's throw
    /// path destroyed a large value never assigned (seen with Swift 6.3.1, in parallel tests).
    private func prepare() async -> Prepared? {
        do {
            guard let chosen = Format(rawValue: format) else {
                throw ExportError("unknown format '\(UntrustedText.sanitize(format))'; use \(Format.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            let terminalSize = try Self.parseSize(size)
            if revealSecrets, chosen != .curl {
                throw ExportError("--reveal-secrets goes with --format curl: the \(chosen.rawValue) format always masks secrets")
            }
            if let output { try OutputFile.check(output, inputs: [file], force: force, option: "--output") }
            return Prepared(source: try await SessionSource.load(file, project: project, keepsCapturedValues: chosen == .curl), chosen: chosen, terminalSize: terminalSize)
        } catch {
            FileHandle.standardError.write(Data("actionflow export: \(error)\n".utf8))
            return nil
        }
    }

    func run() async throws {
        guard let prepared = await prepare() else { throw ExitCode(2) }
        let (source, chosen, terminalSize) = (prepared.source, prepared.chosen, prepared.terminalSize)
        let text = SessionExport.text(chosen, recording: source.recording, title: source.title, columns: terminalSize.columns, rows: terminalSize.rows, revealsSecrets: revealSecrets)
        if let output {
            // A script runs as it is; one with the secrets in clear is its owner's alone.
            let mode: mode_t = chosen != .curl ? 0o644 : revealSecrets ? 0o700 : 0o755
            if let failure = Data(text.utf8).withUnsafeBytes({ DescriptorWrite.replaceFile(at: output, with: $0, mode: mode) }) {
                FileHandle.standardError.write(Data("actionflow export: cannot write \(output): \(String(cString: strerror(failure)))\n".utf8))
                throw ExitCode(2)
            }
        } else {
            print(text, terminator: "")
        }
        if let failure = source.failure {
            FileHandle.standardError.write(Data("actionflow export: the scenario stopped early, exported where it stopped: \(failure)\n".utf8))
            throw failure.isSetup ? ExitCode(2) : ExitCode.failure
        }
    }

    /// `COLSxROWS`, at least as large as the interface draws anything in.
    static func parseSize(_ text: String) throws -> (columns: Int, rows: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              (1...1000).contains(columns), (1...1000).contains(rows) else {
            throw ExportError("--size must be COLSxROWS, such as 100x30, not '\(UntrustedText.sanitize(text))'")
        }
        return (columns, rows)
    }
}

struct ExportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
