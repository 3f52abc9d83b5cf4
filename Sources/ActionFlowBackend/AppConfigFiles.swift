import ActionFlowModel
import Foundation

/// What a Firebase app's own configuration files say about its project, each value with the
/// file and field it came from: `GoogleService-Info.plist` (iOS), `google-services.json`
/// (Android), `firebase.json` and `.firebaserc` (Hosting). `actionflow project init` writes a
/// project file from it (`ProjectFileWriter`).
public struct AppConfigFiles: Sendable, Equatable {
    /// A value and where it came from: the file (as named, without its folder) and the field.
    public struct Sourced: Sendable, Equatable {
        public var value: String
        public var file: String
        public var field: String?
        /// As the project file's comment says it: `google-services.json: project_info.project_id`.
        public var source: String { field.map { "\(file): \($0)" } ?? file }

        public init(value: String, file: String, field: String?) {
            self.value = value
            self.file = file
            self.field = field
        }
    }

    /// A redirect or rewrite of `firebase.json` that takes an association file's path.
    public struct AssociationRule: Sendable, Equatable {
        /// `redirects` or `rewrites`.
        public var kind: String
        /// Its `source` glob or `regex`.
        public var pattern: String
        public var path: String
        /// Where it is: `firebase.json: hosting[0].redirects[1]`.
        public var source: String
    }

    /// Authorized domains as the project's public configuration gave them, and where from.
    public struct AuthorizedDomains: Sendable, Equatable {
        public var domains: [String]
        public var source: String

        public init(domains: [String], source: String) {
            self.domains = domains
            self.source = source
        }
    }

    /// A Hosting site a `firebase.json` entry serves, and whether it serves association files.
    public struct HostingSite: Sendable, Equatable {
        public var name: Sourced
        /// `appAssociation: NONE`: the site serves no `apple-app-site-association` or `assetlinks.json`.
        public var servesNoAssociation: Bool
        /// Redirects and rewrites whose `source` or `regex` matches an association file's path.
        public var rulesOnAssociationFiles: [AssociationRule] = []
    }

    /// The files read, as named on the command line or found in a folder.
    public var files: [String] = []
    public var projectId: Sourced?
    public var projectNumber: Sourced?
    public var apiKey: Sourced?
    public var iOSBundleId: Sourced?
    public var androidPackage: Sourced?
    /// The Android apps a `google-services.json` lists besides the one taken.
    public var otherAndroidPackages: [String] = []
    /// SHA-1 certificate hashes of the Android app's OAuth clients, as `AA:BB:…`.
    public var androidSHA1: [Sourced] = []
    public var hostingSites: [HostingSite] = []
    /// The project's authorized domains from its public configuration (`--online`).
    public var authorizedDomains: AuthorizedDomains?
}

/// A configuration file that cannot be used, with the file and the field at fault.
public struct AppConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var field: String?
    public var message: String

    public var description: String {
        UntrustedText.sanitize(file + (field.map { ": " + $0 } ?? "") + ": " + message)
    }
}

public enum AppConfigReader {
    /// Configuration files are a few kilobytes; anything larger is not one.
    static let sizeLimit = 1 << 20
    /// Folders below a given folder searched for the files, and those never searched.
    static let searchDepth = 5
    static let skippedFolders: Set<String> = ["node_modules", "Pods", "build", "DerivedData", ".build", ".git", ".gradle", ".dart_tool"]

