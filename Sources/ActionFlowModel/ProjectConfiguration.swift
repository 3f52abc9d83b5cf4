import Foundation

/// How the project builds mobile links (`mobileLinksConfig.domain`).
public enum MobileLinkStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Current: `https://LINK_DOMAIN/__/auth/links?link=...`.
    case hostingDomain = "HOSTING_DOMAIN"
    /// Legacy Firebase Dynamic Links: `https://example.page.link/?link=...&apn=...`.
    case firebaseDynamicLinkDomain = "FIREBASE_DYNAMIC_LINK_DOMAIN"
}

public struct RegisteredIOSApp: Sendable, Hashable, Codable {
    public var bundleId: String
    public var appStoreId: String?
    public var teamId: String?
    public init(bundleId: String, appStoreId: String? = nil, teamId: String? = nil) {
        self.bundleId = bundleId
        self.appStoreId = appStoreId
        self.teamId = teamId
    }
}

public struct RegisteredAndroidApp: Sendable, Hashable, Codable {
    public var packageName: String
    public var sha1: [String]
    public var sha256: [String]
    /// The latest version code on the Play Store.
    public var latestVersion: Int
    public init(packageName: String, sha1: [String] = [], sha256: [String] = [], latestVersion: Int) {
        self.packageName = packageName
        self.sha1 = sha1
        self.sha256 = sha256
        self.latestVersion = latestVersion
    }
}

/// Code lifetimes in seconds. Firebase does not publish them: these are assumed and configurable.
public struct CodeLifetimes: Sendable, Hashable, Codable {
    public var passwordReset: TimeInterval
    public var verifyEmail: TimeInterval
    public var emailSignIn: TimeInterval
    public init(passwordReset: TimeInterval = 3600, verifyEmail: TimeInterval = 3 * 86400, emailSignIn: TimeInterval = 6 * 3600) {
        self.passwordReset = passwordReset
        self.verifyEmail = verifyEmail
        self.emailSignIn = emailSignIn
    }

    public func lifetime(for type: OobRequestType) -> TimeInterval {
        switch type {
        case .passwordReset: passwordReset
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition: verifyEmail
        case .emailSignIn: emailSignIn
        }
    }
}

/// Emails one address may be sent within a window (assumed; Firebase does not publish it).
public struct RateLimit: Sendable, Hashable, Codable {
    public var maxEmails: Int
    public var windowSeconds: TimeInterval
    public init(maxEmails: Int = 5, windowSeconds: TimeInterval = 3600) {
        self.maxEmails = maxEmails
        self.windowSeconds = windowSeconds
    }
}

public struct PresetUser: Sendable, Hashable, Codable {
    public var email: String
    public var password: String
    public var displayName: String?
    public var emailVerified: Bool
    public var disabled: Bool
    public init(email: String, password: String, displayName: String? = nil, emailVerified: Bool, disabled: Bool = false) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.disabled = disabled
    }
}

/// A simulated Firebase project: everything the backend and routing need to know about it.
public struct ProjectConfiguration: Sendable, Hashable, Codable {
    public var projectId: String
    public var apiKey: String
    public var authorizedDomains: [String]
    public var iOSApp: RegisteredIOSApp?
    public var androidApp: RegisteredAndroidApp?
    public var mobileLinkStyle: MobileLinkStyle
    /// Hosting domains owned by the project; the first is the default link domain.
    public var hostingDomains: [String]
    /// Dynamic Links domains configured for the project; the first is the default.
    public var dynamicLinkDomains: [String]
    /// The email action handler; nil means the default `https://PROJECT.firebaseapp.com/__/auth/action`.
    public var actionHandlerURL: String?
    public var emailEnumerationProtection: Bool
    public var codeLifetimes: CodeLifetimes
    public var rateLimit: RateLimit
    public var defaultLocale: String
    /// Where the simulated clock starts, so runs repeat exactly.
    public var clockStart: Date
    public var users: [PresetUser]
    /// The app builds in users' hands (`fieldApps`); nil in files written before they were kept.
    public var fieldApps: [FieldApp]?

    /// The app builds in users' hands.
    public var apps: [FieldApp] { fieldApps ?? [] }

