/// The result of checking a continue URL against the project's authorized domains.
public enum ContinueURLVerdict: Sendable, Hashable, Codable {
    case authorized(host: String)
    /// Not an absolute http(s) URL with a host: server code `INVALID_CONTINUE_URI`.
    case invalid(reason: String)
    /// The host a browser would visit is not on the authorized domains: `UNAUTHORIZED_DOMAIN`.
    case unauthorized(host: String, reason: String)

    public var errorCode: AuthErrorCode? {
        switch self {
        case .authorized: nil
        case .invalid: .invalidContinueURI
        case .unauthorized: .unauthorizedDomain
        }
    }

    public var isAuthorized: Bool {
        if case .authorized = self { true } else { false }
    }

    /// One line for narration and errors.
    public var explanation: String {
        switch self {
        case .authorized(let host): "host \(host) is an authorized domain"
        case .invalid(let reason): reason
        case .unauthorized(_, let reason): reason
        }
    }
}

/// Continue-URL authorization as the server does it: parse the URL the way a browser would,
/// then match the parsed host (never the raw string) against the authorized domains.
///
/// Matching rule: an authorized domain covers exactly itself, compared case-insensitively with
/// one trailing dot ignored. Subdomains are not covered: Firebase requires `www.example.com` to
/// be listed even when `example.com` is.
public enum ContinueURLPolicy {
    public static func check(_ continueURL: String, authorizedDomains: [String]) -> ContinueURLVerdict {
        let parsed: ParsedContinueURL
        switch parse(continueURL) {
        case .failure(let error): return .invalid(reason: error.reason)
        case .success(let value): parsed = value
        }
        let host = parsed.host
        // A short list: comparing beats building a set on every check (the inspector's hot path).
        if authorizedDomains.contains(where: { $0 == host || normalizedDomain($0) == host }) {
            return .authorized(host: host)
        }
        let allowed = Set(authorizedDomains.map(normalizedDomain))
        return .unauthorized(host: host, reason: unauthorizedReason(parsed, allowed: allowed))
    }

    /// The host a browser would visit for this continue URL, or why there is none.
    public static func browserHost(of continueURL: String) -> Result<String, ContinueURLError> {
        parse(continueURL).map(\.host)
    }

    public struct ContinueURLError: Error, Sendable, Hashable {
        public var reason: String
    }

    struct ParsedContinueURL {
        var scheme: String
        var host: String
        var userinfo: String?
    }

