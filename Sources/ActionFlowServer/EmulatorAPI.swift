import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// One HTTP request as the API sees it: no framework types, so the routing is testable alone.
public struct APIRequest: Sendable {
    public var method: String
    /// The path without the query.
    public var path: String
    /// The query as sent, parsed only by the pages that need it.
    public var rawQuery: String?
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(method: String, path: String, rawQuery: String? = nil, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.rawQuery = rawQuery
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// Query parameters, percent-decoded; the first of a repeated name wins.
    public var query: [String: String] {
        guard let rawQuery else { return [:] }
        var result: [String: String] = [:]
        for item in URLComponents(string: "?" + rawQuery)?.queryItems ?? [] where result[item.name] == nil {
            result[item.name] = item.value ?? ""
        }
        return result
    }

    /// Admin SDKs talking to an emulator authenticate as `Bearer owner`.
    var isAdmin: Bool { headers["authorization"] == "Bearer owner" }
}

public struct APIResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, contentType: String, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    static let jsonType = "application/json; charset=utf-8"

    /// Links stay readable: no `\/` escapes.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    static func json(_ value: some Encodable, status: Int = 200) -> APIResponse {
        do {
            return APIResponse(status: status, contentType: jsonType, body: try encoder().encode(value))
        } catch {
            return failure(status: 500, code: AuthErrorCode("INTERNAL"), detail: "could not encode the response")
        }
    }

    /// The emulator's error envelope: `{"error":{"code":STATUS,"message":"CODE : detail",...}}`.
    static func failure(status: Int = 400, code: AuthErrorCode, detail: String? = nil) -> APIResponse {
        let envelope = ErrorEnvelope(httpStatus: status, failure: code, detail: detail)
        let body = (try? encoder().encode(envelope)) ?? Data(#"{"error":{"code":500,"message":"INTERNAL","errors":[]}}"#.utf8)
        return APIResponse(status: status, contentType: jsonType, body: body)
    }
}

/// What `serve` needs to know about the project it serves beyond the transport.
public struct ServedProject: Sendable, Hashable {
    public var projectId: String
    /// The email action handler; its path gets the web action handler page.
    public var actionHandlerURL: String

    public init(projectId: String, actionHandlerURL: String) {
        self.projectId = projectId
        self.actionHandlerURL = actionHandlerURL
    }

    public init(_ configuration: ProjectConfiguration) {
        self.init(projectId: configuration.projectId, actionHandlerURL: configuration.effectiveActionHandlerURL)
    }

    /// `/__/auth/action` for the default handler.
    public var actionHandlerPath: String {
        let path = URLComponents(string: actionHandlerURL)?.path ?? ""
        return path.isEmpty ? "/__/auth/action" : path
    }
}

/// The Auth Emulator's HTTP surface over any `AuthTransport`: Identity Toolkit v1 (client and
/// project-scoped admin paths), the legacy v3 `relyingparty` paths of the iOS SDK, the
/// emulator's own API, the simulated clock, and the web action handler page.
public struct EmulatorAPI: Sendable {
    public let transport: any AuthTransport
    public let maxBodyBytes: Int
    private let served: CurrentProject

    public static let defaultMaxBodyBytes = 64 * 1024

    /// Clients may replace the project (`PUT .../config`, a `serve` extension) when the
    /// transport can apply one.
    public init(transport: any AuthTransport, project: ServedProject, maxBodyBytes: Int = EmulatorAPI.defaultMaxBodyBytes) {
        self.transport = transport
        self.served = CurrentProject(project)
        self.maxBodyBytes = maxBodyBytes
    }

    public var project: ServedProject { served.value }

    public static let v1Prefix = "/identitytoolkit.googleapis.com/v1/"
    public static let v3Prefixes = ["/www.googleapis.com/identitytoolkit/v3/relyingparty/", "/identitytoolkit/v3/relyingparty/"]

