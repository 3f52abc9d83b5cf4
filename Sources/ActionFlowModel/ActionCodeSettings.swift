/// Client-side `ActionCodeSettings`, named as in the iOS SDK (docs/sdk-profiles.md).
public struct ActionCodeSettings: Sendable, Equatable, Hashable, Codable {
    /// The continue (state) URL, kept as typed: validation decides whether it is usable.
    public var url: String?
    public var handleCodeInApp: Bool
    /// iOS clients send their own bundle id unless told otherwise.
    public var iOSBundleID: String?
    public var androidPackageName: String?
    public var androidInstallIfNotAvailable: Bool
    public var androidMinimumVersion: String?
    /// Legacy Firebase Dynamic Links domain (removed in iOS SDK 12; FDL shut down 2025-08-25).
    public var dynamicLinkDomain: String?
    /// Current: custom Firebase Hosting domain for mobile links.
    public var linkDomain: String?

    public init(
        url: String? = nil,
        handleCodeInApp: Bool = false,
        iOSBundleID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallIfNotAvailable: Bool = false,
        androidMinimumVersion: String? = nil,
        dynamicLinkDomain: String? = nil,
        linkDomain: String? = nil
    ) {
        self.url = url
        self.handleCodeInApp = handleCodeInApp
        self.iOSBundleID = iOSBundleID
        self.androidPackageName = androidPackageName
        self.androidInstallIfNotAvailable = androidInstallIfNotAvailable
        self.androidMinimumVersion = androidMinimumVersion
        self.dynamicLinkDomain = dynamicLinkDomain
        self.linkDomain = linkDomain
    }

    /// The settings an iOS app gets by default: its own bundle id, everything else unset.
    public static func iOSDefault(bundleID: String) -> ActionCodeSettings {
        ActionCodeSettings(iOSBundleID: bundleID)
    }
}

/// Which SDK builds the request: decides `clientType` and the client-side checks.
public enum ClientPlatform: String, Sendable, Codable, CaseIterable {
    case iOS = "CLIENT_TYPE_IOS"
    case android = "CLIENT_TYPE_ANDROID"
    case web = "CLIENT_TYPE_WEB"
}
