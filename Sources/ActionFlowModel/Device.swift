/// The phone (or computer) on which the user taps the email link (docs/sdk-profiles.md, "The app on the device").
public struct Device: Sendable, Hashable, Codable {
    public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
        case iOS, android, desktop

        /// The platform's name as people write it.
        public var title: String {
            switch self {
            case .iOS: "iOS"
            case .android: "Android"
            case .desktop: "Desktop"
            }
        }
    }

    public enum MailClient: String, Sendable, Hashable, Codable, CaseIterable {
        /// Opens links in the system browser, so universal links / app links fire.
        case native
        /// A webmail app's in-app browser, where universal links do not fire.
        case webmailInAppBrowser
    }

    public var platform: Platform
    /// Shown in the phone frame, e.g. "Android 14".
    public var osName: String
    public var appInstalled: Bool
    /// The installed app version code (Android) or build number (iOS).
    public var installedVersion: Int?
    /// Universal links (iOS associated domains) or app links (Android, SHA registered) verified
    /// for the link domain.
    public var linksVerified: Bool
    public var mailClient: MailClient
    /// A mail security scanner pre-opens every link, consuming single-use codes.
    public var mailScanner: Bool
    /// The app's process is gone when the next link arrives (the system killed it, or the user
    /// swiped it away): it cold-starts from the link with nothing in memory.
    public var appKilledBeforeTap: Bool
    /// The SDK and version the app is built on (`ios@11.15.0`): the app reads links as that
    /// SDK does. Nil is an app that reads every link as Firebase documents it.
    public var sdk: SDKProfile?
    /// The app hands its SDK the whole link the system opened it with, a Hosting wrapper
    /// included, rather than the action URL inside it (docs/sdk-profiles.md: apps do either).
    public var passesWholeLink: Bool
    /// The link domains the installed build claims (iOS associated domains, Android verified
    /// intent filters); nil claims whichever domain the project's links use.
    public var linkDomains: [String]?

    public init(platform: Platform, osName: String, appInstalled: Bool, installedVersion: Int?, linksVerified: Bool, mailClient: MailClient, mailScanner: Bool, appKilledBeforeTap: Bool = false, sdk: SDKProfile? = nil, passesWholeLink: Bool = false, linkDomains: [String]? = nil) {
        self.platform = platform
        self.osName = osName
        self.appInstalled = appInstalled
        self.installedVersion = installedVersion
        self.linksVerified = linksVerified
        self.mailClient = mailClient
        self.mailScanner = mailScanner
        self.appKilledBeforeTap = appKilledBeforeTap
        self.sdk = sdk
        self.passesWholeLink = passesWholeLink
        self.linkDomains = linkDomains
    }

    /// Whether the installed build claims `domain`.
    public func claims(_ domain: String) -> Bool {
        linkDomains.map { $0.contains { $0.lowercased() == domain.lowercased() } } ?? true
    }

    /// Files written before the app's SDK was chosen have no `sdk`, `passesWholeLink` or `linkDomains`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        platform = try container.decode(Platform.self, forKey: .platform)
        osName = try container.decode(String.self, forKey: .osName)
        appInstalled = try container.decode(Bool.self, forKey: .appInstalled)
        installedVersion = try container.decodeIfPresent(Int.self, forKey: .installedVersion)
        linksVerified = try container.decode(Bool.self, forKey: .linksVerified)
        mailClient = try container.decode(MailClient.self, forKey: .mailClient)
        mailScanner = try container.decode(Bool.self, forKey: .mailScanner)
        appKilledBeforeTap = try container.decode(Bool.self, forKey: .appKilledBeforeTap)
        sdk = try container.decodeIfPresent(SDKProfile.self, forKey: .sdk)
        passesWholeLink = try container.decodeIfPresent(Bool.self, forKey: .passesWholeLink) ?? false
        linkDomains = try container.decodeIfPresent([String].self, forKey: .linkDomains)
    }

    public static let iPhone = Device(platform: .iOS, osName: "iOS 18", appInstalled: true, installedVersion: 11, linksVerified: true, mailClient: .native, mailScanner: false)
    public static let pixel = Device(platform: .android, osName: "Android 14", appInstalled: true, installedVersion: 11, linksVerified: true, mailClient: .native, mailScanner: false)
    public static let desktop = Device(platform: .desktop, osName: "Desktop browser", appInstalled: false, installedVersion: nil, linksVerified: false, mailClient: .native, mailScanner: false)
}
