/// Everything an email action link consists of, outermost layer first (docs/sdk-profiles.md).
public struct LinkAnatomy: Sendable, Hashable, Codable {
    /// The link as inspected, after trimming whitespace, brackets and quotes.
    public var link: String
    /// Every URL in the link, outermost first: wrappers, the action URL, then the continue URL's
    /// own layers (a mobile link around it, if any, and the continue URL itself).
    public var layers: [LinkLayer]
    /// The email action handler URL carrying the code (default, custom or emulator handler).
    public var actionURL: String
    /// The raw `mode` value, nil when missing.
    public var mode: String?
    public var operation: ActionCodeOperation
    public var oobCode: String?
    public var apiKey: String?
    /// The `continueUrl` parameter of the action URL, decoded.
    public var continueUrl: String?
    public var lang: String?
    public var tenantId: String?
    /// Whether the continue URL's host is on the authorized domains; nil when none were given.
    public var continueUrlAuthorized: Bool?
    /// The continue URL taken apart; nil when the action URL has none.
    public var continueLink: ContinueLinkAnatomy?
    public var findings: [Finding]

    public init(link: String, layers: [LinkLayer], actionURL: String, mode: String?, oobCode: String?, apiKey: String?, continueUrl: String?, lang: String?, tenantId: String?, continueUrlAuthorized: Bool?, continueLink: ContinueLinkAnatomy?, findings: [Finding]) {
        self.link = link
        self.layers = layers
        self.actionURL = actionURL
        self.mode = mode
        self.operation = mode.map(ActionCodeOperation.init(mode:)) ?? .unknown
        self.oobCode = oobCode
        self.apiKey = apiKey
        self.continueUrl = continueUrl
        self.lang = lang
        self.tenantId = tenantId
        self.continueUrlAuthorized = continueUrlAuthorized
        self.continueLink = continueLink
        self.findings = findings
    }

    /// The outermost mobile-link wrapper, if the link is wrapped.
    public var outerWrapper: LinkLayer? {
        layers.first.flatMap { $0.kind.isWrapper ? $0 : nil }
    }

    public var isEmulatorLink: Bool { layers.contains { $0.kind == .emulatorActionURL } }

    enum CodingKeys: String, CodingKey {
        case link, layers, actionURL, mode, operation, oobCode, apiKey, continueUrl, lang, tenantId, continueUrlAuthorized, continueLink, findings
    }

    /// Absent values are written as JSON `null` so that scripts can rely on every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(link, forKey: .link)
        try container.encode(layers, forKey: .layers)
        try container.encode(actionURL, forKey: .actionURL)
        try container.encode(mode, forKey: .mode)
        try container.encode(operation, forKey: .operation)
        try container.encode(oobCode, forKey: .oobCode)
        try container.encode(apiKey, forKey: .apiKey)
        try container.encode(continueUrl, forKey: .continueUrl)
        try container.encode(lang, forKey: .lang)
        try container.encode(tenantId, forKey: .tenantId)
        try container.encode(continueUrlAuthorized, forKey: .continueUrlAuthorized)
        try container.encode(continueLink, forKey: .continueLink)
        try container.encode(findings, forKey: .findings)
    }
}

/// The continue URL of an action link, which is itself a mobile link around the real continue
/// URL when the code is handled by the web widget (`handleCodeInApp == false`) and an app id was
/// given: the widget's Continue button then opens the app.
public struct ContinueLinkAnatomy: Sendable, Hashable, Codable {
    /// Outermost first; the last layer is the continue URL itself (kind `.continueURL`).
    public var layers: [LinkLayer]
    /// Where the user ends up in a browser: the innermost URL.
    public var destination: String
    public var isMobileLink: Bool { layers.count > 1 }
}

/// One URL of a link.
public struct LinkLayer: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `https://LINK_DOMAIN/__/auth/links?link=...` (current mobile links).
        case hostingWrapper
        /// Firebase Dynamic Links (`https://example.page.link/?link=...&apn=...`, or `deep_link_id`).
        case dynamicLinkWrapper
        /// The email action handler (default `/__/auth/action` or a custom handler).
        case actionURL
        /// The Auth Emulator's handler `http://HOST:PORT/emulator/action`.
        case emulatorActionURL
        /// The continue (state) URL.
        case continueURL

        public var isWrapper: Bool { self == .hostingWrapper || self == .dynamicLinkWrapper }

        public var title: String {
            switch self {
            case .hostingWrapper: "Hosting mobile link"
            case .dynamicLinkWrapper: "Dynamic Link (legacy)"
            case .actionURL: "Action URL"
            case .emulatorActionURL: "Auth Emulator action URL"
            case .continueURL: "Continue URL"
            }
        }
    }

    public var kind: Kind
    public var url: String
    /// The host, lowercased (empty for URLs without one).
    public var host: String
    /// In the order they appear, values decoded.
    public var parameters: [LinkParameter]

    /// The value of the last parameter with this name (what the SDKs read when a name repeats).
    public func value(_ name: String) -> String? {
        parameters.last { $0.isNamed(name) }?.value
    }
}