    public func handle(_ request: APIRequest) async -> APIResponse {
        if request.body.count > maxBodyBytes {
            return .failure(status: 413, code: AuthErrorCode("PAYLOAD_TOO_LARGE"), detail: "the request body exceeds \(maxBodyBytes) bytes")
        }
        let path = request.path
        if path == project.actionHandlerPath || path == "/emulator/action" {
            return await ActionHandlerPage(transport: transport).respond(to: request)
        }
        if path.hasPrefix(Self.v1Prefix) {
            return await identityToolkit(String(path.dropFirst(Self.v1Prefix.count)), request)
        }
        if let prefix = Self.v3Prefixes.first(where: { path.hasPrefix($0) }) {
            return await relyingParty(String(path.dropFirst(prefix.count)), request)
        }
        if path.hasPrefix("/emulator/v1/projects/") {
            return await emulatorAPI(String(path.dropFirst("/emulator/v1/projects/".count)), request)
        }
        if path == "/" && request.method == "GET" {
            return await MailboxPage(transport: transport, project: project).respond()
        }
        return notFound(request)
    }

    // MARK: Identity Toolkit v1

    /// `accounts:OP` (client) or `projects/PROJECT/accounts[:OP]` (admin).
    private func identityToolkit(_ rest: String, _ request: APIRequest) async -> APIResponse {
        guard request.method == "POST" else { return notFound(request) }
        if rest.hasPrefix("projects/") {
            let parts = rest.dropFirst("projects/".count).split(separator: "/", maxSplits: 1)
            guard parts.count == 2 else { return notFound(request) }
            if let mismatch = checkProject(String(parts[0])) { return mismatch }
            guard request.isAdmin else {
                return .failure(status: 401, code: AuthErrorCode("UNAUTHENTICATED"), detail: "project-scoped calls need 'Authorization: Bearer owner'")
            }
            let operation = String(parts[1])
            if operation == "accounts" {
                return await run(.signUp, request)
            }
            guard let known = IdentityToolkitOperation(rawValue: operation) else { return notFound(request) }
            return await run(known, request)
        }
        guard let operation = IdentityToolkitOperation(rawValue: rest) else { return notFound(request) }
        return await run(operation, request)
    }

    /// The legacy v3 names the iOS SDK still calls, rewritten to v1 as the emulator does.
    private func relyingParty(_ name: String, _ request: APIRequest) async -> APIResponse {
        guard request.method == "POST" else { return notFound(request) }
        let operation: IdentityToolkitOperation
        switch name {
        case "getOobConfirmationCode": operation = .sendOobCode
        case "resetPassword": operation = .resetPassword
        case "setAccountInfo": operation = .update
        case "verifyPassword": operation = .signInWithPassword
        case "getAccountInfo": operation = .lookup
        case "emailLinkSignin": operation = .signInWithEmailLink
        case "signupNewUser": operation = .signUp
        default: return notFound(request)
        }
        return await run(operation, request)
    }

    private func run(_ operation: IdentityToolkitOperation, _ request: APIRequest) async -> APIResponse {
        do throws(AuthFailure) {
            switch operation {
            case .signUp:
                return .json(try await transport.signUp(try decode(request)))
            case .signInWithPassword:
                return .json(try await transport.signInWithPassword(try decode(request)))
            case .sendOobCode:
                let body: SendOobCodeRequest = try decode(request)
                if body.returnOobLink == true && !request.isAdmin {
                    throw .server(.insufficientPermission, detail: nil)
                }
                var response = try await transport.sendOobCode(body, locale: request.headers["x-firebase-locale"])
                if body.returnOobLink != true {
                    // Only admin callers see the code; everyone else gets it by email.
                    response.oobCode = nil
                    response.oobLink = nil
                }
                return .json(response)
            case .resetPassword:
                return .json(try await transport.resetPassword(try decode(request)))
            case .update:
                let body: UpdateAccountRequest = try decode(request)
                if body.localId != nil && !request.isAdmin {
                    throw .server(.insufficientPermission, detail: "changing an account by localId needs admin credentials")
                }
                return .json(try await transport.update(body))
            case .lookup:
                let body: LookupRequest = try decode(request)
                if body.idToken == nil && !request.isAdmin {
                    throw .server(.missingIDToken, detail: "a client lookup needs an idToken")
                }
                return .json(try await transport.lookup(body))
            case .signInWithEmailLink:
                return .json(try await transport.signInWithEmailLink(try decode(request)))
            }
        } catch {
            return Self.response(for: error)
        }
    }