    /// Reads every file named, and the configuration files found in every folder named.
    /// `androidPackage` picks the app of a `google-services.json` that lists several.
    /// `knownProject` names the project when the files do not (a `firebase.json` read alone).
    public static func read(_ paths: [String], androidPackage: String? = nil, knownProject: AppConfigFiles.Sourced? = nil) throws(AppConfigError) -> AppConfigFiles {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw AppConfigError(file: path, message: "no such file or folder")
            }
            if isFolder.boolValue {
                let found = configurationFiles(in: URL(fileURLWithPath: path), depth: searchDepth)
                guard !found.isEmpty else {
                    throw AppConfigError(file: path, message: "holds no GoogleService-Info.plist, google-services.json, firebase.json or .firebaserc (searched \(searchDepth) folders deep)")
                }
                files += found
            } else {
                files.append(path)
            }
        }
        var result = AppConfigFiles()
        var rc: (file: String, document: [String: Any])?
        var hosting: (file: String, document: [String: Any])?
        for file in files {
            let data = try contents(of: file)
            switch try kind(of: data, file: file) {
            case .plist(let document): try readServiceInfo(document, file: file, into: &result)
            case .googleServices(let document): try readGoogleServices(document, file: file, androidPackage: androidPackage, into: &result)
            case .firebaseJSON(let document): hosting = (file, document)
            case .firebaserc(let document): rc = (file, document)
            }
            result.files.append(file)
        }
        if let rc { try readFirebaserc(rc.document, file: rc.file, into: &result) }
        if let knownProject, let named = result.projectId, named.value != knownProject.value {
            throw AppConfigError(file: named.file, field: named.field,
                                 message: "is '\(named.value)', but \(knownProject.source) is '\(knownProject.value)': these files belong to another project")
        }
        if result.projectId == nil { result.projectId = knownProject }
        if let hosting { try readHosting(hosting.document, file: hosting.file, targets: rc.map { targets($0.document, project: result.projectId?.value) } ?? [:], into: &result) }
        guard result.projectId != nil else {
            throw AppConfigError(file: files.joined(separator: ", "), message: "none of these names the project: give a GoogleService-Info.plist, a google-services.json or a .firebaserc")
        }
        return result
    }

    /// The configuration files in `folder` and below, in a stable order.
    static func configurationFiles(in folder: URL, depth: Int) -> [String] {
        guard depth >= 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var found: [String] = []
        for name in entries.sorted() {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                if !name.hasPrefix("."), !skippedFolders.contains(name) { found += configurationFiles(in: url, depth: depth - 1) }
            } else if ["GoogleService-Info.plist", "google-services.json", "firebase.json", ".firebaserc"].contains(name) {
                found.append(url.path)
            }
        }
        return found
    }

    private static func contents(of file: String) throws(AppConfigError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: file) else { throw AppConfigError(file: file, message: "cannot be read") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: sizeLimit + 1)) ?? Data()
        guard data.count <= sizeLimit else { throw AppConfigError(file: file, message: "is larger than 1 MiB: not a Firebase configuration file") }
        guard !data.isEmpty else { throw AppConfigError(file: file, message: "is empty") }
        return data
    }

    private enum Kind {
        case plist([String: Any])
        case googleServices([String: Any])
        case firebaseJSON([String: Any])
        case firebaserc([String: Any])
    }

    /// What a file is, by its content: a name can be anything, a copy or a download.
    private static func kind(of data: Data, file: String) throws(AppConfigError) -> Kind {
        let name = (file as NSString).lastPathComponent
        if data.starts(with: Data("bplist".utf8)) || data.starts(with: Data("<?xml".utf8)) || data.starts(with: Data("<plist".utf8)) {
            guard let document = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw AppConfigError(file: file, message: "is not a readable property list (cut, or not a GoogleService-Info.plist)")
            }
            return .plist(document)
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw AppConfigError(file: file, message: "is not valid JSON (cut?): \(error.localizedDescription)")
        }
        guard let document = parsed as? [String: Any] else { throw AppConfigError(file: file, message: "is JSON, but not an object: not a Firebase configuration file") }
        if document["project_info"] != nil || name == "google-services.json" { return .googleServices(document) }
        if document["projects"] != nil || document["targets"] != nil || name == ".firebaserc" { return .firebaserc(document) }
        if name == "firebase.json" || document["hosting"] != nil { return .firebaseJSON(document) }
        throw AppConfigError(file: file, message: "is not a Firebase configuration file (expected GoogleService-Info.plist, google-services.json, firebase.json or .firebaserc)")
    }

    private static func readServiceInfo(_ plist: [String: Any], file: String, into result: inout AppConfigFiles) throws(AppConfigError) {
        let name = (file as NSString).lastPathComponent
        func value(_ key: String) throws(AppConfigError) -> AppConfigFiles.Sourced {
            guard let text = plist[key] as? String, !text.isEmpty else {
                throw AppConfigError(file: file, field: key, message: "missing: is this an iOS app's GoogleService-Info.plist?")
            }
            return .init(value: text, file: name, field: key)
        }
        try agree(&result.projectId, try value("PROJECT_ID"), file: file)
        if plist["GCM_SENDER_ID"] != nil { try agree(&result.projectNumber, try value("GCM_SENDER_ID"), file: file) }
        if result.apiKey == nil { result.apiKey = try value("API_KEY") }
        result.iOSBundleId = try value("BUNDLE_ID")
    }

    private static func readGoogleServices(_ json: [String: Any], file: String, androidPackage: String?, into result: inout AppConfigFiles) throws(AppConfigError) {
        let name = (file as NSString).lastPathComponent
        guard let info = json["project_info"] as? [String: Any] else {
            throw AppConfigError(file: file, field: "project_info", message: "missing: is this an Android app's google-services.json?")
        }
        guard let projectId = info["project_id"] as? String, !projectId.isEmpty else { throw AppConfigError(file: file, field: "project_info.project_id", message: "missing") }
        try agree(&result.projectId, .init(value: projectId, file: name, field: "project_info.project_id"), file: file)
        if let number = info["project_number"] as? String {
            try agree(&result.projectNumber, .init(value: number, file: name, field: "project_info.project_number"), file: file)
        }
        let clients = (json["client"] as? [[String: Any]]) ?? []
        let packages = clients.map { (($0["client_info"] as? [String: Any])?["android_client_info"] as? [String: Any])?["package_name"] as? String }
        guard !clients.isEmpty, packages.allSatisfy({ $0 != nil }) else {
            throw AppConfigError(file: file, field: "client[].client_info.android_client_info.package_name", message: "missing: the file lists no Android app")
        }
        let index: Int
        if let androidPackage {
            guard let found = packages.firstIndex(of: androidPackage) else {
                throw AppConfigError(file: file, field: "client", message: "lists no app \(androidPackage) (it lists \(packages.compactMap { $0 }.joined(separator: ", ")))")
            }
            index = found
        } else {
            index = 0
        }
        let client = clients[index]
        result.androidPackage = .init(value: packages[index] ?? "", file: name, field: "client[\(index)].client_info.android_client_info.package_name")
        result.otherAndroidPackages = packages.enumerated().filter { $0.offset != index }.compactMap(\.element)
        if let key = ((client["api_key"] as? [[String: Any]])?.first?["current_key"] as? String), result.apiKey == nil {
            result.apiKey = .init(value: key, file: name, field: "client[\(index)].api_key[0].current_key")
        }
        for (offset, oauth) in ((client["oauth_client"] as? [[String: Any]]) ?? []).enumerated() {
            guard let android = oauth["android_info"] as? [String: Any], let hash = android["certificate_hash"] as? String else { continue }
            guard hash.count == 40, hash.allSatisfy(\.isHexDigit) else {
                throw AppConfigError(file: file, field: "client[\(index)].oauth_client[\(offset)].android_info.certificate_hash", message: "is not a SHA-1 fingerprint (40 hex digits)")
            }
            let fingerprint = stride(from: 0, to: 40, by: 2).map { hash.dropFirst($0).prefix(2).uppercased() }.joined(separator: ":")
            if !result.androidSHA1.contains(where: { $0.value == fingerprint }) {
                result.androidSHA1.append(.init(value: fingerprint, file: name, field: "client[\(index)].oauth_client[\(offset)].android_info.certificate_hash"))
            }
        }
    }

    private static func readFirebaserc(_ json: [String: Any], file: String, into result: inout AppConfigFiles) throws(AppConfigError) {
        guard let projects = json["projects"] as? [String: Any] else { return }
        guard let chosen = projects["default"] as? String ?? (projects.count == 1 ? projects.values.first as? String : nil) else { return }
        let field = projects["default"] != nil ? "projects.default" : "projects.\(projects.keys.first ?? "")"
        try agree(&result.projectId, .init(value: chosen, file: (file as NSString).lastPathComponent, field: field), file: file)
    }

    /// `.firebaserc`'s Hosting targets for the project: target name to site names.
    private static func targets(_ json: [String: Any], project: String?) -> [String: [String]] {
        guard let project, let targets = ((json["targets"] as? [String: Any])?[project] as? [String: Any])?["hosting"] as? [String: Any] else { return [:] }
        return targets.compactMapValues { $0 as? [String] }
    }

    private static func readHosting(_ json: [String: Any], file: String, targets: [String: [String]], into result: inout AppConfigFiles) throws(AppConfigError) {
        let name = (file as NSString).lastPathComponent
        let entries: [[String: Any]]
        switch json["hosting"] {
        case nil: return
        case let single as [String: Any]: entries = [single]
        case let several as [[String: Any]]: entries = several
        default: throw AppConfigError(file: file, field: "hosting", message: "is neither an object nor a list of objects")
        }
        for (index, entry) in entries.enumerated() {
            let field = entries.count == 1 ? "hosting" : "hosting[\(index)]"
            let association = entry["appAssociation"] as? String ?? "AUTO"
            guard ["AUTO", "NONE"].contains(association) else {
                throw AppConfigError(file: file, field: "\(field).appAssociation", message: "is '\(association)': Firebase takes AUTO or NONE")
            }
            var sites: [AppConfigFiles.Sourced] = []
            if let site = entry["site"] as? String {
                sites = [.init(value: site, file: name, field: "\(field).site")]
            } else if let target = entry["target"] as? String {
                sites = (targets[target] ?? []).map { .init(value: $0, file: name, field: "\(field).target \(target), .firebaserc targets") }
            } else if let project = result.projectId?.value {
                // No site named: the project's default site, named after the project.
                sites = [.init(value: project, file: name, field: "\(field) (the default site)")]
            }
            var rules: [AppConfigFiles.AssociationRule] = []
            for kind in ["redirects", "rewrites"] {
                for (offset, rule) in ((entry[kind] as? [[String: Any]]) ?? []).enumerated() {
                    let glob = rule["source"] as? String
                    let regex = rule["regex"] as? String
                    guard let pattern = glob ?? regex else { continue }
                    for path in associationPaths where (glob.map { HostingPattern.glob($0, matches: path) } ?? regex.map { HostingPattern.regex($0, matches: path) } ?? false) {
                        rules.append(.init(kind: kind, pattern: pattern, path: path, source: "\(name): \(field).\(kind)[\(offset)]"))
                    }
                }
            }
            for site in sites where !result.hostingSites.contains(where: { $0.name.value == site.value }) {
                result.hostingSites.append(.init(name: site, servesNoAssociation: association == "NONE", rulesOnAssociationFiles: rules))
            }
        }
    }

    static let associationPaths = ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"]

    /// Keeps the first file's value of a field every file names; a different one is an error
    /// naming both files: the files of two projects do not make one project.
    private static func agree(_ kept: inout AppConfigFiles.Sourced?, _ value: AppConfigFiles.Sourced, file: String) throws(AppConfigError) {
        if let kept, kept.value != value.value {
            throw AppConfigError(file: file, field: value.field,
                                 message: "is '\(value.value)', but \(kept.source) is '\(kept.value)': these files belong to different projects")
        }
        kept = kept ?? value
    }
}