/// A query parameter with its decoded value and, for known names, what it does.
public struct LinkParameter: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// What this parameter does in the protocol; nil for names the protocol does not define.
    public var meaning: String? {
        knownMeaning.map { $0.description }
    }

    /// `meaning` as the literal it is: plain printable ASCII, which JSON and a terminal take as it
    /// is, so `inspect --jsonl` copies it without a scan. Chosen by length first: a few
    /// comparisons instead of one per known name (it is written for every parameter of every
    /// streamed link).
    public var knownMeaning: StaticString? {
        switch name.utf8.count {
        case 3:
            switch name {
            case "apn": "Android package name: the app that opens the link"
            case "amv": "Android minimum version code: older installs go to the Play Store to upgrade"
            case "afl": "Android fallback link: opened instead of installing when the app is missing"
            case "ibi": "iOS bundle id: the app that opens the link"
            case "ifl": "iOS fallback link: opened when the app is missing"
            case "isi": "App Store id: where iOS users without the app can install it"
            case "imv": "iOS minimum app version"
            case "ofl": "fallback link on other platforms (desktop)"
            case "efr": "skip the Dynamic Links preview page"
            default: nil
            }
        case 4:
            switch name {
            case "link": "the wrapped link (the payload the app receives)"
            case "mode": "the action: resetPassword, verifyEmail, recoverEmail, signIn, verifyAndChangeEmail or revertSecondFactorAddition"
            case "lang": "the language of the email and the hosted page (X-Firebase-Locale)"
            default: nil
            }
        case 6 where name == "apiKey": "the project's Web API key, used by the handler to call Identity Toolkit"
        case 7 where name == "oobCode": "the one-time action code (single use, expires)"
        case 8 where name == "tenantId": "the Identity Platform tenant the user belongs to"
        case 11 where name == "continueUrl": "the continue (state) URL from ActionCodeSettings.url"
        case 12 where name == "deep_link_id": "the wrapped link (Dynamic Links custom-scheme form)"
        default: nil
        }
    }

    /// `name == candidate`, with the cheap length test first: most names compared differ in length.
    @inline(__always)
    func isNamed(_ candidate: String) -> Bool {
        name.utf8.count == candidate.utf8.count && name == candidate
    }

    enum CodingKeys: String, CodingKey { case name, value, meaning }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
        try container.encode(meaning, forKey: .meaning)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decode(String.self, forKey: .value)
    }
}

/// Why a text is not an email action link: one line, safe to print.
public enum LinkParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case tooLong(bytes: Int, limit: Int)
    case notAURL(excerpt: String)
    case missingHost(excerpt: String)
    /// A Hosting or Dynamic Links wrapper without its `link` parameter.
    case wrapperWithoutLink(host: String)
    /// `https://example.page.link/AbCd`: only the Dynamic Links service knew the target.
    case shortDynamicLink(host: String, path: String)
    case undecodableWrappedLink(host: String, parameter: String)
    case wrappedLinkNotAURL(host: String, parameter: String, excerpt: String)
    /// No layer carries `mode` or `oobCode`.
    case noActionParameters(excerpt: String)
    case tooDeeplyWrapped(limit: Int)

    public var description: String {
        switch self {
        case .empty:
            "the link is empty"
        case .tooLong(let bytes, let limit):
            "the link is \(bytes) bytes long, more than the \(limit) bytes an email link can reasonably have"
        case .notAURL(let excerpt):
            "\"\(Self.safe(excerpt))\" is not a URL: it does not start with a scheme such as https:"
        case .missingHost(let excerpt):
            "\"\(Self.safe(excerpt))\" has no host after the scheme"
        case .wrapperWithoutLink(let host):
            "the mobile link on \(Self.safe(host)) has no link= parameter, so it wraps nothing"
        case .shortDynamicLink(let host, let path):
            "\(Self.safe(host + path)) is a short Dynamic Link: only the Dynamic Links service (shut down on \(Finding.dynamicLinksShutdown)) knew its target; use the long link from the email"
        case .undecodableWrappedLink(let host, let parameter):
            "the \(Self.safe(parameter))= parameter of the mobile link on \(Self.safe(host)) is not valid percent-encoded UTF-8"
        case .wrappedLinkNotAURL(let host, let parameter, let excerpt):
            "the \(Self.safe(parameter))= parameter of the mobile link on \(Self.safe(host)) is not a URL: \"\(Self.safe(excerpt))\""
        case .noActionParameters(let excerpt):
            "no layer of \"\(Self.safe(excerpt))\" has a mode or oobCode parameter: this is not an email action link (a resolved deep link or continue URL has lost the code)"
        case .tooDeeplyWrapped(let limit):
            "the link is wrapped more than \(limit) times"
        }
    }

    /// Sanitized and cut to a readable length.
    static func safe(_ text: String) -> String {
        let limit = 80
        let cut = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return UntrustedText.sanitize(cut)
    }
}
