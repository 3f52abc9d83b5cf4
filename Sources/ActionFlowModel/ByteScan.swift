import CByteScan

/// Byte searches sixteen bytes at a time (`CByteScan`): the link inspector looks through every
/// byte of a link several times.
public enum ByteScan {
    /// The index of the first byte in `range` equal to `a`, `b` or `c`; `range.upperBound` when none is.
    @inline(__always)
    static func first(of a: UInt8, _ b: UInt8? = nil, _ c: UInt8? = nil, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        guard let base = bytes.baseAddress, !range.isEmpty else { return range.upperBound }
        return range.lowerBound + byte_scan_find_any(base + range.lowerBound, range.count, a, b ?? a, c ?? a)
    }

    /// Whether every byte is ASCII.
    @inline(__always)
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return byte_scan_is_ascii(base, bytes.count) != 0
    }
}
