import Foundation

/// One line of `actionflow doctor`'s checklist: passed, failed, or not knowable from what it was
/// given (never a pass), with the rule's source and, for a failure, what the user meets.
public struct DoctorCheck: Sendable, Hashable, Encodable {
    public enum Status: String, Sendable, Hashable, Encodable {
        case pass, fail, unknown

        public var mark: String {
            switch self {
            case .pass: "✓"
            case .fail: "✗"
            case .unknown: "?"
            }
        }
    }

    public var status: Status
    /// What was checked: `links.example.com apple-app-site-association`, `project`.
    public var subject: String
    public var text: String
    /// Where the rule comes from (docs/doctor.md lists each in full).
    public var source: String
    /// On the phone, when the check fails: "the link opens the browser, not the app".
    public var onThePhone: String?
    /// The link domain and platform whose association file failed, so that a link on it can be
    /// tapped to see the phone do it.
    public var domain: String?
    public var platform: LinkDomainDoctor.Platform?

    public init(_ status: Status, _ subject: String, _ text: String, source: String, onThePhone: String? = nil,
                domain: String? = nil, platform: LinkDomainDoctor.Platform? = nil) {
        self.status = status
        self.subject = subject
        self.text = text
        self.source = source
        self.onThePhone = onThePhone
        self.domain = domain
        self.platform = platform
    }
}

extension DoctorCheck {
    /// A failed check of `domain`'s association file for `platform`: a link on it can be tapped.
    func tapping(_ domain: String, _ platform: LinkDomainDoctor.Platform) -> DoctorCheck {
        guard status == .fail else { return self }
        var check = self
        check.domain = domain
        check.platform = platform
        return check
    }
}

/// A file as fetched over HTTPS, as the platforms fetch association files (no redirect followed),
/// or why no answer came.
public enum FetchedFile: Sendable, Hashable {
    case answered(status: Int, contentType: String?, location: String?, body: Data, cutAt: Int?)
    /// DNS, refused, TLS, timeout: the sentence says which.
    case failed(String)
}

/// The rules `doctor` checks a project and its link domains against: pure, over files already
/// fetched, so that each rule is tested on its own (docs/doctor.md).
public enum LinkDomainDoctor {
    public enum Platform: String, Sendable, Hashable, Encodable, CaseIterable {
        case apple, android

        public var path: String {
            switch self {
            case .apple: SiteAssociation.appleFilePath
            case .android: SiteAssociation.androidFilePath
            }
        }

        var fileName: String {
            switch self {
            case .apple: "apple-app-site-association"
            case .android: "assetlinks.json"
            }
        }

        var source: String {
            switch self {
            case .apple: "Apple, Supporting associated domains"
            case .android: "Android, Verify Android App Links"
            }
        }

        var appName: String { self == .apple ? "the iOS app" : "the Android app" }
    }

    /// Apple reads at most 128 KB of the file (uncompressed).
    public static let appleSizeLimit = 128 * 1024
    /// Any larger association file is not read, whatever the platform.
    public static let fetchLimit = 1024 * 1024
    /// The paths Firebase's email links open on a link domain: mobile links, and the action
    /// handler they wrap (docs/doctor.md, "Paths").
    public static let emailLinkPaths = ["/__/auth/links", "/__/auth/action"]
    /// The first SDK releases that can ask for Hosting links, `linkDomain` (docs/sdk-profiles.md).
    public static let hostingLinkMinimums: [SDKProfile.Platform: SDKVersion] = [.ios: "11.8.0", .android: "23.2.0"]

    /// Whether the project's domains are examples (the bundled demo, `demo-`): never fetched,
    /// since nothing is fetched from an address the user did not name.
    public static func hasExampleDomains(_ project: ProjectConfiguration) -> Bool {
        project.projectId.hasPrefix("demo-")
    }

