import ActionFlowModel
import Foundation

/// The link inspector with continue-URL authorization. Invariants:
/// - an authorized continue URL's host, parsed the way a browser does (WHATWG URL, written here
///   independently of `ContinueURLPolicy`), really is on the list;
/// - a link that inspects to a known operation and code is rebuilt by `ActionLinkBuilder` from
///   what the inspector read (plain and inside a Hosting wrapper), and the rebuilt link inspects
///   to the same mode, code, API key, continue URL, language and tenant;
/// - every finding message and error description is terminal-safe once sanitized, and errors
///   never echo more than the input.
enum LinkChecks {
    static let authorizedDomains = [
        "localhost", "127.0.0.1", "demo-actionflow.firebaseapp.com", "demo-actionflow.web.app", "www.example.com",
        "example.com", "xn--mnchen-3ya.de", "[::1]",
    ]

    static func check(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var violations = Violations()
        checkPolicy(text, into: &violations)
        do {
            let anatomy = try LinkInspector.inspect(text, authorizedDomains: authorizedDomains)
            if anatomy.continueUrlAuthorized == true {
                let destination = anatomy.continueLink?.destination ?? ""
                checkAuthorizedHost(destination, verdictHost: nil, into: &violations)
            }
            checkRoundTrip(anatomy, into: &violations)
        } catch {
            violations.expect(!error.description.isEmpty, "an inspection error without a description")
        }
        return violations.list
    }

    /// `ContinueURLPolicy` alone, on the whole input and on its first line.
    static func checkPolicy(_ text: String, into violations: inout Violations) {
        var candidates = [text]
        if let firstLine = text.split(separator: "\n", maxSplits: 1).first, firstLine.count != text.count {
            candidates.append(String(firstLine))
        }
        for candidate in candidates {
            let verdict = ContinueURLPolicy.check(candidate, authorizedDomains: authorizedDomains)
            if case .authorized(let host) = verdict {
                checkAuthorizedHost(candidate, verdictHost: host, into: &violations)
            }
            let browserHost = ContinueURLPolicy.browserHost(of: candidate)
            if case .success(let host) = browserHost, let reference = BrowserURL.host(of: candidate) {
                violations.expect(host == reference || host == BrowserURL.normalized(reference),
                                  "ContinueURLPolicy reads host \(ScreenSafety.describe(host)) where a browser visits \(ScreenSafety.describe(reference)) for \(ScreenSafety.describe(candidate))")
            }
        }
    }

    static func checkAuthorizedHost(_ url: String, verdictHost: String?, into violations: inout Violations) {
        if case .success(let host) = ContinueURLPolicy.browserHost(of: url), host.hasPrefix("[") { return }
        guard let reference = BrowserURL.host(of: url) else {
            violations.fail("authorized \(ScreenSafety.describe(url)), which a browser does not parse as an http(s) URL with a host")
            return
        }
        let allowed = Set(authorizedDomains.map(BrowserURL.normalized))
        violations.expect(allowed.contains(BrowserURL.normalized(reference)),
                          "authorized \(ScreenSafety.describe(url)), but a browser visits \(ScreenSafety.describe(reference)), not on the list")
        if let verdictHost {
            violations.expect(BrowserURL.normalized(verdictHost) == BrowserURL.normalized(reference),
                              "the verdict names host \(ScreenSafety.describe(verdictHost)); a browser visits \(ScreenSafety.describe(reference))")
        }
    }

