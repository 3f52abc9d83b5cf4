import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow inspect LINK`: takes an email action link apart.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Take an email action link apart: its layers, every parameter decoded, and findings.",
        discussion: """
        Accepts action URLs (default or custom handler), Hosting /__/auth/links and Dynamic Links \
        wrappers (link, deep_link_id, double wrapping), Auth Emulator links, in any parameter order \
        and encoding. Exit status: 0 for an action link, 2 (with the reason on stderr) for text \
        that is no action link.

        With --jsonl, reads one link per line (from standard input with -, or from a file) and \
        writes one JSON object per line, the object --json gives, in input order; a line that is \
        no link gives {"error": ..., "line": N} and the stream goes on (empty lines, lines over \
        16 KiB and invalid UTF-8 included). Output is flushed per line when standard input is a \
        terminal. Exit status 0 once the input is read, whatever its lines held.

        With --sdk PROFILE (ios@12.18.0, js@10.14.1...) or --sdk all, also shows how that SDK's \
        code reads the link: isSignInWithEmailLink and ActionCodeURL/parseLink, crashes and \
        throws included (docs/sdk-profiles.md). Profiles: \(SDKProfile.knownNames).
        """
    )

    @Argument(help: ArgumentHelp("The link, or - to read it from standard input (with --jsonl: - or a file of links, one per line).", valueName: "link"))
    var link: String

    @Flag(help: "Print a JSON object instead of text.")
    var json = false

    @Flag(help: "Inspect one link per line, writing one JSON object per line (JSON Lines).")
    var jsonl = false

    @Option(name: .customLong("authorized-domain"), help: ArgumentHelp("An authorized domain to check the continue URL against (repeatable).", valueName: "domain"))
    var authorizedDomainOptions: [String] = []

    @Option(name: .customLong("project"), help: ArgumentHelp("Check the continue URL against this project file's authorized domains (unless --authorized-domain names them).", valueName: "file"))
    var projectFile: String?

    /// The domains the continue URL is checked against: those named, else the project's; nil
    /// checks against none.
    func authorizedDomains() throws -> [String]? {
        if !authorizedDomainOptions.isEmpty || projectFile == nil { return authorizedDomainOptions.isEmpty ? nil : authorizedDomainOptions }
        do {
            return try ProjectFileOption.load(projectFile).authorizedDomains
        } catch {
            throw failing("actionflow inspect: \(error)")
        }
    }

    @Option(help: ArgumentHelp("Also read the link as this SDK does: PLATFORM@VERSION (ios@12.18.0, js@10.14.1) or all.", valueName: "profile"))
    var sdk: String?

    @Option(help: ArgumentHelp("With --jsonl: threads inspecting links at once (default: one per core, at most 4; output stays in input order).", valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if json && jsonl { throw ValidationError("--json and --jsonl are exclusive: --jsonl already writes JSON, one object per line.") }
        if let jobs {
            guard jsonl else { throw ValidationError("--jobs applies to --jsonl only: a single link is inspected at once.") }
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64, not \(jobs)") }
        }
        if sdk != nil && jsonl { throw ValidationError("--sdk applies to a single link, not to --jsonl.") }
        _ = try profiles()
    }

    /// The profiles `--sdk` names: nil without it, every profile for `all`.
    func profiles() throws(ValidationError) -> [SDKProfile]? {
        guard let sdk else { return nil }
        if sdk.lowercased() == "all" { return SDKProfile.all }
        do {
            return [try SDKProfile.named(sdk)]
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        if jsonl { return try runStream() }
        let text = link == "-" ? Self.readStandardInput() : link
        let rendered = Self.render(text, json: json, authorizedDomains: try authorizedDomains(), sdks: try profiles())
        if let output = rendered.output { print(output) }
        if let error = rendered.error {
            throw failing("actionflow inspect: \(error.description)")
        }
    }

    private func runStream() throws {
        let input = link == "-" ? STDIN_FILENO : open(link, O_RDONLY)
        guard input >= 0 else {
            throw failing("actionflow inspect: cannot open \(UntrustedText.sanitize(link)): \(String(cString: strerror(errno)))")
        }
        defer { if input != STDIN_FILENO { close(input) } }
        let stream = InspectStream(authorizedDomains: try authorizedDomains(), flushEachLine: isatty(input) == 1,
                                   workers: jobs ?? InspectStream.defaultWorkers)
        do {
            try stream.run(input: input, output: STDOUT_FILENO)
        } catch {
            throw failing("actionflow inspect: \(error)")
        }
    }

    /// The output and, for text that is no action link, why. With `sdks`, the SDKs' readings are
    /// printed even then: a hash-router link is no action link to the inspector, but the JS SDK
    /// reads it.
    static func render(_ text: String, json: Bool, authorizedDomains: [String]?, sdks: [SDKProfile]?) -> (output: String?, error: LinkParseError?) {
        let anatomy: LinkAnatomy
        do {
            anatomy = try LinkInspector.inspect(text, authorizedDomains: authorizedDomains)
        } catch {
            guard let sdks, let link = try? LinkInspector.clean(text).link else { return (nil, error) }
            let readings = sdks.map { $0.read(link) }
            let output = json ? JSONOutput.commandOutput(SDKInspectOutput(anatomy: nil, error: error.description, readings: readings, all: sdks.count > 1))
                : SDKTable.text(readings)
            return (output, error)
        }
        guard let sdks else { return (json ? JSONOutput.commandOutput(anatomy) : humanText(anatomy), nil) }
        let readings = sdks.map { $0.read(anatomy.link) }
        if json {
            return (JSONOutput.commandOutput(SDKInspectOutput(anatomy: anatomy, error: nil, readings: readings, all: sdks.count > 1)), nil)
        }
        return (humanText(anatomy) + "\n\n" + SDKTable.text(readings), nil)
    }

    /// Reads at most one byte more than a link may have, so the inspector reports the size.
    static func readStandardInput() -> String {
        let data = FileHandle.standardInput.readData(ofLength: LinkInspector.maximumLinkBytes + 1)
        return String(decoding: data, as: UTF8.self)
    }

    static func humanText(_ anatomy: LinkAnatomy) -> String {
        let safe = UntrustedText.sanitize
        var lines: [String] = []
        let operation = anatomy.operation == .unknown ? "unknown operation" : anatomy.operation.rawValue
        lines.append("Link        \(safe(anatomy.link))")
        lines.append("Mode        \(anatomy.mode.map(safe) ?? "(none)") (\(operation))")
        lines.append("oobCode     \(anatomy.oobCode.map(safe) ?? "(none)")")
        lines.append("apiKey      \(anatomy.apiKey.map(safe) ?? "(none)")")
        var continueLine = "continueUrl \(anatomy.continueUrl.map(safe) ?? "(none)")"
        switch anatomy.continueUrlAuthorized {
        case true?: continueLine += "  [authorized]"
        case false?: continueLine += "  [NOT authorized]"
        case nil: break
        }
        lines.append(continueLine)
        if let destination = anatomy.continueLink, destination.isMobileLink {
            lines.append("  returns to \(safe(destination.destination))")
        }
        lines.append("lang        \(anatomy.lang.map(safe) ?? "(none)")")
        lines.append("tenantId    \(anatomy.tenantId.map(safe) ?? "(none)")")
        lines.append("")
        lines.append("Layers, outermost first:")
        for (number, layer) in anatomy.layers.enumerated() {
            lines.append("\(number + 1). \(layer.kind.title): \(safe(layer.url))")
            let width = layer.parameters.map { safe($0.name).count }.max() ?? 0
            for parameter in layer.parameters {
                let name = safe(parameter.name)
                var line = "     \(name)\(String(repeating: " ", count: width - name.count)) = \(safe(parameter.value))"
                if let meaning = parameter.meaning { line += "  (\(meaning))" }
                lines.append(line)
            }
        }
        lines.append("")
        if anatomy.findings.isEmpty {
            lines.append("Findings: none")
        } else {
            lines.append("Findings:")
            for finding in anatomy.findings.sorted(by: { $0.severity > $1.severity }) {
                lines.append("  [\(finding.severity.rawValue)] \(finding.code): \(safe(finding.message))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
