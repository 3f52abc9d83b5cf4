/// Text made safe for XML and HTML (pictures, decks, the hosted pages), as content and as a
/// quoted attribute value: every control and bidirectional override is shown as text first
/// (`UntrustedText.sanitize`), then markup characters become entities, so that no string from a
/// session or a request can open a tag or an attribute.
public enum Markup {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in UntrustedText.sanitize(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Not characters XML 1.0 allows, whatever the sanitizer kept.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