    /// Rebuild what the inspector read and inspect it again.
    static func checkRoundTrip(_ anatomy: LinkAnatomy, into violations: inout Violations) {
        guard let mode = anatomy.mode, let operation = Optional(ActionCodeOperation(mode: mode)), operation != .unknown,
              let oobCode = anatomy.oobCode,
              let handler = handlerBase(anatomy.actionURL)
        else { return }
        // A continue URL that still reads as an encoded URL is decoded once more on the way in
        // (`link.double-encoded`): rebuilt once-encoded, it would be read differently, by design.
        if let continueURL = anatomy.continueUrl, looksEncodedURL(continueURL) { return }
        let action = ActionLinkBuilder.actionURL(handler: handler, operation: operation, oobCode: oobCode, apiKey: anatomy.apiKey ?? "",
                                                 continueURL: anatomy.continueUrl, lang: anatomy.lang, tenantId: anatomy.tenantId)
        let wrapped = ActionLinkBuilder.mobileLink(wrapping: action, style: .hostingDomain, domain: "demo-actionflow.firebaseapp.com", apps: MobileLinkApps())
        for rebuilt in [action, wrapped] where rebuilt.utf8.count <= LinkInspector.maximumLinkBytes {
            let again: LinkAnatomy
            do {
                again = try LinkInspector.inspect(rebuilt, authorizedDomains: authorizedDomains)
            } catch {
                violations.fail("the rebuilt link \(ScreenSafety.describe(rebuilt)) does not inspect: \(error.description)")
                continue
            }
            let expected: [(String, String?, String?)] = [
                ("mode", anatomy.mode, again.mode), ("oobCode", anatomy.oobCode, again.oobCode),
                ("apiKey", anatomy.apiKey ?? "", again.apiKey), ("continueUrl", anatomy.continueUrl, again.continueUrl),
                ("lang", anatomy.lang, again.lang), ("tenantId", anatomy.tenantId, again.tenantId),
            ]
            for (name, before, after) in expected where before != after {
                violations.fail("round trip changed \(name): \(ScreenSafety.describe(before ?? "nil")) became \(ScreenSafety.describe(after ?? "nil")) in \(ScreenSafety.describe(rebuilt))")
            }
            violations.expect(again.continueUrlAuthorized == anatomy.continueUrlAuthorized,
                              "round trip changed whether the continue URL is authorized, in \(ScreenSafety.describe(rebuilt))")
        }
    }

    /// The handler URL without its query and fragment, when rebuilding from it makes sense: an
    /// http(s) URL with a host that is not itself shaped like a wrapper.
    static func handlerBase(_ actionURL: String) -> String? {
        let base = String(actionURL.prefix { $0 != "?" && $0 != "#" })
        guard let host = BrowserURL.host(of: base), !host.isEmpty,
              base.lowercased().hasPrefix("http://") || base.lowercased().hasPrefix("https://"),
              !base.contains("/__/auth/links"), !host.hasSuffix(".page.link"), !host.hasSuffix(".app.goo.gl"),
              !base.contains("\\"), !base.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        // Only a plain authority and path: the inspector's own splitter must read it the same way.
        let afterScheme = base.drop { $0 != ":" }.dropFirst()
        guard afterScheme.hasPrefix("//"), !afterScheme.dropFirst(2).hasPrefix("/") else { return nil }
        return base
    }

    static func looksEncodedURL(_ text: String) -> Bool {
        let lowered = text.prefix(8).lowercased()
        return lowered.hasPrefix("https%3a") || lowered.hasPrefix("http%3a")
    }
}

