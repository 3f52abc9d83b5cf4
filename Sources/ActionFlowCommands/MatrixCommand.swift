import ActionFlowBackend
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow matrix`: where the user lands for every device condition, for given settings.
struct MatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Show where a tapped email link lands on every kind of device, for given action code settings.",
        discussion: """
        Builds the email link the project (--project FILE, else the bundled demo) sends for the settings, then routes it for iOS, \
        Android and desktop with the app installed or not, current or too old, links verified or \
        not, and a native mail app or a webmail in-app browser. With --handle-code-in-app off, the \
        Continue column shows where the web widget's Continue button leads. Rules Firebase does not \
        publish are listed as assumptions. Exit status 1 when the SDK or the project would refuse \
        the settings.
        """
    )

    enum LinkStyle: String, ExpressibleByArgument, CaseIterable {
        case hosting
        case dynamicLinks = "dynamic-links"

        var mobileLinkStyle: MobileLinkStyle { self == .hosting ? .hostingDomain : .firebaseDynamicLinkDomain }
    }

    enum RequestType: String, ExpressibleByArgument, CaseIterable {
        case reset, verify, signin

        var oobRequestType: OobRequestType {
            switch self {
            case .reset: .passwordReset
            case .verify: .verifyEmail
            case .signin: .emailSignIn
            }
        }
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    @Option(help: ArgumentHelp("The continue URL (ActionCodeSettings.url).", valueName: "url"))
    var url: String?

    @Flag(help: "Send the link to the app (handleCodeInApp) instead of the web widget first.")
    var handleCodeInApp = false

    @Option(help: ArgumentHelp("The iOS bundle id.", valueName: "id"))
    var iosBundleId: String?

    @Option(help: ArgumentHelp("The Android package name.", valueName: "package"))
    var androidPackageName: String?

    @Flag(help: "Install the Android app when it is missing (androidInstallIfNotAvailable).")
    var androidInstall = false

    @Option(help: ArgumentHelp("The Android minimum version code.", valueName: "code"))
    var androidMinimumVersion: String?

    @Option(help: ArgumentHelp("A Hosting domain of the project for mobile links (linkDomain).", valueName: "domain"))
    var linkDomain: String?

    @Option(help: ArgumentHelp("A legacy Dynamic Links domain (dynamicLinkDomain).", valueName: "domain"))
    var dynamicLinkDomain: String?

    @Option(help: "The project's mobile link style: hosting (current) or dynamic-links (legacy).")
    var linkStyle: LinkStyle?

    @Option(help: "Which email: reset (password reset), verify (email verification) or signin (email-link sign-in).")
    var requestType: RequestType = .reset

    @Option(help: "Output format: text, markdown or json.")
    var format: Format = .text

    @OptionGroup var projectFile: ProjectFileOption

    @Option(help: ArgumentHelp("Also route the email an app on these SDK releases asks for, and read each link the app is opened with as that SDK does: PLATFORM@VERSION, several separated by commas, or all.", valueName: "profiles"))
    var sdk: String?

    @Flag(help: "Show the project's apps in the field (fieldApps) across the move from Dynamic Links to Hosting links, and the association files its link domains serve.")
    var migration = false

    func validate() throws {
        _ = try profiles()
        if migration, sdk != nil { throw ValidationError("--migration shows each field app on its own SDK release; leave --sdk out") }
        if migration, linkStyle != nil { throw ValidationError("--migration shows both link styles; leave --link-style out") }
    }

    /// The profiles `--sdk` names; `all` is each range at the newest release read.
    func profiles() throws -> [SDKProfile] {
        guard let sdk else { return [] }
        if sdk.lowercased() == "all" { return Device.Platform.allCases.flatMap(SDKProfile.choices(for:)) }
        var profiles: [SDKProfile] = []
        for name in sdk.split(separator: ",", omittingEmptySubsequences: false) {
            do throws(SDKProfileError) {
                profiles.append(try SDKProfile.named(String(name).trimmingWhitespace()))
            } catch {
                throw ValidationError("--sdk: \(error.description)")
            }
        }
        return profiles
    }

    var settings: ActionCodeSettings {
        ActionCodeSettings(url: url, handleCodeInApp: handleCodeInApp, iOSBundleID: iosBundleId, androidPackageName: androidPackageName,
                           androidInstallIfNotAvailable: androidInstall, androidMinimumVersion: androidMinimumVersion,
                           dynamicLinkDomain: dynamicLinkDomain, linkDomain: linkDomain)
    }

    func run() throws {
        var project: ProjectConfiguration
        do {
            project = try projectFile.load()
        } catch {
            throw failing("actionflow matrix: \(error)")
        }
        if let linkStyle { project.mobileLinkStyle = linkStyle.mobileLinkStyle }
        let result = migration
            ? Self.renderMigration(settings: settings, requestType: requestType.oobRequestType, project: project, format: format)
            : Self.render(settings: settings, requestType: requestType.oobRequestType, project: project, format: format, sdks: try profiles())
        switch result {
        case .success(let output):
            print(output)
        case .failure(let refusal):
            throw failing(refusal.lines.map { "actionflow matrix: \($0)" }.joined(separator: "\n"), .failure)
        }
    }

    /// Why no email would be sent: SDK validation errors or server rejections, one per line.
    struct Refusal: Error {
        var lines: [String]
    }

    static func render(settings: ActionCodeSettings, requestType: OobRequestType, project: ProjectConfiguration, format: Format, sdks: [SDKProfile] = []) -> Result<String, Refusal> {
        let errors = settings.validate(for: .iOS, requestType: requestType)
        let findings = SettingsFindings.findings(for: settings, requestType: requestType, project: project)
        let rejections = findings.filter { SettingsFindings.rejectedByServer.contains($0.code) }
        guard errors.isEmpty, rejections.isEmpty else {
            return .failure(Refusal(lines: errors.map { "\($0.code) (\($0.field)): \($0.message)" } + rejections.map { "\($0.code): \(UntrustedText.sanitize($0.message))" }))
        }
        let matrix: RoutingMatrix
        var releases: [SDKMatrix] = []
        do throws(Refusal) {
            matrix = try routed(settings, requestType: requestType, project: project)
            for profile in sdks {
                let sent = profile.sends(settings, appBundleID: project.iOSApp?.bundleId)
                let read = try routed(sent.settings, requestType: requestType, project: project).read(by: profile)
                releases.append(SDKMatrix(name: profile.name, range: profile.range, sent: sent.settings, sendNotes: sent.notes, link: read.link, rows: read.rows))
            }
        } catch {
            return .failure(error)
        }
        switch format {
        case .json: return .success(json(matrix, settings: settings, requestType: requestType, project: project, findings: findings, sdks: releases))
        case .text, .markdown:
            var text = table(matrix, findings: findings, markdown: format == .markdown)
            for release in releases { text += "\n\n" + sdkTable(release, base: matrix, markdown: format == .markdown) }
            return .success(text)
        }
    }

    /// The email the project sends for `settings`, routed under every condition.
    static func routed(_ settings: ActionCodeSettings, requestType: OobRequestType, project: ProjectConfiguration) throws(Refusal) -> RoutingMatrix {
        do {
            let link = try ActionLinkBuilder.sampleEmailLink(for: settings, requestType: requestType, clientType: .iOS, project: project)
            return RoutingMatrix.build(link: link, project: project, requested: settings)
        } catch {
            throw Refusal(lines: [UntrustedText.sanitize(error.wireMessage)])
        }
    }

    /// One SDK release's part of the matrix.
    struct SDKMatrix: Encodable {
        var name: String
        var range: String
        /// The settings that release sends for the ones given, and why each change.
        var sent: ActionCodeSettings
        var sendNotes: [String]
        /// The release's routing matrix, its link and rows beside the fields above.
        var link: String
        var rows: [RoutingMatrix.Row]
    }

    /// `--migration`: each field app before and after the switch, and the association files.
    static func renderMigration(settings: ActionCodeSettings, requestType: OobRequestType, project: ProjectConfiguration, format: Format) -> Result<String, Refusal> {
        guard !project.apps.isEmpty else {
            return .failure(Refusal(lines: ["project \(project.projectId) lists no apps in the field: add them under fieldApps in the project file (docs/file-formats.md)"]))
        }
        guard !project.dynamicLinkDomains.isEmpty else {
            return .failure(Refusal(lines: ["project \(project.projectId) has no Dynamic Links domain to move from: add one under dynamicLinkDomains"]))
        }
        let migration = LinkMigration.build(project: project, settings: settings, requestType: requestType)
        let files = associationFiles(project)
        if format == .json {
            struct MigrationJSON: Encodable {
                var requestType: OobRequestType
                var settings: ActionCodeSettings
                var rows: [LinkMigration.Row]
                var associationFiles: [AssociationFiles]
                var assumptions: [String]
            }
            return .success(JSONOutput.commandOutput(MigrationJSON(requestType: requestType, settings: settings, rows: migration.rows, associationFiles: files, assumptions: migration.assumptions)))
        }
        let markdown = format == .markdown
        let bullet = markdown ? "- " : "  "
        func cells(_ app: FieldApp, _ side: LinkMigration.Side) -> [String] {
            let style = side.style == .hostingDomain ? "after: Hosting" : "before: Dynamic Links"
            guard side.refusal == nil else { return [app.name, app.sdk.name, style, "refused", "-", "-", "-"] }
            let anatomy = side.link.flatMap { try? LinkInspector.inspect($0) }
            let lands = side.afterContinue.map { "web widget, then \(describe($0, anatomy: anatomy))" } ?? describe(side.tap, anatomy: anatomy)
            return [app.name, app.sdk.name, style, side.linkDomain ?? "(none)", side.opensApp ? "opens the app" : "does not", lands, side.appReads.map(describe) ?? "-"]
        }
        let header = ["App", "SDK", "Links", "Email's link domain", "Association", "Tap lands in", "The app reads"]
        let rows = migration.rows.flatMap { [cells($0.app, $0.before), cells($0.app, $0.after)] }
        var lines = ["Apps in the field across the move from Dynamic Links to Hosting links (\(requestType.rawValue) email)", ""]
        lines += markdown ? markdownTable(header, rows) : alignedTable(header, rows)
        lines += ["", "Why:"]
        for row in migration.rows {
            // The release sends the same fields under both styles: said once.
            for note in row.after.sendNotes { lines.append("\(bullet)\(row.app.name): \(UntrustedText.sanitize(note))") }
            for side in [row.before, row.after] {
                let label = "\(row.app.name), \(side.style == .hostingDomain ? "after" : "before")"
                if let refusal = side.refusal { lines.append("\(bullet)\(label): the server refuses the request: \(UntrustedText.sanitize(refusal))") }
                if let association = side.association { lines.append("\(bullet)\(label): \(UntrustedText.sanitize(association))") }
            }
        }
        lines += ["", "Association files:"]
        for file in files {
            lines.append("\(bullet)\(file.domain): apple-app-site-association lists \(file.iOSApps.isEmpty ? "no app" : file.iOSApps.joined(separator: ", ")); assetlinks.json lists \(file.androidApps.isEmpty ? "no app" : file.androidApps.joined(separator: ", "))")
        }
        lines += ["", "Assumptions:"] + migration.assumptions.map { "\(bullet)\(UntrustedText.sanitize($0))" }
        return .success(lines.joined(separator: "\n"))
    }

    /// What each link domain of the project serves, as `serve` serves it.
    struct AssociationFiles: Encodable {
        var domain: String
        var iOSApps: [String]
        var androidApps: [String]
        var appleAppSiteAssociation: String
        var assetlinks: String
    }

    static func associationFiles(_ project: ProjectConfiguration) -> [AssociationFiles] {
        (project.hostingDomains + project.dynamicLinkDomains).map { domain in
            AssociationFiles(domain: domain,
                             iOSApps: SiteAssociation.listedIOSApp(project).map { [$0] } ?? [],
                             androidApps: SiteAssociation.listedAndroidApp(project).map { [$0.packageName] } ?? [],
                             appleAppSiteAssociation: SiteAssociation.appleFile(for: project, domain: domain),
                             assetlinks: SiteAssociation.androidFile(for: project))
        }
    }

    // MARK: - Output

    /// Where a route ends, named against the link's action and continue URLs.
    static func describe(_ route: TapRoute?, anatomy: LinkAnatomy?) -> String {
        guard let route else { return "-" }
        let target = route.destination.url
        let what = target == anatomy?.actionURL ? "action URL"
            : target == anatomy?.continueLink?.destination ? "continue URL"
            : UntrustedText.sanitize(target)
        switch route.destination {
        case .app: return "app <- \(what)"
        case .store(let visit): return "\(visit.store.title) (\(visit.purpose.rawValue)), then app <- \(what)"
        case .webWidget: return "web widget"
        case .browser: return "browser: \(what)"
        }
    }

    static func table(_ matrix: RoutingMatrix, findings: [Finding], markdown: Bool) -> String {
        let anatomy = try? LinkInspector.inspect(matrix.link)
        let header = ["Device", "App", "Links", "Mail", "Tap lands in", "Continue leads to"]
        let rows = matrix.rows.map { row in
            [row.condition.osName, row.condition.appLabel, row.condition.linksLabel, row.condition.mailLabel,
             describe(row.tap, anatomy: anatomy), describe(row.afterContinue, anatomy: anatomy)]
        }
        var lines = ["Email link: \(UntrustedText.sanitize(matrix.link))"]
        if let anatomy {
            lines.append("Action URL: \(UntrustedText.sanitize(anatomy.actionURL))")
            if let destination = anatomy.continueLink?.destination {
                lines.append("Continue URL: \(UntrustedText.sanitize(destination))")
            }
        }
        lines.append("")
        lines.append(contentsOf: markdown ? markdownTable(header, rows) : alignedTable(header, rows))
        if !findings.isEmpty {
            lines.append("")
            lines.append("Findings:")
            lines.append(contentsOf: findings.map { "\(markdown ? "- " : "  ")[\($0.severity.rawValue)] \($0.code): \(UntrustedText.sanitize($0.message))" })
        }
        if !matrix.assumptions.isEmpty {
            lines.append("")
            lines.append("Assumptions:")
            lines.append(contentsOf: matrix.assumptions.map { "\(markdown ? "- " : "  ")\(UntrustedText.sanitize($0))" })
        }
        return lines.joined(separator: "\n")
    }

    /// An SDK release's rows: what it sent, the link when it differs, and what its app reads.
    static func sdkTable(_ release: SDKMatrix, base: RoutingMatrix, markdown: Bool) -> String {
        let anatomy = try? LinkInspector.inspect(release.link)
        var lines = ["\(markdown ? "### " : "")App on \(release.name) (\(release.range))"]
        lines += release.sendNotes.map { "\(markdown ? "- " : "  ")\(UntrustedText.sanitize($0))" }
        if release.link != base.link {
            lines.append("Email link: \(UntrustedText.sanitize(release.link))")
        }
        lines.append("")
        let header = ["Device", "App", "Links", "Mail", "Tap lands in", "Continue leads to", "The app reads"]
        let rows = release.rows.map { row in
            [row.condition.osName, row.condition.appLabel, row.condition.linksLabel, row.condition.mailLabel,
             describe(row.tap, anatomy: anatomy), describe(row.afterContinue, anatomy: anatomy), row.appReads.map(describe) ?? "-"]
        }
        lines.append(contentsOf: markdown ? markdownTable(header, rows) : alignedTable(header, rows))
        return lines.joined(separator: "\n")
    }

    /// What the app did with the link, in a table cell.
    static func describe(_ handling: SDKAppHandling) -> String {
        switch handling.outcome {
        case .handles(let operation, _, let continueURL):
            "\(operation.mode ?? operation.rawValue), resumes at \(continueURL.map(UntrustedText.sanitize) ?? "(no continue URL)")"
        case .ignores: "no action found"
        case .throwsError(let message): "throws \(UntrustedText.sanitize(message))"
        case .crashes(let message): "crash: \(UntrustedText.sanitize(message))"
        }
    }

    static func alignedTable(_ header: [String], _ rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        return [line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
    }

    static func markdownTable(_ header: [String], _ rows: [[String]]) -> [String] {
        func line(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingEvery("|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        return [line(header), "|" + String(repeating: "---|", count: header.count)] + rows.map(line)
    }

    struct MatrixJSON: Encodable {
        var link: String
        var requestType: OobRequestType
        var mobileLinkStyle: MobileLinkStyle
        var settings: ActionCodeSettings
        var findings: [Finding]
        var rows: [RoutingMatrix.Row]
        var assumptions: [String]
        /// With `--sdk`: each release's rows.
        var sdks: [SDKMatrix]?
    }

    static func json(_ matrix: RoutingMatrix, settings: ActionCodeSettings, requestType: OobRequestType, project: ProjectConfiguration, findings: [Finding], sdks: [SDKMatrix]) -> String {
        let value = MatrixJSON(link: matrix.link, requestType: requestType, mobileLinkStyle: project.mobileLinkStyle, settings: settings,
                               findings: findings, rows: matrix.rows, assumptions: matrix.assumptions, sdks: sdks.isEmpty ? nil : sdks)
        return JSONOutput.commandOutput(value)
    }
}