    public init(projectId: String, apiKey: String, authorizedDomains: [String], iOSApp: RegisteredIOSApp?, androidApp: RegisteredAndroidApp?, mobileLinkStyle: MobileLinkStyle, hostingDomains: [String], dynamicLinkDomains: [String], actionHandlerURL: String?, emailEnumerationProtection: Bool, codeLifetimes: CodeLifetimes, rateLimit: RateLimit, defaultLocale: String, clockStart: Date, users: [PresetUser]) {
        self.projectId = projectId
        self.apiKey = apiKey
        self.authorizedDomains = authorizedDomains
        self.iOSApp = iOSApp
        self.androidApp = androidApp
        self.mobileLinkStyle = mobileLinkStyle
        self.hostingDomains = hostingDomains
        self.dynamicLinkDomains = dynamicLinkDomains
        self.actionHandlerURL = actionHandlerURL
        self.emailEnumerationProtection = emailEnumerationProtection
        self.codeLifetimes = codeLifetimes
        self.rateLimit = rateLimit
        self.defaultLocale = defaultLocale
        self.clockStart = clockStart
        self.users = users
    }

    /// The web origin the app's continue URLs start with when nothing says otherwise: the
    /// project's first authorized domain of its own (not `localhost` nor a default Hosting
    /// domain), else its default Hosting domain, so that a fresh app's links are authorized.
    public var appOrigin: String {
        let own = authorizedDomains.first { $0 != "localhost" && !Self.isDefaultHostingDomain($0) }
        return "https://" + (own ?? authorizedDomains.first(where: Self.isDefaultHostingDomain) ?? defaultHostingDomain)
    }

    public var defaultActionHandlerURL: String { "https://\(projectId).firebaseapp.com/__/auth/action" }
    public var effectiveActionHandlerURL: String { actionHandlerURL ?? defaultActionHandlerURL }
    public var defaultHostingDomain: String { hostingDomains.first ?? "\(projectId).firebaseapp.com" }
}

extension ProjectConfiguration {
    /// Whether a request may name this Hosting domain as its `linkDomain` (case-insensitive; the
    /// default Hosting domain always counts).
    public func ownsHostingDomain(_ domain: String) -> Bool {
        let domain = domain.lowercased()
        return hostingDomains.contains(domain) || domain == defaultHostingDomain
    }

    /// A default Hosting domain (`PROJECT.web.app`, `PROJECT.firebaseapp.com`): mobile links use
    /// one when no `linkDomain` is asked for, but a request may not name one (firebase-js-sdk
    /// packages/auth/src/core/errors.ts:392-394@firebase@12.18.0: INVALID_HOSTING_LINK_DOMAIN
    /// "cannot be a default Hosting domain").
    public static func isDefaultHostingDomain(_ domain: String) -> Bool {
        let domain = domain.lowercased()
        return domain.hasSuffix(".web.app") || domain.hasSuffix(".firebaseapp.com")
    }

    /// Whether a request may name this Dynamic Links domain as its `dynamicLinkDomain`.
    public func ownsDynamicLinkDomain(_ domain: String) -> Bool {
        dynamicLinkDomains.contains(domain.lowercased())
    }

    /// The domain the project builds a request's mobile links on: the requested Hosting or
    /// Dynamic Links domain when the project owns it, else the default for its link style.
    /// A domain the project does not own: INVALID_HOSTING_LINK_DOMAIN / INVALID_DYNAMIC_LINK_DOMAIN.
    public func mobileLinkDomain(for request: SendOobCodeRequest) throws(AuthFailure) -> String {
        if let hosting = request.linkDomain {
            if Self.isDefaultHostingDomain(hosting) {
                throw AuthFailure.server(.invalidHostingLinkDomain, detail: "'\(hosting)' is a default Hosting domain; linkDomain must be a custom domain of project \(projectId)'s Hosting")
            }
            if !ownsHostingDomain(hosting) {
                throw AuthFailure.server(.invalidHostingLinkDomain, detail: "'\(hosting)' is not a Hosting domain of project \(projectId)")
            }
        }
        if let dynamic = request.dynamicLinkDomain, !ownsDynamicLinkDomain(dynamic) {
            throw AuthFailure.server(.invalidDynamicLinkDomain, detail: "'\(dynamic)' is not a Dynamic Links domain of project \(projectId)")
        }
        let hosting = request.linkDomain?.lowercased()
        let dynamic = request.dynamicLinkDomain?.lowercased()
        switch mobileLinkStyle {
        case .hostingDomain:
            return hosting ?? defaultHostingDomain
        case .firebaseDynamicLinkDomain:
            guard let domain = dynamic ?? dynamicLinkDomains.first else {
                throw AuthFailure.server(.invalidDynamicLinkDomain, detail: "project \(projectId) has no Dynamic Links domain")
            }
            return domain
        }
    }
}
