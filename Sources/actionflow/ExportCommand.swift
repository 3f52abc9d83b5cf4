import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow export FILE --format mermaid|markdown`: a session as a sequence diagram or a
/// review report, for design docs.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session or a scenario as a Mermaid sequence diagram or a Markdown review report.",
        discussion: """
        FILE is a session file (JSON, as written by --session or run --save) or a scenario \
        (a path or the name of a shipped scenario), which is played headless first. Exit status: \
        0 when written, 1 when a scenario's expectation was unmet (the export is still written), \
        2 when the file, the format or the output cannot be used.
        """
    )

    enum Format: String, CaseIterable {
        case mermaid, markdown
    }

    @Argument(help: ArgumentHelp("A session file, a scenario file, or the name of a shipped scenario.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("mermaid (a sequenceDiagram) or markdown (a review report with the diagram).", valueName: "format"))
    var format: String

    @Option(help: ArgumentHelp("Write here instead of standard output.", valueName: "path"))
    var output: String?

    @OptionGroup var project: ProjectFileOption

    func run() async throws {
        let source: SessionSource
        let chosen: Format
        do {
            guard let known = Format(rawValue: format) else {
                throw ExportError("unknown format '\(UntrustedText.sanitize(format))'; use \(Format.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            chosen = known
            if let output { try Self.checkWritable(output) }
            source = try await SessionSource.load(file, project: project)
        } catch {
            FileHandle.standardError.write(Data("actionflow export: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let text = switch chosen {
        case .mermaid: SequenceDiagram(source.recording.current).mermaid
        case .markdown: ReviewReport(title: source.title, session: source.recording.current).markdown
        }
        if let output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                FileHandle.standardError.write(Data("actionflow export: cannot write \(output): \(error.localizedDescription)\n".utf8))
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

    /// Refused before a scenario runs, so that its result is not lost afterwards.
    static func checkWritable(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ExportError("\(path) is a folder")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ExportError("cannot write \(path): the folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0, !FileManager.default.fileExists(atPath: path) || access(path, W_OK) == 0 else {
            throw ExportError("cannot write \(path): no write permission")
        }
    }
}

struct ExportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
