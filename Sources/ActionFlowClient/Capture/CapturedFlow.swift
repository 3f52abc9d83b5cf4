import ActionFlowModel
import ActionFlowTransport
import Foundation

/// One request and its answer from a capture, its bodies decoded (base64 content included).
public struct CapturedExchange: Sendable, Hashable {
    /// Position in the capture's `log.entries`, from 0.
    public var entry: Int
    public var startedDateTime: String?
    /// Milliseconds, as the capture measured them.
    public var time: Double?
    public var method: String
    public var url: String
    public var requestHeaders: [String: String]
    public var requestBody: Data
    /// 0 when the capture holds no answer.
    public var status: Int
    public var responseHeaders: [String: String]
    public var responseBody: Data

    /// An exchange seen live (`serve --inspect`); header names in lower case.
    public init(entry: Int, startedDateTime: String?, time: Double?, method: String, url: String, requestHeaders: [String: String], requestBody: Data,
                status: Int, responseHeaders: [String: String], responseBody: Data) {
        self.entry = entry
        self.startedDateTime = startedDateTime
        self.time = time
        self.method = method.uppercased()
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
    }

    init(entry index: Int, _ entry: HTTPArchive.Entry) {
        self.entry = index
        startedDateTime = entry.startedDateTime
        time = entry.time
        method = (entry.request?.method ?? "").uppercased()
        url = entry.request?.url ?? ""
        requestHeaders = Self.lowercased(entry.request?.headers)
        requestBody = Self.body(of: entry.request?.postData)
        status = entry.response?.status ?? 0
        responseHeaders = Self.lowercased(entry.response?.headers)
        responseBody = Self.decoded(entry.response?.content?.text, encoding: entry.response?.content?.encoding)
        if requestHeaders["content-type"] == nil, let type = entry.request?.postData?.mimeType { requestHeaders["content-type"] = type }
        if responseHeaders["content-type"] == nil, let type = entry.response?.content?.mimeType { responseHeaders["content-type"] = type }
        if responseHeaders["location"] == nil, let redirect = entry.response?.redirectURL, !redirect.isEmpty { responseHeaders["location"] = redirect }
    }

    /// Header names in lower case, the first of repeated ones kept.
    private static func lowercased(_ headers: [HTTPArchive.Header]?) -> [String: String] {
        Dictionary((headers ?? []).map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
    }

    private static func body(of postData: HTTPArchive.PostData?) -> Data {
        guard let postData else { return Data() }
        if let text = postData.text { return decoded(text, encoding: postData.encoding) }
        // Form fields listed one by one: encoded back into the body they came from.
        var form = URLComponents()
        form.queryItems = (postData.params ?? []).map { URLQueryItem(name: $0.name, value: $0.value) }
        return Data((form.percentEncodedQuery ?? "").utf8)
    }

    private static func decoded(_ text: String?, encoding: String?) -> Data {
        guard let text else { return Data() }
        if encoding?.lowercased() == "base64" { return Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data() }
        return Data(text.utf8)
    }

    /// A form body unless it looks like JSON: clients label JSON as a form too.
    var requestObject: [String: Any] {
        IdentityToolkitMapping.requestObject(body: requestBody, contentType: requestHeaders["content-type"]) ?? [:]
    }

    /// A request to the emulator's own API (`/emulator/v1/...`, not an Identity Toolkit call)
    /// that can change its state: anything but a GET.
    public var changesEmulatorState: Bool { method != "GET" && CapturedEndpoint(url: url) == .emulator }

    var responseJSON: Any? {
        try? JSONSerialization.jsonObject(with: responseBody, options: [.fragmentsAllowed])
    }
}

/// Which Identity Toolkit surface a captured call used.
public enum CapturedAPI: String, Sendable, Hashable, Codable {
    case v1, v2
    /// The legacy `relyingparty` paths the iOS SDK calls.
    case v3
    case securetoken
}

/// An Identity Toolkit or securetoken call from a capture, named by its v1 method.
public struct CapturedOperation: Sendable, Hashable {
    /// `sendOobCode`, `signInWithPassword`, `token`...
    public var operation: String
    /// The method as the wire named it (`getOobConfirmationCode` on v3).
    public var wireName: String
    public var api: CapturedAPI
    /// Sent to an emulator's path (`/identitytoolkit.googleapis.com/...` on another host).
    public var toEmulator: Bool
    public var requestType: String?
    public var email: String?
    /// A `VERIFY_AND_CHANGE_EMAIL`'s new address: where Firebase sends its email.
    public var newEmail: String?
    public var continueUrl: String?
    /// The action code settings sent, under their v1 names, in `ActionCodeFields.names` order.
    public var actionCodeSettings: [ActionCodeField]
    public var status: Int
    /// The server's `error.message`.
    public var error: String?
    public var exchange: CapturedExchange

