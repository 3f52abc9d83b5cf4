/// A small, allocation-light URL splitter for links pasted by users: scheme, userinfo, host, port,
/// path, query parameters and fragment, following the WHATWG URL standard where browsers and
/// the SDKs differ from RFC 3986 (backslashes and any number of slashes after `http:`/`https:`).
/// Foundation's `URLComponents` is strict about malformed input and several times slower.
/// A class: the inspector hands a split URL around while it makes findings, and one reference is
/// cheaper to copy than a dozen strings.
final class SplitURL {
    /// Lowercased; empty when the text has no scheme.
    var scheme: String
    var userinfo: String?
    /// Lowercased; empty when there is no authority.
    var host: String
    var port: String?
    var path: String
    /// Nil when there is no `?`. Decoded as `application/x-www-form-urlencoded` (the JS SDK's
    /// `querystringDecode`: `+` is a space, then percent-decoding); a value that does not decode
    /// is kept as written and listed in `malformedParameters`.
    var parameters: [LinkParameter]? = nil
    var fragment: String? = nil
    /// Indices of parameters whose name or value has a broken escape or is not UTF-8.
    var malformedParameters: [Int] = []
    /// Values as written that contain `=` (iOS `ActionCodeURL` cuts them).
    var rawValuesWithEquals: [RawValue] = []

    struct RawValue {
        var parameterIndex: Int
        var raw: String
    }

    init(scheme: String, userinfo: String?, host: String, port: String?, path: String) {
        self.scheme = scheme
        self.userinfo = userinfo
        self.host = host
        self.port = port
        self.path = path
    }

    var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// The last value of `name`, as the SDKs read repeated parameters.
    func value(_ name: String) -> String? {
        parameters?.last { $0.isNamed(name) }?.value
    }
}

enum URLSplitter {
    /// Splits `text`; nil when it has no scheme (`letter *(letter / digit / "+" / "-" / ".") ":"`).
    static func split(_ text: String) -> SplitURL? {
        var copy = text
        return copy.withUTF8 { split(bytes: $0) }
    }

    static func split(bytes: UnsafeBufferPointer<UInt8>) -> SplitURL? {
        let count = bytes.count
        guard let schemeEnd = schemeEnd(bytes) else { return nil }
        let scheme = lowercasedASCII(bytes, 0..<schemeEnd)
        let special = scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" || scheme == "ftp" || scheme == "file"
        var cursor = schemeEnd + 1
        var userinfo: String?
        var host = ""
        var port: String?

        var authorityStart: Int?
        if special {
            // WHATWG: any run of `/` and `\` after a special scheme starts the authority.
            while cursor < count, bytes[cursor] == .slash || bytes[cursor] == .backslash { cursor += 1 }
            authorityStart = cursor
        } else if cursor + 1 < count, bytes[cursor] == .slash, bytes[cursor + 1] == .slash {
            cursor += 2
            authorityStart = cursor
        }
        if let start = authorityStart {
            var end = start
            while end < count {
                let byte = bytes[end]
                if byte == .slash || byte == .question || byte == .hash || (special && byte == .backslash) { break }
                end += 1
            }
            var hostStart = start
            if let at = lastIndex(of: .at, in: bytes, start..<end) {
                userinfo = string(bytes, start..<at)
                hostStart = at + 1
            }
            var hostEnd = end
            // The port follows the last `:` unless it sits inside an IPv6 literal.
            if let colon = lastIndex(of: .colon, in: bytes, hostStart..<end),
               lastIndex(of: .closeBracket, in: bytes, hostStart..<end).map({ $0 < colon }) ?? true {
                port = string(bytes, (colon + 1)..<end)
                hostEnd = colon
            }
            host = lowercasedASCII(bytes, hostStart..<hostEnd)
            cursor = end
        }

        let pathEnd = bytes[cursor..<count].firstIndex { $0 == .question || $0 == .hash } ?? count
        let path = string(bytes, cursor..<pathEnd)
        cursor = pathEnd

        let url = SplitURL(scheme: scheme, userinfo: userinfo, host: host, port: port, path: path)
        if cursor < count, bytes[cursor] == .question {
            let queryEnd = bytes[(cursor + 1)..<count].firstIndex(of: .hash) ?? count
            splitQuery(bytes, (cursor + 1)..<queryEnd, into: url)
            cursor = queryEnd
        }
        if cursor < count, bytes[cursor] == .hash {
            url.fragment = string(bytes, (cursor + 1)..<count)
        }
        return url
    }

