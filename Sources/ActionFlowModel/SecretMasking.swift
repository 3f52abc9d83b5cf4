import Foundation

/// Hides secrets before text reaches a screen, a log or a transcript: the one policy for every
/// place that shows them. Action codes, API keys and tokens keep a short prefix so a reader can
/// tell values apart; passwords keep nothing, since any part of one helps guess it.
public enum SecretMasking {
    /// JSON keys whose string values are secrets.
    public static let secretKeys: Set<String> = [
        "apiKey", "key", "password", "newPassword", "idToken", "refreshToken", "oobCode",
        "passwordHash", "salt", "access_token", "id_token", "refresh_token",
    ]
    /// The secrets of `secretKeys` that show no prefix (the emulator's `passwordHash` holds the
    /// password itself: `fakeHash:salt=…:password=…`).
    public static let passwordKeys: Set<String> = ["password", "newPassword", "passwordHash", "passwd", "pwd"]
    /// Query parameters of links whose values are secrets (`oobCode` and `apiKey`,
    /// docs/security-review.md), a password an emulator action link can carry
    /// (`&newPassword=`), the tokens a form body sends (securetoken's `grant_type=refresh_token&refresh_token=…`),
    /// and the credentials an app puts in a continue URL (`?token=`, `?session=`), which the
    /// continue URL checks report as `continue-url.credentials`.
    public static let secretQueryParameters = [
        "oobCode", "apiKey", "api_key", "key", "newPassword", "password", "passwd", "pwd", "refresh_token", "refreshToken",
        "id_token", "idToken", "access_token", "accessToken", "token", "customToken", "secret", "session", "sessionid",
    ]
    /// `secretQueryParameters` without case, as a continue URL's parameter names are compared.
    public static let secretParameterNamesLowercased = Set(secretQueryParameters.map { $0.lowercased() })

    /// How many leading characters stay visible.
    public static let visiblePrefix = 6
    public static let marker = "…(masked)"

    /// `fake-api-key-demo` -> `fake-a…(masked)`. Short values are hidden entirely.
    public static func mask(_ secret: String) -> String {
        guard !secret.isEmpty else { return secret }
        guard secret.count > visiblePrefix * 2 else { return marker }
        return String(secret.prefix(visiblePrefix)) + marker
    }

    /// A named value (JSON key or link parameter) as it may be shown: a password as the marker
    /// alone, another secret as `mask`, anything else with the secrets of links inside it masked.
    public static func mask(_ value: String, named name: String) -> String {
        if passwordKeys.contains(name) { return value.isEmpty ? value : marker }
        if secretKeys.contains(name) || secretQueryParameters.contains(name) { return mask(value) }
        return maskLinks(in: value)
    }

