import ActionFlowModel
import Foundation

/// Who may call a route, as the `security` lists of the emulator's `apiSpec.ts` say.
enum RouteSecurity: Sendable, Hashable {
    /// An API key (`?key=`, `X-Goog-Api-Key`) or an admin's bearer token.
    case apiKeyOrAdmin
    /// An admin's bearer token only (`Bearer owner`, `Bearer ya29.…`).
    case admin
    /// Anyone: the emulator's own API, the pages, the status.
    case open
}

/// What answers a route.
enum RouteHandler: Sendable, Hashable {
    case status
    case openAPI
    /// The web action handler pages; their path is the project's, so `EmulatorAPI` matches it
    /// before the table, and `OpenAPIDocument` adds it.
    case actionHandlerPage
    case emulatorAction
    case mailboxPage
    case secureToken
    /// An Identity Toolkit v1 operation by its v1 name (`accounts:signUp`), on a client or admin path.
    case operation(String)
    /// `GET /v1/projects`: the public project configuration (`operations.ts:736-750`).
    case projectConfig
    /// `GET /v1/recaptchaParams`: the emulator's fake reCAPTCHA parameters (`operations.ts:752-768`).
    case recaptchaParams
    /// The legacy `signOutUser`, which the emulator refuses with 501 (`server.ts:439-441`).
    case legacySignOut
    /// The legacy `downloadAccount` / `uploadAccount`: `targetProjectId` required
    /// (`server.ts:445-472`), then the v1 route named.
    case legacyAccountTransfer(v1Name: String)
    /// An operation the emulator implements and this server does not simulate (phone, custom
    /// tokens, IdP credentials, MFA, session cookies, batch import and export): 501 naming it.
    case notSimulated(what: String)
    /// An operation the emulator itself answers 501, naming its `operationId` (`server.ts:490-492`).
    case emulatorStub
    /// v2 `projects/P/config`, `projects/P/tenants`, `projects/P/tenants/T`.
    case adminConfig
    case tenants
    case tenant
    /// The emulator's own API and serve's extensions below `/emulator/v1/projects/P/[tenants/T/]`.
    case emulatorResource(String)
    /// A link domain's association file (`/.well-known/...`), Apple's or Android's.
    case siteAssociation(apple: Bool)
}

/// One route this server answers. The router matches requests against `ServedRoute.all`, and
/// `/emulator/openapi.json` is written from the same list, so the two cannot disagree.
struct ServedRoute: Sendable {
    var method: String
    /// The path, with `{targetProjectId}` and `{tenantId}` standing for a segment (or the part
    /// of one before a `:suffix`).
    var path: String
    var operationId: String
    var summary: String
    var security: RouteSecurity
    var handler: RouteHandler
    /// One of serve's own, not the emulator's.
    var isExtension = false
    /// For a legacy name: the v1 operation it stands for, which its answers name.
    var standsFor: String?
    /// The operation this route's answers name.
    var answersAs: String { standsFor ?? operationId }
    /// Split once: compared per request.
    let segments: [Segment]

    init(_ method: String, _ path: String, _ operationId: String, _ summary: String, _ security: RouteSecurity, _ handler: RouteHandler, isExtension: Bool = false) {
        self.method = method
        self.path = path
        self.operationId = operationId
        self.summary = summary
        self.security = security
        self.handler = handler
        self.isExtension = isExtension
        segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(Segment.init)
    }

    enum Segment: Sendable, Hashable {
        case literal(String)
        /// `{name}` and what follows it in the segment (`:queryAccounts`, or nothing).
        case parameter(name: String, suffix: String)

        init(_ text: Substring) {
            if text.hasPrefix("{"), let close = text.firstIndex(of: "}") {
                self = .parameter(name: String(text[text.index(after: text.startIndex)..<close]), suffix: String(text[text.index(after: close)...]))
            } else {
                self = .literal(String(text))
            }
        }
    }

