/// A trip to an app store on the way to the app.
public struct StoreVisit: Sendable, Hashable, Codable {
    public enum Store: String, Sendable, Hashable, Codable {
        case appStore, playStore

        public var title: String { self == .appStore ? "App Store" : "Play Store" }
    }

    public enum Purpose: String, Sendable, Hashable, Codable {
        case install, upgrade
    }

    public var store: Store
    public var purpose: Purpose
    /// The Android package name or iOS App Store id.
    public var appID: String
    /// The URL the app receives once installed or upgraded.
    public var thenAppReceives: String

    public init(store: Store, purpose: Purpose, appID: String, thenAppReceives: String) {
        self.store = store
        self.purpose = purpose
        self.appID = appID
        self.thenAppReceives = thenAppReceives
    }
}

/// Where a tapped link takes the user.
public enum TapDestination: Sendable, Hashable, Codable {
    /// The app opens and receives this URL (the mobile link's payload).
    case app(url: String)
    case store(StoreVisit)
    /// The hosted email action handler page (default, custom or emulator handler).
    case webWidget(actionURL: String)
    /// Any other web page, such as the continue URL.
    case browser(url: String)

    /// A short label for tables.
    public var summary: String {
        switch self {
        case .app: "app"
        case .store(let visit): "\(visit.store.title) (\(visit.purpose.rawValue)), then app"
        case .webWidget: "web widget"
        case .browser: "browser"
        }
    }

    /// The URL shown or received at the destination.
    public var url: String {
        switch self {
        case .app(let url), .webWidget(let url), .browser(let url): url
        case .store(let visit): visit.thenAppReceives
        }
    }
}

/// The outcome of tapping a link, with the reasoning in protocol terms.
public struct TapRoute: Sendable, Hashable, Codable {
    public var destination: TapDestination
    /// What happens, one step per line.
    public var steps: [String]
    /// Every rule used that Firebase does not publish, each starting with "assumed".
    public var assumptions: [String]

    public init(destination: TapDestination, steps: [String], assumptions: [String]) {
        self.destination = destination
        self.steps = steps
        self.assumptions = assumptions
    }
}

/// Decides where a tapped email link lands on a device (docs/sdk-profiles.md, "The app on the device"), for Hosting and
/// legacy Dynamic Links, for both `handleCodeInApp` values. A mail scanner that pre-opens links is
/// not routing: the client flow handles it.
public enum LinkRouter {
    /// - Parameter requested: the settings the app sent with `sendOobCode`, which the simulated
    ///   backend keeps. Hosting links carry no app parameters, so routing them relies on these and
    ///   on the project's registered apps; nil means "unknown": the registered apps are assumed.
    public static func route(tapped url: String, on device: Device, project: ProjectConfiguration, requested: ActionCodeSettings?) -> TapRoute {
        var routing = Routing(device: device, project: project)
        var ignoredFindings: [Finding] = []
        guard let link = try? LinkInspector.clean(url).link,
              let chain = try? LinkInspector.unwrap(link, lenient: true, findings: &ignoredFindings),
              let payload = chain.last
        else {
            routing.step("\(device.osName): \(url) is not a link that can be read; the browser tries to open it as it is")
            return routing.finish(.browser(url: url))
        }
        guard let wrapper = chain.links.first, wrapper.layer.kind.isWrapper else {
            return routing.plainWebPage(payload)
        }
        routing.step("Tapped a \(wrapper.layer.kind.title) on \(wrapper.split.host) wrapping \(describe(payload))")
        let targets = AppTargets(wrapper: wrapper, requested: requested, project: project, routing: &routing)
        routing.payload = payload
        switch device.platform {
        case .desktop:
            routing.step("\(device.osName): no app can open links here; the browser follows the link")
            return routing.fallback(to: targets.otherFallback, domain: wrapper.split.host)
        case .iOS:
            return routing.iOS(targets, domain: wrapper.split.host)
        case .android:
            return routing.android(targets, domain: wrapper.split.host)
        }
    }

    /// Where the web widget's Continue button leads once the code is handled there
    /// (`handleCodeInApp == false`); nil when the action URL has no continue URL.
    public static func continueRoute(afterWidget actionURL: String, on device: Device, project: ProjectConfiguration, requested: ActionCodeSettings?) -> TapRoute? {
        guard let continueURL = (try? LinkInspector.inspect(actionURL))?.continueUrl else { return nil }
        var route = route(tapped: continueURL, on: device, project: project, requested: requested)
        route.steps.insert("The web widget handled the code; its Continue button opens \(continueURL)", at: 0)
        route.assumptions.append("assumed: pressing Continue is a user tap, so universal links and app links fire as they do from a mail app")
        return route
    }

