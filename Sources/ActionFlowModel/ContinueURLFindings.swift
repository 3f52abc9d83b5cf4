/// Findings about a continue URL, shared by the link inspector and the settings checks
/// (docs/security-review.md).
enum ContinueURLFindings {
    struct Result {
        /// Nil when no authorized domains were given.
        var authorized: Bool?
        var findings: [Finding]
    }

    /// - Parameter split: the URL already split, when the caller has it.
    static func check(_ continueURL: String, split: SplitURL? = nil, authorizedDomains: [String]?) -> Result {
        var findings: [Finding] = []
        let split = split ?? URLSplitter.split(continueURL)
        var authorized: Bool?
        if let authorizedDomains {
            let verdict = ContinueURLPolicy.check(continueURL, authorizedDomains: authorizedDomains)
            authorized = verdict.isAuthorized
            switch verdict {
            case .authorized: break
            case .invalid(let reason):
                findings.append(Finding(code: "continue-url.invalid", severity: .danger,
                                        message: "The continue URL is not an absolute http(s) URL (\(reason)): the server rejects it with INVALID_CONTINUE_URI."))
            case .unauthorized(let host, let reason):
                findings.append(Finding(code: "continue-url.unauthorized", severity: .danger,
                                        message: "The continue URL's host \(host) is not an authorized domain (\(reason)): the server rejects it with UNAUTHORIZED_DOMAIN."))
            }
        } else if split.map({ !$0.isHTTP || $0.host.isEmpty }) ?? true {
            findings.append(Finding(code: "continue-url.invalid", severity: .danger,
                                    message: "The continue URL is not an absolute http(s) URL with a host: the server rejects it with INVALID_CONTINUE_URI."))
        }
        guard let split else { return Result(authorized: authorized, findings: findings) }

        switch split.scheme {
        case "javascript", "data", "vbscript", "file", "blob":
            findings.append(Finding(code: "continue-url.dangerous-scheme", severity: .danger,
                                    message: "The continue URL uses the \(split.scheme): scheme, which runs or shows content instead of navigating: never accept it as a redirect target."))
        case "http" where !isLoopback(split.host):
            findings.append(Finding(code: "continue-url.plain-http", severity: .warning,
                                    message: "The continue URL uses plain http on \(split.host): the state it carries can be read or changed on the way. Use https (http is fine for localhost only)."))
        default: break
        }
        if let userinfo = split.userinfo {
            findings.append(Finding(code: "continue-url.userinfo", severity: .danger,
                                    message: "The continue URL has userinfo \"\(userinfo)@\": browsers go to \(split.host), not to the name before @ (a known allow-list bypass)."))
        }
        if contains(continueURL, .backslash) {
            findings.append(Finding(code: "continue-url.backslash", severity: .warning,
                                    message: "The continue URL contains a backslash: browsers read it as /, so the host they see may differ from a naive reading."))
        }
        findings.append(contentsOf: personalData(in: split))
        if let fragment = split.fragment, !fragment.isEmpty {
            findings.append(Finding(code: "continue-url.fragment", severity: .info,
                                    message: "The continue URL has a fragment (#\(fragment)). Assumed: the web widget's Continue keeps it, but app deep-link handlers and servers never see it; carry state in the path or query instead."))
        }
        return Result(authorized: authorized, findings: findings)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host.hasSuffix(".localhost")
    }

    private static func isEmailName(_ name: String) -> Bool {
        switch name {
        case "email", "mail", "e-mail", "emailaddress", "email_address", "useremail", "user_email", "login": true
        default: false
        }
    }

    private static func isPhoneName(_ name: String) -> Bool {
        switch name {
        case "phone", "phonenumber", "phone_number", "tel", "mobile", "msisdn": true
        default: false
        }
    }

    private static func isSecretName(_ name: String) -> Bool {
        // `key` is too common a name in an app's own URLs to call a credential there.
        name != "key" && SecretMasking.secretParameterNamesLowercased.contains(name)
    }

    /// Emails, phone numbers and credentials carried in the continue URL's path or query.
    private static func personalData(in url: SplitURL) -> [Finding] {
        var findings: [Finding] = []
        var emailPlaces: [String] = []
        var phonePlaces: [String] = []
        var secretNamesFound: [String] = []
        if containsEmail(PercentEncoding.decode(url.path) ?? url.path) { emailPlaces.append("the path") }
        for parameter in url.parameters ?? [] {
            let name = parameter.name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? parameter.name.lowercased() : parameter.name
            if isSecretName(name) {
                secretNamesFound.append(parameter.name)
            } else if isEmailName(name) || containsEmail(parameter.value) {
                emailPlaces.append("parameter \(parameter.name)")
            } else if isPhoneName(name) || looksLikePhoneNumber(parameter.value) {
                phonePlaces.append("parameter \(parameter.name)")
            }
        }
        if !emailPlaces.isEmpty {
            findings.append(Finding(code: "continue-url.personal-data", severity: .danger,
                                    message: "The continue URL carries an email address (\(emailPlaces.joined(separator: ", "))): it leaks personal data to logs and Referer headers and lets an attacker inject another account's session. Keep the email on the device instead."))
        }
        if !phonePlaces.isEmpty {
            findings.append(Finding(code: "continue-url.phone-number", severity: .warning,
                                    message: "The continue URL carries what looks like a phone number (\(phonePlaces.joined(separator: ", "))): personal data ends up in logs and Referer headers."))
        }
        if !secretNamesFound.isEmpty {
            findings.append(Finding(code: "continue-url.credentials", severity: .danger,
                                    message: "The continue URL carries credentials (\(secretNamesFound.joined(separator: ", "))): anyone who sees the link or the page's Referer can use them."))
        }
        return findings
    }

    /// `local@domain.tld` anywhere in the text.
    static func containsEmail(_ text: String) -> Bool {
        guard contains(text, .at) else { return false }
        let bytes = Array(text.utf8)
        for at in bytes.indices where bytes[at] == .at && at > 0 && isLocalPartByte(bytes[at - 1]) {
            var index = at + 1
            var sawDot = false
            var labelLength = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte.isASCIILetter || byte.isASCIIDigit || byte == .minus {
                    labelLength += 1
                } else if byte == .dot, labelLength > 0 {
                    sawDot = true
                    labelLength = 0
                } else {
                    break
                }
                index += 1
            }
            if sawDot && labelLength >= 2 { return true }
        }
        return false
    }

    private static func contains(_ text: String, _ byte: UInt8) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? text.utf8.contains(byte)
    }

    private static func isLocalPartByte(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == .dot || byte == .plus || byte == .minus || byte == .underscore
    }

    /// `+` followed by 8 to 15 digits, separators allowed (E.164 as people type it).
    static func looksLikePhoneNumber(_ text: String) -> Bool {
        guard text.first == "+" else { return false }
        var digits = 0
        for byte in text.utf8.dropFirst() {
            if byte.isASCIIDigit {
                digits += 1
            } else if !(byte == .space || byte == .minus || byte == .dot || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")) {
                return false
            }
        }
        return (8...15).contains(digits)
    }
}
