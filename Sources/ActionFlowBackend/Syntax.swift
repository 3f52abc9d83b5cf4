/// Host names as the console accepts them for authorized and link domains.
enum DomainName {
    /// Lowercase or uppercase ASCII labels of letters, digits and inner hyphens, joined by dots;
    /// at least two labels, except `localhost`.
    static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        if text.lowercased() == "localhost" { return true }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            return label.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-": true
                default: false
                }
            }
        }
    }
}

/// The server's email syntax check: `local@domain`, no spaces, quotes or control characters.
enum EmailSyntax {
    static func isValid(_ text: String) -> Bool {
        guard text.utf8.count <= 254 else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.utf8.count <= 64 else { return false }
        let localValid = local.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && !"\"\\(),:;<>[]".unicodeScalars.contains(scalar)
        }
        return localValid && DomainName.isValid(String(domain))
    }
}
