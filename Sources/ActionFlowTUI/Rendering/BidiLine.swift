/// Puts right-to-left text in visual order, for terminals that draw cells left to right and do not
/// reorder bidi text. A simplified Unicode bidi algorithm, one display line at a time: runs of RTL
/// letters are reversed (brackets mirrored), runs of LTR letters and numbers (links, addresses,
/// versions) keep their order, and neutrals between two runs of one direction take it, else the
/// paragraph's. On an RTL paragraph the runs themselves go right to left.
public enum BidiLine {
    public enum Direction: Sendable, Equatable {
        case leftToRight, rightToLeft
    }

    /// A paragraph's direction: that of its first letter (numbers do not count), else left to right.
    public static func baseDirection(of text: String) -> Direction {
        for scalar in text.unicodeScalars {
            if isRightToLeft(scalar) && scalar.properties.numericType == nil { return .rightToLeft }
            if scalar.properties.isAlphabetic { return .leftToRight }
        }
        return .leftToRight
    }

    /// True when `text` holds a right-to-left letter, so it needs reordering at all.
    public static func hasRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains { isRightToLeft($0) && $0.properties.numericType == nil }
    }

    /// One display line of a paragraph whose direction is `base`, in the order to draw it. Wrap the
    /// paragraph first: each line is reordered on its own, as a bidi-aware terminal would.
    public static func visual(_ line: String, base: Direction) -> String {
        guard !line.isEmpty, base == .rightToLeft || hasRightToLeft(line) else { return line }
        let characters = Array(line)
        let strong = characters.map(direction(of:))
        var resolved = [Direction](repeating: base, count: characters.count)
        var index = 0
        var previous = base
        while index < characters.count {
            if let direction = strong[index] {
                resolved[index] = direction
                previous = direction
                index += 1
                continue
            }
            var end = index
            while end < characters.count, strong[end] == nil { end += 1 }
            let next = end < characters.count ? strong[end] ?? base : base
            let direction = previous == next ? previous : base
            for neutral in index..<end { resolved[neutral] = direction }
            index = end
        }
        var runs: [(Direction, ArraySlice<Character>)] = []
        var start = 0
        for end in 1...characters.count where end == characters.count || resolved[end] != resolved[start] {
            runs.append((resolved[start], characters[start..<end]))
            start = end
        }
        if base == .rightToLeft { runs.reverse() }
        var output = ""
        output.reserveCapacity(line.utf8.count)
        for (direction, run) in runs {
            if direction == .rightToLeft {
                for character in run.reversed() { output.append(mirrored[character] ?? character) }
            } else {
                output.append(contentsOf: run)
            }
        }
        // A character that only extends another (a lone skin-tone modifier) would join the one
        // now before it and change the line's width: such a line keeps its logical order.
        return output.count == characters.count ? output : line
    }

    /// The strong direction of a character: letters and digits have one, spaces and punctuation none.
    /// Digits count as left to right: numbers read left to right inside RTL text too.
    static func direction(of character: Character) -> Direction? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        if scalar.isASCII {
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? .leftToRight : nil
        }
        if scalar.properties.numericType != nil && scalar.properties.generalCategory == .decimalNumber { return .leftToRight }
        if isRightToLeft(scalar) { return scalar.properties.isAlphabetic || scalar.properties.generalCategory == .otherLetter ? .rightToLeft : nil }
        return scalar.properties.isAlphabetic ? .leftToRight : nil
    }

    /// Hebrew, Arabic, Syriac, Thaana, N'Ko and the other RTL blocks, with their presentation forms.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }

    /// Brackets drawn as their mirror image inside RTL text (Unicode's Bidi_Mirrored pairs).
    private static let mirrored: [Character: Character] = [
        "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<", "«": "»", "»": "«", "‹": "›", "›": "‹",
    ]
}

extension BidiLine {
    /// A paragraph wrapped to `width`, each line in display order; lines of an RTL paragraph are
    /// indented so that they end at the right edge, as RTL text is aligned.
    public static func displayLines(_ text: String, width: Int) -> [(text: String, indent: Int)] {
        let lines = TextWrap.lines(text, width: width)
        guard hasRightToLeft(text) else { return lines.map { ($0, 0) } }
        let base = baseDirection(of: text)
        return lines.map { line in
            let shown = visual(line, base: base)
            return (shown, base == .rightToLeft ? max(0, width - shown.displayWidth) : 0)
        }
    }
}

extension String {
    /// One line in display order (see `BidiLine`), in the direction of its own first letter.
    var inVisualOrder: String {
        BidiLine.hasRightToLeft(self) ? BidiLine.visual(self, base: BidiLine.baseDirection(of: self)) : self
    }
}
