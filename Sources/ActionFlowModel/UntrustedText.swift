/// Makes untrusted text (emails, links, server messages, pasted text, scenario text) safe to
/// put on a terminal: nothing in the result can move the cursor, change colours or reorder text.
public enum UntrustedText {
    /// Replaces C0/C1 controls, DEL, bidi controls and other invisible format characters with
    /// visible single-column stand-ins. ESC becomes `␛`, tab `␉`, line feed `␊`.
    public static func sanitize(_ text: String) -> String {
        // Text without a scalar to replace (printable ASCII is found fast) stays as it is.
        guard needsSanitizing(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(replacement(for: scalar) ?? scalar)
        }
        return String(out)
    }

    /// Like `sanitize`, but keeps line breaks so multi-line text (email bodies, JSON) can be
    /// split into lines by the caller. Each returned line is safe.
    public static func sanitizeLines(_ text: String) -> [String] {
        // Split on scalars: "\r\n" is one Character and would not split on "\n".
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.last == "\r" ? line.dropLast() : line[...]
            return sanitize(String(String.UnicodeScalarView(trimmed)))
        }
    }

    /// True when `sanitize` would change the text.
    public static func needsSanitizing(_ text: String) -> Bool {
        // Printable ASCII, the usual text, is checked byte by byte first.
        var bytes = text
        return !bytes.withUTF8 { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } } && text.unicodeScalars.contains(where: needsSanitizing)
    }

    /// True when `sanitize` would replace the scalar.
    public static func needsSanitizing(_ scalar: Unicode.Scalar) -> Bool {
        replacement(for: scalar) != nil
    }

    /// The stand-in for a scalar that must not reach a terminal; nil for a safe scalar.
    private static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        switch value {
        case 0x00...0x1F:
            // Control Pictures block: U+2400 + code.
            return Unicode.Scalar(0x2400 + value) ?? "\u{FFFD}"
        case 0x7F:
            return "\u{2421}"
        case 0x80...0x9F:
            return "\u{FFFD}"
        case 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F, 0x061C, 0xFEFF, 0xFFF9...0xFFFB:
            // Zero-width space, bidi embeddings, overrides, isolates and marks: shown, never obeyed.
            // ZWJ and ZWNJ stay: emoji sequences and several scripts need them.
            return "\u{FFFD}"
        case 0x00AD, 0x180E, 0x2065, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A:
            // The other invisible format characters (soft hyphen, Mongolian vowel separator,
            // shorthand and musical format controls) and the code points reserved for more:
            // terminals disagree on their width, so they would shift what follows.
            return "\u{FFFD}"
        case 0xE0000...0xE00FF, 0xE01F0...0xE0FFF:
            // Tag characters hide text; the rest of the plane is reserved for such characters.
            // (The variation selectors between stay: they only choose a glyph.)
            return "\u{FFFD}"
        default:
            return nil
        }
    }
}