    /// Decodes a JSON body, naming what is wrong as the emulator does.
    private func decode<Body: Decodable>(_ request: APIRequest) throws(AuthFailure) -> Body {
        let data = request.body.isEmpty ? Data("{}".utf8) : request.body
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .server(Self.missingFieldCode(key.stringValue), detail: nil)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .server(.invalidArgument, detail: "Invalid value at '\(Self.fieldPath(context))'")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            if context.codingPath.last?.stringValue == "requestType" {
                throw .server(.invalidRequestType, detail: "unknown requestType")
            }
            throw .server(.invalidArgument, detail: "Invalid value at '\(Self.fieldPath(context))'")
        } catch {
            throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
        }
    }

    private static func fieldPath(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }

    private static func missingFieldCode(_ field: String) -> AuthErrorCode {
        switch field {
        case "email": .missingEmail
        case "password": .missingPassword
        case "oobCode": .missingOobCode
        case "requestType": .missingRequestType
        default: .invalidArgument
        }
    }

    static func response(for failure: AuthFailure) -> APIResponse {
        switch failure {
        case .server(let code, let detail):
            let status = switch code {
            case .insufficientPermission: 403
            case AuthErrorCode("UNAUTHENTICATED"): 401
            default: 400
            }
            return .failure(status: status, code: code, detail: detail)
        case .network(let failure):
            // The served transport itself failed (e.g. an injected fault): the caller may retry.
            return .failure(status: 503, code: AuthErrorCode("UNAVAILABLE"), detail: "\(failure)")
        }
    }

    // MARK: The emulator's own API and serve's extensions

    private func emulatorAPI(_ rest: String, _ request: APIRequest) async -> APIResponse {
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return notFound(request) }
        if let mismatch = checkProject(String(parts[0])) { return mismatch }
        do throws(AuthFailure) {
            switch (request.method, String(parts[1])) {
            case ("GET", "oobCodes"):
                return .json(EmulatorOobCodeList(oobCodes: try await transport.mailbox().map(Self.entry)))
            case ("DELETE", "accounts"):
                try await transport.resetWorld()
                return .json([String: String]())
            case ("GET", "clock"):
                return .json(EmulatorClockState(date: try await transport.now()))
            case ("POST", "clock"):
                let body: AdvanceClockRequest = try decode(request)
                return .json(EmulatorClockState(date: try await transport.advanceClock(by: body.advanceSeconds)))
            case ("PUT", "config"):
                let submitted: ProjectConfiguration = try decode(request)
                guard submitted.projectId == project.projectId else {
                    throw .server(.invalidArgument, detail: "this server keeps project id '\(project.projectId)'")
                }
                let problems = submitted.validate()
                guard problems.isEmpty else {
                    throw .server(.invalidArgument, detail: problems.map(\.description).joined(separator: "; "))
                }
                let configuration = submitted.normalized()
                let now: Date
                do throws(AuthFailure) {
                    now = try await transport.applyProject(configuration)
                } catch .network(.unsupported) {
                    return notFound(request)
                }
                served.value = ServedProject(configuration)
                return .json(EmulatorClockState(date: now))
            default:
                return notFound(request)
            }
        } catch {
            return Self.response(for: error)
        }
    }

    static func entry(_ message: MailMessage) -> EmulatorOobCodeList.Entry {
        EmulatorOobCodeList.Entry(
            email: message.to,
            oobCode: message.oobCode ?? message.id,
            oobLink: message.link,
            requestType: message.requestType.rawValue,
            messageId: message.id,
            subject: message.subject,
            body: message.body,
            locale: message.locale,
            sentAtMillis: (message.sentAt.timeIntervalSince1970 * 1000).rounded()
        )
    }

    private func checkProject(_ projectId: String) -> APIResponse? {
        guard projectId != project.projectId else { return nil }
        return .failure(status: 404, code: AuthErrorCode("PROJECT_NOT_FOUND"), detail: "this server hosts project '\(project.projectId)'")
    }

    private func notFound(_ request: APIRequest) -> APIResponse {
        .failure(status: 404, code: AuthErrorCode("NOT_FOUND"), detail: "no endpoint \(request.method) \(UntrustedText.sanitize(request.path))")
    }
}

/// The project being served; replaced when a client sends a new configuration.
private final class CurrentProject: @unchecked Sendable {
    // `@unchecked`: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: ServedProject

    init(_ project: ServedProject) { stored = project }

    var value: ServedProject {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
