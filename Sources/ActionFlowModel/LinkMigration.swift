/// The apps in the field across the project's move from Dynamic Links to Hosting links: for each
/// build, what the email carries before and after the switch, where its link lands and what the
/// app's SDK reads from it.
public struct LinkMigration: Sendable, Hashable, Encodable {
    /// One build under one link style.
    public struct Side: Sendable, Hashable, Encodable {
        public var style: MobileLinkStyle
        /// What the build's SDK sends for the settings, and why each change.
        public var sent: ActionCodeSettings
        public var sendNotes: [String]
        /// The email link; nil when the server refuses the request (`refusal`).
        public var link: String?
        public var refusal: String?
        /// The mobile link's domain, and whether the build opens links on it (association).
        public var linkDomain: String?
        public var association: String?
        public var opensApp: Bool
        public var tap: TapRoute?
        /// Where the web widget's Continue leads, when the tap lands there.
        public var afterContinue: TapRoute?
        public var appReads: SDKAppHandling?
    }

    public struct Row: Sendable, Hashable, Encodable {
        public var app: FieldApp
        public var before: Side
        public var after: Side
    }

    public var rows: [Row]
    /// Every assumption used, once.
    public var assumptions: [String]

    /// Each field app of `project`, for the email `requestType` with `settings`, before (Dynamic
    /// Links, the project's first Dynamic Links domain) and after (Hosting links) the switch.
    public static func build(project: ProjectConfiguration, settings: ActionCodeSettings, requestType: OobRequestType) -> LinkMigration {
        var assumptions = [SiteAssociation.assumption]
        let rows = project.apps.map { app in
            let sides = [MobileLinkStyle.firebaseDynamicLinkDomain, .hostingDomain].map { style in
                var styled = project
                styled.mobileLinkStyle = style
                let side = side(app, style: style, project: styled, settings: settings, requestType: requestType)
                for assumption in (side.tap?.assumptions ?? []) + (side.afterContinue?.assumptions ?? []) where !assumptions.contains(assumption) {
                    assumptions.append(assumption)
                }
                return side
            }
            return Row(app: app, before: sides[0], after: sides[1])
        }
        return LinkMigration(rows: rows, assumptions: assumptions)
    }

    static func side(_ app: FieldApp, style: MobileLinkStyle, project: ProjectConfiguration, settings: ActionCodeSettings, requestType: OobRequestType) -> Side {
        let sent = app.sdk.sends(settings, appBundleID: project.iOSApp?.bundleId)
        var side = Side(style: style, sent: sent.settings, sendNotes: sent.notes, opensApp: false)
        let clientType: ClientPlatform = app.platform == .android ? .android : .iOS
        do {
            side.link = try ActionLinkBuilder.sampleEmailLink(for: sent.settings, requestType: requestType, clientType: clientType, project: project)
        } catch {
            side.refusal = error.wireMessage
            return side
        }
        guard let link = side.link else { return side }
        let anatomy = try? LinkInspector.inspect(link)
        // The domain the system checks: the email's wrapper, else the continue URL's wrapper.
        let wrapper = anatomy?.outerWrapper ?? anatomy?.continueLink?.layers.first { $0.kind.isWrapper }
        var device = Device(platform: app.platform, osName: app.platform == .iOS ? Device.iPhone.osName : Device.pixel.osName,
                            appInstalled: true, installedVersion: app.version, linksVerified: false, mailClient: .native, mailScanner: false, sdk: app.sdk)
        if let domain = wrapper?.host {
            let check = SiteAssociation.check(app, domain: domain, project: project)
            side.linkDomain = domain
            side.association = check.reason
            side.opensApp = check.opens
            device.linksVerified = check.opens
        }
        let tap = LinkRouter.route(tapped: link, on: device, project: project, requested: sent.settings)
        side.tap = tap
        if case .webWidget(let actionURL) = tap.destination {
            side.afterContinue = LinkRouter.continueRoute(afterWidget: actionURL, on: device, project: project, requested: sent.settings)
        }
        side.appReads = RoutingMatrix.appReads(tap: tap, afterContinue: side.afterContinue, by: app.sdk)
        return side
    }
}
