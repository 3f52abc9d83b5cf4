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
        // The server hands over names in lower case already; only other callers' are rebuilt.
        let lowerCase = headers.keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z") ~= $0) } }
        self.headers = lowerCase ? headers : Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
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

    /// The Authorization header as the emulator reads it: `Bearer owner` (any case) and Google
    /// service-account tokens (`Bearer ya29.…`) are admins; another bearer token is refused;
    /// other schemes are ignored.
    var bearer: Bearer {
        guard let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") else { return .none }
        let token = String(authorization.dropFirst("bearer ".count))
        if token.lowercased() == "owner" || token.hasPrefix("ya29.") { return .admin }
        return .invalid
    }

    enum Bearer { case none, admin, invalid }

    var isAdmin: Bool { bearer == .admin }

    /// `?key=` or `X-Goog-Api-Key`; any non-empty key is accepted, as the emulator does.
    var apiKey: String? {
        if let key = query["key"], !key.isEmpty { return key }
        if let key = headers["x-goog-api-key"], !key.isEmpty { return key }
        return nil
    }
}

public struct APIResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var headers: [String: String] = [:]
    public var body: Data

    static let jsonType = "application/json; charset=utf-8"

    static func json(_ value: some Encodable, status: Int = 200) -> APIResponse {
        do {
            return APIResponse(status: status, contentType: jsonType, body: try encodeJSON(value))
        } catch {
            return failure(status: 500, code: AuthErrorCode("INTERNAL"), detail: "could not encode the response")
        }
    }

    /// Links stay readable: no `\/` escapes.
    static func encodeJSON(_ value: some Encodable) throws -> Data {
        try JSONOutput.data(value, format: .wire)
    }

    /// A JSON object built from plain values (for answers with no wire type of their own).
    static func jsonObject(_ object: [String: Any], status: Int = 200) -> APIResponse {
        let data = JSONOutput.string(plain: object, format: .wire).map { Data($0.utf8) } ?? Data("{}".utf8)
        return APIResponse(status: status, contentType: jsonType, body: data)
    }

    /// The emulator's error envelope for an assertion: `{"error":{"code":STATUS,"message":"CODE : detail","errors":[{"message":...,"reason":"invalid","domain":"global"}]}}`.
    static func failure(status: Int = 400, code: AuthErrorCode, detail: String? = nil, statusName: String? = nil) -> APIResponse {
        envelope(ErrorEnvelope(httpStatus: status, failure: code, detail: detail, status: statusName), status: status)
    }

    /// Any `ApiError` of the emulator: message, one item, and the status name.
    static func apiError(status: Int, message: String, reason: String, domain: String?, statusName: String?) -> APIResponse {
        let body = ErrorEnvelope.Body(code: status, message: message, errors: [.init(message: message, reason: reason, domain: domain)], status: statusName)
        return envelope(ErrorEnvelope(error: body), status: status)
    }

    /// A client call without `?key=` or `X-Goog-Api-Key`, as production and the emulator refuse it.
    static var missingAPIKey: APIResponse {
        apiError(status: 403, message: "The request is missing a valid API key.", reason: "forbidden", domain: "global", statusName: "PERMISSION_DENIED")
    }

    /// A bearer token that is not an admin's (`server.ts:216-227`).
    static var invalidCredentials: APIResponse {
        apiError(status: 401, message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.", reason: "authError", domain: "global", statusName: "UNAUTHENTICATED")
    }

    /// An admin-only route called without a bearer token (`server.ts:322-334`).
    static var missingCredentials: APIResponse {
        apiError(status: 401, message: "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.", reason: "required", domain: "global", statusName: "UNAUTHENTICATED")
    }

    /// An operation the emulator has and this server does not simulate: the emulator's 501 shape,
    /// naming the operation and where to find it.
    static func notSimulated(_ operationId: String, what: String) -> APIResponse {
        let message = "\(operationId) (\(what)) is not simulated by actionflow serve, which serves email actions: run firebase-tools' Auth Emulator and start serve with --upstream HOST:PORT to forward every call to it."
        return apiError(status: 501, message: message, reason: "unimplemented", domain: nil, statusName: "NOT_IMPLEMENTED")
    }

    /// The emulator's answer to a path it does not serve. Made per answer: a `Data` kept in a
    /// global hides its storage from the leak checker, which then reports it at exit.
    static var notFound: APIResponse { apiError(status: 404, message: "Not Found", reason: "notFound", domain: nil, statusName: "NOT_FOUND") }

    private static func envelope(_ envelope: ErrorEnvelope, status: Int) -> APIResponse {
        let body = (try? encodeJSON(envelope)) ?? Data(#"{"error":{"code":500,"message":"INTERNAL","errors":[]}}"#.utf8)
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

/// The Auth Emulator's HTTP surface over simulated projects: Identity Toolkit v1 (client and
/// project-scoped admin paths, tenants), the legacy v3 `relyingparty` paths of the iOS SDK, v2
/// tenant management, the securetoken refresh, the emulator's own API and `/emulator/action`,
/// CORS as the emulator sends it, and `serve`'s extensions (the simulated clock, whole-project
/// configuration, the mailbox and the web action handler page).
public struct EmulatorAPI: Sendable {
    /// The default project's transport.
    public let transport: EmbeddedTransport
    public let behaviour: ServeBehaviour
    public let maxBodyBytes: Int
    let projects: ProjectRegistry
    private let served: CurrentProject

    public static let defaultMaxBodyBytes = ServeDefaults.maxBodyBytes

    /// The emails every project sent so far, by project id: what `serve --inspect` records
    /// beside the traffic, since mail never crosses it.
    public func sentMail() -> [String: [MailMessage]] {
        projects.mailboxes()
    }

    /// Serves `transport`'s project as the default one, in the behaviour its project has.
    /// Clients may replace a project (`PUT .../config`, a `serve` extension).
    public init(transport: EmbeddedTransport, project: ServedProject, maxBodyBytes: Int = EmulatorAPI.defaultMaxBodyBytes) {
        self.transport = transport
        self.behaviour = transport.snapshot.behaviour
        self.served = CurrentProject(project)
        self.maxBodyBytes = maxBodyBytes
        self.projects = ProjectRegistry(defaultTransport: transport, behaviour: behaviour)
    }

    /// A fresh default project from `configuration` in `behaviour` (`emulator`: empty, on the
    /// wall clock from now).
    public init(configuration: ProjectConfiguration, behaviour: ServeBehaviour, maxBodyBytes: Int = EmulatorAPI.defaultMaxBodyBytes) {
        var configuration = configuration
        if behaviour == .emulator { configuration.clockStart = Date() }
        self.init(transport: EmbeddedTransport(configuration: configuration, behaviour: behaviour), project: ServedProject(configuration), maxBodyBytes: maxBodyBytes)
    }

    public var project: ServedProject { served.value }

    /// `serve`'s HTML list of sent emails (`GET /` is the emulator's status JSON).
    public static let mailboxPath = "/mailbox"

    public func handle(_ request: APIRequest) async -> APIResponse {
        if request.method == "OPTIONS" {
            return Self.withCORS(APIResponse(status: 204, contentType: "", body: Data()), for: request)
        }
        return Self.withCORS(await route(request), for: request)
    }

    /// CORS as the emulator's `cors({origin: true})` middleware writes it: the request's
    /// `Origin` reflected (with `Vary: Origin`), and for preflights the methods, the requested
    /// headers reflected and `Access-Control-Allow-Private-Network` when asked for. No
    /// `Access-Control-Allow-Credentials`: the emulator's APIs are cookieless and it sends none.
    public static func withCORS(_ response: APIResponse, for request: APIRequest) -> APIResponse {
        var response = response
        var vary = ["Origin"]
        if let origin = request.headers["origin"], !origin.isEmpty {
            response.headers["Access-Control-Allow-Origin"] = origin
        }
        if request.headers["access-control-request-private-network"] != nil {
            response.headers["Access-Control-Allow-Private-Network"] = "true"
        }
        if request.method == "OPTIONS" {
            response.headers["Access-Control-Allow-Methods"] = "GET,HEAD,PUT,PATCH,POST,DELETE"
            vary.append("Access-Control-Request-Headers")
            if let requested = request.headers["access-control-request-headers"], !requested.isEmpty {
                response.headers["Access-Control-Allow-Headers"] = requested
            }
        }
        response.headers["Vary"] = vary.joined(separator: ", ")
        return response
    }

    /// Matches the request against `ServedRoute.all`, checks its caller as the route's security
    /// says, then answers. The web action handler's path comes from the project's configuration.
    private func route(_ request: APIRequest) async -> APIResponse {
        if request.body.count > maxBodyBytes {
            return .failure(status: 413, code: AuthErrorCode("PAYLOAD_TOO_LARGE"), detail: "the request body exceeds \(maxBodyBytes) bytes")
        }
        let path = request.path
        if let pagePath = actionHandlerPagePath, path == pagePath {
            let transport = projects.defaultProject
            try? onProject(transport, for: request) { _ in }
            return await ActionHandlerPage(transport: transport).respond(to: request)
        }
        guard let (route, parameters) = ServedRoute.match(method: request.method, path: path) else { return .notFound }
        if behaviour == .emulator, case .operation = route.handler, let refusal = Self.unlistedMediaType(request) { return refusal }
        let pathProject = parameters["targetProjectId"]
        let pathTenant = parameters["tenantId"]
        let caller: AuthCaller
        switch route.security {
        case .open: caller = request.isAdmin ? .admin : .client
        case .apiKeyOrAdmin:
            switch self.caller(request) {
            case .success(let who): caller = who
            case .failure(let refusal): return refusal
            }
        case .admin:
            switch request.bearer {
            case .admin: caller = .admin
            case .invalid: return .invalidCredentials
            case .none: return .missingCredentials
            }
        }
        switch route.handler {
        case .status:
            return .json(EmulatorStatus(authEmulator: .init(ready: true, docs: "https://firebase.google.com/docs/emulator-suite", apiSpec: "/emulator/openapi.json"),
                                        actionflow: .init(behaviour: behaviour.rawValue, project: project.projectId, mailbox: Self.mailboxPath)))
        case .openAPI:
            return .jsonObject(OpenAPIDocument.make(origin: linkOrigin(request), actionHandlerPath: actionHandlerPagePath))
        case .emulatorAction:
            return await EmulatorActionEndpoint(api: self).respond(to: request)
        case .mailboxPage:
            return await MailboxPage(transport: projects.defaultProject, project: project).respond()
        case .siteAssociation(let apple):
            // The domain the request names, when it is one of the project's; else the one
            // mobile links use by default (serve is usually reached as localhost).
            let configuration = projects.defaultProject.snapshot.configuration
            let host = request.headers["host"].map { String($0.split(separator: ":").first ?? "").lowercased() } ?? ""
            let domain = SiteAssociation.serves(configuration, domain: host) ? host : configuration.defaultHostingDomain
            let file = apple ? SiteAssociation.appleFile(for: configuration, domain: domain) : SiteAssociation.androidFile(for: configuration)
            return APIResponse(status: 200, contentType: "application/json", body: Data(file.utf8))
        case .actionHandlerPage:
            return .notFound
        case .secureToken:
            return await secureToken(request)
        case .operation(let operation):
            return await run(operation, request, pathProject: pathProject, pathTenant: pathTenant, caller: caller)
        case .projectConfig:
            return projectConfig(request)
        case .recaptchaParams:
            // operations.ts:752-768: clearly fake, of a real token's length and alphabet.
            return .jsonObject([
                "kind": "identitytoolkit#GetRecaptchaParamResponse",
                "recaptchaStoken": "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha",
                "recaptchaSiteKey": "Fake-key__Do-not-send-this-to-Recaptcha_",
            ])
        case .legacySignOut:
            return .apiError(status: 501, message: "signOutUser is not implemented in the Auth Emulator.", reason: "unimplemented", domain: nil, statusName: "NOT_IMPLEMENTED")
        case .legacyAccountTransfer(let v1Name):
            return await legacyAccountTransfer(request, v1Name: v1Name)
        case .notSimulated(let what):
            return .notSimulated(route.answersAs, what: what)
        case .emulatorStub:
            // The emulator's stub for the operations of its spec it lacks (server.ts:490-492).
            return .apiError(status: 501, message: "\(route.answersAs) is not implemented in the Auth Emulator.", reason: "unimplemented", domain: nil, statusName: "NOT_IMPLEMENTED")
        case .adminConfig, .tenants, .tenant:
            return await identityToolkitV2(route.handler, projectId: pathProject ?? projects.defaultProjectId, tenantId: pathTenant, request)
        case .emulatorResource(let name):
            return await emulatorAPI(name, projectId: pathProject ?? projects.defaultProjectId, tenantId: pathTenant, request)
        }
    }

    /// The web action handler pages' path, unless it is the emulator's own `/emulator/action`.
    private var actionHandlerPagePath: String? {
        let path = served.actionHandlerPath
        return path == "/emulator/action" ? nil : path
    }

    /// `GET /v1/projects` (the legacy `getProjectConfig`): the project of the API key, which is
    /// the default one (`server.ts:371-375`). `emulator`: `localhost` only, a placeholder the SDKs
    /// do not check (`operations.ts:736-750`); `production`: the project's authorized domains.
    private func projectConfig(_ request: APIRequest) -> APIResponse {
        let domains = behaviour == .emulator ? ["localhost"] : projects.defaultProject.snapshot.configuration.authorizedDomains
        return .jsonObject(["projectId": SimulatedProject.projectNumber, "authorizedDomains": domains])
    }

    /// The legacy `downloadAccount` and `uploadAccount`: refused as production refuses them
    /// without `targetProjectId` (`server.ts:449-455`), else the v1 batch operation they name,
    /// which this server does not simulate.
    private func legacyAccountTransfer(_ request: APIRequest, v1Name: String) async -> APIResponse {
        var body = (try? RESTMapping.object(from: request)) ?? [:]
        guard let target = body.removeValue(forKey: "targetProjectId").map({ "\($0)" }), !target.isEmpty else {
            return .failure(status: 400, code: .insufficientPermission, detail: nil)
        }
        let caller: AuthCaller
        switch self.caller(request) {
        case .success(let who): caller = who
        case .failure(let refusal): return refusal
        }
        guard v1Name == "accounts:batchGet" else {
            return .notSimulated("identitytoolkit.projects.\(v1Name.replacingOccurrences(of: ":", with: "."))", what: "account import")
        }
        // server.ts:460-469: the body's fields become the query of a GET.
        var rewritten = request
        rewritten.method = "GET"
        rewritten.body = Data()
        var items = URLComponents(string: "?" + (request.rawQuery ?? ""))?.queryItems ?? []
        items += body.map { URLQueryItem(name: $0.key, value: "\($0.value)") }
        var components = URLComponents()
        components.queryItems = items
        rewritten.rawQuery = components.percentEncodedQuery
        return await run(v1Name, rewritten, pathProject: target, pathTenant: nil, caller: caller)
    }

    // MARK: Credentials

    enum CallerCheck {
        case success(AuthCaller)
        case failure(APIResponse)
    }

    /// The emulator routes a request by the media types its OpenAPI document lists for the
    /// operation, before any other check: JSON only for every Identity Toolkit method
    /// (firebase-tools `src/emulator/auth/apiSpec.ts:259-261` for sendOobCode), so a body of any
    /// other type is refused as exegesis 4.2.0 refuses it (`src/oas3/OpenApi.ts:98-101`), in the
    /// emulator's error shape with reason `unknown` (`server.ts:260-261`). securetoken's token,
    /// which lists a form too (`apiSpec.ts:4028-4034`), is not an operation route.
    static func unlistedMediaType(_ request: APIRequest) -> APIResponse? {
        guard !request.body.isEmpty, let header = request.headers["content-type"] else { return nil }
        let mediaType = String(header.prefix { $0 != ";" }).trimmingWhitespace().lowercased()
        guard !mediaType.isEmpty, mediaType != "application/json" else { return nil }
        return .apiError(status: 400, message: "Invalid content-type: \(UntrustedText.sanitize(mediaType))", reason: "unknown", domain: nil, statusName: nil)
    }

    /// Who is calling, or the refusal: a bad bearer token is 401; no credential at all is 403
    /// PERMISSION_DENIED in both behaviours, production's answer, which the emulator copies
    /// (firebase-tools `server.ts:317-321`). Any non-empty key is accepted.
    private func caller(_ request: APIRequest) -> CallerCheck {
        switch request.bearer {
        case .admin: .success(.admin)
        case .invalid: .failure(.invalidCredentials)
        case .none: request.apiKey == nil ? .failure(.missingAPIKey) : .success(.client)
        }
    }

    // MARK: Identity Toolkit v1

    /// Where a request goes: the path's project (or `targetProjectId` for admins, or the
    /// default), and the tenant named by the path, the body or the ID token (they must agree).
    struct Target {
        var transport: EmbeddedTransport
        var caller: AuthCaller
    }

    private func target(_ route: Route, routing: RESTMapping.RoutingFields) throws(AuthFailure) -> Target {
        let (pathProject, pathTenant, caller) = (route.pathProject, route.pathTenant, route.caller)
        var projectId = pathProject
        let bodyTarget = routing.targetProjectId
        if projectId != nil || (bodyTarget?.isEmpty == false) {
            guard caller == .admin else {
                if behaviour == .emulator || pathProject == nil {
                    throw .server(.insufficientPermission, detail: "Only authenticated requests can specify target_project_id.")
                }
                throw .server(AuthErrorCode("UNAUTHENTICATED"), detail: "project-scoped calls need 'Authorization: Bearer owner'")
            }
        }
        if projectId == nil, let bodyTarget, !bodyTarget.isEmpty { projectId = bodyTarget }
        let bodyTenant = routing.tenantId.flatMap { $0.isEmpty ? nil : $0 }
        if let pathTenant, let bodyTenant, pathTenant != bodyTenant { throw .server(.tenantIdMismatch, detail: nil) }
        var tenantId = pathTenant ?? bodyTenant
        if let idToken = routing.idToken, let tokenTenant = SimulatedProject.tenantClaim(ofJWT: idToken) {
            if let tenantId, tenantId != tokenTenant { throw .server(.tenantIdMismatch, detail: nil) }
            tenantId = tokenTenant
        }
        let project = projectId ?? projects.defaultProjectId
        let transport = tenantId.map { projects.tenant($0, of: project) } ?? projects.project(project)
        return Target(transport: transport, caller: caller)
    }

    private func run(_ operation: String, _ request: APIRequest, pathProject: String?, pathTenant: String?, caller: AuthCaller) async -> APIResponse {
        do throws(AuthFailure) {
            let body = try RESTMapping.body(from: request)
            return try perform(Route(operation: operation, request: request, body: body, pathProject: pathProject, pathTenant: pathTenant, caller: caller))
        } catch {
            return response(for: error)
        }
    }

    /// One Identity Toolkit call before its body is decoded.
    private struct Route {
        var operation: String
        var request: APIRequest
        var body: RESTMapping.Body
        var pathProject: String?
        var pathTenant: String?
        var caller: AuthCaller
    }

    /// The body as `Wire` and where it goes, refused in the emulator's order: a body that is
    /// no JSON object, a client's query, the target, the project's sign-in settings, then the
    /// body's fields. A body in normal form that `JSONDecoder` reads has no field to refuse,
    /// so it is parsed once for both the routing and the request.
    /// `emulator` behaviour checks the body against the emulator's schema first (`EmulatorSchema`):
    /// a body that may hold a null skips the fast path, where `JSONDecoder` would read it as absent.
    private func prepare<Wire: Decodable>(_ route: Route) throws(AuthFailure) -> (Wire, Target) {
        let (object, target) = try prepareObject(route, as: Wire.self)
        if let normal = object.normal { return (normal.wire, target) }
        return (try RESTMapping.decode(object.fields), target)
    }

    /// `prepare` up to decoding: the body in normal form (decoded) or as a normalised object.
    private func prepareObject<Wire: Decodable>(_ route: Route, as _: Wire.Type) throws(AuthFailure) -> ((normal: (wire: Wire, routing: RESTMapping.RoutingFields)?, fields: [String: Any]), Target) {
        let schemaChecked = behaviour == .emulator
        let normal = schemaChecked && route.body.mayHoldNull ? nil : RESTMapping.decodeNormal(route.body, as: Wire.self)
        let object = normal == nil ? try route.body.object() : [:]
        if route.operation == "accounts:query" && route.caller != .admin {
            throw .server(.insufficientPermission, detail: nil)
        }
        if schemaChecked, normal == nil, let violation = EmulatorSchema.violation(in: object, as: Wire.self) { throw violation }
        let target = try self.target(route, routing: normal?.routing ?? RESTMapping.RoutingFields(object))
        try target.transport.withProject { (project) throws(AuthFailure) in try project.checkAvailable(route.operation) }
        return ((normal, object), target)
    }

    private func perform(_ route: Route) throws(AuthFailure) -> APIResponse {
        let request = route.request
        let caller = route.caller
        let emulator = behaviour == .emulator
        switch route.operation {
        case "accounts:signUp":
            let (decoded, target): (SignUpRequest, Target) = try prepare(route)
            return .json(try onProject(target.transport, for: request) { (project) throws(AuthFailure) in try project.signUp(decoded, caller: caller) })
        case "accounts:signInWithPassword":
            return try answer(route) { (project, decoded: SignInWithPasswordRequest) throws(AuthFailure) in try project.signInWithPassword(decoded) }
        case "accounts:sendOobCode":
            let (body, target) = try prepareObject(route, as: SendOobCodeRequest.self)
            if emulator { try refuseUnimplementedRequestType(body.fields, on: target, route) }
            let decoded: SendOobCodeRequest
            if let normal = body.normal { decoded = normal.wire } else { decoded = try RESTMapping.decode(body.fields) }
            if decoded.returnOobLink == true && caller != .admin && !emulator {
                throw .server(.insufficientPermission, detail: nil)
            }
            var response = try onProject(target.transport, for: request) { (project) throws(AuthFailure) in
                try project.sendOobCode(decoded, locale: request.headers["x-firebase-locale"], caller: caller)
            }
            if decoded.returnOobLink != true {
                // Only admin callers see the code; everyone else gets it by email.
                response.oobCode = nil
                response.oobLink = nil
            }
            return .json(response)
        case "accounts:resetPassword":
            return try answer(route) { (project, decoded: ResetPasswordRequest) throws(AuthFailure) in try project.resetPassword(decoded) }
        case "accounts:update":
            let (decoded, target): (UpdateAccountRequest, Target) = try prepare(route)
            if !emulator && decoded.localId != nil && caller != .admin {
                throw .server(.insufficientPermission, detail: "changing an account by localId needs admin credentials")
            }
            return .json(try onProject(target.transport, for: request) { (project) throws(AuthFailure) in try project.update(decoded, caller: caller) })
        case "accounts:lookup":
            let (decoded, target): (LookupRequest, Target) = try prepare(route)
            if decoded.idToken == nil && caller != .admin {
                throw .server(.missingIDToken, detail: emulator ? nil : "a client lookup needs an idToken")
            }
            return .json(try onProject(target.transport, for: request) { (project) throws(AuthFailure) in try project.lookup(decoded, caller: caller) })
        case "accounts:signInWithEmailLink":
            return try answer(route) { (project, decoded: SignInWithEmailLinkRequest) throws(AuthFailure) in try project.signInWithEmailLink(decoded) }
        case "accounts:createAuthUri":
            return try answer(route) { (project, decoded: CreateAuthUriRequest) throws(AuthFailure) in try project.createAuthUri(decoded) }
        case "accounts:delete":
            let (decoded, target): (DeleteAccountRequest, Target) = try prepare(route)
            return .json(try onProject(target.transport, for: request) { (project) throws(AuthFailure) in try project.deleteAccount(decoded, caller: caller) })
        case "accounts/mfaEnrollment:start":
            return try answer(route) { (project, decoded: StartMfaEnrollmentRequest) throws(AuthFailure) in try project.startMfaEnrollment(decoded) }
        case "accounts/mfaEnrollment:finalize":
            return try answer(route) { (project, decoded: FinalizeMfaEnrollmentRequest) throws(AuthFailure) in try project.finalizeMfaEnrollment(decoded) }
        case "accounts/mfaEnrollment:withdraw":
            return try answer(route) { (project, decoded: WithdrawMfaRequest) throws(AuthFailure) in try project.withdrawMfa(decoded) }
        case "accounts/mfaSignIn:start":
            return try answer(route) { (project, decoded: StartMfaSignInRequest) throws(AuthFailure) in try project.startMfaSignIn(decoded) }
        case "accounts/mfaSignIn:finalize":
            return try answer(route) { (project, decoded: FinalizeMfaSignInRequest) throws(AuthFailure) in try project.finalizeMfaSignIn(decoded) }
        case "accounts:query":
            return try answer(route) { (project, decoded: QueryAccountsRequest) throws(AuthFailure) in try project.queryAccounts(decoded) }
        case "accounts:batchGet":
            // A GET: the page is in the query (the legacy downloadAccount puts its body there).
            var (_, target) = try prepareObject(route, as: RESTMapping.RoutingFields.self)
            let query = request.query
            if route.pathTenant == nil, let tenantId = query["tenantId"], !tenantId.isEmpty {
                target.transport = projects.tenant(tenantId, of: route.pathProject ?? projects.defaultProjectId)
            }
            // firebase-tools `operations.ts:568`: `Math.min(Math.floor(maxResults) || 20, 1000)`, so
            // any negative number lists every account and anything above 1000 is 1000.
            let maxResults = query["maxResults"].flatMap { Double($0) }.flatMap { $0.isNaN ? nil : Int(min(max($0.rounded(.down), -1), 1000)) }
            return .json(try onProject(target.transport, for: request) { (project) throws(AuthFailure) in
                try project.downloadAccounts(maxResults: maxResults, after: query["nextPageToken"].flatMap { $0.isEmpty ? nil : $0 })
            })
        default:
            return .notFound
        }
    }

    /// The request types the emulator's schema allows but its `sendOobCode` lacks (OLD_EMAIL_AGREE,
    /// NEW_EMAIL_ACCEPT, or 2 and 3): 501 naming the type, after the checks that come before its
    /// switch (firebase-tools `operations.ts:880-893`, then `:952-953`). The types this tool
    /// models reach the project, which answers the same for those the emulator lacks.
    private func refuseUnimplementedRequestType(_ fields: [String: Any], on target: Target, _ route: Route) throws(AuthFailure) {
        guard let name = fields["requestType"] as? String, EmulatorSchema.requestTypes.contains(name),
              OobRequestType(rawValue: name) == nil else { return }
        // The rest of the body, read as a request of a type this tool has.
        var fields = fields
        fields["requestType"] = OobRequestType.passwordReset.rawValue
        let decoded: SendOobCodeRequest = try RESTMapping.decode(fields)
        try onProject(target.transport, for: route.request) { (project) throws(AuthFailure) in
            try project.emulatorRefuseRequestType(name, decoded, caller: route.caller)
        }
    }

    /// The common case: the body decoded and routed, `work` run on its project, its answer as JSON.
    private func answer<Wire: Decodable, Answer: Encodable>(_ route: Route, _ work: (inout SimulatedProject, Wire) throws(AuthFailure) -> Answer) throws(AuthFailure) -> APIResponse {
        let (decoded, target): (Wire, Target) = try prepare(route)
        return .json(try onProject(target.transport, for: route.request) { (project) throws(AuthFailure) in try work(&project, decoded) })
    }

    /// Runs `work` on a project that has first been told the time and this server's address.
    func onProject<Result>(_ transport: EmbeddedTransport, for request: APIRequest, _ work: (inout SimulatedProject) throws(AuthFailure) -> Result) throws(AuthFailure) -> Result {
        let origin = linkOrigin(request)
        return try transport.withProject { (project) throws(AuthFailure) in
            project.observe(wallClock: Date(), linkOrigin: origin)
            return try work(&project)
        }
    }

    /// `http://HOST:PORT` of this server as the client reached it, for the emulator's links.
    func linkOrigin(_ request: APIRequest) -> String? {
        guard let host = request.headers["host"], !host.isEmpty, Self.isLinkHost(host) else { return nil }
        return "http://\(host)"
    }

    /// Letters, digits and `-._:[]`. An ASCII host is checked byte by byte: Unicode's letter
    /// tables showed in `serve`'s profile, and every request has a host.
    static func isLinkHost(_ host: String) -> Bool {
        let asciiAllowed = host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"): true
            default: false
            }
        }
        return asciiAllowed || host.allSatisfy { $0.isLetter || $0.isNumber || "-._:[]".contains($0) }
    }

    /// An error as the emulator answers it. `INSUFFICIENT_PERMISSION` is 400 in `emulator`
    /// behaviour (the emulator's assertion) and 403 in `production` (as Google's API answers).
    func response(for failure: AuthFailure) -> APIResponse {
        switch failure {
        case .server(.notImplemented, let detail):
            let message = detail ?? "Not implemented"
            return .apiError(status: 501, message: message, reason: "unimplemented", domain: nil, statusName: "NOT_IMPLEMENTED")
        case .server(.schemaViolation, let detail):
            let message = "Invalid JSON payload received. \(detail ?? "")"
            return .apiError(status: 400, message: message, reason: "invalid", domain: "global", statusName: "INVALID_ARGUMENT")
        case .server(let code, let detail):
            let status: Int
            var statusName: String?
            switch code {
            case .insufficientPermission: status = behaviour == .emulator ? 400 : 403
            case AuthErrorCode("UNAUTHENTICATED"): status = 401; statusName = "UNAUTHENTICATED"
            case .invalidArgument: status = 400; statusName = "INVALID_ARGUMENT"
            default: status = 400
            }
            return .failure(status: status, code: code, detail: detail, statusName: statusName)
        case .network(let failure):
            // The served transport itself failed (e.g. an injected fault): the caller may retry.
            return .failure(status: 503, code: AuthErrorCode("UNAVAILABLE"), detail: "\(failure)")
        }
    }

    // MARK: Token refresh

    /// `POST /securetoken.googleapis.com/v1/token`, form or JSON, API key required.
    private func secureToken(_ request: APIRequest) async -> APIResponse {
        if request.apiKey == nil && !request.isAdmin { return .missingAPIKey }
        do throws(AuthFailure) {
            let decoded: GrantTokenRequest = try RESTMapping.decode(try RESTMapping.body(from: request))
            // As the emulator routes it: the API key's (default) project, the refresh token's tenant.
            var transport = projects.defaultProject
            if let token = decoded.refreshToken, let tenantId = SimulatedProject.decodeRefreshToken(token)?["tenantId"] as? String, !tenantId.isEmpty {
                transport = projects.tenant(tenantId, of: projects.defaultProjectId)
            }
            return .json(try onProject(transport, for: request) { (project) throws(AuthFailure) in try project.grantToken(decoded) })
        } catch {
            return response(for: error)
        }
    }

    // MARK: v2 tenants and config

    /// `projects/P/tenants[/T]` and `projects/P/config`, for an admin (`route` checked that).
    private func identityToolkitV2(_ handler: RouteHandler, projectId: String, tenantId: String?, _ request: APIRequest) async -> APIResponse {
        do throws(AuthFailure) {
            let body = try RESTMapping.object(from: request)
            switch (request.method, handler) {
            case ("GET", .adminConfig):
                return .jsonObject(Self.adminConfig(projects.project(projectId).snapshot.options))
            case ("PATCH", .adminConfig):
                let mask = request.query["updateMask"].map { $0.split(separator: ",").map { $0.trimmingWhitespace() } }
                let signIn = body["signIn"] as? [String: Any]
                let privacy = body["emailPrivacyConfig"] as? [String: Any]
                func masked(_ field: String) -> Bool { mask.map { $0.contains { field.hasPrefix($0) } } ?? true }
                let duplicates = masked("signIn.allowDuplicateEmails") ? ((signIn?["allowDuplicateEmails"] as? Bool) ?? (mask == nil ? false : nil)) : nil
                let improved = masked("emailPrivacyConfig.enableImprovedEmailPrivacy") ? ((privacy?["enableImprovedEmailPrivacy"] as? Bool) ?? (mask == nil ? false : nil)) : nil
                let options = projects.updateOptions(of: projectId, allowDuplicateEmails: duplicates, enableImprovedEmailPrivacy: improved)
                return .jsonObject(Self.adminConfig(options))
            case ("POST", .tenants):
                // Production's defaults, multi-factor off included (`operations.ts:3143-3159`).
                var base = TenantSettings(tenantId: "", allowPasswordSignup: false, disableAuth: false, enableAnonymousUser: false, enableEmailLinkSignin: false)
                base.mfaConfig = TenantMfaConfig(state: "DISABLED", enabledProviders: [])
                let settings = Self.tenantSettings(body, tenantId: projects.newTenantId(), base: base)
                projects.createTenant(settings, of: projectId, replacing: true)
                return .jsonObject(Self.tenantJSON(settings, projectId: projectId))
            case ("GET", .tenants):
                return .jsonObject(["tenants": projects.tenants(of: projectId).map { Self.tenantJSON($0, projectId: projectId) }])
            case ("GET", .tenant):
                guard let tenantId, let tenant = projects.existingTenant(tenantId, of: projectId)?.snapshot.tenant else { throw .server(AuthErrorCode("TENANT_NOT_FOUND"), detail: nil) }
                return .jsonObject(Self.tenantJSON(tenant, projectId: projectId))
            case ("PATCH", .tenant):
                guard let tenantId, let transport = projects.existingTenant(tenantId, of: projectId), let current = transport.snapshot.tenant else {
                    throw .server(AuthErrorCode("TENANT_NOT_FOUND"), detail: nil)
                }
                let updated = Self.tenantSettings(body, tenantId: current.tenantId, base: current)
                try transport.withProject { (project) throws(AuthFailure) in project.updateTenant(updated) }
                return .jsonObject(Self.tenantJSON(updated, projectId: projectId))
            case ("DELETE", .tenant):
                guard let tenantId, projects.deleteTenant(tenantId, of: projectId) else { throw .server(AuthErrorCode("TENANT_NOT_FOUND"), detail: nil) }
                return .jsonObject([:])
            default:
                return .notFound
            }
        } catch {
            return response(for: error)
        }
    }

    /// The v2 admin config: the emulator's switches, and no blocking functions.
    static func adminConfig(_ options: EmulatorOptions) -> [String: Any] {
        emulatorConfig(options).merging(["blockingFunctions": [String: Any]()]) { current, _ in current }
    }

    static func tenantSettings(_ body: [String: Any], tenantId: String, base: TenantSettings) -> TenantSettings {
        var settings = base
        settings.tenantId = tenantId
        if let name = body["displayName"] as? String { settings.displayName = name }
        if let value = body["allowPasswordSignup"] as? Bool { settings.allowPasswordSignup = value }
        if let value = body["disableAuth"] as? Bool { settings.disableAuth = value }
        if let value = body["enableAnonymousUser"] as? Bool { settings.enableAnonymousUser = value }
        if let value = body["enableEmailLinkSignin"] as? Bool { settings.enableEmailLinkSignin = value }
        // A state or provider list left out reads as off (`operations.ts:3143-3149`, `state.ts:849-855`).
        if let mfa = body["mfaConfig"] as? [String: Any] {
            settings.mfaConfig = TenantMfaConfig(state: mfa["state"] as? String ?? "DISABLED", enabledProviders: mfa["enabledProviders"] as? [String] ?? [])
        }
        return settings
    }

    static func tenantJSON(_ tenant: TenantSettings, projectId: String) -> [String: Any] {
        var object: [String: Any] = [
            "name": "projects/\(projectId)/tenants/\(tenant.tenantId)", "tenantId": tenant.tenantId,
            "allowPasswordSignup": tenant.allowPasswordSignup, "disableAuth": tenant.disableAuth,
            "enableAnonymousUser": tenant.enableAnonymousUser, "enableEmailLinkSignin": tenant.enableEmailLinkSignin,
        ]
        if let name = tenant.displayName { object["displayName"] = name }
        let mfa = tenant.mfaConfig ?? .implicit
        object["mfaConfig"] = ["state": mfa.state, "enabledProviders": mfa.enabledProviders]
        return object
    }

    // MARK: The emulator's own API and serve's extensions

    /// The emulator's own API (`oobCodes`, `verificationCodes`, `accounts`, `config`) and serve's
    /// (`clock`, `mailbox`, `reset`, `PUT config`), for a project or one of its tenants.
    private func emulatorAPI(_ name: String, projectId: String, tenantId: String?, _ request: APIRequest) async -> APIResponse {
        let transport = tenantId.map { projects.tenant($0, of: projectId) } ?? projects.project(projectId)
        do throws(AuthFailure) {
            switch (request.method, name) {
            case ("GET", "oobCodes"):
                let project = try onProject(transport, for: request) { (project) throws(AuthFailure) in project }
                // Each code's message by id, looked up once: a busy project has thousands.
                let messages = Dictionary(project.mailbox.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                return .json(EmulatorOobCodeList(oobCodes: project.pendingCodes.map { Self.entry($0, message: $0.mailID.flatMap { messages[$0] }) }))
            case ("GET", "verificationCodes"):
                // The SMS codes of second factors, oldest first (operations.ts:2030-2036).
                return .json(EmulatorVerificationCodeList(verificationCodes: transport.snapshot.verificationCodes))
            case ("DELETE", "oobCodes"):
                try transport.withProject { (project) throws(AuthFailure) in project.deleteAllCodes() }
                return .jsonObject([:])
            case ("DELETE", "accounts"):
                try transport.withProject { (project) throws(AuthFailure) in project.deleteAllAccounts() }
                // Hand the freed pages back, so that `serve`'s memory falls after a load test.
                ServerLimits.returnFreedMemory()
                return .jsonObject([:])
            case ("GET", "config"):
                return .jsonObject(Self.emulatorConfig(transport.snapshot.options))
            case ("PATCH", "config"):
                let body = try RESTMapping.object(from: request)
                let duplicates = (body["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool
                let improved = (body["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool
                return .jsonObject(Self.emulatorConfig(projects.updateOptions(of: projectId, allowDuplicateEmails: duplicates, enableImprovedEmailPrivacy: improved)))
            case ("GET", "mailbox"):
                let project = transport.snapshot
                return .json(EmulatorOobCodeList(oobCodes: project.mailbox.map { Self.entry($0, in: project) }))
            case ("POST", "reset"):
                try transport.withProject { (project) throws(AuthFailure) in project.reset() }
                ServerLimits.returnFreedMemory()
                return .jsonObject([:])
            case ("GET", "clock"):
                return .json(EmulatorClockState(date: try await transport.now()))
            case ("POST", "clock"):
                let body: AdvanceClockRequest = try RESTMapping.decode(try RESTMapping.body(from: request))
                return .json(EmulatorClockState(date: try await transport.advanceClock(by: body.advanceSeconds)))
            case ("PUT", "config"):
                let submitted = try Self.decodeConfiguration(request.body)
                guard submitted.projectId == projectId else {
                    throw .server(.invalidArgument, detail: "this server keeps project id '\(projectId)'")
                }
                let problems = submitted.validate()
                guard problems.isEmpty else {
                    throw .server(.invalidArgument, detail: problems.map(\.description).joined(separator: "; "))
                }
                let configuration = submitted.normalized()
                let now = try await projects.apply(configuration)
                if projectId == projects.defaultProjectId { served.value = ServedProject(configuration) }
                return .json(EmulatorClockState(date: now))
            default:
                return .notFound
            }
        } catch {
            return response(for: error)
        }
    }

    static func emulatorConfig(_ options: EmulatorOptions) -> [String: Any] {
        [
            "signIn": ["allowDuplicateEmails": options.allowDuplicateEmails],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": options.enableImprovedEmailPrivacy],
        ]
    }

    /// A whole project configuration as `PUT .../config` takes it: dates in ISO 8601 (with or
    /// without fractional seconds) or milliseconds since 1970 (a number or a string).
    static func decodeConfiguration(_ body: Data) throws(AuthFailure) -> ProjectConfiguration {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(WireDates.decode)
        do {
            return try decoder.decode(ProjectConfiguration.self, from: body.isEmpty ? Data("{}".utf8) : body)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .server(.invalidArgument, detail: "missing field '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .server(.invalidArgument, detail: "Invalid value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .server(.invalidArgument, detail: "Invalid value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)")
        } catch {
            throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
        }
    }

    /// A pending code as the emulator lists it (`email`, `oobCode`, `oobLink`, `requestType`,
    /// `newEmail` for an email change), with serve's extras when it was mailed.
    static func entry(_ code: IssuedOobCode, message: MailMessage?) -> EmulatorOobCodeList.Entry {
        return EmulatorOobCodeList.Entry(
            email: code.email,
            oobCode: code.oobCode,
            oobLink: code.link,
            requestType: code.requestType.rawValue,
            newEmail: code.requestType == .recoverEmail ? nil : code.newEmail,
            messageId: message?.id,
            subject: message?.subject,
            body: message?.body,
            locale: message?.locale,
            sentAtMillis: ((message?.sentAt ?? code.issuedAt).timeIntervalSince1970 * 1000).rounded()
        )
    }

    /// A sent email (serve's `mailbox` list, in the same shape).
    static func entry(_ message: MailMessage, in project: SimulatedProject) -> EmulatorOobCodeList.Entry {
        let code = message.oobCode.flatMap(project.issuedCode)
        return EmulatorOobCodeList.Entry(
            email: message.to,
            oobCode: message.oobCode ?? message.id,
            oobLink: message.link,
            requestType: message.requestType.rawValue,
            newEmail: code?.requestType == .verifyAndChangeEmail ? code?.newEmail : nil,
            messageId: message.id,
            subject: message.subject,
            body: message.body,
            locale: message.locale,
            sentAtMillis: (message.sentAt.timeIntervalSince1970 * 1000).rounded()
        )
    }
}

/// The project being served; replaced when a client sends a new configuration.
private final class CurrentProject: @unchecked Sendable {
    // `@unchecked`: `stored` and `storedHandlerPath` are only touched under `lock`.
    private let lock = NSLock()
    private var stored: ServedProject
    /// Parsed once per project, not for every request the router compares with it.
    private var storedHandlerPath: String

    init(_ project: ServedProject) {
        stored = project
        storedHandlerPath = project.actionHandlerPath
    }

    var value: ServedProject {
        get { lock.withLock { stored } }
        set {
            let handlerPath = newValue.actionHandlerPath
            lock.withLock {
                stored = newValue
                storedHandlerPath = handlerPath
            }
        }
    }

    var actionHandlerPath: String { lock.withLock { storedHandlerPath } }
}

/// `GET /`: the emulator's status, as the Auth Emulator answers it, and actionflow's own.
struct EmulatorStatus: Encodable {
    struct AuthEmulator: Encodable {
        var ready: Bool
        var docs: String
        var apiSpec: String
    }

    struct ActionFlow: Encodable {
        var behaviour: String
        var project: String
        var mailbox: String
    }

    var authEmulator: AuthEmulator
    var actionflow: ActionFlow
}