    /// A secret's fingerprint: the same for the same value, and telling nothing of it (64-bit
    /// FNV-1a, in hex), so that records can say two calls carried one code without keeping it.
    public static func fingerprint(_ secret: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in secret.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A secret being typed into a field: one bullet per character, so the cursor still lines up.
    public static func maskTyped(_ text: String) -> String {
        String(repeating: "•", count: text.count)
    }

    /// Masks the values of `oobCode`, `apiKey` and `key` query parameters anywhere in a text,
    /// including inside percent-encoded (`oobCode%3D...`) and double-encoded wrapped links.
    public static func maskLinks(in text: String) -> String {
        // Every separator has `=` or `%`: most values (emails, names, plain URLs) have neither.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "%") }) else { return text }
        var result = text
        for prefix in secretParameterPrefixes where occurs(prefix.bytes, in: result) {
            result = maskValues(after: prefix.text, in: result)
        }
        return result
    }

    /// Each secret parameter with each separator, as text and as the bytes looked for.
    private static let secretParameterPrefixes: [(text: String, bytes: [UInt8])] = secretQueryParameters.flatMap { name in
        ["=", "%3D", "%3d", "%253D", "%253d"].map { separator in (name + separator, Array((name + separator).utf8)) }
    }

    /// The parameter name a prefix of `secretParameterPrefixes` is for.
    private static func parameterName(of prefix: String) -> String {
        secretQueryParameters.first { prefix.hasPrefix($0) && prefix.dropFirst($0.count).first?.isLetter == false } ?? prefix
    }

    /// Whether `needle` occurs in the text's UTF-8, by a plain byte scan: the screen masks every
    /// link it shows for every frame, and most texts hold none of the fifteen prefixes.
    private static func occurs(_ needle: [UInt8], in text: String) -> Bool {
        func scan(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = needle.first, haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                var matched = 1
                while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            return false
        }
        return text.utf8.withContiguousStorageIfAvailable(scan) ?? Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    /// Re-renders a JSON document with every secret value masked: values of `secretKeys`, and
    /// secret query parameters inside any other string (links such as `oobLink`). Pretty-printed
    /// with sorted keys so records read the same every run. Text that is not JSON is masked as links.
    public static func maskJSON(_ data: Data) -> String {
        guard let document = try? bodyDecoder.decode(JSONValue.self, from: data),
              let masked = try? JSONOutput.string(maskJSONValue(document, key: nil), format: .record) else {
            return maskLinks(in: String(decoding: data, as: UTF8.self))
        }
        return masked
    }

    /// Shared (both are thread-safe): every exchange of a flow is masked.
    private static let bodyFormat = JSONOutput.Format()
    private static let bodyDecoder = JSONDecoder()

    /// The masked JSON of a request or reply body: `maskJSON` of what `JSONEncoder` makes of it.
    public static func maskedJSON(_ value: some Encodable) -> String {
        (try? JSONOutput.data(value, format: bodyFormat)).map(maskJSON) ?? "{}"
    }

    /// Each string masked by the key it sits under (an array's by the array's key), or as links.
    private static func maskJSONValue(_ value: JSONValue, key: String?) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.reduce(into: [:]) { result, member in result[member.key] = maskJSONValue(member.value, key: member.key) })
        case .array(let elements):
            .array(elements.map { maskJSONValue($0, key: key) })
        case .string(let text):
            .string(key.map { mask(text, named: $0) } ?? maskLinks(in: text))
        default:
            value
        }
    }

    /// Characters a secret's value is made of as a link carries it: URL-safe base64, JWT dots,
    /// what a password may hold, and percent escapes of any of these.
    private static func isValueCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "+", "/", "~", "!", "*", "'", "(", ")", "@", "$", ",", ";", ":": true
        default: false
        }
    }

    /// Escapes that end a value rather than belong to it, once or twice encoded: `&`, `#`, a
    /// space, a quote, `<` and `>`.
    private static let endingEscapes: Set<String> = ["26", "23", "20", "22", "3C", "3E"]

    /// How many scalars of `scalars` the value takes: plain value characters and percent escapes,
    /// up to the first separator, raw or encoded.
    private static func valueLength(_ scalars: Substring.UnicodeScalarView) -> Int {
        let characters = Array(scalars.prefix(4096))
        func hex(_ index: Int) -> String? {
            guard index + 1 < characters.count, characters[index].properties.isASCIIHexDigit, characters[index + 1].properties.isASCIIHexDigit else { return nil }
            return String(String.UnicodeScalarView([characters[index], characters[index + 1]])).uppercased()
        }
        var index = 0
        while index < characters.count {
            let scalar = characters[index]
            if isValueCharacter(scalar) {
                index += 1
            } else if scalar == "%", let code = hex(index + 1), !endingEscapes.contains(code) {
                // `%25` escapes a `%`: what it escapes decides, in a link encoded twice.
                if code == "25", let inner = hex(index + 3), endingEscapes.contains(inner) { break }
                index += 3
            } else {
                break
            }
        }
        return index
    }

    private static func maskValues(after prefix: String, in text: String) -> String {
        let isPassword = passwordKeys.contains(parameterName(of: prefix))
        var output = ""
        var rest = Substring(text)
        while let range = rest.firstOccurrence(of: prefix) {
            output += rest[..<range.upperBound]
            let length = valueLength(rest[range.upperBound...].unicodeScalars)
            let value = String(String.UnicodeScalarView(rest[range.upperBound...].unicodeScalars.prefix(length)))
            rest = Substring(rest[range.upperBound...].unicodeScalars.dropFirst(length))
            // A value masked before keeps its visible prefix: masking twice changes nothing.
            if rest.hasPrefix(marker) {
                output += value
            } else {
                output += isPassword ? (value.isEmpty ? value : marker) : mask(value)
            }
        }
        output += rest
        return output
    }
}