    /// The action code the call carried, in clear (never shown: `CapturedCall` masks it).
    var oobCode: String?
    /// A `lookup`'s answer: the account's email and whether it is verified.
    var lookedUpEmail: String?
    var emailVerified: Bool?
    /// The call sets a password (a `resetPassword` that does more than check its code).
    public var setsPassword: Bool
    /// A `getProjectConfig` answer's authorized domains.
    public var authorizedDomains: [String]?
}

/// One action code setting as sent: text or a Boolean.
public struct ActionCodeField: Sendable, Hashable, Codable {
    public enum Value: Sendable, Hashable, Codable {
        case text(String)
        case flag(Bool)
    }

    public var name: String
    public var value: Value
}

/// An action link found in a capture: never followed, only taken apart.
public struct CapturedActionLink: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable, Codable {
        /// The emulator's `oobCodes` listing (or `serve`'s mailbox listing).
        case emulatorListing
        /// `oobLink` in the answer to `sendOobCode` (`returnOobLink`).
        case operationResponse
        /// The capture holds a request to the link itself: someone opened it.
        case opened
        /// A 3xx answer's `Location`.
        case redirect
        /// A form on the link's page sent to the link (the hosted page's new password): it carries the code.
        case formSent
        /// The email `serve --inspect`'s own server sent: it holds the mail, not only the traffic.
        case sentByServer
    }

    public var anatomy: LinkAnatomy
    public var source: Source
    /// The capture entry it first appeared in.
    public var entry: Int
    /// Whom it was for, where the capture says (the emulator's listing does).
    public var email: String?
    /// Each captured request to the link itself (a browser opening it, a form on its page sent),
    /// in capture order.
    public var visits: [Visit] = []

    public struct Visit: Sendable, Hashable {
        public var entry: Int
        public var method: String
        /// 0 when the capture holds no answer.
        public var status: Int
        /// A form sent to the link (`application/x-www-form-urlencoded`), as it was; nil for a GET
        /// or a body past `maximumFormBytes`.
        public var formBody: String?
        static let maximumFormBytes = 4096
    }

    /// Whether `visit` is the request the link was first seen in (its own fact already says so).
    func isFirstSeen(at visit: Visit) -> Bool {
        visit.entry == entry && source == .opened
    }
}

/// What of a capture a finding is about, by position from 0, as its JSON `subject` names it
/// (`operations[2]`, `actionLinks[0]`, `entry 5`) and as text names it (`call 3`, `link 1`,
/// `entry 6`, from 1, as `CaptureNumbering` counts).
public enum CapturedSubject: Equatable, Sendable {
    case call(Int)
    case link(Int)
    case entry(Int)

    public init?(path: String) {
        guard let index = Int(path.filter(\.isNumber)) else { return nil }
        if path.hasPrefix("operations[") { self = .call(index) }
        else if path.hasPrefix("actionLinks[") { self = .link(index) }
        else if path.hasPrefix("entry ") { self = .entry(index) }
        else { return nil }
    }

    public var path: String {
        switch self {
        case .call(let index): "operations[\(index)]"
        case .link(let index): "actionLinks[\(index)]"
        case .entry(let index): "entry \(index)"
        }
    }

