import ActionFlowModel

/// Text made safe for a Mermaid sequence-diagram label. Mermaid ends a statement at `;` or a line
/// break, starts a comment at `#` and reads `<...>` as HTML, so untrusted text could otherwise cut
/// a label short or add statements of its own. Those characters become Mermaid's entity codes
/// (`#59;`), which renderers show as the character itself.
public enum MermaidText {
    /// Mermaid's line break inside a label; the only markup a label may hold.
    public static let lineBreak = "<br/>"

    /// Sanitized first (controls, line breaks and bidi characters become visible stand-ins),
    /// then every character Mermaid would read as syntax written as an entity code.
    public static func escape(_ text: String) -> String {
        let safe = UntrustedText.sanitize(text)
        let scalars = Array(safe.unicodeScalars)
        var escaped = ""
        for (index, scalar) in scalars.enumerated() {
            if let entity = entity(for: scalar) {
                escaped += entity
            } else if scalar == "%", scalars[max(0, index - 1)...min(scalars.count - 1, index + 1)].filter({ $0 == "%" }).count > 1 {
                // `%%` starts a comment or a `%%{init}%%` directive; a lone `%` (percent-encoding) is plain text.
                escaped += "#37;"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Lines escaped one by one and joined with Mermaid's line break.
    public static func escape(lines: [String]) -> String {
        lines.map(escape).joined(separator: lineBreak)
    }

    private static func entity(for scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case ";": "#59;"
        case "#": "#35;"
        case "\"": "#quot;"
        case "<": "#lt;"
        case ">": "#gt;"
        case "&": "#amp;"
        // Keeps a diagram inside a Markdown code fence.
        case "`": "#96;"
        default: nil
        }
    }
}
