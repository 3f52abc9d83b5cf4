import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import ArgumentParser
import Foundation

/// `actionflow doctor`: a project and its link domains, checked as iOS and Android meet them.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a project's link domains and settings as iOS and Android meet them.",
        discussion: """
        For each link domain (by default every Hosting and Dynamic Links domain the project \
        names), fetches https://DOMAIN/.well-known/apple-app-site-association and \
        /.well-known/assetlinks.json as the platforms do (HTTPS, no redirect followed) and checks \
        them against the project's apps; then checks the project's own settings. Prints ✓ passed, \
        ✗ failed, ? not knowable from what was given, each with its rule's source (docs/doctor.md). \
        Exit status: 0 when nothing failed, 1 when something did, 2 when the checks could not run.
        """
    )

    // Read in `run`, not by the parser, so that an unreadable file exits 2 as the checks do.
    @Option(name: .customLong("project"), help: ArgumentHelp("The project file to check (default: the bundled demo project).", valueName: "file"))
    var projectFile: String?

    @Option(name: .customLong("domain"), help: ArgumentHelp("A link domain to check instead of the project's (HOST or HOST:PORT; repeat for more).", valueName: "host"))
    var domains: [String] = []

    @Option(name: .customLong("from"), parsing: .upToNextOption, help: ArgumentHelp("The app's firebase.json (and .firebaserc), or a folder holding them: check its Hosting rules too.", valueName: "path"))
    var configurationPaths: [String] = []

    @Option(name: .customLong("continue-url"), help: ArgumentHelp("A continue URL the app sends, to check its host is authorized (repeat for more).", valueName: "url"))
    var continueURLs: [String] = []

    @Option(help: ArgumentHelp("Trust the CA certificates in this PEM file instead of the system's, as curl's --cacert.", valueName: "file"))
    var cacert: String?

    @Option(name: .customLong("resolve"), help: ArgumentHelp("Send HOST:PORT to ADDRESS instead of what DNS says, as curl's --resolve (repeat for more).", valueName: "host:port:address"))
    var resolves: [String] = []

    @Option(help: "Seconds each fetch may take.")
    var timeout: Double = 5

    @Flag(help: "One JSON object: {project, checks: [{status, subject, text, source, onThePhone, domain, platform}], failed}; domain and platform name a failed association file.")
    var json = false

    struct Report: Encodable {
        var project: String
        var domains: [String]
        var checks: [DoctorCheck]
        var failed: Bool
    }

    func run() async throws {
        let loaded: ProjectConfiguration
        let configuration: AppConfigFiles?
        let targets: [(host: String, authority: String)]
        let fetcher: AssociationFetcher
        do {
            loaded = try ProjectFileOption.load(projectFile)
            configuration = configurationPaths.isEmpty ? nil : try AppConfigReader.read(configurationPaths, knownProject: .init(value: loaded.projectId, file: "the project file's projectId", field: nil))
            let resolve = try resolves.map { text in
                guard let parsed = AssociationFetcher.Resolve(text) else { throw ValidationError("--resolve \(UntrustedText.sanitize(text)): expected HOST:PORT:ADDRESS") }
                return parsed
            }
            // The demo project's domains are examples: nothing is fetched from an address the user did not name.
            targets = try (domains.isEmpty ? (LinkDomainDoctor.hasExampleDomains(loaded) ? [] : LinkDomainDoctor.linkDomains(loaded)) : domains).map(Self.target)
            for entry in resolve where !targets.contains(where: { $0.host == entry.host && Self.port(of: $0.authority) == entry.port }) {
                throw ValidationError("--resolve \(entry.host):\(entry.port): no domain checked is fetched there")
            }
            guard (0.1...600).contains(timeout) else { throw ValidationError("--timeout must be between 0.1 and 600 seconds") }
            fetcher = try AssociationFetcher(caCertificates: cacert, resolve: resolve, timeoutSeconds: timeout)
        } catch {
            throw failing("actionflow doctor: \(error)")
        }
        var checks = await Self.checks(loaded, authorities: targets.map(\.authority), continueURLs: continueURLs, fetcher: fetcher)
            + (configuration?.hostingChecks(loaded) ?? [])
        if targets.isEmpty {
            checks.insert(DoctorCheck(.unknown, "project \(loaded.projectId)", "the demo project's link domains are examples and were not fetched: give --project FILE (actionflow project init) or --domain HOST",
                                      source: "docs/doctor.md, Link domains"), at: 0)
        }
        await fetcher.shutdown()
        let failed = checks.contains { $0.status == .fail }
        if json {
            let report = Report(project: loaded.projectId, domains: targets.map(\.authority), checks: checks, failed: failed)
            print(try JSONOutput.string(report, format: .command))
        } else {
            print(Self.text(checks))
        }
        if failed { throw ExitCode.failure }
    }

    /// Every check: each domain's association files for the apps the project has, then the
    /// project's own settings.
    static func checks(_ project: ProjectConfiguration, authorities: [String], continueURLs: [String], fetcher: AssociationFetcher) async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        for authority in authorities {
            for platform in LinkDomainDoctor.Platform.allCases where platform == .apple ? project.iOSApp != nil : project.androidApp != nil {
                let fetched = await fetcher.fetch(authority: authority, path: platform.path, limit: LinkDomainDoctor.fetchLimit)
                checks += LinkDomainDoctor.checkFile(platform, domain: authority, fetched: fetched, project: project)
            }
        }
        return checks + LinkDomainDoctor.projectChecks(project, continueURLs: continueURLs)
    }

    /// The interface's check (the Project pane): the project's own link domains, the system's
    /// trust roots, five seconds a fetch.
    static let forInterface: @Sendable (ProjectConfiguration, [String]) async -> [DoctorCheck] = { project, continueURLs in
        let authorities = LinkDomainDoctor.linkDomains(project)
        guard let fetcher = try? AssociationFetcher(caCertificates: nil, resolve: [], timeoutSeconds: 5) else { return LinkDomainDoctor.projectChecks(project, continueURLs: continueURLs) }
        let checks = await checks(project, authorities: authorities, continueURLs: continueURLs, fetcher: fetcher)
        await fetcher.shutdown()
        return checks
    }

    /// `HOST` or `HOST:PORT`, checked: a domain name, never a URL.
    static func target(_ text: String) throws -> (host: String, authority: String) {
        let lowered = text.lowercased()
        let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
        let host = String(parts[0])
        let valid = (parts.count == 1 || (parts.count == 2 && Int(parts[1]).map { (1...65535).contains($0) } == true))
            && !host.isEmpty && host.count <= 253 && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        guard valid else { throw ValidationError("--domain \(UntrustedText.sanitize(text)): expected a domain name, such as links.example.com or links.example.com:8443") }
        return (host, lowered)
    }

    static func port(of authority: String) -> Int {
        authority.split(separator: ":").dropFirst().first.flatMap { Int($0) } ?? 443
    }

    static func text(_ checks: [DoctorCheck]) -> String {
        var lines: [String] = []
        var subject: String?
        for check in checks {
            if check.subject != subject {
                subject = check.subject
                if !lines.isEmpty { lines.append("") }
                lines.append(check.subject)
            }
            lines.append("  \(check.status.mark) \(check.text)  [\(check.source)]")
            if check.status == .fail, let phone = check.onThePhone { lines.append("      on the phone: \(phone)") }
        }
        let count = LinkDomainDoctor.counts(checks)
        lines += ["", "\(count.passed) passed, \(count.failed) failed, \(count.unknown) not knowable from what was given"]
        return lines.map(UntrustedText.sanitize).joined(separator: "\n")
    }
}