    public var spoken: String {
        switch self {
        case .call(let index): CaptureNumbering.call(index)
        case .link(let index): "link \(index + 1)"
        case .entry(let index): CaptureNumbering.entry(index)
        }
    }

    /// `path` as text names it; a path this tool did not write stays as it is.
    public static func spoken(path: String) -> String {
        CapturedSubject(path: path)?.spoken ?? path
    }
}

/// A finding and what of the flow it is about: `operations[2]` or `actionLinks[0]`.
public struct CapturedFinding: Sendable, Hashable {
    public var finding: Finding
    public var subject: String
}

/// The email-action flow a capture holds: its Identity Toolkit calls in capture order, the action
/// links that appear in it, and the findings the link inspector and the settings checks make.
public struct CapturedFlow: Sendable {
    public var operations: [CapturedOperation]
    public var actionLinks: [CapturedActionLink]
    public var findings: [CapturedFinding]
    /// Entries kept out of the flow.
    public var preflights: Int
    public var unrelated: Int
    public var entries: Int
    /// Every related exchange (calls, the emulator's listings, opened links), for their times.
    public var exchanges: [CapturedExchange] = []
    /// Action links too long to take apart: where each was and its size. Padding a link never
    /// hides it from the review; it is reported with its size instead.
    public var oversizedLinks: [(entry: Int, bytes: Int)] = []
    /// The project this tool was given to judge the capture against (`--project`, else the bundled one).
    public var givenProjectId: String?

    static let rememberedVisits = 64

    /// Reads a HAR capture. `project` decides which domains are authorized and which apps and
    /// link domains are the project's, for the findings.
    /// `release` is told which bytes have been read (a mapped file gives their pages back).
    public static func read(_ data: Data, project: ProjectConfiguration, release: ((Range<Int>) -> Void)? = nil) throws(CaptureError) -> CapturedFlow {
        var flow = CapturedFlow(operations: [], actionLinks: [], findings: [], preflights: 0, unrelated: 0, entries: 0)
        let entries = try HTTPArchive.forEachEntry(data, release: release) { index, entry in
            flow.add(CapturedExchange(entry: index, entry), project: project)
        }
        flow.entries = entries
        flow.givenProjectId = project.projectId
        guard !flow.operations.isEmpty || !flow.actionLinks.isEmpty || !flow.oversizedLinks.isEmpty else { throw .noIdentityToolkitCall(entries: flow.entries) }
        // Judged against what the captured server said of its own project, where it said it.
        let judged = flow.judged(project)
        if judged.authorizedDomains != project.authorizedDomains {
            for index in flow.actionLinks.indices {
                if let anatomy = try? LinkInspector.inspect(flow.actionLinks[index].anatomy.link, authorizedDomains: judged.authorizedDomains) {
                    flow.actionLinks[index].anatomy = anatomy
                }
            }
        }
        var departures = CaptureDepartures()
        flow.findings += flow.operations.enumerated().flatMap { index, operation in Self.findings(operation, index: index, project: judged, departures: &departures) }
        flow.findings += flow.actionLinks.enumerated().flatMap { index, link in Self.findings(link, index: index) }
        flow.findings += flow.oversizedLinks.map { oversized in
            CapturedFinding(finding: Finding(code: "link.too-long", severity: .warning,
                                             message: "HAR \(CaptureNumbering.entry(oversized.entry)) holds an action link of \(oversized.bytes) bytes, past the \(LinkInspector.maximumLinkBytes) this tool takes apart: it is reported, not read. Browsers and mail clients cut or refuse links far shorter, and padding like this hides a link's parameters from a reviewer."),
                            subject: CapturedSubject.entry(oversized.entry).path)
        }
        return flow
    }

