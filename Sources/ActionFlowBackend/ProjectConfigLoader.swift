import ActionFlowModel
import Foundation
import Yams

/// A problem in a project file, with where it is: `project.yaml line 12: authorizedDomains[2]: ...`.
public struct ProjectConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as shown to the user.
    public var file: String
    /// 1-based line, when the problem sits at a known place in the file.
    public var line: Int?
    /// The setting at fault, e.g. `authorizedDomains[2]` or `users[1].password`.
    public var path: String?
    public var message: String

    public var description: String {
        var text = file
        if let line { text += " line \(line)" }
        text += ": "
        if let path, !path.isEmpty { text += path + ": " }
        // File paths and YAML snippets come from the user: keep them terminal-safe.
        return UntrustedText.sanitize(text + message)
    }
}

/// Loads the simulated project from YAML (format: docs/file-formats.md, "Project configuration").
public enum ProjectConfigLoader {
    /// Top-level keys a complete project file must have (an override file may leave any out).
    public static let requiredKeys = ["projectId", "apiKey", "authorizedDomains", "clockStart"]

    /// Loads a complete project file.
    public static func load(from url: URL) throws(ProjectConfigError) -> ProjectConfiguration {
        try parse(readFile(url), fileName: url.lastPathComponent, base: nil)
    }

    /// The project shipped in `Resources/project.yaml`.
    public static func loadDefault() throws(ProjectConfigError) -> ProjectConfiguration {
        try load(from: BundledResources.defaultProjectFile)
    }

    /// Applies a user's file on top of `base`: only the keys the file names change; nested
    /// sections (`iosApp`, `androidApp`, `codeLifetimes`, `rateLimit`) merge key by key; lists
    /// (domains, users) replace the base's list. `iosApp: null` removes the app.
    public static func load(overridesFrom url: URL, base: ProjectConfiguration) throws(ProjectConfigError) -> ProjectConfiguration {
        try parse(readFile(url), fileName: url.lastPathComponent, base: base)
    }

    /// Parses YAML text: a complete project when `base` is nil, else overrides of `base`.
    public static func parse(_ yaml: String, fileName: String, base: ProjectConfiguration?) throws(ProjectConfigError) -> ProjectConfiguration {
        let root: Node?
        do {
            root = try YAMLComposer.compose(yaml)
        } catch {
            throw yamlError(error, yaml: yaml, fileName: fileName)
        }
        let reader = ConfigReader(file: fileName)
        guard let root else {
            if let base { return base }
            throw ProjectConfigError(file: fileName, line: nil, path: nil, message: "the file is empty; expected a mapping of project settings (see 'Project configuration' in docs/file-formats.md)")
        }
        return try reader.readProject(root, base: base)
    }

    private static func readFile(_ url: URL) throws(ProjectConfigError) -> String {
        do {
            let data = try Data(contentsOf: url)
            guard let text = String(data: data, encoding: .utf8) else {
                throw ProjectConfigError(file: url.lastPathComponent, line: nil, path: nil, message: "not UTF-8 text")
            }
            return text
        } catch let error as ProjectConfigError {
            throw error
        } catch {
            throw ProjectConfigError(file: url.path, line: nil, path: nil, message: "cannot read the file (\(error.localizedDescription))")
        }
    }

    /// Yams reports a duplicate key at its mapping; point at the repeated line instead.
    private static func secondOccurrence(ofKey key: String, in yaml: String, from line: Int) -> Int? {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        var seen = 0
        for (index, text) in lines.enumerated() where index + 1 >= line {
            var trimmed = text.drop(while: { $0 == " " })
            if trimmed.hasPrefix("- ") { trimmed = trimmed.dropFirst(2).drop(while: { $0 == " " }) }
            guard trimmed.hasPrefix(key) else { continue }
            if trimmed.dropFirst(key.count).drop(while: { $0 == " " }).hasPrefix(":") {
                seen += 1
                if seen == 2 { return index + 1 }
            }
        }
        return nil
    }

