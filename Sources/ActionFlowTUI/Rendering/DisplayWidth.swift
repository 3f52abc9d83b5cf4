import ActionFlowModel

/// How many terminal columns text takes: East Asian wide characters and emoji take two,
/// combining marks and joiners none. Measured on sanitized text only, since a control byte has no
/// honest width.
public enum DisplayWidth {
    /// Columns of one grapheme cluster: the width of its first scalar, or two when an emoji
    /// presentation selector or a joiner makes it a pictograph.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        let base = width(of: first)
        if base == 1, scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }), first.properties.isEmoji {
            return 2
        }
        return base
    }

    /// Columns of a whole string.
    public static func of(_ text: String) -> Int {
        // Printable ASCII takes a column a byte: no grapheme breaking needed.
        if let count = text.printableASCIICount { return count }
        if let columns = singleColumnCount(text) { return columns }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Columns of one scalar standing alone.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        // Latin, and the box drawing and block elements every frame is made of: one column.
        if value < 0x300 || (0x2500...0x259F).contains(value) { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if value == 0x200D || (value >= 0x1160 && value <= 0x11FF) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Whether a scalar is a whole character of one column wherever it stands, and sanitizing
    /// keeps it: printable ASCII, Latin-1 and Latin letters, punctuation, arrows, box drawing and
    /// the shapes and marks the interface draws with. Text made only of these needs no grapheme
    /// breaking. (`SingleColumnScalarTests` checks every one of them.)
    public static func isSingleColumnScalar(_ value: UInt32) -> Bool {
        switch value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2315,
             0x2500...0x25FC, 0x2713...0x2718:
            return true
        default:
            return false
        }
    }

    /// The columns of text made only of single-column scalars (one each); nil for other text.
    static func singleColumnCount(_ text: String) -> Int? {
        var count = 0
        for scalar in text.unicodeScalars {
            guard isSingleColumnScalar(scalar.value) else { return nil }
            count += 1
        }
        return count
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, EastAsianWidth.txt, condensed).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The text made safe for the screen (see `UntrustedText.sanitize`).
    var screenSafe: String {
        // Printable ASCII (most of what is drawn) has nothing to replace: a byte test, for every put.
        if printableASCIICount != nil { return self }
        return UntrustedText.needsSanitizing(self) ? UntrustedText.sanitize(self) : self
    }

    /// Display columns of the text once made safe.
    public var displayWidth: Int { DisplayWidth.of(screenSafe) }

    /// The longest prefix that fits in `columns`, with `…` when cut.
    public func truncated(toColumns columns: Int) -> String {
        guard columns > 0 else { return "" }
        if let count = printableASCIICount {
            return count <= columns ? self : String(decoding: utf8.prefix(columns - 1), as: UTF8.self) + "…"
        }
        let safe = screenSafe
        if DisplayWidth.of(safe) <= columns { return safe }
        var result = ""
        var used = 0
        for character in safe {
            let width = DisplayWidth.of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// Like `truncated(toColumns:)`, but a cut falls between words: the last whole word before
    /// it, then `…` (a single word longer than the room is cut inside).
    public func truncatedBetweenWords(toColumns columns: Int) -> String {
        let safe = screenSafe
        let cut = truncated(toColumns: columns)
        // Not cut at all (the text may end with its own `…`), or cut right after a space.
        guard cut != safe, !cut.dropLast().hasSuffix(" ") else { return cut }
        let kept = cut.dropLast()
        // Cut right before a space: the last word is whole.
        if safe.dropFirst(kept.count).first == " " { return String(kept) + "…" }
        guard let space = kept.lastIndex(of: " "), kept[..<space].contains(where: { $0 != " " }) else { return cut }
        return String(kept[..<space]) + "…"
    }

    /// Pads with spaces to exactly `columns` display columns (truncating when longer).
    public func padded(toColumns columns: Int) -> String {
        let cut = truncated(toColumns: columns)
        let width = DisplayWidth.of(cut)
        guard width < columns else { return cut }
        let blanks = columns - width
        return cut + (blanks <= Self.spaces.utf8.count ? String(decoding: Self.spaces.utf8.prefix(blanks), as: UTF8.self) : String(repeating: " ", count: blanks))
    }

    private static let spaces = String(repeating: " ", count: 256)

    /// The length of text that is all printable ASCII (a column a byte, nothing to sanitize); nil for other text.
    var printableASCIICount: Int? {
        utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? utf8.count : nil
    }
}
