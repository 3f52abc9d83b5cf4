import ActionFlowModel
import Foundation

/// A project file (docs/file-formats.md, "Project configuration") written from an app's own
/// configuration: each value commented with the file and field it came from, and each value
/// those files cannot know written as a placeholder under a `QUESTION:` that says where to
/// find it. Keys it leaves out (code lifetimes, rate limit, locale, clock, preset users) keep
/// the bundled project's values, which simulate the backend and are not the app's.
public enum ProjectFileWriter {
    public static func yaml(_ config: AppConfigFiles) -> String {
        let project = config.projectId?.value ?? "your-project"
        var out: [String] = [
            "# The Firebase project \(project), as its app's own configuration files describe it,",
            "# written by `actionflow project init`. Use it with --project FILE on any command.",
            "# Read from: " + config.files.joined(separator: ", "),
            "# Every value says where it came from; a QUESTION is what those files cannot tell:",
            "# answer it here (the placeholder under it is a guess, used until you do).",
            "",
        ]
        func known(_ key: String, _ sourced: AppConfigFiles.Sourced, indent: String = "") {
            out += ["\(indent)# \(sourced.source)", "\(indent)\(key): \(quoted(sourced.value))"]
        }
        func value(_ key: String, _ sourced: AppConfigFiles.Sourced?, question: String, placeholder: String) {
            if let sourced {
                known(key, sourced)
            } else {
                out += ["# QUESTION: \(question)", "\(key): \(placeholder)"]
            }
        }
        value("projectId", config.projectId, question: "the project id (Firebase console, Project settings).", placeholder: quoted(project))
        value("apiKey", config.apiKey, question: "the Web API key (Firebase console, Project settings).", placeholder: "\"your-api-key\"")

        if let online = config.authorizedDomains {
            out += ["", "# \(online.source)", "authorizedDomains:"] + online.domains.map { "  - \(quoted($0))" }
        } else {
            let defaultDomains = ["localhost", "\(project).firebaseapp.com", "\(project).web.app"]
            out += [
                "",
                "# QUESTION: the hosts continue URLs may point at (Firebase console, Authentication,",
                "# Settings, Authorized domains; or --online asks the project). A new project",
                "# authorizes these; add your own.",
                "authorizedDomains:",
            ] + defaultDomains.map { "  - \(quoted($0))" }
        }

        out += [""]
        if let bundle = config.iOSBundleId {
            out += ["iosApp:"]
            known("bundleId", bundle, indent: "  ")
            out += [
                "  # QUESTION: the App Store id, digits (App Store Connect, App Information, Apple ID).",
                "  appStoreId: null",
                "  # QUESTION: the Apple team id, 10 characters (developer.apple.com, Membership): the",
                "  # association file must name TEAMID.\(bundle.value).",
                "  teamId: null",
            ]
        } else {
            out += ["# No GoogleService-Info.plist was read: no iOS app.", "iosApp: null"]
        }

        out += [""]
        if let package = config.androidPackage {
            if !config.otherAndroidPackages.isEmpty {
                out += ["# The file also lists \(config.otherAndroidPackages.joined(separator: ", ")): --android-package picks another."]
            }
            out += ["androidApp:"]
            known("packageName", package, indent: "  ")
            if config.androidSHA1.isEmpty {
                out += ["  # QUESTION: the SHA-1 fingerprints of the signing keys (none in google-services.json).", "  sha1: []"]
            } else {
                out += ["  sha1:"] + config.androidSHA1.flatMap { ["    # \($0.source)", "    - \(quoted($0.value))"] }
            }
            out += [
                "  # QUESTION: the SHA-256 fingerprints of the signing keys (Play Console, App integrity,",
                "  # or `keytool -list -v`): assetlinks.json must name them. google-services.json has none.",
                "  sha256: []",
                "  # QUESTION: the version code on the Play Store (1: any installed app is current).",
                "  latestVersion: 1",
            ]
        } else {
            out += ["# No google-services.json was read: no Android app.", "androidApp: null"]
        }

        let sites = config.hostingSites.isEmpty
            ? [AppConfigFiles.HostingSite(name: .init(value: project, file: "no firebase.json", field: "the project's default site"), servesNoAssociation: false)]
            : config.hostingSites
        out += [
            "",
            "# Dynamic Links shut down on 25 August 2025: email links open through Hosting.",
            "mobileLinkStyle: HOSTING_DOMAIN",
            "# Hosting domains: each site's two. QUESTION: add a custom domain connected in the",
            "# console (Hosting, Add custom domain); only a custom one can be a request's linkDomain.",
            "hostingDomains:",
        ]
        for site in sites {
            out += ["  # \(site.name.source)" + (site.servesNoAssociation ? " (appAssociation: NONE: it serves no association files)" : "")]
            out += ["  - \(quoted("\(site.name.value).firebaseapp.com"))", "  - \(quoted("\(site.name.value).web.app"))"]
        }
        out += [
            "# QUESTION: a Dynamic Links domain (*.page.link) still in the apps' settings, if any.",
            "dynamicLinkDomains: []",
            "# QUESTION: the builds in users' hands: the SDK release each ships and the link domains",
            "# it claims, e.g. {name: iOS 4.0, platform: iOS, sdk: ios@12.0.0, linkDomains: [\(sites[0].name.value).firebaseapp.com]}.",
            "fieldApps: []",
        ]
        // Comments name files and values from the user's files: one line each, shown safely.
        return out.map { $0.trimmingWhitespace().hasPrefix("#") ? UntrustedText.sanitize($0) : $0 }.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar: the text whole, whatever it holds.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
                out += String(format: "\\x%02X", scalar.value)
            case _ where scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator:
                out += scalar.value > 0xFFFF ? String(format: "\\U%08X", scalar.value) : String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