    /// How many checks passed, failed, and could not be known.
    public static func counts(_ checks: [DoctorCheck]) -> (passed: Int, failed: Int, unknown: Int) {
        checks.reduce(into: (0, 0, 0)) { count, check in
            switch check.status {
            case .pass: count.0 += 1
            case .fail: count.1 += 1
            case .unknown: count.2 += 1
            }
        }
    }

    /// The link domains to check when none is named: every domain the project's email links use.
    public static func linkDomains(_ project: ProjectConfiguration) -> [String] {
        var domains = project.hostingDomains.isEmpty ? [project.defaultHostingDomain] : project.hostingDomains
        domains += project.dynamicLinkDomains
        return domains.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The checks of one association file fetched from `domain`.
    public static func checkFile(_ platform: Platform, domain: String, fetched: FetchedFile, project: ProjectConfiguration) -> [DoctorCheck] {
        let subject = "\(domain) \(platform.fileName)"
        let phone = "the link opens the browser, not \(platform.appName)"
        func fail(_ text: String, _ source: String = platform.source) -> [DoctorCheck] {
            [DoctorCheck(.fail, subject, text, source: source, onThePhone: phone, domain: domain, platform: platform)]
        }
        guard case .answered(let status, let contentType, let location, let body, let cutAt) = fetched else {
            if case .failed(let reason) = fetched { return fail("https://\(domain)\(platform.path) \(reason)") }
            return []
        }
        if (300..<400).contains(status) {
            return fail("answers \(status), a redirect\(location.map { " to \(UntrustedText.sanitize($0))" } ?? ""): the platform does not follow redirects for this file")
        }
        guard status == 200 else { return fail("answers \(status), not 200") }
        var checks: [DoctorCheck] = [DoctorCheck(.pass, subject, "answers 200 over HTTPS with no redirect", source: platform.source)]
        let type = contentType.map { String($0.split(separator: ";").first ?? "").trimmingWhitespace().lowercased() }
        if type == "application/json" {
            checks.append(DoctorCheck(.pass, subject, "is served as application/json", source: platform.source))
        } else {
            checks += fail("is served as \(type.map { UntrustedText.sanitize($0) } ?? "no Content-Type"), not application/json")
        }
        if let cutAt {
            return checks + fail("is larger than \(cutAt / 1024) KB: not read")
        }
        if platform == .apple, body.count > appleSizeLimit {
            return checks + fail("is \(body.count / 1024) KB: Apple reads at most \(appleSizeLimit / 1024) KB")
        }
        guard String(data: body, encoding: .utf8) != nil else { return checks + fail("is not UTF-8 text") }
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return checks + fail("is not valid JSON")
        }
        switch platform {
        case .apple: return checks + appleApps(json, subject: subject, project: project, phone: phone).map { $0.tapping(domain, .apple) }
        case .android: return checks + androidApps(json, subject: subject, project: project, phone: phone).map { $0.tapping(domain, .android) }
        }
    }

    private static func appleApps(_ json: Any, subject: String, project: ProjectConfiguration, phone: String) -> [DoctorCheck] {
        guard let app = project.iOSApp else { return [] }
        let source = Platform.apple.source
        guard let details = ((json as? [String: Any])?["applinks"] as? [String: Any])?["details"] as? [[String: Any]] else {
            return [DoctorCheck(.fail, subject, "has no applinks.details list", source: source, onThePhone: phone)]
        }
        // Apple's two forms: `appIDs` with `components`, or the older `appID` with `paths`.
        let entries = details.filter { entry in
            let ids = (entry["appIDs"] as? [String]) ?? [(entry["appID"] as? String)].compactMap { $0 }
            return ids.contains { id in app.teamId.map { id == "\($0).\(app.bundleId)" } ?? id.hasSuffix(".\(app.bundleId)") }
        }
        let named = app.teamId.map { "\($0).\(app.bundleId)" } ?? "TEAMID.\(app.bundleId)"
        guard !entries.isEmpty else {
            return [DoctorCheck(.fail, subject, "names no app \(named) in applinks.details", source: source, onThePhone: phone)]
        }
        var checks: [DoctorCheck] = []
        if app.teamId == nil {
            checks.append(DoctorCheck(.unknown, subject, "names an app with bundle id \(app.bundleId), under a team id the project file does not give: set iosApp.teamId to check it", source: source))
        } else {
            checks.append(DoctorCheck(.pass, subject, "names \(named)", source: source))
        }
        for path in emailLinkPaths {
            if entries.contains(where: { covers($0, path: path) }) {
                checks.append(DoctorCheck(.pass, subject, "lets \(named) open \(path)", source: source))
            } else {
                checks.append(DoctorCheck(.fail, subject, "does not let \(named) open \(path): no components or paths entry covers it", source: source, onThePhone: phone))
            }
        }
        return checks
    }

