import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow import CAPTURE`: the email-action flow an HTTP capture holds.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Explain the email-action flow an HTTP capture (HAR 1.2) holds.",
        discussion: """
        Reads a HAR file as browser devtools, Proxyman, Charles or mitmproxy (hardump) write it, \
        and narrates its Identity Toolkit and securetoken calls (v1, the iOS SDK's v3 names, \
        Android's spelling; production hosts and an emulator's paths) and the action links in it, \
        never following one; CORS preflights and other traffic are kept out. Findings come from the \
        link inspector and the settings checks, against --authorized-domain (default: the project's). \
        Codes, keys and tokens are masked. --save writes the capture as a session file, which \
        replay and export take (they also take the HAR file itself). Exit status: 0 when the \
        capture was read, 2 (with the file and the reason on stderr) when it cannot be.
        """
    )

    @Argument(help: ArgumentHelp("The capture: a HAR file, or - to read it from standard input.", valueName: "capture"))
    var capture: String

    @Flag(help: "Print a JSON object instead of text.")
    var json = false

    @Option(name: .customLong("authorized-domain"), help: ArgumentHelp("An authorized domain to check continue URLs against (repeatable; default: the project's).", valueName: "domain"))
    var authorizedDomains: [String] = []

    @Option(help: ArgumentHelp("Also write the capture as a session file here, for replay and export.", valueName: "session"))
    var save: String?

    @Flag(help: "Let --save replace a file that is already there (never the capture itself).")
    var force = false

    @Flag(help: "Also send each captured request again, in order, to the simulated project (--project), and list where its answer differs from the captured one.")
    var compare = false

    @OptionGroup var project: ProjectFileOption

    /// The capture as messages name it, on success and failure alike.
    private var source: String { capture == "-" ? "(standard input)" : capture }

    func run() async throws {
        // The simulated project's HTTP API is linked into actionflow-serve only.
        if compare, ServerProgram.comparesCaptures == nil { try ServerProgram.handOver() }
        var configuration = try project.load()
        if !authorizedDomains.isEmpty { configuration.authorizedDomains = authorizedDomains }
        let output: String
        do {
            // Refused before the capture is read, so that nothing is half done.
            if let save { try OutputFile.check(save, inputs: [capture], force: force, option: "--save") }
            // Mapped, not read: a capture can be 100 MB of other traffic.
            let file = capture == "-" ? nil : try MappedFile(path: capture)
            let data = file?.data ?? FileHandle.standardInput.readDataToEndOfFile()
            let flow = try CapturedFlow.read(data, project: configuration, release: file?.release)
            let comparison = compare ? await ServerProgram.comparesCaptures?(flow, configuration) : nil
            if json {
                output = JSONOutput.commandOutput(CapturedFlow.Report(flow, comparison: comparison))
            } else {
                output = flow.narration(source: source) + (comparison.map { "\n\n" + $0.text } ?? "")
            }
            if let save { try SessionFile.save(flow.recording(project: configuration, source: URL(fileURLWithPath: capture).lastPathComponent), to: save) }
        } catch let error as SessionFileError {
            throw failing("actionflow import: \(error)")
        } catch let error as OutputFile.Refused {
            throw failing("actionflow import: --save \(error)")
        } catch {
            let reason = (error as? CaptureError)?.description ?? (error as? MappedFile.Failure)?.description ?? Self.readFailure(error)
            throw failing("actionflow import: \(UntrustedText.sanitize(source)): \(reason)")
        }
        print(output)
    }

    private static func readFailure(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain, let reason = strerror(Int32(code)) {
            return "cannot read it: \(String(cString: reason))"
        }
        return "cannot read it: \(UntrustedText.sanitize(error.localizedDescription))"
    }
}