    /// The captured server answered as production does, though the calls went to an emulator's
    /// paths: its listed links point at a hosted action page rather than `/emulator/action`, or it
    /// refused a send for a check the emulator never makes (firebase-tools
    /// `src/emulator/auth/operations.ts`, sendOobCode, checks no domain).
    public var answersAsProduction: Bool {
        guard operations.contains(where: \.toEmulator) else { return true }
        let productionLinks = actionLinks.contains { $0.source == .emulatorListing && !$0.anatomy.link.contains("/emulator/action") }
        let productionRefusal = operations.contains { operation in
            operation.operation == "sendOobCode" && operation.error.map { SettingsFindings.serverErrors.values.contains(CaptureComparison.errorCode(message: $0)) } == true
        }
        return productionLinks || productionRefusal
    }

    /// The authorized domains the captured server gave for its project (`getProjectConfig`,
    /// answered 200), and where. Not an Auth Emulator's: it answers `localhost`, a placeholder
    /// (firebase-tools `src/emulator/auth/operations.ts:736-750`).
    public var capturedAuthorizedDomains: (entry: Int, domains: [String])? {
        guard answersAsProduction,
              let config = operations.last(where: { $0.operation == "getProjectConfig" && $0.status == 200 && !($0.authorizedDomains ?? []).isEmpty }),
              let domains = config.authorizedDomains else { return nil }
        return (config.exchange.entry, domains)
    }