/// Firebase Hosting's URL patterns in `firebase.json`: a `source` glob (`**` any path, `*` one
/// segment, `?` one character, `{a,b}` either) or a `regex` (RE2, read here as ICU's), matched
/// against the whole path.
enum HostingPattern {
    static func glob(_ pattern: String, matches path: String) -> Bool {
        var regex = "^"
        var inBraces = false
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*" where characters.first == "*":
                characters.removeFirst()
                regex += ".*"
            case "*": regex += "[^/]*"
            case "?": regex += "[^/]"
            case "{": inBraces = true; regex += "(?:"
            case "}" where inBraces: inBraces = false; regex += ")"
            case "," where inBraces: regex += "|"
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return Self.regex(regex + "$", matches: path)
    }

    static func regex(_ pattern: String, matches path: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern.hasPrefix("^") ? pattern : "^(?:\(pattern))$") else { return false }
        return expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }
}

extension AppConfigFiles {
    /// `firebase.json`'s Hosting rules for each site that serves the project's links: association
    /// files turned off, and redirects or rewrites that take their paths (docs/doctor.md, "Hosting").
    public func hostingChecks(_ project: ProjectConfiguration) -> [DoctorCheck] {
        let linkDomains = Set(LinkDomainDoctor.linkDomains(project) + [project.defaultHostingDomain])
        let source = "docs/doctor.md, Hosting"
        let phone = "the link opens the browser, not the app"
        var checks: [DoctorCheck] = []
        for site in hostingSites {
            let domains = ["\(site.name.value).firebaseapp.com", "\(site.name.value).web.app"].filter(linkDomains.contains)
            guard !domains.isEmpty else { continue }
            let subject = "site \(site.name.value) (\(site.name.source))"
            if site.servesNoAssociation {
                checks.append(DoctorCheck(.fail, subject, "appAssociation is NONE: \(domains.joined(separator: ", ")) serve links but no association files", source: source, onThePhone: phone))
            } else {
                checks.append(DoctorCheck(.pass, subject, "serves association files (appAssociation AUTO)", source: source))
            }
            for rule in site.rulesOnAssociationFiles {
                if rule.kind == "redirects" {
                    checks.append(DoctorCheck(.fail, subject, "\(rule.source) '\(rule.pattern)' redirects \(rule.path): Hosting applies redirects before content, and the platforms follow no redirect",
                                              source: source, onThePhone: phone))
                } else {
                    checks.append(DoctorCheck(.unknown, subject, "\(rule.source) '\(rule.pattern)' rewrites \(rule.path): assumed Hosting's own association file comes first; the fetch above shows what is served",
                                              source: source))
                }
            }
        }
        return checks
    }
}
