import ActionFlowModel
import Foundation

/// A setting that breaks a project rule. `path` names it as a project file does:
/// `authorizedDomains[2]`, `codeLifetimes.passwordReset`, `users[1].email`.
public struct ProjectProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// Other settings the rule involves, where the problem can be shown when `path` cannot.
    public var relatedPaths: [String]

    public var description: String { UntrustedText.sanitize("\(path): \(message)") }
}

extension ProjectConfiguration {
    /// Every rule a usable project meets, however it arrives: a project file, `serve`'s
    /// `PUT .../config`, the Project pane or a scenario's `project` overrides. Empty when none is broken.
    public func validate() -> [ProjectProblem] {
        var rules = ProjectRules()
        rules.text(projectId, "projectId", expected: "a project id",
                   detail: "a project id (4 to 30 lowercase letters, digits and hyphens, starting with a letter)", isValid: ProjectRules.isProjectID)
        rules.text(apiKey, "apiKey", expected: "an API key", detail: "an API key (letters, digits, '-' and '_')") { key in
            key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        rules.domains(authorizedDomains, "authorizedDomains")
        if let app = iOSApp {
            rules.text(app.bundleId, "iosApp.bundleId", expected: "an app id such as com.example.app", isValid: ProjectRules.isAppID)
            if let storeID = app.appStoreId {
                rules.text(storeID, "iosApp.appStoreId", expected: "digits only") { $0.allSatisfy { $0.isASCII && $0.isNumber } }
            }
            if let teamID = app.teamId {
                rules.text(teamID, "iosApp.teamId", expected: "an Apple team id", detail: "a 10-character Apple team id (A-Z, 0-9)") { id in
                    id.count == 10 && id.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
                }
            }
        }
        if let app = androidApp {
            rules.text(app.packageName, "androidApp.packageName", expected: "an app id such as com.example.app", isValid: ProjectRules.isAppID)
            rules.fingerprints(app.sha1, "androidApp.sha1", bytes: 20)
            rules.fingerprints(app.sha256, "androidApp.sha256", bytes: 32)
            rules.positive(app.latestVersion, "androidApp.latestVersion")
        }
        if mobileLinkStyle == .firebaseDynamicLinkDomain && dynamicLinkDomains.isEmpty {
            rules.report("mobileLinkStyle", "FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains", related: ["dynamicLinkDomains"])
        }
        rules.domains(hostingDomains, "hostingDomains")
        rules.domains(dynamicLinkDomains, "dynamicLinkDomains")
        if let actionHandlerURL {
            rules.text(actionHandlerURL, "actionHandlerUrl", expected: "an https URL", detail: "an absolute http(s) URL", isValid: ProjectRules.isHTTPURL)
        }
        rules.duration(codeLifetimes.passwordReset, "codeLifetimes.passwordReset")
        rules.duration(codeLifetimes.verifyEmail, "codeLifetimes.verifyEmail")
        rules.duration(codeLifetimes.emailSignIn, "codeLifetimes.emailSignIn")
        rules.positive(rateLimit.maxEmails, "rateLimit.maxEmails")
        rules.duration(rateLimit.windowSeconds, "rateLimit.window")
        rules.locale(defaultLocale, "defaultLocale")
        if !SimulatedClock.range.contains(clockStart) {
            rules.report("clockStart", "expected a time from \(SimulatedClock.range.lowerBound.iso8601Stamp) to \(SimulatedClock.range.upperBound.iso8601Stamp), got \(abs(clockStart.timeIntervalSince1970) < 1e11 ? clockStart.iso8601Stamp : "\(clockStart.timeIntervalSince1970) seconds from 1970")")
        }
        rules.users(users, "users")
        for (index, app) in apps.enumerated() {
            rules.domains(app.linkDomains, "fieldApps[\(index)].linkDomains")
            if apps[..<index].contains(where: { $0.name == app.name }) {
                rules.report("fieldApps[\(index)].name", "\"\(app.name)\" names two field apps; each needs its own name")
            }
        }
        return rules.problems
    }

    /// The form the backend compares against: domains in lowercase, fingerprints in uppercase,
    /// the default locale as its template language (`fr-FR` is `fr`).
    public func normalized() -> ProjectConfiguration {
        var project = self
        project.authorizedDomains = authorizedDomains.map { $0.lowercased() }
        project.hostingDomains = hostingDomains.map { $0.lowercased() }
        project.dynamicLinkDomains = dynamicLinkDomains.map { $0.lowercased() }
        project.fieldApps = fieldApps?.map { app in
            var app = app
            app.linkDomains = app.linkDomains.map { $0.lowercased() }
            return app
        }
        project.androidApp?.sha1 = androidApp?.sha1.map { $0.uppercased() } ?? []
        project.androidApp?.sha256 = androidApp?.sha256.map { $0.uppercased() } ?? []
        project.defaultLocale = MailTemplates.language(for: defaultLocale) ?? defaultLocale
        return project
    }
}

/// The checks behind `validate()`; each message reads as the rest of a project file error.
private struct ProjectRules {
    var problems: [ProjectProblem] = []