    /// The hosts of continue URLs a server answering as production accepted in a send (2xx): it
    /// checks them against the project's authorized domains, so each is one.
    public var acceptedContinueHosts: [String] {
        guard answersAsProduction else { return [] }
        var hosts: [String] = []
        for operation in operations where operation.operation == "sendOobCode" && (200..<300).contains(operation.status) {
            if let host = operation.continueUrl.flatMap({ URLComponents(string: $0)?.host?.lowercased() }), !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }

    /// `project` as this capture is judged against it: the captured project's authorized
    /// domains where the capture shows them, and the continue URL hosts its server accepted.
    public func judged(_ project: ProjectConfiguration) -> ProjectConfiguration {
        let accepted = acceptedContinueHosts
        guard capturedAuthorizedDomains != nil || !accepted.isEmpty else { return project }
        var judged = project
        if let captured = capturedAuthorizedDomains { judged.authorizedDomains = captured.domains }
        judged.authorizedDomains += accepted.filter { host in !judged.authorizedDomains.contains { $0.lowercased() == host } }
        return judged
    }

    /// The settings checks' findings about the call at `index` of the operations, then where its
    /// answer departs from what Firebase documents (calls in capture order).
    static func findings(_ operation: CapturedOperation, index: Int, project: ProjectConfiguration, departures: inout CaptureDepartures) -> [CapturedFinding] {
        let subject = CapturedSubject.call(index).path
        let settings = settingsFindings(operation, project: project)
        return (settings + departures.check(operation, call: CaptureNumbering.call(index), findings: settings)).map { CapturedFinding(finding: $0, subject: subject) }
    }

    /// The link inspector's findings about the link at `index` of the action links.
    static func findings(_ link: CapturedActionLink, index: Int) -> [CapturedFinding] {
        link.anatomy.findings.map { CapturedFinding(finding: $0, subject: CapturedSubject.link(index).path) }
    }

    mutating func add(_ exchange: CapturedExchange, project: ProjectConfiguration) {
        if exchange.method == "OPTIONS" {
            preflights += 1
            return
        }
        let endpoint = CapturedEndpoint(url: exchange.url)
        var related = false
        switch endpoint {
        case .operation(let method, let wireName, let api, let toEmulator):
            let operation = CapturedOperation(exchange, operation: method, wireName: wireName, api: api, toEmulator: toEmulator)
            operations.append(operation)
            if operation.operation == "sendOobCode", let answer = try? JSONDecoder().decode(SendOobCodeResponse.self, from: exchange.responseBody),
               let link = answer.oobLink {
                addLink(link, source: .operationResponse, entry: exchange.entry, email: operation.recipient, project: project)
            }
            related = true
        case .emulator:
            if let listing = try? JSONDecoder().decode(EmulatorOobCodeList.self, from: exchange.responseBody) {
                for code in listing.oobCodes {
                    addLink(code.oobLink, source: .emulatorListing, entry: exchange.entry, email: recipient(listed: code.email, newEmail: code.newEmail, requestType: code.requestType), project: project)
                }
            }
            related = true
        case .other:
            related = addLink(exchange.url, source: .opened, entry: exchange.entry, project: project)
            if let index = actionLinks.firstIndex(where: { $0.anatomy.link == exchange.url }) {
                let form = exchange.method == "GET" || exchange.requestBody.count > CapturedActionLink.Visit.maximumFormBytes ? nil : String(decoding: exchange.requestBody, as: UTF8.self)
                actionLinks[index].visits.append(.init(entry: exchange.entry, method: exchange.method, status: exchange.status, formBody: form))
                // A link requested over and over (a scanner, a hostile client) keeps its latest visits only.
                if actionLinks[index].visits.count > Self.rememberedVisits { actionLinks[index].visits.removeFirst() }
            }
        }
        if (300..<400).contains(exchange.status), let location = exchange.responseHeaders["location"],
           let target = URL(string: location, relativeTo: URL(string: exchange.url))?.absoluteString {
            related = addLink(target, source: .redirect, entry: exchange.entry, project: project) || related
        }
        if related { exchanges.append(exchange) } else { unrelated += 1 }
    }

    /// Whether text too long to take apart is an action link all the same: it names the action
    /// handler or carries an action code, plainly or percent-encoded.
    static func looksLikeActionLink(_ text: String) -> Bool {
        ["/__/auth/action", "/__/auth/links", "/emulator/action", "oobCode=", "oobCode%3D", "oobCode%253D"].contains { text.contains($0) }
    }

    /// Whom a listed code's email went to: the emulator lists a `VERIFY_AND_CHANGE_EMAIL` under
    /// the account's address (firebase-tools `src/emulator/auth/operations.ts:965-970`), but the
    /// email goes to the new one, which the listing or the send that asked for it names.
    private func recipient(listed email: String, newEmail listedNewEmail: String?, requestType: String?) -> String {
        guard requestType == OobRequestType.verifyAndChangeEmail.rawValue else { return email }
        if let listedNewEmail { return listedNewEmail }
        guard let send = operations.last(where: { $0.requestType == requestType && $0.email?.lowercased() == email.lowercased() && $0.newEmail != nil }),
              let newEmail = send.newEmail else { return email }
        return newEmail
    }

    /// Adds `text` when it is an action link not seen before; whether it is an action link.
    @discardableResult
    private mutating func addLink(_ text: String, source: CapturedActionLink.Source, entry: Int, email: String? = nil, project: ProjectConfiguration) -> Bool {
        guard let anatomy = try? LinkInspector.inspect(text, authorizedDomains: project.authorizedDomains) else {
            guard text.utf8.count > LinkInspector.maximumLinkBytes, Self.looksLikeActionLink(text) else { return false }
            if !oversizedLinks.contains(where: { $0.entry == entry }) { oversizedLinks.append((entry, text.utf8.count)) }
            return true
        }
        if !actionLinks.contains(where: { $0.anatomy.link == anatomy.link }) {
            actionLinks.append(CapturedActionLink(anatomy: anatomy, source: source, entry: entry, email: email))
        }
        return true
    }

    /// The settings checks for a `sendOobCode` whose request type this tool knows. A send that
    /// a production server answered 2xx proves what its own project accepts: checks against the
    /// project given here (its authorized domains, its link domains) are not held against it.
    private static func settingsFindings(_ operation: CapturedOperation, project: ProjectConfiguration) -> [Finding] {
        guard operation.operation == "sendOobCode", let type = operation.requestType.flatMap(OobRequestType.init(rawValue:)) else { return [] }
        let findings = SettingsFindings.findings(for: operation.settings, requestType: type, project: project)
        guard !operation.toEmulator, (200..<300).contains(operation.status) else { return findings }
        let judgedAgainstProject = findings.filter { SettingsFindings.dependOnTheProject.contains($0.code) }
        guard !judgedAgainstProject.isEmpty else { return findings }
        let accepted = Finding(code: "capture.project-accepted", severity: .info,
                               message: "The captured server answered \(operation.status) to this sendOobCode: its own project accepts these settings (\(judgedAgainstProject.map(\.code).joined(separator: ", ")) would hold only against the project this tool was given, \(project.projectId)).")
        return findings.filter { !SettingsFindings.dependOnTheProject.contains($0.code) } + [accepted]
    }
}

extension CapturedOperation {
    init(_ exchange: CapturedExchange, operation: String, wireName: String, api: CapturedAPI, toEmulator: Bool) {
        let body = exchange.requestObject
        let answer = exchange.responseJSON as? [String: Any]
        self.operation = operation
        self.wireName = wireName
        self.api = api
        self.toEmulator = toEmulator
        requestType = ActionCodeField.text(body["requestType"])
        email = ActionCodeField.text(body["email"]) ?? ActionCodeField.text(answer?["email"])
        newEmail = ActionCodeField.text(body["newEmail"])
        actionCodeSettings = ActionCodeField.fields(in: body)
        continueUrl = nil
        for field in actionCodeSettings where field.name == "continueUrl" {
            if case .text(let url) = field.value { continueUrl = url }
        }
        oobCode = ActionCodeField.text(body["oobCode"] ?? body["oob_code"])
        setsPassword = ActionCodeField.text(body["newPassword"] ?? body["new_password"]) != nil
        status = exchange.status
        error = ActionCodeField.text((answer?["error"] as? [String: Any])?["message"])
        if operation == "getProjectConfig", let domains = answer?["authorizedDomains"] as? [Any] {
            authorizedDomains = domains.compactMap { $0 as? String }
        }
        if operation == "lookup", let user = (answer?["users"] as? [Any])?.first as? [String: Any] {
            lookedUpEmail = ActionCodeField.text(user["email"])
            emailVerified = user["emailVerified"] as? Bool
        }
        self.exchange = exchange
    }

