import ActionFlowModel

/// Untrusted text made safe for a Markdown document: sanitized, secrets in links masked, and
/// nothing in it can open a link, an image, HTML, a table cell or a code block of its own.
public enum MarkdownText {
    /// Plain text in a paragraph or list item: the punctuation that makes markup is
    /// backslash-escaped. With `[` and `]` escaped no link or image can start, so parentheses
    /// stay as they are and the report reads as plain text.
    public static func inline(_ text: String) -> String {
        var escaped = ""
        for character in JournalText.clean(text) {
            switch character {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "#":
                escaped += "\\\(character)"
            case "&":
                escaped += "&amp;"
            default:
                escaped.append(character)
            }
        }
        return escaped
    }

    /// A value in a code span: shown as it is, in a fence of backticks longer than any run inside.
    /// Pipes are escaped, which GitHub's tables require even inside code spans.
    public static func code(_ text: String) -> String {
        let clean = JournalText.clean(text).replacingEvery("|", with: "\\|")
        guard !clean.isEmpty else { return "(empty)" }
        let fence = String(repeating: "`", count: longestBacktickRun(in: clean) + 1)
        // A space keeps a backtick at either end from joining the fence.
        let padding = clean.first == "`" || clean.last == "`" ? " " : ""
        return fence + padding + clean + padding + fence
    }

    /// A block of text in a fenced code block, each line sanitized and its secrets masked.
    public static func fenced(_ text: String, language: String = "") -> String {
        let lines = UntrustedText.sanitizeLines(text).map(JournalText.clean)
        let fence = String(repeating: "`", count: max(3, lines.map(longestBacktickRun).max().map { $0 + 1 } ?? 3))
        return ([fence + language] + lines + [fence]).joined(separator: "\n")
    }

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