    mutating func report(_ path: String, _ message: String, related: [String] = []) {
        problems.append(ProjectProblem(path: path, message: message, relatedPaths: related))
    }

    static func quoted(_ text: String) -> String { "'\(UntrustedText.sanitize(text))'" }

    /// Blank text: "expected \(expected), got an empty string"; text `isValid` refuses: "expected \(detail), got 'text'".
    mutating func text(_ value: String, _ path: String, expected: String, detail: String? = nil, hint: String = "", isValid: (String) -> Bool) {
        if value.trimmingWhitespace().isEmpty {
            report(path, "expected \(expected), got an empty string")
        } else if !isValid(value) {
            report(path, "expected \(detail ?? expected), got \(Self.quoted(value))\(hint)")
        }
    }

    mutating func domains(_ domains: [String], _ path: String) {
        for (index, domain) in domains.enumerated() {
            let hint = domain.contains("/") || domain.contains(":") ? " (write the host only, without scheme, port or path)" : ""
            text(domain, "\(path)[\(index)]", expected: "a domain name", hint: hint, isValid: DomainName.isValid)
        }
    }

    /// `AB:CD:...` certificate fingerprints: 20 bytes for SHA-1, 32 for SHA-256.
    mutating func fingerprints(_ fingerprints: [String], _ path: String, bytes: Int) {
        for (index, fingerprint) in fingerprints.enumerated() {
            text(fingerprint, "\(path)[\(index)]", expected: "a certificate fingerprint", detail: "\(bytes) colon-separated hex bytes (AB:CD:...)") { text in
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                return parts.count == bytes && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
            }
        }
    }

    mutating func positive(_ number: Int, _ path: String) {
        if number <= 0 { report(path, "expected a number above 0, got \(number)") }
    }

    /// Stored as seconds, but only what `SimulatedDuration` can write is allowed.
    mutating func duration(_ seconds: TimeInterval, _ path: String) {
        guard SimulatedDuration(exactly: seconds) == nil else { return }
        let shown = Int(exactly: seconds).map(String.init) ?? String(seconds)
        if seconds > Double(SimulatedDuration.longest) {
            report(path, "expected at most 36525d (100 years, \(SimulatedDuration.longest) seconds), got \(shown)")
        } else if seconds > 0 {
            report(path, "expected a whole number of seconds, got \(shown)")
        } else {
            report(path, "expected a duration above 0, got \(shown)")
        }
    }

    mutating func locale(_ locale: String, _ path: String) {
        if locale.trimmingWhitespace().isEmpty {
            report(path, "expected a language code such as en, got an empty string")
        } else if MailTemplates.language(for: locale) == nil {
            report(path, "no email templates for \(Self.quoted(locale)) (available: \(MailTemplates.languages.sorted().joined(separator: ", ")))")
        }
    }

    mutating func users(_ users: [PresetUser], _ path: String) {
        var seen: [String: Int] = [:]
        for (index, user) in users.enumerated() {
            let userPath = "\(path)[\(index)]"
            text(user.email, userPath + ".email", expected: "an email address", isValid: EmailSyntax.isValid)
            if user.password.count < SimulatedProject.minimumPasswordLength {
                report(userPath + ".password", "passwords need at least \(SimulatedProject.minimumPasswordLength) characters (the server's WEAK_PASSWORD rule), got \(user.password.count)")
            }
            let key = user.email.lowercased()
            if let first = seen[key] {
                report(userPath + ".email", "\(Self.quoted(user.email)) is already used by \(path)[\(first)]")
            } else {
                seen[key] = index
            }
        }
    }

    static func isProjectID(_ text: String) -> Bool {
        let allowed = text.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
        return allowed && (4...30).contains(text.count) && text.first?.isLetter == true && text.last != "-"
    }

    /// Bundle ids and package names: dot-separated segments of letters, digits, `_` and `-`.
    static func isAppID(_ text: String) -> Bool {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        return segments.count >= 2 && segments.allSatisfy { segment in
            guard let first = segment.first, first.isASCII, first.isLetter else { return false }
            return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }

    static func isHTTPURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = components.host else { return false }
        return DomainName.isValid(host)
    }
}