    /// Whom the email this send asks for goes to: the new address of an email change, else the account's.
    var recipient: String? {
        requestType == OobRequestType.verifyAndChangeEmail.rawValue ? newEmail ?? email : email
    }

    /// The settings sent, as the SDKs' `ActionCodeSettings`.
    var settings: ActionCodeSettings {
        var settings = ActionCodeSettings()
        for field in actionCodeSettings {
            switch (field.name, field.value) {
            case ("continueUrl", .text(let text)): settings.url = text
            case ("canHandleCodeInApp", .flag(let flag)): settings.handleCodeInApp = flag
            case ("iOSBundleId", .text(let text)): settings.iOSBundleID = text
            case ("androidPackageName", .text(let text)): settings.androidPackageName = text
            case ("androidInstallApp", .flag(let flag)): settings.androidInstallIfNotAvailable = flag
            case ("androidMinimumVersion", .text(let text)): settings.androidMinimumVersion = text
            case ("linkDomain", .text(let text)): settings.linkDomain = text
            case ("dynamicLinkDomain", .text(let text)): settings.dynamicLinkDomain = text
            default: break
            }
        }
        return settings
    }
}

extension ActionCodeField {
    /// The v1 REST names of the action code settings (`SendOobCodeRequest`), in output order.
    public static let names = [
        "continueUrl", "canHandleCodeInApp", "iOSBundleId", "androidPackageName", "androidInstallApp",
        "androidMinimumVersion", "linkDomain", "dynamicLinkDomain",
    ]
    static let flags: Set<String> = ["canHandleCodeInApp", "androidInstallApp"]

