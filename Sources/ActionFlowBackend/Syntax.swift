/// Host names as the console accepts them for authorized and link domains.
enum DomainName {
    /// Lowercase or uppercase ASCII labels of letters, digits and inner hyphens, joined by dots;
    /// at least two labels, except `localhost`. Read byte by byte: only ASCII can pass, and
    /// `serve` checks an address's domain on every send.
    static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isValid(ascii: $0) }
    }

    static func isValid(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        if bytes.count == 9, bytes.elementsEqual("localhost".utf8, by: { $0 | 0x20 == $1 }) { return true }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            return label.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): true
                default: false
                }
            }
        }
    }
}

/// The server's email syntax check: `local@domain`, no spaces, quotes or control characters.
enum EmailSyntax {
    /// Read byte by byte: every byte it accepts is ASCII, so no character can join `@` to another.
    static func isValid(_ text: String) -> Bool {
        guard text.utf8.count <= 254 else { return false }
        var text = text
        return text.withUTF8 { bytes in
            let parts = bytes.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
            let localValid = parts[0].allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && !"\"\\(),:;<>[]".utf8.contains(byte)
            }
            return localValid && DomainName.isValid(ascii: UnsafeBufferPointer(rebasing: parts[1]))
        }
    }
}
