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
        """
    )

    @Argument(help: ArgumentHelp("The link, or - to read it from standard input.", valueName: "link"))
    var link: String

    @Flag(help: "Print a JSON object instead of text.")
    var json = false

    @Option(name: .customLong("authorized-domain"), help: ArgumentHelp("An authorized domain to check the continue URL against (repeatable).", valueName: "domain"))
    var authorizedDomains: [String] = []

    func run() throws {
        let text = link == "-" ? Self.readStandardInput() : link
        switch Self.render(text, json: json, authorizedDomains: authorizedDomains.isEmpty ? nil : authorizedDomains) {
        case .success(let output):
            print(output)
        case .failure(let error):
            FileHandle.standardError.write(Data("actionflow inspect: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// The command's output for `text`, or why it is no action link.
    static func render(_ text: String, json: Bool, authorizedDomains: [String]?) -> Result<String, LinkParseError> {
        do {
            let anatomy = try LinkInspector.inspect(text, authorizedDomains: authorizedDomains)
            return .success(json ? JSONOutput.encode(anatomy) : humanText(anatomy))
        } catch {
            return .failure(error)
        }
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