    /// The parameters' values when `pathSegments` (a request path split at `/`, without the
    /// leading empty one) matches this route's path; nil otherwise.
    func parameters(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, given) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let text):
                guard given == text else { return nil }
            case .parameter(let name, let suffix):
                guard given.hasSuffix(suffix), given.count > suffix.count else { return nil }
                let value = given.dropLast(suffix.count)
                guard !value.contains(":") else { return nil }
                values[name] = String(value)
            }
        }
        return values
    }

    /// The route for `method` and `path`, and its parameters.
    static func match(method: String, path: String) -> (route: ServedRoute, parameters: [String: String])? {
        // Every route is absolute: a path without its leading slash names none of them.
        guard path.hasPrefix("/") else { return nil }
        let pathSegments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let candidates = byMethodAndLength[MethodAndLength(method: method, length: pathSegments.count)] else { return nil }
        let given = Array(pathSegments)
        for route in candidates {
            if let parameters = route.parameters(given) { return (route, parameters) }
        }
        return nil
    }

    private struct MethodAndLength: Hashable {
        var method: String
        var length: Int
    }

    /// Routes by method and segment count, in table order: a request compares only a few.
    private static let byMethodAndLength = Dictionary(grouping: all) { MethodAndLength(method: $0.method, length: $0.segments.count) }

    // MARK: The table

    static let v1 = "/identitytoolkit.googleapis.com/v1"
    static let v2 = "/identitytoolkit.googleapis.com/v2"
    static let emulator = "/emulator/v1/projects/{targetProjectId}"
    static let tenant = "/tenants/{tenantId}"

    /// Every route, the emulator's first (in `apiSpec.ts`'s order), then serve's own.
    static let all: [ServedRoute] = core + legacy

    private static let core: [ServedRoute] = {
        var routes: [ServedRoute] = [
            ServedRoute("GET", "/", "emulator.status", "The emulator's status, and serve's behaviour and project.", .open, .status),
            ServedRoute("GET", "/emulator/openapi.json", "emulator.openapi", "This document: the routes this server answers.", .open, .openAPI),
            ServedRoute("GET", "/emulator/action", "emulator.action", "Where the emulator's email links point: applies the code, then 303 to continueUrl (handlers.ts).", .open, .emulatorAction),
        ]
        // Client operations, `POST /v1/accounts:OP`.
        let client: [(String, String)] = [
            ("createAuthUri", "Sign-in methods for an address."), ("delete", "Delete the signed-in account."),
            ("lookup", "The signed-in user's account."), ("resetPassword", "Check or apply a password reset code."),
            ("sendOobCode", "Send (or return) an email action code."), ("signInWithEmailLink", "Sign in with an email link's code."),
            ("signInWithPassword", "Sign in with an address and password."), ("signUp", "Create an account (anonymous without an address)."),
            ("update", "Change an account, or apply an email action code."),
        ]
        routes += client.map { ServedRoute("POST", "\(v1)/accounts:\($0.0)", "identitytoolkit.accounts.\($0.0)", $0.1, .apiKeyOrAdmin, .operation("accounts:\($0.0)")) }
        routes += [
            ServedRoute("POST", "\(v1)/accounts:sendVerificationCode", "identitytoolkit.accounts.sendVerificationCode", "Phone sign-in: not simulated.", .apiKeyOrAdmin, .notSimulated(what: "phone sign-in")),
            ServedRoute("POST", "\(v1)/accounts:signInWithPhoneNumber", "identitytoolkit.accounts.signInWithPhoneNumber", "Phone sign-in: not simulated.", .apiKeyOrAdmin, .notSimulated(what: "phone sign-in")),
            ServedRoute("POST", "\(v1)/accounts:signInWithCustomToken", "identitytoolkit.accounts.signInWithCustomToken", "Custom tokens: not simulated.", .apiKeyOrAdmin, .notSimulated(what: "custom token sign-in")),
            ServedRoute("POST", "\(v1)/accounts:signInWithIdp", "identitytoolkit.accounts.signInWithIdp", "IdP credentials: not simulated.", .apiKeyOrAdmin, .notSimulated(what: "sign-in with an identity provider's credential")),
            ServedRoute("POST", "\(v1)/accounts:signInWithGameCenter", "identitytoolkit.accounts.signInWithGameCenter", "501, as the emulator answers.", .apiKeyOrAdmin, .emulatorStub),
            ServedRoute("POST", "\(v1)/accounts:verifyIosClient", "identitytoolkit.accounts.verifyIosClient", "501, as the emulator answers.", .apiKeyOrAdmin, .emulatorStub),
            ServedRoute("POST", "\(v1)/accounts:issueSamlResponse", "identitytoolkit.accounts.issueSamlResponse", "501, as the emulator answers.", .apiKeyOrAdmin, .emulatorStub),
        ]
        // Admin operations, below `projects/P` and `projects/P/tenants/T`.
        for (scope, idPart) in [("\(v1)/projects/{targetProjectId}", "projects"), ("\(v1)/projects/{targetProjectId}\(tenant)", "projects.tenants")] {
            routes.append(ServedRoute("POST", "\(scope)/accounts", "identitytoolkit.\(idPart).accounts", "Create an account (admin).", .apiKeyOrAdmin, .operation("accounts:signUp")))
            for (name, summary) in [("delete", "Delete an account."), ("lookup", "Accounts by id, address or phone number."), ("query", "List or count accounts."), ("sendOobCode", "Return (or send) an email action link."), ("update", "Change an account.")] {
                routes.append(ServedRoute("POST", "\(scope)/accounts:\(name)", "identitytoolkit.\(idPart).accounts.\(name)", summary + " (admin)", .apiKeyOrAdmin, .operation("accounts:\(name)")))
            }
            routes += ["batchCreate", "batchDelete"].map { ServedRoute("POST", "\(scope)/accounts:\($0)", "identitytoolkit.\(idPart).accounts.\($0)", "Account import and deletion in bulk: not simulated.", .apiKeyOrAdmin, .notSimulated(what: "account import and bulk deletion")) }
            routes.append(ServedRoute("GET", "\(scope)/accounts:batchGet", "identitytoolkit.\(idPart).accounts.batchGet", "Every account, a page at a time (maxResults, nextPageToken).", .apiKeyOrAdmin, .operation("accounts:batchGet")))
            routes.append(ServedRoute("POST", "\(scope):createSessionCookie", "identitytoolkit.\(idPart).createSessionCookie", "Session cookies: not simulated.", .apiKeyOrAdmin, .notSimulated(what: "session cookies")))
        }
        routes += [
            ServedRoute("POST", "\(v1)/projects/{targetProjectId}:queryAccounts", "identitytoolkit.projects.queryAccounts", "List or count accounts (admin).", .apiKeyOrAdmin, .operation("accounts:query")),
            ServedRoute("GET", "\(v1)/projects", "identitytoolkit.getProjects", "The project's public configuration: its authorized domains.", .apiKeyOrAdmin, .projectConfig),
            ServedRoute("GET", "\(v1)/recaptchaParams", "identitytoolkit.getRecaptchaParams", "Fake reCAPTCHA parameters, as the emulator's.", .apiKeyOrAdmin, .recaptchaParams),
            ServedRoute("POST", "\(v2)/accounts:revokeToken", "identitytoolkit.accounts.revokeToken", "501, as the emulator answers.", .apiKeyOrAdmin, .emulatorStub),
            ServedRoute("GET", "\(v2)/passwordPolicy", "identitytoolkit.getPasswordPolicy", "501, as the emulator answers.", .apiKeyOrAdmin, .emulatorStub),
            ServedRoute("GET", "\(v2)/recaptchaConfig", "identitytoolkit.getRecaptchaConfig", "501, as the emulator answers.", .apiKeyOrAdmin, .emulatorStub),
        ]
        let secondFactor: [(String, String)] = [
            ("mfaEnrollment:start", "Send an SMS code to enroll a second factor (listed at verificationCodes)."),
            ("mfaEnrollment:finalize", "Enroll the second factor with its code."), ("mfaEnrollment:withdraw", "Remove a second factor."),
            ("mfaSignIn:start", "Send an SMS code for a second factor, after a first."), ("mfaSignIn:finalize", "Finish the sign-in with the code."),
        ]
        for (step, summary) in secondFactor {
            let id = "identitytoolkit.accounts." + step.replacingOccurrences(of: ":", with: ".")
            routes.append(ServedRoute("POST", "\(v2)/accounts/\(step)", id, summary, .apiKeyOrAdmin, .operation("accounts/\(step)")))
        }
        routes += [
            ServedRoute("GET", "\(v2)/projects/{targetProjectId}/config", "identitytoolkit.projects.getConfig", "The project's configuration (admin).", .admin, .adminConfig),
            ServedRoute("PATCH", "\(v2)/projects/{targetProjectId}/config", "identitytoolkit.projects.updateConfig", "Change the project's configuration (admin).", .admin, .adminConfig),
            ServedRoute("POST", "\(v2)/projects/{targetProjectId}/tenants", "identitytoolkit.projects.tenants.create", "Create a tenant (admin).", .admin, .tenants),
            ServedRoute("GET", "\(v2)/projects/{targetProjectId}/tenants", "identitytoolkit.projects.tenants.list", "The project's tenants (admin).", .admin, .tenants),
            ServedRoute("GET", "\(v2)/projects/{targetProjectId}\(tenant)", "identitytoolkit.projects.tenants.get", "A tenant (admin).", .admin, .tenant),
            ServedRoute("PATCH", "\(v2)/projects/{targetProjectId}\(tenant)", "identitytoolkit.projects.tenants.patch", "Change a tenant (admin).", .admin, .tenant),
            ServedRoute("DELETE", "\(v2)/projects/{targetProjectId}\(tenant)", "identitytoolkit.projects.tenants.delete", "Delete a tenant (admin).", .admin, .tenant),
            ServedRoute("POST", "/securetoken.googleapis.com/v1/token", "securetoken.token", "Exchange a refresh token for new tokens (form or JSON).", .apiKeyOrAdmin, .secureToken),
        ]
        // The emulator's own API, for the project and (as serve also answers them) its tenants.
        // (`apiSpec.ts` gives a tenant's the project's operationIds; here each has its own.)
        for (scope, id, suffix) in [(emulator, "projects", ""), (emulator + tenant, "projects.tenants", " (a tenant's)")] {
            routes += [
                ServedRoute("DELETE", "\(scope)/accounts", "emulator.\(id).accounts.delete", "Delete every account" + suffix + ".", .open, .emulatorResource("accounts")),
                ServedRoute("GET", "\(scope)/config", "emulator.\(id).config.get", "The emulator's switches" + suffix + ".", .open, .emulatorResource("config")),
                ServedRoute("GET", "\(scope)/oobCodes", "emulator.\(id).oobCodes.list", "Pending email action codes" + suffix + ".", .open, .emulatorResource("oobCodes")),
                ServedRoute("GET", "\(scope)/verificationCodes", "emulator.\(id).verificationCodes.list", "SMS codes for second factors" + suffix + ".", .open, .emulatorResource("verificationCodes")),
                ServedRoute("DELETE", "\(scope)/oobCodes", "actionflow.\(id).oobCodes.delete", "Drop every pending code" + suffix + ".", .open, .emulatorResource("oobCodes"), isExtension: true),
                ServedRoute("GET", "\(scope)/mailbox", "actionflow.\(id).mailbox.list", "Every email sent" + suffix + ", in the oobCodes shape.", .open, .emulatorResource("mailbox"), isExtension: true),
            ]
        }
        routes += [
            ServedRoute("PATCH", "\(emulator)/config", "emulator.projects.config.update", "Change the emulator's switches.", .open, .emulatorResource("config")),
            ServedRoute("PUT", "\(emulator)/config", "actionflow.config.replace", "Restart the project with a whole configuration.", .open, .emulatorResource("config"), isExtension: true),
            ServedRoute("GET", "\(emulator)/clock", "actionflow.clock.get", "The simulated clock.", .open, .emulatorResource("clock"), isExtension: true),
            ServedRoute("POST", "\(emulator)/clock", "actionflow.clock.advance", "Advance the simulated clock by advanceSeconds.", .open, .emulatorResource("clock"), isExtension: true),
            ServedRoute("POST", "\(emulator)/reset", "actionflow.reset", "Back to the project's start.", .open, .emulatorResource("reset"), isExtension: true),
            ServedRoute("GET", "/mailbox", "actionflow.mailboxPage", "The sent emails, as a web page.", .open, .mailboxPage, isExtension: true),
            ServedRoute("GET", SiteAssociation.appleFilePath, "actionflow.appleAppSiteAssociation", "The link domain's apple-app-site-association: the project's iOS app (by the Host, else the default Hosting domain).", .open, .siteAssociation(apple: true), isExtension: true),
            ServedRoute("GET", SiteAssociation.androidFilePath, "actionflow.assetlinks", "The link domain's Digital Asset Links: the project's Android app.", .open, .siteAssociation(apple: false), isExtension: true),
        ]
        return routes
    }()

    /// The legacy v3 names the SDKs still call, answered as their v1 routes
    /// (`registerLegacyRoutes`, firebase-tools `server.ts:407-473`). `publicKeys` and
    /// `setProjectConfig` name no v1 route there either, so they stay 404.
    private static let legacy: [ServedRoute] = {
        // The shared table of v3 names (`IdentityToolkitMapping`), in a fixed order for the document.
        let renamed = IdentityToolkitMapping.legacyV3Methods.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var routes: [ServedRoute] = []
        // The emulator's prefix, and the same without the host (older iOS SDKs' relative path).
        for (prefix, id) in [("/www.googleapis.com/identitytoolkit/v3/relyingparty", "legacy"), ("/identitytoolkit/v3/relyingparty", "legacy.relative")] {
            for (old, new) in renamed {
                guard let target = core.first(where: { $0.path == "\(v1)/\(new)" }) else { continue }
                var route = ServedRoute(target.method, "\(prefix)/\(old)", "\(id).\(old)", "Legacy name of \(target.operationId).", target.security, target.handler)
                route.standsFor = target.operationId
                routes.append(route)
            }
            routes += [
                ServedRoute("POST", "\(prefix)/signOutUser", "\(id).signOutUser", "501, as the emulator answers.", .open, .legacySignOut),
                ServedRoute("POST", "\(prefix)/downloadAccount", "\(id).downloadAccount", "Needs targetProjectId; then accounts:batchGet with the body's maxResults and nextPageToken.", .open, .legacyAccountTransfer(v1Name: "accounts:batchGet")),
                ServedRoute("POST", "\(prefix)/uploadAccount", "\(id).uploadAccount", "Needs targetProjectId; account import is not simulated.", .open, .legacyAccountTransfer(v1Name: "accounts:batchCreate")),
            ]
        }
        return routes
    }()
}