    /// Splits a query (without `?`) at `&`; each pair at its first `=`.
    static func splitQuery(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into url: SplitURL) {
        var parameters: [LinkParameter] = []
        parameters.reserveCapacity(8)
        var start = range.lowerBound
        while start <= range.upperBound {
            let end = bytes[start..<range.upperBound].firstIndex(of: .ampersand) ?? range.upperBound
            if end > start {
                let equals = bytes[start..<end].firstIndex(of: .equals) ?? end
                let valueRange = equals < end ? (equals + 1)..<end : end..<end
                let name = decodeFormComponent(bytes, start..<equals)
                let value = decodeFormComponent(bytes, valueRange)
                if name == nil || value == nil { url.malformedParameters.append(parameters.count) }
                if bytes[valueRange].contains(.equals) {
                    url.rawValuesWithEquals.append(SplitURL.RawValue(parameterIndex: parameters.count, raw: string(bytes, valueRange)))
                }
                parameters.append(LinkParameter(name: name ?? string(bytes, start..<equals), value: value ?? string(bytes, valueRange)))
            }
            start = end + 1
        }
        url.parameters = parameters
    }

    /// Form decoding of one name or value; nil when it does not decode.
    private static func decodeFormComponent(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        PercentEncoding.decode(utf8: UnsafeBufferPointer(rebasing: bytes[range]), plusAsSpace: true)
    }

    /// The index of the scheme's `:`, or nil when the text does not start with a scheme.
    private static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, first.isASCIILetter else { return nil }
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .colon { return index }
            guard byte.isASCIILetter || byte.isASCIIDigit || byte == .plus || byte == .minus || byte == .dot else { return nil }
            index += 1
        }
        return nil
    }

    private static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.upperBound - 1
        while index >= range.lowerBound {
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func lowercasedASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        if !bytes[range].contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return string(bytes, range) }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            for (offset, byte) in bytes[range].enumerated() {
                buffer[offset] = byte.asciiLowercased
            }
            return range.count
        }
    }
}

/// Recognises payloads that were percent-encoded twice.
enum DoubleEncoding {
    /// True when `text` still looks percent-encoded after one decoding (`https%3A%2F%2F...`).
    static func looksEncodedURL(_ text: String) -> Bool {
        hasPrefixIgnoringCase(text, "https%3a") || hasPrefixIgnoringCase(text, "http%3a")
    }

    /// ASCII case-insensitive prefix test; `prefix` must be lowercase.
    private static func hasPrefixIgnoringCase(_ text: String, _ prefix: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        func matches(_ bytes: some Collection<UInt8>) -> Bool {
            bytes.count >= expected.count && zip(bytes, expected).allSatisfy { $0.asciiLowercased == $1 }
        }
        // Contiguous storage is there for every native string; the iterator is far slower.
        return text.utf8.withContiguousStorageIfAvailable(matches) ?? matches(text.utf8)
    }

    /// Decodes once more when the text is a twice-encoded URL.
    static func decodeAgainIfNeeded(_ text: String) -> (text: String, wasDoubleEncoded: Bool) {
        guard looksEncodedURL(text), let decoded = PercentEncoding.decode(text) else { return (text, false) }
        return (decoded, true)
    }
}

extension UInt8 {
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let question = UInt8(ascii: "?")
    static let hash = UInt8(ascii: "#")
    static let at = UInt8(ascii: "@")
    static let colon = UInt8(ascii: ":")
    static let closeBracket = UInt8(ascii: "]")
    static let ampersand = UInt8(ascii: "&")
    static let equals = UInt8(ascii: "=")
    static let percent = UInt8(ascii: "%")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let space = UInt8(ascii: " ")
    static let underscore = UInt8(ascii: "_")

    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self + 0x20 : self }
}
