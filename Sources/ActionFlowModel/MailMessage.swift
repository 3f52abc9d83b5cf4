import Foundation

/// One email the project sent, as it lands in the device's inbox.
public struct MailMessage: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var to: String
    public var subject: String
    public var body: String
    /// The link the user taps.
    public var link: String
    public var requestType: OobRequestType
    /// The language the message was rendered in (from `X-Firebase-Locale`).
    public var locale: String
    public var sentAt: Date
    public var oobCode: String?

    public init(id: String, to: String, subject: String, body: String, link: String, requestType: OobRequestType, locale: String, sentAt: Date, oobCode: String?) {
        self.id = id
        self.to = to
        self.subject = subject
        self.body = body
        self.link = link
        self.requestType = requestType
        self.locale = locale
        self.sentAt = sentAt
        self.oobCode = oobCode
    }
}

/// One backend call as the network pane shows it: JSON bodies already masked.
public struct ExchangeRecord: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    /// e.g. `POST /v1/accounts:sendOobCode`.
    public var request: String
    public var requestBody: String
    public var requestHeaders: [String: String]
    /// HTTP status, or nil when no response arrived.
    public var status: Int?
    public var responseBody: String?
    public var failure: AuthFailure?
    public var startedAt: Date
    public var duration: TimeInterval
    /// The request as it was sent, secrets in clear, for `export --format curl --reveal-secrets`
    /// alone: every screen, log and report shows the masked fields above. A session file holds
    /// it as it holds the typed passwords and the world's codes; nil in files written before.
    public var unmasked: UnmaskedRequest?

    public init(id: Int, request: String, requestBody: String, requestHeaders: [String: String], status: Int?, responseBody: String?, failure: AuthFailure?, startedAt: Date, duration: TimeInterval, unmasked: UnmaskedRequest? = nil) {
        self.id = id
        self.request = request
        self.requestBody = requestBody
        self.requestHeaders = requestHeaders
        self.status = status
        self.responseBody = responseBody
        self.failure = failure
        self.startedAt = startedAt
        self.duration = duration
        self.unmasked = unmasked
    }
}

/// What `ExchangeRecord` masks, as it was sent.
public struct UnmaskedRequest: Sendable, Hashable, Codable {
    /// The JSON body.
    public var body: String
    /// The `key` query parameter, nil when none was sent.
    public var apiKey: String?
    /// The answer as it came, tokens and codes in clear, so that a script can carry them to the
    /// calls after it; nil for an error, or in files written before.
    public var response: String?

    public init(body: String, apiKey: String?, response: String? = nil) {
        self.body = body
        self.apiKey = apiKey
        self.response = response
    }
}