    /// Whether an `applinks` entry hands `path` to its app: the first component (or path) that
    /// matches decides, and an `exclude` (or `NOT `) one keeps the path out.
    static func covers(_ entry: [String: Any], path: String) -> Bool {
        if let components = entry["components"] as? [[String: Any]] {
            for component in components {
                guard let pattern = component["/"] as? String, glob(pattern, matches: path) else { continue }
                return !((component["exclude"] as? Bool) ?? false)
            }
            return false
        }
        for pattern in (entry["paths"] as? [String]) ?? [] {
            let excluded = pattern.hasPrefix("NOT ")
            if glob(excluded ? String(pattern.dropFirst(4)) : pattern, matches: path) { return !excluded }
        }
        return false
    }

    /// Apple's patterns: `*` any run of characters, `?` one character, the rest literal.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern), text = Array(text)
        var p = 0, t = 0, star: Int?, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    private static func androidApps(_ json: Any, subject: String, project: ProjectConfiguration, phone: String) -> [DoctorCheck] {
        guard let app = project.androidApp else { return [] }
        let source = Platform.android.source
        guard let statements = json as? [[String: Any]] else {
            return [DoctorCheck(.fail, subject, "is not a list of statements", source: source, onThePhone: phone)]
        }
        let forApp = statements.filter { statement in
            let target = statement["target"] as? [String: Any]
            return (statement["relation"] as? [String])?.contains("delegate_permission/common.handle_all_urls") == true
                && target?["namespace"] as? String == "android_app" && target?["package_name"] as? String == app.packageName
        }
        guard !forApp.isEmpty else {
            return [DoctorCheck(.fail, subject, "has no delegate_permission/common.handle_all_urls statement for android_app \(app.packageName)", source: source, onThePhone: phone)]
        }
        var checks = [DoctorCheck(.pass, subject, "hands all URLs to \(app.packageName)", source: source)]
        let listed = Set(forApp.flatMap { (($0["target"] as? [String: Any])?["sha256_cert_fingerprints"] as? [String]) ?? [] }.map { $0.uppercased() })
        if app.sha256.isEmpty {
            checks.append(DoctorCheck(.unknown, subject, "lists \(listed.count) SHA-256 fingerprint(s); the project file gives none to compare: set androidApp.sha256", source: source))
        } else if let missing = app.sha256.first(where: { !listed.contains($0.uppercased()) }) {
            checks.append(DoctorCheck(.fail, subject, "does not list the app's SHA-256 fingerprint \(missing)", source: source, onThePhone: phone))
        } else {
            checks.append(DoctorCheck(.pass, subject, "lists the app's SHA-256 fingerprint\(app.sha256.count > 1 ? "s" : "")", source: source))
        }
        return checks
    }

