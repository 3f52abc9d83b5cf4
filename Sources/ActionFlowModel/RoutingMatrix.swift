/// Where the user lands for every device condition that matters, for one email link.
public struct RoutingMatrix: Sendable, Hashable, Codable {
    public struct Condition: Sendable, Hashable, Codable {
        public enum AppVersion: String, Sendable, Hashable, Codable {
            /// The latest version, at or above any minimum.
            case current
            /// Below the requested Android minimum version.
            case tooOld
        }

        public var platform: Device.Platform
        public var appInstalled: Bool
        /// Nil when no app is installed or the platform has no minimum version to compare.
        public var appVersion: AppVersion?
        /// Nil when it cannot matter (no app installed, desktop).
        public var linksVerified: Bool?
        /// Nil when it cannot matter.
        public var mailClient: Device.MailClient?

        public init(platform: Device.Platform, appInstalled: Bool, appVersion: AppVersion?, linksVerified: Bool?, mailClient: Device.MailClient?) {
            self.platform = platform
            self.appInstalled = appInstalled
            self.appVersion = appVersion
            self.linksVerified = linksVerified
            self.mailClient = mailClient
        }

        public var device: Device {
            Device(platform: platform, osName: osName, appInstalled: appInstalled, installedVersion: nil,
                   linksVerified: linksVerified ?? false, mailClient: mailClient ?? .native, mailScanner: false)
        }

        public var osName: String {
            switch platform {
            case .iOS: Device.iPhone.osName
            case .android: Device.pixel.osName
            case .desktop: Device.desktop.osName
            }
        }

        public var appLabel: String {
            guard platform != .desktop else { return "-" }
            guard appInstalled else { return "not installed" }
            switch appVersion {
            case .tooOld: return "installed, too old"
            case .current: return "installed, current"
            case nil: return "installed"
            }
        }

        public var linksLabel: String { linksVerified.map { $0 ? "verified" : "not verified" } ?? "-" }

        public var mailLabel: String {
            switch mailClient {
            case .native: "native mail"
            case .webmailInAppBrowser: "webmail in-app browser"
            case nil: "-"
            }
        }
    }

    public struct Row: Sendable, Hashable, Codable {
        public var condition: Condition
        /// Tapping the email link.
        public var tap: TapRoute
        /// Pressing Continue in the web widget, when the tap lands there and there is a continue URL.
        public var afterContinue: TapRoute?
        /// What an app on an SDK profile does with the link it is opened with (`matrix --sdk`).
        public var appReads: SDKAppHandling?
    }

    public var link: String
    public var rows: [Row]
    /// Every assumption used by any row, once.
    public var assumptions: [String]

    /// Routes `link` (the email the project sent for `requested`) under every condition.
    public static func build(link: String, project: ProjectConfiguration, requested: ActionCodeSettings?) -> RoutingMatrix {
        let rows = conditions(project: project, requested: requested).map { condition in
            var device = condition.device
            device.installedVersion = version(condition.appVersion, project: project, requested: requested)
            let tap = LinkRouter.route(tapped: link, on: device, project: project, requested: requested)
            var afterContinue: TapRoute?
            if case .webWidget(let actionURL) = tap.destination {
                afterContinue = LinkRouter.continueRoute(afterWidget: actionURL, on: device, project: project, requested: requested)
            }
            return Row(condition: condition, tap: tap, afterContinue: afterContinue)
        }
        var assumptions: [String] = []
        for route in rows.flatMap({ [$0.tap] + ($0.afterContinue.map { [$0] } ?? []) }) {
            for assumption in route.assumptions where !assumptions.contains(assumption) {
                assumptions.append(assumption)
            }
        }
        return RoutingMatrix(link: link, rows: rows, assumptions: assumptions)
    }

    /// The rows of `profile`'s platform, each app landing (the tap's, else Continue's) read as
    /// that SDK reads the action URL it is given.
    public func read(by profile: SDKProfile) -> RoutingMatrix {
        var matrix = self
        matrix.rows = rows.filter { $0.condition.platform == profile.platform.device }.map { row in
            var row = row
            row.appReads = Self.appReads(tap: row.tap, afterContinue: row.afterContinue, by: profile)
            return row
        }
        return matrix
    }

    /// What an app on `profile` reads from the URL it is opened with at the end of the tap, or
    /// else of Continue; nil when it is not opened with an action link.
    static func appReads(tap: TapRoute, afterContinue: TapRoute?, by profile: SDKProfile) -> SDKAppHandling? {
        // A continue URL without a code is a page to resume at: the SDK does not read it.
        let opened = [tap, afterContinue].compactMap { $0.flatMap(urlTheAppIsOpenedWith) }.first
        return opened.flatMap { (try? LinkInspector.inspect($0))?.oobCode == nil ? nil : profile.appHandling(of: $0) }
    }

    /// The URL an app is opened with at the end of `route`, when it ends in the app.
    static func urlTheAppIsOpenedWith(_ route: TapRoute) -> String? {
        switch route.destination {
        case .app(let url): url
        case .store(let visit): visit.thenAppReceives
        case .webWidget, .browser: nil
        }
    }

    /// iOS and Android: app installed (current, or too old when a minimum version is requested)
    /// x links verified x mail client, plus app not installed; desktop once.
    static func conditions(project: ProjectConfiguration, requested: ActionCodeSettings?) -> [Condition] {
        var result: [Condition] = []
        for platform in [Device.Platform.iOS, .android] {
            let versions: [Condition.AppVersion?] = platform == .android && requested?.androidMinimumVersion.flatMap(Int.init) != nil
                ? [.current, .tooOld] : [nil]
            for version in versions {
                for verified in [true, false] {
                    for mail in Device.MailClient.allCases {
                        result.append(Condition(platform: platform, appInstalled: true, appVersion: version, linksVerified: verified, mailClient: mail))
                    }
                }
            }
            result.append(Condition(platform: platform, appInstalled: false, appVersion: nil, linksVerified: nil, mailClient: nil))
        }
        result.append(Condition(platform: .desktop, appInstalled: false, appVersion: nil, linksVerified: nil, mailClient: nil))
        return result
    }

    private static func version(_ version: Condition.AppVersion?, project: ProjectConfiguration, requested: ActionCodeSettings?) -> Int? {
        let minimum = requested?.androidMinimumVersion.flatMap(Int.init)
        let latest = max(project.androidApp?.latestVersion ?? 1, minimum ?? 1)
        switch version {
        case .tooOld: return (minimum ?? latest) - 1
        case .current, nil: return latest
        }
    }
}
