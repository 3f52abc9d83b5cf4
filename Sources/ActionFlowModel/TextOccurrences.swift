extension StringProtocol {
    /// Where `target` first occurs, matched byte for byte in UTF-8, so scalar for scalar: a
    /// combining mark after it does not hide it, as it would from `firstRange(of:)`'s character
    /// matching (a secret's name followed by a mark is still found). nil when it does not occur,
    /// an empty range at the start for an empty target.
    ///
    /// The standard library's `firstRange(of:)` and `replacing(_:with:)` live in
    /// `_StringProcessing`, whose code the program otherwise never runs: a session that called
    /// them kept about 0.2 MiB of it resident (docs/architecture.md, "Start-up, memory and speed").
    public func firstOccurrence(of target: String) -> Range<Index>? {
        let bytes = utf8, pattern = target.utf8
        guard let first = pattern.first else { return startIndex..<startIndex }
        var start = bytes.startIndex
        while let candidate = bytes[start...].firstIndex(of: first) {
            var position = candidate
            var matched = pattern.startIndex
            while matched != pattern.endIndex, position != bytes.endIndex, bytes[position] == pattern[matched] {
                bytes.formIndex(after: &position)
                pattern.formIndex(after: &matched)
            }
            if matched == pattern.endIndex { return candidate..<position }
            start = bytes.index(after: candidate)
        }
        return nil
    }

    /// The text with every occurrence of `target` (matched as `firstOccurrence(of:)` does,
    /// left to right, without overlaps) replaced by `replacement`.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        var output = ""
        var rest = self[...]
        while !target.isEmpty, let range = rest.firstOccurrence(of: target) {
            output += rest[..<range.lowerBound]
            output += replacement
            rest = rest[range.upperBound...]
        }
        output += rest
        return output
    }
}
