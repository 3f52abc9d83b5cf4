import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import ArgumentParser
import Foundation

/// `actionflow export FILE --format mermaid|markdown|cast|html|svg|curl`: a session as a sequence
/// diagram, a review report (with its steps' pictures), a terminal recording of the interface
/// playing it, a deck of its steps for a browser, a folder of pictures, for design reviews, or
/// its calls as a shell script of `curl` commands.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session or a scenario as a Mermaid sequence diagram, a Markdown review report, an asciicast recording, an HTML deck, SVG pictures of its steps or a curl script.",
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

    @Option(help: ArgumentHelp("mermaid (a sequenceDiagram), markdown (a review report with the diagram), cast (an asciicast v2 recording of the interface), html (a deck of every step's screen, one file for a browser), svg (a folder of pictures, one a step: give it with --output) or curl (a shell script repeating each call).", valueName: "format"))
    var format: String

    @Flag(help: "With --format markdown: write each step's picture into a folder beside the report (REPORT-pictures) and show it beside its step. Needs --output.")
    var pictures = false

    @Option(help: ArgumentHelp("The colours of pictures, a deck and a cast: dark (light text on black) or light (dark text on white).", valueName: "dark|light"))
    var theme: String?

    @Flag(help: "Pictures and a deck show the device alone, not the whole interface: for slides.")
    var phoneOnly = false

    @Flag(help: "Write a curl script's passwords, codes, tokens and API key as sent, not masked.")
    var revealSecrets = false

    @Option(help: ArgumentHelp("Write here instead of standard output; for svg, the folder to fill.", valueName: "path"))
    var output: String?

    @Flag(help: "Let --output replace a file that is already there, or a folder of pictures (never FILE itself).")
    var force = false

    @Option(help: ArgumentHelp("The terminal size of a cast, a deck and pictures, in columns and rows.", valueName: "colsxrows"))
    var size: String = "100x30"

    @OptionGroup var project: ProjectFileOption

    /// What the options and FILE give, checked before anything is written.
    private struct Prepared {
        var source: SessionSource
        var chosen: Format
        var drawing: SessionExport.Drawing
        /// Where the report's pictures go (`--pictures`).
        var picturesFolder: String?
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
            if pictures, chosen != .markdown {
                throw ExportError("--pictures goes with --format markdown; --format svg writes the pictures alone, --format html a deck of them")
            }
            let drawsFrames = chosen.drawsFrames || pictures
            var chosenTheme = Theme.dark
            if let theme {
                guard let named = Theme(rawValue: theme.lowercased()) else {
                    throw ExportError("--theme must be dark or light, not '\(UntrustedText.sanitize(theme))'")
                }
                guard drawsFrames else { throw ExportError("--theme goes with a format that draws the screen: cast, html, svg or markdown --pictures") }
                chosenTheme = named
            }
            if phoneOnly, !(chosen == .svg || chosen == .html || pictures) {
                throw ExportError("--phone-only goes with pictures: svg, html or markdown --pictures")
            }
            var picturesFolder: String?
            switch (chosen, output) {
            case (.svg, nil):
                throw ExportError("--format svg writes a folder of pictures, one a step: name it with --output DIR")
            case (.svg, let folder?):
                try OutputFolder.check(folder, inputs: [file], force: force, option: "--output", ownsEntry: StepPictures.isPictureName)
            case (_, let output?):
                try OutputFile.check(output, inputs: [file], force: force, option: "--output")
                if pictures {
                    let folder = Self.picturesFolder(besides: output)
                    try OutputFolder.check(folder, inputs: [file], force: force, option: "--pictures", ownsEntry: StepPictures.isPictureName)
                    picturesFolder = folder
                }
            case (_, nil):
                if pictures { throw ExportError("--pictures writes the pictures beside the report: name the report with --output FILE") }
            }
            let source = try await SessionSource.load(file, project: project, keepsCapturedValues: chosen == .curl)
            return Prepared(source: source, chosen: chosen,
                            drawing: SessionExport.Drawing(columns: terminalSize.columns, rows: terminalSize.rows, theme: chosenTheme, phoneOnly: phoneOnly, captions: source.captions),
                            picturesFolder: picturesFolder)
        } catch {
            FileHandle.standardError.write(Data("actionflow export: \(error)\n".utf8))
            return nil
        }
    }

    /// `review.md` → `review-pictures`, in the report's folder.
    static func picturesFolder(besides report: String) -> String {
        let url = URL(fileURLWithPath: report)
        let stem = url.pathExtension.isEmpty ? url.lastPathComponent : url.deletingPathExtension().lastPathComponent
        return ((report as NSString).deletingLastPathComponent as NSString).appendingPathComponent(stem + "-pictures")
    }

    func run() async throws {
        guard let prepared = await prepare() else { throw ExitCode(2) }
        let source = prepared.source
        do {
            try write(prepared.chosen, source: source, drawing: prepared.drawing, picturesFolder: prepared.picturesFolder)
        } catch {
            throw failing("actionflow export: \(error)")
        }
        if let failure = source.failure {
            throw failing("actionflow export: the scenario stopped early, exported where it stopped: \(failure)", failure.isSetup ? ExitCode(2) : .failure)
        }
    }

    private func write(_ chosen: Format, source: SessionSource, drawing: SessionExport.Drawing, picturesFolder: String?) throws {
        let steps = drawing.steps(of: source.recording, title: source.title)
        switch chosen {
        case .svg:
            // `prepare` refused svg without --output.
            guard let output else { return }
            try OutputFolder.replace(output) { folder in try StepPictures.write(steps, into: folder, style: drawing.style) }
        case .html:
            let deck = ReviewDeck(recording: source.recording, title: source.title, description: source.description, drawing: drawing)
            if let output {
                var failure: Int32?
                let writeFailure = DescriptorWrite.replaceFile(at: output, mode: 0o644) { descriptor in
                    deck.write { piece in
                        guard failure == nil else { return }
                        failure = Data(piece.utf8).withUnsafeBytes { DescriptorWrite.all(descriptor, $0) }
                    }
                    return failure
                }
                if let writeFailure { throw ExportError("cannot write \(output): \(String(cString: strerror(writeFailure)))") }
            } else {
                deck.write { print($0, terminator: "") }
            }
        default:
            let text: String
            if let picturesFolder {
                // The pictures first, then the report that shows them: never a report without its pictures.
                let relative = (picturesFolder as NSString).lastPathComponent
                var shown: [ReviewReport.PictureStep] = []
                let total = steps.count - 1
                try OutputFolder.replace(picturesFolder) { folder in
                    try StepPictures.write(steps, into: folder, style: drawing.style) { step, name in
                        shown.append(ReviewReport.PictureStep(title: StepPictures.title(of: step, steps: total), picture: relative + "/" + name, narration: step.narration, calls: step.calls))
                    }
                }
                text = ReviewReport(title: source.title, session: source.recording.current, steps: shown).markdown
            } else {
                text = SessionExport.text(chosen, recording: source.recording, title: source.title, description: source.description, drawing: drawing, revealsSecrets: revealSecrets)
            }
            guard let output else {
                print(text, terminator: "")
                return
            }
            // A script runs as it is; one with the secrets in clear is its owner's alone.
            let mode: mode_t = chosen != .curl ? 0o644 : revealSecrets ? 0o700 : 0o755
            if let failure = Data(text.utf8).withUnsafeBytes({ DescriptorWrite.replaceFile(at: output, with: $0, mode: mode) }) {
                throw ExportError("cannot write \(output): \(String(cString: strerror(failure)))")
            }
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
