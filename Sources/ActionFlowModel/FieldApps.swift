import Foundation

/// A build of the project's app in users' hands: the SDK release it ships and the link domains
/// it claims (iOS associated domains, `applinks:DOMAIN`; Android verified intent filters).
public struct FieldApp: Sendable, Hashable, Codable {
    /// As the team says it: `iOS 3.1`, `Android 12`.
    public var name: String
    public var platform: Device.Platform
    /// The installed version code (Android) or build number (iOS).
    public var version: Int?
    public var sdk: SDKProfile
    public var linkDomains: [String]

    public init(name: String, platform: Device.Platform, version: Int? = nil, sdk: SDKProfile, linkDomains: [String]) {
        self.name = name
        self.platform = platform
        self.version = version
        self.sdk = sdk
        self.linkDomains = linkDomains
    }

    /// Whether the build claims `domain` (case-insensitive).
    public func claims(_ domain: String) -> Bool {
        linkDomains.contains { $0.lowercased() == domain.lowercased() }
    }
}

/// The files a link domain serves so that the system hands its links to apps: Apple's
/// `apple-app-site-association` and Android's Digital Asset Links `assetlinks.json`.
public enum SiteAssociation {
    public static let appleFilePath = "/.well-known/apple-app-site-association"
    public static let androidFilePath = "/.well-known/assetlinks.json"
    /// The links paths are assumed: Firebase does not publish the file its Hosting serves.
    public static let assumption = "assumed: a Hosting domain of the project serves association files listing the project's registered apps (iOS team and bundle id, Android package and SHA-256) for its /__/auth/links path; a Dynamic Links domain lists them for every path"

    /// The iOS app the files list, as `TEAM.BUNDLE`: none without a team id.
    public static func listedIOSApp(_ project: ProjectConfiguration) -> String? {
        project.iOSApp.flatMap { app in app.teamId.map { "\($0).\(app.bundleId)" } }
    }

    /// The Android app the files list: none without a SHA-256 fingerprint.
    public static func listedAndroidApp(_ project: ProjectConfiguration) -> RegisteredAndroidApp? {
        project.androidApp.flatMap { $0.sha256.isEmpty ? nil : $0 }
    }

    /// `{"applinks": {"details": [{"appIDs": ["TEAM.BUNDLE"], "components": [{"/": PATH}]}]}}`,
    /// Apple's format.
    public static func appleFile(for project: ProjectConfiguration, domain: String) -> String {
        let details: [[String: Any]] = listedIOSApp(project).map { [["appIDs": [$0], "components": [["/": linksPath(project, domain: domain)]]]] } ?? []
        return json(["applinks": ["details": details]])
    }

    /// `[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {...}}]`, the
    /// Digital Asset Links statement list.
    public static func androidFile(for project: ProjectConfiguration) -> String {
        let statements: [[String: Any]] = listedAndroidApp(project).map { app in
            [["relation": ["delegate_permission/common.handle_all_urls"],
              "target": ["namespace": "android_app", "package_name": app.packageName, "sha256_cert_fingerprints": app.sha256]]]
        } ?? []
        return json(statements)
    }

    /// Whether the project serves association files on `domain`.
    public static func serves(_ project: ProjectConfiguration, domain: String) -> Bool {
        project.ownsHostingDomain(domain) || project.ownsDynamicLinkDomain(domain)
    }

    /// Whether `app` opens links on `domain`, and why: the domain's file lists the app, and the
    /// build claims the domain. Both are needed: the system checks the file for a domain the
    /// app claims (Apple's associated domains, Android's App Links verification).
    public static func check(_ app: FieldApp, domain: String, project: ProjectConfiguration) -> (opens: Bool, reason: String) {
        guard serves(project, domain: domain) else {
            return (false, "\(domain) is not a domain of project \(project.projectId): it serves no association file")
        }
        let listed: String? = switch app.platform {
        case .iOS: listedIOSApp(project)
        case .android: listedAndroidApp(project)?.packageName
        case .desktop: nil
        }
        guard let listed else {
            let missing = app.platform == .iOS ? "the iOS app has no team id registered" : "the Android app has no SHA-256 fingerprint registered"
            return (false, "\(domain)'s \(app.platform == .iOS ? "apple-app-site-association" : "assetlinks.json") lists no app: \(missing)")
        }
        guard app.claims(domain) else {
            let claimed = app.linkDomains.isEmpty ? "none" : app.linkDomains.joined(separator: ", ")
            return (false, "\(app.name) does not claim \(domain) (its link domains: \(claimed)), so the system does not hand it the link")
        }
        return (true, "\(domain) lists \(listed) and \(app.name) claims the domain")
    }

    private static func linksPath(_ project: ProjectConfiguration, domain: String) -> String {
        project.ownsDynamicLinkDomain(domain) ? "/*" : "/__/auth/links"
    }

    private static func json(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