    /// The project's own settings, without the network: what it names, and what it cannot know.
    public static func projectChecks(_ project: ProjectConfiguration, continueURLs: [String]) -> [DoctorCheck] {
        let subject = "project \(project.projectId)"
        let continueSource = "docs/doctor.md, Continue URLs"
        var checks: [DoctorCheck] = []
        if continueURLs.isEmpty {
            checks.append(DoctorCheck(.unknown, subject, "continue URLs: give the ones your app sends with --continue-url to check their hosts are authorized", source: continueSource))
        }
        for url in continueURLs {
            switch ContinueURLPolicy.browserHost(of: url) {
            case .success(let host) where project.authorizedDomains.contains(host):
                checks.append(DoctorCheck(.pass, subject, "continue URL host \(host) is an authorized domain", source: continueSource))
            case .success(let host):
                checks.append(DoctorCheck(.fail, subject, "continue URL host \(host) is not an authorized domain: sendOobCode answers UNAUTHORIZED_DOMAIN", source: continueSource,
                                          onThePhone: "no email is sent; the app shows an error"))
            case .failure(let error):
                checks.append(DoctorCheck(.fail, subject, "continue URL \(UntrustedText.sanitize(url)) is refused: \(error)", source: continueSource,
                                          onThePhone: "no email is sent; the app shows an error"))
            }
        }
        let custom = project.hostingDomains.filter { !ProjectConfiguration.isDefaultHostingDomain($0) }
        if custom.isEmpty {
            checks.append(DoctorCheck(.unknown, subject, "no custom Hosting domain: links use \(project.defaultHostingDomain); a request's linkDomain can only name a custom one", source: "docs/doctor.md, Link domains"))
        } else {
            checks.append(DoctorCheck(.pass, subject, "custom Hosting domain\(custom.count > 1 ? "s" : "") for linkDomain: \(custom.joined(separator: ", "))", source: "docs/doctor.md, Link domains"))
        }
        if project.mobileLinkStyle == .firebaseDynamicLinkDomain || !project.dynamicLinkDomains.isEmpty {
            let domains = project.dynamicLinkDomains.isEmpty ? "" : " (\(project.dynamicLinkDomains.joined(separator: ", ")))"
            checks.append(DoctorCheck(.fail, subject, "still configures Dynamic Links\(domains), shut down on 25 August 2025", source: "docs/doctor.md, Dynamic Links",
                                      onThePhone: "a page.link link no longer opens anything"))
        } else {
            checks.append(DoctorCheck(.pass, subject, "uses Hosting links, no Dynamic Links domain", source: "docs/doctor.md, Dynamic Links"))
        }
        if project.iOSApp != nil, project.iOSApp?.teamId == nil {
            checks.append(DoctorCheck(.unknown, subject, "the iOS app has no team id: set iosApp.teamId (developer.apple.com, Membership)", source: Platform.apple.source))
        }
        if let android = project.androidApp, android.sha256.isEmpty {
            checks.append(DoctorCheck(.unknown, subject, "the Android app \(android.packageName) has no SHA-256 fingerprint: set androidApp.sha256 (Play Console, App integrity)", source: Platform.android.source))
        }
        if project.apps.isEmpty {
            checks.append(DoctorCheck(.unknown, subject, "no fieldApps: list the builds in users' hands to check their SDKs read Hosting links", source: "docs/sdk-profiles.md"))
        }
        for app in project.apps {
            checks.append(sdkCheck(app, subject: subject))
        }
        return checks
    }

    private static func sdkCheck(_ app: FieldApp, subject: String) -> DoctorCheck {
        let source = "docs/sdk-profiles.md"
        guard let minimum = hostingLinkMinimums[app.sdk.platform] else {
            return DoctorCheck(.unknown, subject, "\(app.name) (\(app.sdk.name)): whether it can ask for Hosting links depends on the native Firebase SDK it pulls in", source: source)
        }
        let version = app.sdk.requested ?? app.sdk.first
        if version < minimum {
            return DoctorCheck(.fail, subject, "\(app.name) ships \(app.sdk.name), older than \(minimum), the first release that can ask for Hosting links (linkDomain)", source: source,
                               onThePhone: "its links keep the project's default Hosting domain; `actionflow matrix --migration` shows what the build does with them")
        }
        return DoctorCheck(.pass, subject, "\(app.name) ships \(app.sdk.name), which can ask for Hosting links (from \(minimum))", source: source)
    }
}