    static func describe(_ payload: LinkInspector.ChainLink) -> String {
        if payload.isAction, let mode = payload.layer.value("mode") {
            return "the action URL (mode \(mode))"
        }
        return payload.isAction ? "the action URL" : "the continue URL \(payload.layer.url)"
    }
}

/// The apps a mobile link can open, read from the link (Dynamic Links) or from the request and
/// the project (Hosting links).
struct AppTargets {
    var iOSBundleID: String?
    var iOSAppStoreID: String?
    var androidPackageName: String?
    var androidMinimumVersion: String?
    var androidInstall: Bool
    var iOSFallback: String?
    var androidFallback: String?
    var otherFallback: String?
    var isDynamicLink: Bool

    init(wrapper: LinkInspector.ChainLink, requested: ActionCodeSettings?, project: ProjectConfiguration, routing: inout Routing) {
        let layer = wrapper.layer
        isDynamicLink = layer.kind == .dynamicLinkWrapper
        if isDynamicLink {
            iOSBundleID = layer.value("ibi")
            iOSAppStoreID = layer.value("isi")
            androidPackageName = layer.value("apn")
            androidMinimumVersion = layer.value("amv")
            iOSFallback = layer.value("ifl")
            androidFallback = layer.value("afl")
            otherFallback = layer.value("ofl")
            // Dynamic Links send users without the app to the store unless a fallback is given.
            androidInstall = androidPackageName != nil && androidFallback == nil
            routing.assume("assumed: Dynamic Links behave as they did before their 2025-08-25 shutdown (today such links open nothing)")
        } else if let requested {
            iOSBundleID = requested.iOSBundleID
            iOSAppStoreID = project.iOSApp?.appStoreId
            androidPackageName = requested.androidPackageName
            androidMinimumVersion = requested.androidMinimumVersion
            androidInstall = requested.androidInstallIfNotAvailable
            routing.assume("assumed: a Hosting link carries no app parameters; the app ids, install and minimum version come from the settings the app sent, and the link domain's association files list the project's registered apps")
        } else {
            iOSBundleID = project.iOSApp?.bundleId
            iOSAppStoreID = project.iOSApp?.appStoreId
            androidPackageName = project.androidApp?.packageName
            androidInstall = false
            routing.assume("assumed: the settings the app sent are unknown; the Hosting link opens the project's registered apps, without install or minimum version")
        }
    }
}

/// Collects steps and assumptions while a route is decided.
struct Routing {
    let device: Device
    let project: ProjectConfiguration
    var payload: LinkInspector.ChainLink?
    var steps: [String] = []
    var assumptions: [String] = []

    mutating func step(_ text: String) { steps.append(text) }

    /// The domains the installed build claims, as the narration lists them.
    var claimed: String {
        let domains = device.linkDomains ?? []
        return domains.isEmpty ? "none" : domains.joined(separator: ", ")
    }

    mutating func assume(_ text: String) {
        if !assumptions.contains(text) { assumptions.append(text) }
    }

    func finish(_ destination: TapDestination) -> TapRoute {
        TapRoute(destination: destination, steps: steps, assumptions: assumptions)
    }

    /// A URL that is not a mobile link: the action handler page or any other page.
    mutating func plainWebPage(_ link: LinkInspector.ChainLink) -> TapRoute {
        if link.isAction {
            step("\(device.osName): \(link.split.host)\(link.split.path) is the email action handler, not a mobile link; no app claims it and the browser opens the hosted page")
            return finish(.webWidget(actionURL: link.layer.url))
        }
        step("\(device.osName): \(link.layer.url) is not a mobile link; the browser opens it")
        return finish(.browser(url: link.layer.url))
    }

    /// The web page a mobile link falls back to: a fallback parameter, else its payload.
    mutating func fallback(to fallbackURL: String?, domain: String) -> TapRoute {
        if let fallbackURL {
            var ignored: [Finding] = []
            step("The link's fallback page opens: \(fallbackURL)")
            if let payload, payload.layer.url == fallbackURL {
                return plainWebPage(payload)
            }
            if let chain = try? LinkInspector.unwrap(fallbackURL, lenient: true, findings: &ignored), let last = chain.last {
                return plainWebPage(last)
            }
            step("The link's fallback \(fallbackURL) is not a URL; the browser tries it as it is")
            return finish(.browser(url: fallbackURL))
        }
        guard let payload else { return finish(.browser(url: domain)) }
        if payload.isAction {
            step("The links page on \(domain) opens the action URL in the browser: the hosted action handler")
            return finish(.webWidget(actionURL: payload.layer.url))
        }
        step("The links page on \(domain) opens the continue URL in the browser")
        return finish(.browser(url: payload.layer.url))
    }