    private static func yamlError(_ error: any Error, yaml: String, fileName: String) -> ProjectConfigError {
        guard let yamlError = error as? YamlError else {
            return ProjectConfigError(file: fileName, line: nil, path: nil, message: "not valid YAML: \(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            let where_ = context.map { " (\($0.text) at line \($0.mark.line))" } ?? ""
            return ProjectConfigError(file: fileName, line: mark.line, path: nil, message: "not valid YAML: \(problem)\(where_)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted()
            let line = keys.first.flatMap { secondOccurrence(ofKey: $0, in: yaml, from: context.mark.line) } ?? context.mark.line
            return ProjectConfigError(file: fileName, line: line, path: nil, message: "duplicate key \(keys.map { "'\($0)'" }.joined(separator: ", "))")
        default:
            return ProjectConfigError(file: fileName, line: nil, path: nil, message: "not valid YAML: \(yamlError)")
        }
    }
}

/// Walks the YAML node tree, checking every key and type, then the project rules
/// (`ProjectConfiguration.validate()`), reporting the line of each problem.
private final class ConfigReader {
    let file: String
    /// The node each setting was read from, by path (`users[1].email`), to place rule problems.
    private var nodes: [String: Node] = [:]

    init(file: String) { self.file = file }

    func error(_ node: Node?, _ path: String, _ message: String) -> ProjectConfigError {
        ProjectConfigError(file: file, line: node?.mark?.line, path: path, message: message)
    }

    // MARK: Project

    func readProject(_ root: Node, base: ProjectConfiguration?) throws(ProjectConfigError) -> ProjectConfiguration {
        let entries = try mapping(root, "", allowed: Self.topLevelKeys)
        if base == nil {
            let present = Set(entries.map(\.key))
            if let missing = ProjectConfigLoader.requiredKeys.first(where: { !present.contains($0) }) {
                throw error(root, "", "missing required key '\(missing)'")
            }
        }
        var project = base ?? ProjectConfiguration(
            projectId: "", apiKey: "", authorizedDomains: [], iOSApp: nil, androidApp: nil,
            mobileLinkStyle: .hostingDomain, hostingDomains: [], dynamicLinkDomains: [], actionHandlerURL: nil,
            emailEnumerationProtection: false, codeLifetimes: CodeLifetimes(), rateLimit: RateLimit(),
            defaultLocale: "en", clockStart: Date(timeIntervalSince1970: 0), users: []
        )
        for (key, value) in entries {
            switch key {
            case "projectId": project.projectId = try string(value, key)
            case "apiKey": project.apiKey = try string(value, key)
            case "authorizedDomains": project.authorizedDomains = try list(value, key, item: string)
            case "iosApp": project.iOSApp = try iOSApp(value, key, base: project.iOSApp)
            case "androidApp": project.androidApp = try androidApp(value, key, base: project.androidApp)
            case "mobileLinkStyle": project.mobileLinkStyle = try mobileLinkStyle(value, key)
            case "hostingDomains": project.hostingDomains = try list(value, key, item: string)
            case "dynamicLinkDomains": project.dynamicLinkDomains = try list(value, key, item: string)
            case "actionHandlerUrl": project.actionHandlerURL = try optional(value) { (node) throws(ProjectConfigError) in try string(node, key) }
            case "emailEnumerationProtection": project.emailEnumerationProtection = try bool(value, key)
            case "codeLifetimes": project.codeLifetimes = try codeLifetimes(value, key, base: project.codeLifetimes)
            case "rateLimit": project.rateLimit = try rateLimit(value, key, base: project.rateLimit)
            case "defaultLocale": project.defaultLocale = try string(value, key)
            case "clockStart": project.clockStart = try date(value, key)
            case "users": project.users = try users(value, key)
            case "fieldApps": project.fieldApps = try list(value, key) { (node, itemPath) throws(ProjectConfigError) in try fieldApp(node, itemPath) }
            default: break // `mapping` already rejected unknown keys.
            }
        }
        if let problem = project.validate().min(by: { (line(of: $0) ?? .max) < (line(of: $1) ?? .max) }) {
            throw ProjectConfigError(file: file, line: line(of: problem), path: problem.path, message: problem.message)
        }
        return project.normalized()
    }

    static let topLevelKeys = [
        "projectId", "apiKey", "authorizedDomains", "iosApp", "androidApp", "mobileLinkStyle", "hostingDomains",
        "dynamicLinkDomains", "actionHandlerUrl", "emailEnumerationProtection", "codeLifetimes", "rateLimit",
        "defaultLocale", "clockStart", "users", "fieldApps",
    ]

    /// Where a problem is in this file: its setting, a setting the rule involves, or the nearest
    /// enclosing one (`users[1]` for `users[1].email`); nil when the base project holds it.
    func line(of problem: ProjectProblem) -> Int? {
        for path in [problem.path] + problem.relatedPaths {
            var path = Substring(path)
            while !path.isEmpty {
                if let line = nodes[String(path)]?.mark?.line { return line }
                path = path[..<(path.lastIndex(where: { $0 == "." || $0 == "[" }) ?? path.startIndex)]
            }
        }
        return nil
    }

    // MARK: Sections

    func iOSApp(_ node: Node, _ path: String, base: RegisteredIOSApp?) throws(ProjectConfigError) -> RegisteredIOSApp? {
        if isNull(node) { return nil }
        let entries = try mapping(node, path, allowed: ["bundleId", "appStoreId", "teamId"])
        var bundleID = base?.bundleId
        var appStoreID = base?.appStoreId
        var teamID = base?.teamId
        for (key, value) in entries {
            let keyPath = path + "." + key
            switch key {
            case "bundleId": bundleID = try string(value, keyPath)
            case "appStoreId": appStoreID = try optional(value) { (node) throws(ProjectConfigError) in try digits(node, keyPath) }
            case "teamId": teamID = try optional(value) { (node) throws(ProjectConfigError) in try string(node, keyPath) }
            default: break
            }
        }
        guard let bundleID else { throw error(node, path, "missing required key 'bundleId'") }
        return RegisteredIOSApp(bundleId: bundleID, appStoreId: appStoreID, teamId: teamID)
    }

    func androidApp(_ node: Node, _ path: String, base: RegisteredAndroidApp?) throws(ProjectConfigError) -> RegisteredAndroidApp? {
        if isNull(node) { return nil }
        let entries = try mapping(node, path, allowed: ["packageName", "sha1", "sha256", "latestVersion"])
        var packageName = base?.packageName
        var sha1 = base?.sha1 ?? []
        var sha256 = base?.sha256 ?? []
        var latestVersion = base?.latestVersion
        for (key, value) in entries {
            let keyPath = path + "." + key
            switch key {
            case "packageName": packageName = try string(value, keyPath)
            case "sha1": sha1 = try list(value, keyPath, item: string)
            case "sha256": sha256 = try list(value, keyPath, item: string)
            case "latestVersion": latestVersion = try wholeNumber(value, keyPath)
            default: break
            }
        }
        guard let packageName else { throw error(node, path, "missing required key 'packageName'") }
        guard let latestVersion else { throw error(node, path, "missing required key 'latestVersion'") }
        return RegisteredAndroidApp(packageName: packageName, sha1: sha1, sha256: sha256, latestVersion: latestVersion)
    }

    /// `{name: iOS 3.1, platform: iOS, sdk: ios@11.7.0, linkDomains: [example.page.link]}`.
    func fieldApp(_ node: Node, _ path: String) throws(ProjectConfigError) -> FieldApp {
        let entries = try mapping(node, path, allowed: ["name", "platform", "version", "sdk", "linkDomains"])
        var name: String?
        var platform: Device.Platform?
        var version: Int?
        var sdk: SDKProfile?
        var linkDomains: [String] = []
        for (key, value) in entries {
            let keyPath = path + "." + key
            switch key {
            case "name": name = try string(value, keyPath)
            case "platform":
                let text = try string(value, keyPath)
                guard let read = [Device.Platform.iOS, .android].first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                    throw error(value, keyPath, "expected iOS or android, got \(quoted(text))")
                }
                platform = read
            case "version": version = try wholeNumber(value, keyPath)
            case "sdk":
                let text = try string(value, keyPath)
                do throws(SDKProfileError) {
                    sdk = try SDKProfile.named(text)
                } catch {
                    throw self.error(value, keyPath, error.description)
                }
            case "linkDomains": linkDomains = try list(value, keyPath, item: string)
            default: break
            }
        }
        guard let name else { throw error(node, path, "missing required key 'name'") }
        guard let platform else { throw error(node, path, "missing required key 'platform'") }
        guard let sdk else { throw error(node, path, "missing required key 'sdk'") }
        guard sdk.platform.device == platform else {
            throw error(entries.first { $0.key == "sdk" }?.value, path + ".sdk", "\(sdk.name) is for \(sdk.platform.device.title) apps, and \(quoted(name)) is an \(platform.title) app")
        }
        return FieldApp(name: name, platform: platform, version: version, sdk: sdk, linkDomains: linkDomains)
    }

    func codeLifetimes(_ node: Node, _ path: String, base: CodeLifetimes) throws(ProjectConfigError) -> CodeLifetimes {
        var lifetimes = base
        for (key, value) in try mapping(node, path, allowed: ["passwordReset", "verifyEmail", "emailSignIn"]) {
            let seconds = try duration(value, path + "." + key)
            switch key {
            case "passwordReset": lifetimes.passwordReset = seconds
            case "verifyEmail": lifetimes.verifyEmail = seconds
            case "emailSignIn": lifetimes.emailSignIn = seconds
            default: break
            }
        }
        return lifetimes
    }

    func rateLimit(_ node: Node, _ path: String, base: RateLimit) throws(ProjectConfigError) -> RateLimit {
        var limit = base
        for (key, value) in try mapping(node, path, allowed: ["maxEmails", "window"]) {
            switch key {
            case "maxEmails": limit.maxEmails = try wholeNumber(value, path + "." + key)
            case "window": limit.windowSeconds = try duration(value, path + "." + key)
            default: break
            }
        }
        return limit
    }

    func users(_ node: Node, _ path: String) throws(ProjectConfigError) -> [PresetUser] {
        try list(node, path) { (node, itemPath) throws(ProjectConfigError) in try user(node, itemPath) }
    }

    func user(_ node: Node, _ path: String) throws(ProjectConfigError) -> PresetUser {
        let entries = try mapping(node, path, allowed: ["email", "password", "displayName", "emailVerified", "disabled"])
        var email: String?
        var password: String?
        var displayName: String?
        var verified = false
        var disabled = false
        for (key, value) in entries {
            let keyPath = path + "." + key
            switch key {
            case "email": email = try string(value, keyPath)
            case "password": password = try userPassword(value, keyPath)
            case "displayName": displayName = try optional(value) { (node) throws(ProjectConfigError) in try string(node, keyPath) }
            case "emailVerified": verified = try bool(value, keyPath)
            case "disabled": disabled = try bool(value, keyPath)
            default: break
            }
        }
        guard let email else { throw error(node, path, "missing required key 'email'") }
        guard let password else { throw error(node, path, "missing required key 'password'") }
        return PresetUser(email: email, password: password, displayName: displayName, emailVerified: verified, disabled: disabled)
    }

    // MARK: Structure

    /// The entries of a mapping, rejecting non-string keys, duplicates and keys not in `allowed`.
    func mapping(_ node: Node, _ path: String, allowed: [String]) throws(ProjectConfigError) -> [(key: String, value: Node)] {
        guard case .mapping(let mapping) = node else {
            throw error(node, path, "expected a mapping of settings, got \(describe(node))")
        }
        var entries: [(key: String, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw error(keyNode, path, "expected a setting name, got \(describe(keyNode))")
            }
            let key = scalar.string
            let keyPath = path.isEmpty ? key : path + "." + key
            nodes[keyPath] = value
            guard allowed.contains(key) else {
                let hint = allowed.first { $0.lowercased() == key.lowercased() }.map { " (did you mean '\($0)'?)" }
                    ?? " (known keys: \(allowed.joined(separator: ", ")))"
                throw error(keyNode, keyPath, "unknown key '\(key)'\(hint)")
            }
            if entries.contains(where: { $0.key == key }) {
                throw error(keyNode, keyPath, "duplicate key '\(key)'")
            }
            entries.append((key, value))
        }
        return entries
    }

    func list<Item>(_ node: Node, _ path: String, item: (Node, String) throws(ProjectConfigError) -> Item) throws(ProjectConfigError) -> [Item] {
        guard case .sequence(let sequence) = node else {
            throw error(node, path, "expected a list, got \(describe(node))")
        }
        var items: [Item] = []
        for (index, element) in sequence.enumerated() {
            let itemPath = "\(path)[\(index)]"
            nodes[itemPath] = element
            items.append(try item(element, itemPath))
        }
        return items
    }

    func optional<Value>(_ node: Node, _ read: (Node) throws(ProjectConfigError) -> Value) throws(ProjectConfigError) -> Value? {
        isNull(node) ? nil : try read(node)
    }

    /// The resolved tag (`str`, `int`, `bool`, `null`...): plain `true` is a bool, quoted `"true"` a string.
    func kind(_ node: Node) -> Tag.Name {
        Tag.Name(rawValue: node.tag.rawValue)
    }

    func isNull(_ node: Node) -> Bool {
        if case .scalar = node { return kind(node) == .null }
        return false
    }

    // MARK: Scalars

    func scalar(_ node: Node, _ path: String, expected: String) throws(ProjectConfigError) -> Node.Scalar {
        guard case .scalar(let scalar) = node else {
            throw error(node, path, "expected \(expected), got \(describe(node))")
        }
        return scalar
    }

    func string(_ node: Node, _ path: String) throws(ProjectConfigError) -> String {
        let value = try scalar(node, path, expected: "a string")
        guard kind(node) == .str else {
            throw error(node, path, "expected a string, got \(describe(node)) (quote it to use it as text)")
        }
        return value.string
    }

    func bool(_ node: Node, _ path: String) throws(ProjectConfigError) -> Bool {
        _ = try scalar(node, path, expected: "true or false")
        guard kind(node) == .bool, let result = node.bool else {
            throw error(node, path, "expected true or false, got \(describe(node))")
        }
        return result
    }

    func wholeNumber(_ node: Node, _ path: String) throws(ProjectConfigError) -> Int {
        _ = try scalar(node, path, expected: "a whole number")
        guard kind(node) == .int, let number = node.int else {
            throw error(node, path, "expected a whole number, got \(describe(node))")
        }
        return number
    }

    /// A number of seconds, or a string such as `90s`, `30m`, `1h`, `3d`, `1h30m`: `SimulatedDuration`'s grammar.
    func duration(_ node: Node, _ path: String) throws(ProjectConfigError) -> TimeInterval {
        let value = try scalar(node, path, expected: "a duration such as 1h, 30m or 3d")
        let text: String
        switch kind(node) {
        case .int: text = node.int.map(String.init) ?? value.string
        case .str, .float: text = value.string
        default: throw error(node, path, "\(SimulatedDuration.ParseError.expected), got \(describe(node))")
        }
        do {
            return try SimulatedDuration(parsing: text).timeInterval
        } catch {
            throw self.error(node, path, error.description)
        }
    }

    func date(_ node: Node, _ path: String) throws(ProjectConfigError) -> Date {
        let value = try scalar(node, path, expected: "a UTC time such as 2026-01-15T09:00:00Z")
        guard let date = Self.utcTime(value.string) ?? Self.internetDateTime(value.string) else {
            throw error(node, path, "expected a time such as 2026-01-15T09:00:00Z, got \(describe(node))")
        }
        return date
    }

    /// Any RFC 3339 time, through Foundation's formatter (its first use loads ICU).
    static func internetDateTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// The usual shape, `YYYY-MM-DDTHH:MM:SSZ` with every field in range, read directly: the
    /// project file is loaded on every start. Nil for anything else (the formatter decides).
    static func utcTime(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1970, (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthDays[month - 1]).contains(day) else { return nil }
        // Days since 1970-01-01 (the civil-from-days algorithm, run backwards).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    func userPassword(_ node: Node, _ path: String) throws(ProjectConfigError) -> String {
        let value = try scalar(node, path, expected: "a password")
        guard kind(node) == .str || kind(node) == .int else {
            throw error(node, path, "expected a password string, got \(describe(node))")
        }
        return value.string
    }

    func mobileLinkStyle(_ node: Node, _ path: String) throws(ProjectConfigError) -> MobileLinkStyle {
        let text = try string(node, path)
        guard let style = MobileLinkStyle(rawValue: text) else {
            throw error(node, path, "expected HOSTING_DOMAIN or FIREBASE_DYNAMIC_LINK_DOMAIN, got \(quoted(text))")
        }
        return style
    }

    func digits(_ node: Node, _ path: String) throws(ProjectConfigError) -> String {
        let value = try scalar(node, path, expected: "a number")
        guard kind(node) == .int || kind(node) == .str else {
            throw error(node, path, "expected digits only, got \(describe(node))")
        }
        return value.string
    }

    func quoted(_ text: String) -> String { "'\(UntrustedText.sanitize(text))'" }

    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            switch kind(node) {
            case .null: return "nothing (null)"
            case .bool: return "\(scalar.string) (true/false)"
            case .int, .float: return "\(scalar.string) (a number)"
            default: return quoted(scalar.string)
            }
        }
    }
}
