import ActionFlowModel
import Foundation

extension ExchangeRecord {
    /// One call as the Network pane shows it: the request line with the API key masked, the
    /// request and response bodies as masked JSON, and the status or failure.
    public init<Request: Encodable, Response: Encodable>(
        id: Int, _ operation: IdentityToolkitOperation, request: Request, locale: String?, apiKey: String?,
        result: Result<Response, AuthFailure>, startedAt: Date, duration: TimeInterval
    ) {
        var headers: [String: String] = [:]
        if let locale { headers["X-Firebase-Locale"] = locale }
        let status: Int?
        let responseBody: String?
        var failure: AuthFailure?
        var answer: String?
        switch result {
        case .success(let response):
            status = 200
            responseBody = SecretMasking.maskedJSON(response)
            answer = Self.unmaskedJSON(response)
        case .failure(.server(let code, let detail)):
            status = 400
            responseBody = SecretMasking.maskedJSON(ErrorEnvelope(failure: code, detail: detail))
            failure = .server(code, detail: detail)
        case .failure(.network(.httpStatus(let httpStatus, let body))):
            status = httpStatus
            responseBody = SecretMasking.maskLinks(in: body)
            failure = .network(.httpStatus(httpStatus, body: body))
        case .failure(let other):
            status = nil
            responseBody = nil
            failure = other
        }
        self.init(
            id: id, request: Self.requestLine(operation, apiKey: apiKey), requestBody: SecretMasking.maskedJSON(request),
            requestHeaders: headers, status: status, responseBody: responseBody, failure: failure,
            startedAt: startedAt, duration: duration,
            unmasked: UnmaskedRequest(body: Self.unmaskedJSON(request), apiKey: apiKey, response: answer)
        )
    }

    /// A request or response body as sent, laid out as `SecretMasking.maskedJSON` lays it out.
    static func unmaskedJSON(_ value: some Encodable) -> String {
        (try? JSONOutput.string(value, format: .record)) ?? "{}"
    }

    /// `POST /v1/accounts:sendOobCode?key=fake-a…(masked)`.
    public static func requestLine(_ operation: IdentityToolkitOperation, apiKey: String?) -> String {
        let key = apiKey.map { "?key=" + SecretMasking.mask($0) } ?? ""
        return "POST \(RESTTransportConfiguration.path(of: operation))\(key)"
    }

    /// The operation the request line names; nil for a line `requestLine` did not write.
    public var operation: IdentityToolkitOperation? {
        let path = request.split(separator: " ", maxSplits: 1).dropFirst().first?.prefix { $0 != "?" } ?? ""
        return IdentityToolkitOperation.allCases.first { RESTTransportConfiguration.path(of: $0) == path }
    }

    /// Runs a call and measures it.
    public static func timed<Response>(_ call: () async throws(AuthFailure) -> Response) async -> (Result<Response, AuthFailure>, TimeInterval) {
        let clock = ContinuousClock()
        let started = clock.now
        let result: Result<Response, AuthFailure>
        do {
            result = .success(try await call())
        } catch {
            result = .failure(error)
        }
        return (result, (clock.now - started).seconds)
    }
}

extension AuthTransport {
    /// When an exchange starts: the project's time where the server has a simulated clock (so
    /// transcripts repeat), else the wall clock.
    public func exchangeStartTime() async -> Date {
        if capabilities.controlsClock, let now = try? await now() { return now }
        return .recordable()
    }
}

extension Date {
    /// The wall clock as a session file holds it: whole seconds-since-1970 doubles read back
    /// bit for bit, where an arbitrary `Date()` would come back a fraction of a microsecond off.
    public static func recordable() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970)
    }
}
