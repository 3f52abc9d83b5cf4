/// Percent-encoding for URL query components, byte-based and allocation-light (it sits on the
/// link inspector's hot path).
public enum PercentEncoding {
    /// Encodes everything but RFC 3986 unreserved characters, so the result is safe as a query value.
    public static func encodeComponent(_ text: String) -> String {
        // Written straight into the string's storage, at most three bytes a byte.
        String(unsafeUninitializedCapacity: text.utf8.count * 3) { buffer in
            var count = 0
            for byte in text.utf8 {
                if isUnreserved(byte) {
                    buffer[count] = byte
                    count += 1
                } else {
                    buffer[count] = UInt8(ascii: "%")
                    buffer[count + 1] = hexDigits[Int(byte >> 4)]
                    buffer[count + 2] = hexDigits[Int(byte & 0x0F)]
                    count += 3
                }
            }
            return count
        }
    }

    /// `application/x-www-form-urlencoded`: letters, digits and `*-._` stay, a space is `+`.
    public static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "):
                out.append("+")
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`, as form-encoded queries do).
    /// Returns nil for a malformed escape or bytes that are not UTF-8.
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(utf8: $0, plusAsSpace: plusAsSpace) }) {
            return decoded
        }
        let utf8 = text.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { return nil }
                out.append(h << 4 | l)
                index = utf8.index(after: low)
                continue
            }
            out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `decode` over UTF-8 bytes in memory: the link inspector's fast path. A scan for the first
    /// escape finds whether there is anything to decode (when there is not, an ASCII text needs
    /// no validation); one more pass decodes.
    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false) -> String? {
        let firstEscape = bytes.firstIndex { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) } ?? bytes.count
        guard firstEscape < bytes.count else { return string(bytes, isASCII: bytes.allSatisfy { $0 < 0x80 }) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out -> String? in
            var written = 0
            var index = 0
            var decodedCombined: UInt8 = 0
            while index < bytes.count {
                let byte = bytes[index]
                let decoded: UInt8
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                    decoded = high << 4 | low
                    index += 3
                } else {
                    decoded = plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    index += 1
                }
                out[written] = decoded
                decodedCombined |= decoded
                written += 1
            }
            return string(UnsafeBufferPointer(rebasing: out[..<written]), isASCII: decodedCombined < 0x80)
        }
    }

    /// ASCII needs no validation; the generic validating initializer is slow on hot paths.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        if isASCII { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    public static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        decode(text[...], plusAsSpace: plusAsSpace)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    @inline(__always)
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

private extension String {
    /// The text with zeros before it, to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