/// The host a WHATWG URL parser (what browsers use) gives an http or https URL, for the
/// invariant's other side. Deliberately separate from `ContinueURLPolicy`: the steps of the URL
/// Standard (basic URL parser, special schemes) and IPv4 serialization; nil for what it does not
/// decide: IPv6 literals, and non-ASCII hosts beyond what Unicode lower-casing shares with UTS 46.
enum BrowserURL {
    static func host(of input: String) -> String? {
        // Leading and trailing C0 controls and spaces go; tabs and newlines anywhere go.
        var scalars = Array(input.unicodeScalars)
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let colon = scalars.firstIndex(of: ":"), colon > 0 else { return nil }
        let scheme = String(String.UnicodeScalarView(scalars[..<colon])).lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        // Special scheme: any run of '/' and '\' (even none) before the authority.
        var index = colon + 1
        while index < scalars.count, scalars[index] == "/" || scalars[index] == "\\" { index += 1 }
        var end = index
        while end < scalars.count, !["/", "\\", "?", "#"].contains(scalars[end]) { end += 1 }
        var authority = Array(scalars[index..<end])
        if let at = authority.lastIndex(of: "@") { authority = Array(authority[(at + 1)...]) }
        // The host ends at the first ':' outside brackets.
        var hostEnd = authority.count
        var insideBrackets = false
        for (offset, scalar) in authority.enumerated() {
            if scalar == "[" { insideBrackets = true }
            if scalar == "]" { insideBrackets = false }
            if scalar == ":" && !insideBrackets {
                hostEnd = offset
                break
            }
        }
        let port = authority[min(hostEnd + 1, authority.count)...]
        guard port.allSatisfy({ ("0"..."9").contains($0) }), port.isEmpty || (Int(String(String.UnicodeScalarView(port))) ?? .max) <= 65535 else { return nil }
        let hostText = String(String.UnicodeScalarView(authority[..<hostEnd]))
        guard !hostText.isEmpty else { return nil }
        // IPv6 literals are outside this reference (unit tests cover how the policy writes them).
        if hostText.hasPrefix("[") { return nil }
        guard let decoded = percentDecode(hostText) else { return nil }
        // UTS 46 maps to lower case (and much more); a host whose lower case is not ASCII is
        // outside what this reference decides.
        let lowered = decoded.lowercased()
        guard lowered.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        let forbidden: Set<Unicode.Scalar> = ["\u{0}", "\t", "\n", "\r", " ", "#", "/", ":", "<", ">", "?", "@", "[", "\\", "]", "^", "|", "%"]
        guard !lowered.unicodeScalars.contains(where: { forbidden.contains($0) || $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        if endsInANumber(lowered) { return ipv4(lowered) }
        return lowered
    }

    /// Lower case, one trailing dot dropped: the documented matching rule of authorized domains.
    static func normalized(_ host: String) -> String {
        var lowered = host.lowercased()
        if lowered.hasSuffix("."), lowered.count > 1 { lowered.removeLast() }
        return lowered
    }

    static func percentDecode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
               utf8[index + 1] != UInt8(ascii: "+"), utf8[index + 1] != UInt8(ascii: "-") {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        // "UTF-8 decode without BOM or fail".
        return String(validating: bytes, as: UTF8.self)
    }

    static func endsInANumber(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last == "" {
            if labels.count == 1 { return false }
            labels.removeLast()
        }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        return ipv4Number(last) != nil
    }

    static func ipv4Number(_ text: Substring) -> UInt64? {
        var text = text
        var radix = 10
        if text.count >= 2, text.hasPrefix("0x") || text.hasPrefix("0X") {
            text = text.dropFirst(2)
            radix = 16
        } else if text.count >= 2, text.hasPrefix("0") {
            text = text.dropFirst()
            radix = 8
        }
        if text.isEmpty { return 0 }
        guard text.count <= 40, text.allSatisfy({ $0.isASCII && ($0.hexDigitValue ?? 99) < radix }) else { return nil }
        let significant = text.drop { $0 == "0" }
        return significant.isEmpty ? 0 : UInt64(significant, radix: radix) ?? .max
    }

    static func ipv4(_ host: String) -> String? {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last == "" { parts.removeLast() }
        guard parts.count <= 4, !parts.contains(where: \.isEmpty) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = ipv4Number(part) else { return nil }
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let limit = UInt64(1) << (8 * UInt64(5 - numbers.count))
        guard let last = numbers.last, last < limit else { return nil }
        var address = last
        for (offset, number) in numbers.dropLast().enumerated() {
            address += number << (8 * UInt64(3 - offset))
        }
        return (0..<4).map { String((address >> (8 * UInt64(3 - $0))) & 0xFF) }.joined(separator: ".")
    }
}