    /// The settings in a normalised body, however the wire spelled them (`ios_bundle_id`,
    /// `iosBundleId`, `IOSBundleID`...): names compared without case.
    static func fields(in body: [String: Any]) -> [ActionCodeField] {
        var byName: [String: Any] = [:]
        for (key, value) in body { byName[key.lowercased()] = byName[key.lowercased()] ?? value }
        return names.compactMap { name in
            guard let sent = byName[name.lowercased()] else { return nil }
            if flags.contains(name) {
                if let number = sent as? NSNumber { return ActionCodeField(name: name, value: .flag(number.boolValue)) }
                if let text = sent as? String, let flag = Bool(text.lowercased()) { return ActionCodeField(name: name, value: .flag(flag)) }
            }
            return text(sent).map { ActionCodeField(name: name, value: .text($0)) }
        }
    }

    /// A string, or a number or Boolean as text (forms and Android send numbers).
    static func text(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = value as? NSNumber {
            if IdentityToolkitMapping.isBoolean(number) { return number.boolValue ? "true" : "false" }
            return number.stringValue
        }
        return nil
    }
}

/// What a captured URL is to the flow.
enum CapturedEndpoint: Equatable {
    case operation(method: String, wireName: String, api: CapturedAPI, toEmulator: Bool)
    /// The emulator's own API (`/emulator/v1/...`): a source of links and mail, not an operation.
    case emulator
    case other

    static let identityToolkitHost = "identitytoolkit.googleapis.com"
    static let secureTokenHost = "securetoken.googleapis.com"
    static let legacyHost = "www.googleapis.com"
    static let relyingParty = "/identitytoolkit/v3/relyingparty/"

    init(url: String) {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else {
            self = .other
            return
        }
        let path = components.percentEncodedPath
        if path.hasPrefix("/emulator/v1/") {
            self = .emulator
            return
        }
        // An emulator takes the production host as the path's first segment, on any host.
        let segments = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        if segments.count == 2, segments[0].isEmpty, let service = segments[1].split(separator: "/", maxSplits: 1).first,
           [Self.identityToolkitHost, Self.secureTokenHost, Self.legacyHost].contains(service.lowercased()) {
            self = Self.recognise(service: service.lowercased(), path: String(path.dropFirst(service.count + 1)), toEmulator: true)
        } else if path.hasPrefix(Self.relyingParty), host != Self.legacyHost {
            // `serve`'s shorter v3 path, without the host segment.
            self = Self.recognise(service: Self.legacyHost, path: path, toEmulator: true)
        } else {
            self = Self.recognise(service: host, path: path, toEmulator: false)
        }
    }

    private static func recognise(service: String, path: String, toEmulator: Bool) -> CapturedEndpoint {
        switch service {
        case identityToolkitHost:
            for (prefix, api) in [("/v1/", CapturedAPI.v1), ("/v2/", .v2)] where path.hasPrefix(prefix) {
                guard let last = path.split(separator: "/").last.map(String.init) else { return .other }
                // `projects/P/accounts` is the admin sign-up; `projects` the project's public configuration.
                let method = last == "accounts" ? "signUp" : last == "projects" ? "getProjectConfig" : v1MethodName(last)
                return .operation(method: method, wireName: last, api: api, toEmulator: toEmulator)
            }
        case legacyHost where path.hasPrefix(relyingParty):
            let name = String(path.dropFirst(relyingParty.count))
            guard !name.isEmpty, !name.contains("/") else { return .other }
            let method = name == "getProjectConfig" ? name : IdentityToolkitMapping.legacyV3Methods[name].map(v1MethodName) ?? name
            return .operation(method: method, wireName: name, api: .v3, toEmulator: toEmulator)
        case secureTokenHost where path == "/v1/token":
            return .operation(method: "token", wireName: "token", api: .securetoken, toEmulator: toEmulator)
        default:
            break
        }
        return .other
    }

    /// `accounts:sendOobCode` → `sendOobCode`.
    private static func v1MethodName(_ path: String) -> String {
        path.hasPrefix("accounts:") ? String(path.dropFirst("accounts:".count)) : path
    }
}
