import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA1), as authenticator
/// apps compute them from the secret `mfaEnrollment:start` gives for a TOTP factor.
public enum TimeBasedCode {
    public static let digits = 6
    public static let period = 30
    /// Codes of the steps either side of now are accepted too: a phone's clock drifts. Firebase
    /// has `adjacentIntervals` for this; how many it allows by default is not published (assumed).
    public static let adjacentSteps = 1

    /// The code for `secret` (raw bytes) at `date`.
    public static func code(secret: Data, at date: Date, step offset: Int = 0) -> String {
        let counter = UInt64(max(0, date.wholeSecondsSince1970 / period + offset))
        let message = withUnsafeBytes(of: counter.bigEndian) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        // RFC 4226 section 5.3: dynamic truncation.
        let start = Int(mac[mac.count - 1] & 0x0F)
        let number = (UInt32(mac[start] & 0x7F) << 24) | (UInt32(mac[start + 1]) << 16) | (UInt32(mac[start + 2]) << 8) | UInt32(mac[start + 3])
        let code = String(number % 1_000_000)
        return String(repeating: "0", count: digits - code.count) + code
    }

    /// Whether `given` is the code at `date` or an adjacent step.
    public static func accepts(_ given: String, secret: Data, at date: Date) -> Bool {
        (-adjacentSteps...adjacentSteps).contains { code(secret: secret, at: date, step: $0) == given }
    }

    /// RFC 4648 base32 without padding, as `otpauth://` URIs carry a secret.
    public static func base32(_ data: Data) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var output = ""
        var buffer = 0
        var bits = 0
        for byte in data {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return output
    }

    /// The bytes of a base32 secret; nil when it is not base32.
    public static func bytes(base32 text: String) -> Data? {
        var buffer = 0
        var bits = 0
        var output = Data()
        for character in text.uppercased() where character != "=" {
            guard let value = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".firstIndex(of: character)?.utf16Offset(in: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