    private func openApp() -> TapRoute {
        finish(.app(url: payload?.layer.url ?? ""))
    }

    mutating func iOS(_ targets: AppTargets, domain: String) -> TapRoute {
        let os = device.osName
        guard let bundle = targets.iOSBundleID else {
            step("\(os): the link names no iOS app (no \(targets.isDynamicLink ? "ibi" : "iOSBundleID")), so no app can claim it")
            return fallback(to: targets.iOSFallback, domain: domain)
        }
        guard bundle == project.iOSApp?.bundleId else {
            step("\(os): \(bundle) is not registered in project \(project.projectId), so the associated-domains file of \(domain) does not list it")
            return fallback(to: targets.iOSFallback, domain: domain)
        }
        guard device.appInstalled else {
            if targets.isDynamicLink, targets.iOSFallback == nil, let store = targets.iOSAppStoreID {
                step("\(os): \(bundle) is not installed and the link has no ifl: the App Store opens (isi \(store)); after installing, the first launch receives the link")
                assume("assumed: after an App Store install the app's first launch receives the link (Dynamic Links deferred deep link)")
                return finish(.store(StoreVisit(store: .appStore, purpose: .install, appID: store, thenAppReceives: payload?.layer.url ?? "")))
            }
            step("\(os): \(bundle) is not installed; universal links have no app to open")
            return fallback(to: targets.iOSFallback, domain: domain)
        }
        guard device.mailClient == .native else {
            step("\(os): the webmail app opens the link in its in-app browser, where universal links do not fire")
            return fallback(to: targets.iOSFallback, domain: domain)
        }
        guard device.claims(domain) else {
            step("\(os): the installed build does not claim \(domain) (its associated domains: \(claimed)), so Safari opens the link")
            return fallback(to: targets.iOSFallback, domain: domain)
        }
        guard device.linksVerified else {
            step("\(os): universal links are not verified for \(domain) (associated domains), so Safari opens the link")
            return fallback(to: targets.iOSFallback, domain: domain)
        }
        step("\(os): universal link verified for \(domain), \(bundle) installed, opened from the native mail app: the app opens and receives the payload")
        return openApp()
    }

    mutating func android(_ targets: AppTargets, domain: String) -> TapRoute {
        let os = device.osName
        guard let package = targets.androidPackageName else {
            step("\(os): the link names no Android app (no \(targets.isDynamicLink ? "apn" : "androidPackageName")), so no app can claim it")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        guard let registered = project.androidApp, registered.packageName == package else {
            step("\(os): \(package) is not registered in project \(project.projectId), so app links for \(domain) cannot name it")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        guard !(registered.sha1.isEmpty && registered.sha256.isEmpty) else {
            step("\(os): \(package) has no SHA-1/SHA-256 fingerprint registered, so its app links for \(domain) cannot be verified")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        guard device.appInstalled else {
            if targets.androidInstall {
                step("\(os): \(package) is not installed and install was requested (\(targets.isDynamicLink ? "no afl" : "androidInstallApp")): the Play Store opens to install it, then the app receives the link")
                return finish(.store(StoreVisit(store: .playStore, purpose: .install, appID: package, thenAppReceives: payload?.layer.url ?? "")))
            }
            step("\(os): \(package) is not installed and install was not requested")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        guard device.mailClient == .native else {
            step("\(os): the webmail app opens the link in its in-app browser, which does not hand links to apps")
            assume("assumed: Android webmail in-app browsers, like iOS ones, do not hand links to apps")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        guard device.claims(domain) else {
            step("\(os): the installed build does not claim \(domain) (its verified intent filters: \(claimed)), so the browser opens the link")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        guard device.linksVerified else {
            step("\(os): app links are not verified for \(domain), so the browser opens the link")
            return fallback(to: targets.androidFallback, domain: domain)
        }
        var versionNote = ""
        if let minimum = targets.androidMinimumVersion {
            assume("assumed: the minimum version is compared only once an app link reaches the installed app")
            let installed = device.installedVersion ?? 0
            if let required = Int(minimum) {
                if installed < required {
                    step("\(os): app link verified for \(domain), but \(package) v\(installed) is older than the minimum version \(required) the link asks for: the Play Store opens to upgrade, then the app receives the link")
                    return finish(.store(StoreVisit(store: .playStore, purpose: .upgrade, appID: package, thenAppReceives: payload?.layer.url ?? "")))
                }
                versionNote = ", app v\(installed) meets the minimum version \(required)"
            } else {
                assume("assumed: minimum version \"\(minimum)\" is not a version code, so any installed version satisfies it")
            }
        }
        step("\(os): app link verified for \(domain)\(versionNote): the app opens")
        return openApp()
    }
}
