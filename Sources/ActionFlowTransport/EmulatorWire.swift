import ActionFlowModel
import Foundation

// JSON of the Auth Emulator's own API (`/emulator/v1/projects/PROJECT/...`), shared by the REST
// client and `actionflow serve`.

/// `GET /emulator/v1/projects/PROJECT/verificationCodes`: the SMS codes not used yet.
public struct EmulatorVerificationCodeList: Sendable, Hashable, Codable {
    public var verificationCodes: [PhoneVerificationCode]
    public init(verificationCodes: [PhoneVerificationCode]) { self.verificationCodes = verificationCodes }
}

/// `GET /emulator/v1/projects/PROJECT/oobCodes`.
public struct EmulatorOobCodeList: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var email: String
        public var oobCode: String
        public var oobLink: String
        /// Kept as text so that a request type this tool does not know survives decoding.
        public var requestType: String
        /// VERIFY_AND_CHANGE_EMAIL: the address to change to (`email` is the current one).
        public var newEmail: String?
        // Fields only `actionflow serve` adds; an emulator client ignores them.
        public var messageId: String?
        public var subject: String?
        public var body: String?
        public var locale: String?
        /// Milliseconds since 1970 on the project's clock.
        public var sentAtMillis: Double?

        public init(email: String, oobCode: String, oobLink: String, requestType: String, newEmail: String? = nil, messageId: String? = nil, subject: String? = nil, body: String? = nil, locale: String? = nil, sentAtMillis: Double? = nil) {
            self.email = email
            self.oobCode = oobCode
            self.oobLink = oobLink
            self.requestType = requestType
            self.newEmail = newEmail
            self.messageId = messageId
            self.subject = subject
            self.body = body
            self.locale = locale
            self.sentAtMillis = sentAtMillis
        }
    }

    public var oobCodes: [Entry]
    public init(oobCodes: [Entry]) { self.oobCodes = oobCodes }
}

/// `GET` and `POST /emulator/v1/projects/PROJECT/clock`: the simulated clock, a `serve`
/// extension the Auth Emulator lacks.
public struct EmulatorClockState: Sendable, Hashable, Codable {
    /// Milliseconds since 1970.
    public var nowMillis: Double
    /// The same instant in ISO 8601, for people reading the JSON.
    public var now: String

    public init(date: Date) {
        nowMillis = (date.timeIntervalSince1970 * 1000).rounded()
        now = date.iso8601Stamp
    }

    public var date: Date { Date(timeIntervalSince1970: nowMillis / 1000) }
}

/// Body of `POST /emulator/v1/projects/PROJECT/clock`.
public struct AdvanceClockRequest: Sendable, Hashable, Codable {
    public var advanceSeconds: Double
    public init(advanceSeconds: Double) { self.advanceSeconds = advanceSeconds }
}

/// Dates on the wire: ISO 8601 (what `serve` and the REST client write), or milliseconds since
/// 1970 as a number or a string (the emulator's timestamps). Never Foundation's default,
/// seconds since 2001.
public enum WireDates {
    public static func encode(_ date: Date, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(date.iso8601Stamp)
    }

    public static func decode(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        if let millis = try? container.decode(Double.self) {
            return Date(timeIntervalSince1970: millis / 1000)
        }
        let text = try container.decode(String.self)
        if let date = parse(text) { return date }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an ISO 8601 date or milliseconds since 1970, got '\(text)'")
    }

    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingWhitespace()
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "." }), let millis = Double(trimmed) {
            return Date(timeIntervalSince1970: millis / 1000)
        }
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return nil
    }

    /// A JSON encoder for request bodies: ISO 8601 dates, readable links.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom(encode)
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}

public enum EmulatorPaths {
    /// The emulator's prefix before `/v1/...` for Identity Toolkit calls.
    public static let identityToolkitPrefix = "/" + RESTTransportConfiguration.identityToolkitHost
    public static func projectBase(_ projectId: String) -> String { "/emulator/v1/projects/\(projectId)" }
}
