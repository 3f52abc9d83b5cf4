extension StringProtocol {
    /// The text without the spaces and tabs at either end: what `trimmingCharacters(in:
    /// .whitespaces)` returns (Unicode's space separators, U+0009 and, as CoreFoundation has it,
    /// U+200B; scalar by scalar), without bridging to `NSString`, which loads CoreFoundation's
    /// character tables on the way.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isWhitespace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !Self.isWhitespace($0) })!
        // Slicing a string rounds to scalars, not characters, so a mark after a trimmed space stays.
        return String(self[first..<scalars.index(after: last)])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.properties.generalCategory == .spaceSeparator || scalar == "\u{200B}"
    }
}
