/// The phone (or computer) on which the user taps the email link (protocol.md section 5).
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

    public init(platform: Platform, osName: String, appInstalled: Bool, installedVersion: Int?, linksVerified: Bool, mailClient: MailClient, mailScanner: Bool, appKilledBeforeTap: Bool = false) {
        self.platform = platform
        self.osName = osName
        self.appInstalled = appInstalled
        self.installedVersion = installedVersion
        self.linksVerified = linksVerified
        self.mailClient = mailClient
        self.mailScanner = mailScanner
        self.appKilledBeforeTap = appKilledBeforeTap
    }

    public static let iPhone = Device(platform: .iOS, osName: "iOS 18", appInstalled: true, installedVersion: 11, linksVerified: true, mailClient: .native, mailScanner: false)
    public static let pixel = Device(platform: .android, osName: "Android 14", appInstalled: true, installedVersion: 11, linksVerified: true, mailClient: .native, mailScanner: false)
    public static let desktop = Device(platform: .desktop, osName: "Desktop browser", appInstalled: false, installedVersion: nil, linksVerified: false, mailClient: .native, mailScanner: false)
}