    static func parse(_ text: String) -> Result<ParsedContinueURL, ContinueURLError> {
        if let simple = text.utf8.withContiguousStorageIfAvailable(parseSimple) ?? nil {
            return .success(simple)
        }
        func fail(_ reason: String) -> Result<ParsedContinueURL, ContinueURLError> {
            .failure(ContinueURLError(reason: reason))
        }
        if text.isEmpty { return fail("the continue URL is empty") }
        if text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return fail("the continue URL contains white space or control characters")
        }
        guard let colon = text.firstIndex(of: ":") else {
            return fail("the continue URL has no scheme; it must be an absolute http or https URL")
        }
        let scheme = text[..<colon].lowercased()
        guard isSchemeSyntax(scheme) else {
            return fail("the continue URL has no scheme; it must be an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else {
            return fail("scheme \"\(scheme)\" is not allowed; a continue URL must be http or https")
        }
        let afterScheme = text[text.index(after: colon)...]
        if afterScheme.hasPrefix("\\") || afterScheme.hasPrefix("/\\") {
            return fail("backslash after \(scheme):; browsers read it as '/' and would go elsewhere")
        }
        guard afterScheme.hasPrefix("//") else {
            return fail("\(scheme): must be followed by //host; browsers would guess a host from \"\(afterScheme.prefix(40))\"")
        }
        let rest = afterScheme.dropFirst(2)
        if rest.hasPrefix("/") {
            return fail("the continue URL has no host (three slashes after \(scheme):)")
        }
        // The authority ends at the first '/', '?' or '#'; browsers also end it at '\'.
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "\\" }) ?? rest.endIndex
        if authorityEnd < rest.endIndex, rest[authorityEnd] == "\\" {
            return fail("backslash in the authority; browsers read it as '/' and would go to \(rest[..<authorityEnd])")
        }
        var authority = rest[..<authorityEnd]
        var userinfo: String?
        if let at = authority.lastIndex(of: "@") {
            userinfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        var hostPart = Substring(authority)
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else {
                return fail("unterminated IPv6 address in the continue URL")
            }
            let literal = hostPart[...close]
            let afterLiteral = hostPart[hostPart.index(after: close)...]
            if !afterLiteral.isEmpty {
                guard afterLiteral.hasPrefix(":"), validPort(afterLiteral.dropFirst()) else {
                    return fail("invalid port \"\(afterLiteral)\" in the continue URL")
                }
            }
            // Browsers visit the address in its shortest form: [0:0::1] is [::1].
            guard let address = HostAddress.ipv6(literal.dropFirst().dropLast()) else {
                return fail("invalid IPv6 address \(literal) in the continue URL")
            }
            return .success(ParsedContinueURL(scheme: scheme, host: "[\(address)]", userinfo: userinfo))
        } else if let portColon = hostPart.lastIndex(of: ":") {
            let port = hostPart[hostPart.index(after: portColon)...]
            guard validPort(port) else {
                return fail("invalid port \"\(port)\" in the continue URL")
            }
            hostPart = hostPart[..<portColon]
        }
        let decoded: String
        switch PercentEncoding.decode(hostPart) {
        case .none: return fail("the host of the continue URL has a malformed percent escape")
        case .some(let value): decoded = value
        }
        if decoded.isEmpty { return fail("the continue URL has no host") }
        if let bad = decoded.unicodeScalars.first(where: { forbiddenHostScalars.contains($0) || $0.value < 0x21 }) {
            return fail("the host \"\(decoded)\" contains the forbidden character '\(bad.escaped(asASCII: true))'")
        }
        // A host ending in a number is an IPv4 address to a browser, in any of its forms:
        // 127.1, 0x7f.0.0.1 and 2130706433 are all 127.0.0.1; if it is not one, the URL is refused.
        let lowered = decoded.lowercased()
        if HostAddress.endsInANumber(lowered) {
            guard let address = HostAddress.ipv4(lowered) else {
                return fail("the host \"\(decoded)\" ends in a number but is not an IPv4 address; browsers refuse the URL")
            }
            return .success(ParsedContinueURL(scheme: scheme, host: address, userinfo: userinfo))
        }
        return .success(ParsedContinueURL(scheme: scheme, host: normalizedDomain(decoded), userinfo: userinfo))
    }

    /// The common case at byte speed: `http(s)://` then an ASCII host of letters, digits, dots
    /// and hyphens with an optional port, and no white space or control character anywhere.
    /// Anything else (userinfo, escapes, backslashes, IPv6, IDN...) returns nil for the full parse.
    private static func parseSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> ParsedContinueURL? {
        let https = bytes.starts(with: "https://".utf8)
        guard https || bytes.starts(with: "http://".utf8) else { return nil }
        let hostStart = https ? 8 : 7
        var index = hostStart
        var portStart: Int?
        var hostEnd = bytes.count
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                hostEnd = portStart.map { $0 - 1 } ?? index
                break
            }
            if let portStart {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), index - portStart < 5 else { return nil }
            } else if byte == UInt8(ascii: ":") {
                portStart = index + 1
            } else if !(byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")) {
                return nil
            }
            index += 1
        }
        if index == bytes.count, let portStart { hostEnd = portStart - 1 }
        let authorityEnd = index
        if let portStart, authorityEnd > portStart {
            var port = 0
            for digit in bytes[portStart..<authorityEnd] { port = port * 10 + Int(digit - UInt8(ascii: "0")) }
            guard port <= 65535 else { return nil }
        }
        guard hostEnd > hostStart, !bytes[authorityEnd...].contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        let host = String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self)
        // An IPv4 address in any form: the full parse writes it the way browsers do.
        if HostAddress.mayEndInANumber(host), HostAddress.endsInANumber(host.lowercased()) { return nil }
        return ParsedContinueURL(scheme: https ? "https" : "http", host: normalizedDomain(host), userinfo: nil)
    }

    /// Characters WHATWG forbids in a host (after percent-decoding).
    private static let forbiddenHostScalars: Set<Unicode.Scalar> = [
        "/", "\\", "?", "#", "@", "[", "]", "<", ">", "^", "|", "%", " ", ":",
    ]

    /// RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    private static func isSchemeSyntax(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return scheme.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func validPort(_ text: Substring) -> Bool {
        if text.isEmpty { return true }
        guard text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else { return false }
        return value <= 65535
    }

    /// Lower case, one trailing dot dropped: `WWW.Example.com.` and `www.example.com` are one host.
    static func normalizedDomain(_ domain: String) -> String {
        var lowered = domain.lowercased()
        if lowered.hasSuffix("."), lowered.count > 1 { lowered.removeLast() }
        return lowered
    }

    private static func unauthorizedReason(_ parsed: ParsedContinueURL, allowed: Set<String>) -> String {
        let host = parsed.host
        var reason = "host \(host) is not an authorized domain"
        if let userinfo = parsed.userinfo {
            reason += " (the text before '@', \"\(userinfo)\", is user info, not the host)"
        } else if host.unicodeScalars.contains(where: { !$0.isASCII }) {
            reason += " (it has non-ASCII characters: a possible look-alike of an authorized domain)"
        } else if let covering = allowed.first(where: { host.hasSuffix("." + $0) }) {
            reason += " (subdomains are not covered: add \(host) itself, not only \(covering))"
        } else if let prefix = allowed.first(where: { host.hasPrefix($0 + ".") || (host.hasSuffix($0) && host != $0) }) {
            reason += " (it only looks like \(prefix))"
        }
        return reason
    }
}

