import CByteScan

/// Byte searches sixteen bytes at a time (`CByteScan`): the link inspector looks through every
/// byte of a link several times, and every text shown is checked before it reaches a terminal.
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

    /// Whether every byte of the text is printable ASCII (0x20 to 0x7E): text a terminal shows as
    /// it is.
    @inline(__always)
    public static func isPrintableASCII(_ text: String) -> Bool {
        let checked = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.isEmpty || byte_scan_printable_ascii_prefix(bytes.baseAddress!, bytes.count) == bytes.count
        }
        return checked ?? text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
