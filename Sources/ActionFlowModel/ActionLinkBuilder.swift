/// The app identifiers a mobile link carries (legacy Dynamic Links) or that the Hosting links
/// page uses to open the app.
public struct MobileLinkApps: Sendable, Hashable, Codable {
    public var iOSBundleID: String?
    public var iOSAppStoreID: String?
    public var androidPackageName: String?
    public var androidMinimumVersion: String?
    public var androidInstallApp: Bool

    public init(iOSBundleID: String? = nil, iOSAppStoreID: String? = nil, androidPackageName: String? = nil, androidMinimumVersion: String? = nil, androidInstallApp: Bool = false) {
        self.iOSBundleID = iOSBundleID
        self.iOSAppStoreID = iOSAppStoreID
        self.androidPackageName = androidPackageName
        self.androidMinimumVersion = androidMinimumVersion
        self.androidInstallApp = androidInstallApp
    }

    public init(request: SendOobCodeRequest) {
        self.init(
            iOSBundleID: request.iOSBundleId,
            iOSAppStoreID: request.iOSAppStoreId,
            androidPackageName: request.androidPackageName,
            androidMinimumVersion: request.androidMinimumVersion,
            androidInstallApp: request.androidInstallApp ?? false
        )
    }

    /// True when the request names an app to return to.
    public var namesAnApp: Bool { iOSBundleID != nil || androidPackageName != nil }
}

/// Builds the links an email action sends (docs/sdk-profiles.md).
public enum ActionLinkBuilder {
    /// `HANDLER?mode=...&oobCode=...&apiKey=...&continueUrl=...&lang=...[&tenantId=...]`.
    /// A custom handler that already has a query keeps it.
    public static func actionURL(handler: String, operation: ActionCodeOperation, oobCode: String, apiKey: String, continueURL: String?, lang: String?, tenantId: String?) -> String {
        var query: [(String, String)] = []
        if let mode = operation.mode { query.append(("mode", mode)) }
        query.append(("oobCode", oobCode))
        query.append(("apiKey", apiKey))
        if let continueURL { query.append(("continueUrl", continueURL)) }
        if let lang { query.append(("lang", lang)) }
        if let tenantId { query.append(("tenantId", tenantId)) }
        return appendQuery(query, to: handler)
    }

    /// The mobile link around `payload`: Hosting `https://DOMAIN/__/auth/links?link=...`, or legacy
    /// Dynamic Links `https://DOMAIN/?link=...&apn=&amv=&afl=&ibi=&ifl=&isi=`.
    public static func mobileLink(wrapping payload: String, style: MobileLinkStyle, domain: String, apps: MobileLinkApps) -> String {
        switch style {
        case .hostingDomain:
            return appendQuery([("link", payload)], to: "https://\(domain)/__/auth/links")
        case .firebaseDynamicLinkDomain:
            var query: [(String, String)] = [("link", payload)]
            if let package = apps.androidPackageName {
                query.append(("apn", package))
                if let minimum = apps.androidMinimumVersion { query.append(("amv", minimum)) }
                // Without install-if-not-available a missing app falls back to the web page.
                if !apps.androidInstallApp { query.append(("afl", payload)) }
            }
            if let bundle = apps.iOSBundleID {
                query.append(("ibi", bundle))
                query.append(("ifl", payload))
                if let store = apps.iOSAppStoreID { query.append(("isi", store)) }
            }
            return appendQuery(query, to: "https://\(domain)/")
        }
    }

    /// The link the email carries for a `sendOobCode` request:
    /// - `canHandleCodeInApp`: a mobile link around the action URL, for the app to handle;
    /// - otherwise the action URL (the web widget), whose `continueUrl` is a mobile link around the
    ///   continue URL when the request names an app, so Continue can reopen the app.
    public static func emailLink(for request: SendOobCodeRequest, oobCode: String, lang: String, project: ProjectConfiguration, linkDomain: String) -> String {
        let apps = MobileLinkApps(request: request)
        let operation = ActionCodeOperation(requestType: request.requestType)
        func action(continueURL: String?) -> String {
            actionURL(handler: project.effectiveActionHandlerURL, operation: operation, oobCode: oobCode, apiKey: project.apiKey, continueURL: continueURL, lang: lang, tenantId: request.tenantId)
        }
        if request.canHandleCodeInApp == true {
            return mobileLink(wrapping: action(continueURL: request.continueUrl), style: project.mobileLinkStyle, domain: linkDomain, apps: apps)
        }
        guard let continueURL = request.continueUrl else { return action(continueURL: nil) }
        let returnLink = apps.namesAnApp
            ? mobileLink(wrapping: continueURL, style: project.mobileLinkStyle, domain: linkDomain, apps: apps)
            : continueURL
        return action(continueURL: returnLink)
    }

    /// A sample code: real ones are 54 URL-safe base64 characters.
    public static let sampleOobCode = "EXAMPLE-oobCode-54-url-safe-base64-characters_0123456"

    /// The email link `project` sends for `settings` (with a sample code), as `matrix` shows it;
    /// the server's refusal of a link domain is thrown.
    public static func sampleEmailLink(for settings: ActionCodeSettings, requestType: OobRequestType, clientType: ClientPlatform, project: ProjectConfiguration) throws(AuthFailure) -> String {
        var request = SendOobCodeRequest(requestType: requestType, email: "ada@example.com", settings: settings, clientType: clientType)
        request.iOSAppStoreId = settings.iOSBundleID == project.iOSApp?.bundleId ? project.iOSApp?.appStoreId : nil
        let linkDomain = try project.mobileLinkDomain(for: request)
        return emailLink(for: request, oobCode: sampleOobCode, lang: project.defaultLocale, project: project, linkDomain: linkDomain)
    }

    private static func appendQuery(_ query: [(String, String)], to base: String) -> String {
        var url = base
        var separator: Character? = "?"
        // By byte: `String.contains` of a string goes through Foundation's locale-aware search.
        if base.utf8.contains(UInt8(ascii: "?")) {
            separator = base.hasSuffix("?") || base.hasSuffix("&") ? nil : "&"
        }
        for (name, value) in query {
            if let separator { url.append(separator) }
            url.append(name)
            url.append("=")
            url.append(PercentEncoding.encodeComponent(value))
            separator = "&"
        }
        return url
    }
}