/// IP address hosts as the URL Standard reads them (browsers visit the address, written one way).
enum HostAddress {
    /// A cheap test before `endsInANumber`: the host's last character (a trailing dot aside)
    /// can end a number (`0x` alone is one).
    static func mayEndInANumber(_ host: String) -> Bool {
        var bytes = host.utf8.reversed().makeIterator()
        guard var last = bytes.next() else { return false }
        if last == UInt8(ascii: "."), let before = bytes.next() { last = before }
        return last.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(last | 0x20) || last | 0x20 == UInt8(ascii: "x")
    }

    /// The last label (a trailing empty label aside) is a number: digits, or `0x` and hex digits.
    static func endsInANumber(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last?.isEmpty == true {
            guard labels.count > 1 else { return false }
            labels.removeLast()
        }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.utf8.allSatisfy(\.isASCIIDigit) { return true }
        return last.hasPrefix("0x") && last.utf8.dropFirst(2).allSatisfy { $0.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The dotted-decimal address of a lower-case host that ends in a number (1 to 4 parts, each
    /// decimal, `0x` hex or `0` octal, the last filling the remaining bytes); nil when it is not one.
    static func ipv4(_ host: String) -> String? {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true { parts.removeLast() }
        guard !parts.isEmpty, parts.count <= 4, !parts.contains(where: \.isEmpty) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            var digits = part
            var radix = 10
            if digits.count >= 2, digits.hasPrefix("0x") {
                digits = digits.dropFirst(2)
                radix = 16
            } else if digits.count >= 2, digits.hasPrefix("0") {
                digits = digits.dropFirst()
                radix = 8
            }
            // Leading zeros aside, more than 11 digits is beyond 32 bits in any radix.
            let significant = digits.drop { $0 == "0" }
            guard digits.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).hexDigitValue.map { $0 < radix } == true }),
                  significant.count <= 11
            else { return nil }
            let number = significant.isEmpty ? 0 : UInt64(significant, radix: radix) ?? .max
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }), let last = numbers.last,
              last < UInt64(1) << (8 * UInt64(5 - numbers.count)) else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * UInt64(3 - index))
        }
        return (0..<4).map { String((address >> (8 * UInt64(3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    /// The text of an IPv6 address the way browsers write it (RFC 5952: lower case, no leading
    /// zeros, the first longest run of zero pieces as `::`); nil when it is not one.
    static func ipv6(_ text: Substring) -> String? {
        let chars = Array(text.utf8)
        var pieces = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        if chars.first == UInt8(ascii: ":") {
            guard chars.count > 1, chars[1] == UInt8(ascii: ":") else { return nil }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        func hex(_ byte: UInt8) -> UInt16? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }
        while pointer < chars.count {
            guard pieceIndex < 8 else { return nil }
            if chars[pointer] == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, pointer < chars.count, let digit = hex(chars[pointer]) {
                value = value * 16 + digit
                pointer += 1
                length += 1
            }
            if pointer < chars.count, chars[pointer] == UInt8(ascii: ".") {
                // An embedded IPv4 address fills the last two pieces.
                guard length > 0, pieceIndex <= 6 else { return nil }
                pointer -= length
                var numbersSeen = 0
                while pointer < chars.count {
                    if numbersSeen > 0 {
                        guard chars[pointer] == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard pointer < chars.count, chars[pointer].isASCIIDigit else { return nil }
                    var number: UInt16?
                    while pointer < chars.count, chars[pointer].isASCIIDigit {
                        let digit = UInt16(chars[pointer] - UInt8(ascii: "0"))
                        if number == 0 { return nil }
                        number = (number ?? 0) * 10 + digit
                        guard number! <= 255 else { return nil }
                        pointer += 1
                    }
                    pieces[pieceIndex] = pieces[pieceIndex] &* 0x100 &+ number!
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if pointer < chars.count, chars[pointer] == UInt8(ascii: ":") {
                pointer += 1
                guard pointer < chars.count else { return nil }
            } else if pointer < chars.count {
                return nil
            }
            pieces[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                pieces.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        var bestStart = -1, bestLength = 1, runStart = -1
        for index in 0...8 {
            if index < 8, pieces[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength {
                    bestStart = runStart
                    bestLength = index - runStart
                }
                runStart = -1
            }
        }
        var output = ""
        var skippingZeros = false
        for index in 0..<8 {
            if skippingZeros, pieces[index] == 0 { continue }
            skippingZeros = false
            if index == bestStart {
                output += index == 0 ? "::" : ":"
                skippingZeros = true
                continue
            }
            output += String(pieces[index], radix: 16)
            if index != 7 { output += ":" }
        }
        return output
    }
}
