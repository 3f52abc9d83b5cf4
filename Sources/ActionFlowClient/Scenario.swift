import ActionFlowBackend
import ActionFlowModel
import Foundation

/// A scripted session with the simulated phone (format: docs/file-formats.md, "Scenario files").
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var description: String
    /// Where the scenario came from, for error messages.
    public var source: String
    public var project: ProjectPatch
    /// The devices the session holds (`devices:`), the first in focus; one by default.
    public var devices: [NamedDevice]
    public var settings: ActionCodeSettings
    public var locale: String?
    public var continueURLBase: String?
    public var steps: [ScenarioStep]

    public init(name: String, description: String, source: String, project: ProjectPatch, device: Device, settings: ActionCodeSettings, locale: String?, continueURLBase: String?, steps: [ScenarioStep]) {
        self.name = name
        self.description = description
        self.source = source
        self.project = project
        devices = [NamedDevice(name: .inferred(from: device), device: device)]
        self.settings = settings
        self.locale = locale
        self.continueURLBase = continueURLBase
        self.steps = steps
    }
}

/// A device of a scenario: its name and how it starts.
public struct NamedDevice: Sendable, Equatable {
    public var name: DeviceName
    public var device: Device

    public init(name: DeviceName, device: Device) {
        self.name = name
        self.device = device
    }
}

extension Scenario {
    /// The devices the scenario starts with, each with the scenario's settings, locale and web origin.
    public var initialDevices: [SessionDevice] {
        devices.map { SessionDevice(name: $0.name, device: $0.device, settings: settings, continueURLBase: continueURLBase, locale: locale) }
    }


    /// A fresh embedded session for this scenario, its project laid over `baseProject`.
    public func embeddedSession(baseProject: ProjectConfiguration) -> SessionDriver {
        SessionDriver.embedded(project: project.applied(to: baseProject), devices: initialDevices)
    }
}

public struct ScenarioStep: Sendable, Equatable {
    /// 1-based position in `steps`.
    public var number: Int
    /// Line in the file, when known.
    public var line: Int?
    public var action: ScenarioAction
    /// What the presenter shows while the step plays, when the scenario gives its own words.
    public var caption: String?
}

/// Which inbox message a step means: `latest` or a 1-based position, oldest first.
public enum MessageReference: Sendable, Equatable, CustomStringConvertible {
    case latest
    case position(Int)

    public var description: String {
        switch self {
        case .latest: "latest"
        case .position(let position): "\(position)"
        }
    }
}

public enum ScenarioAction: Sendable, Equatable {
    /// A user intent sent as is.
    case event(AppEvent)
    case openMessage(MessageReference)
    case tapLink(MessageReference)
    /// Pastes a message's link into the app.
    case pasteMessageLink(MessageReference)
    case changeDevice(DevicePatch)
    case changeSettings(SettingsPatch)
    /// `project: {mobileLinkStyle: HOSTING_DOMAIN}`: the project changes and the world restarts with it.
    case changeProject(ProjectPatch)
    case expect([Expectation])
    /// The named device takes the focus: the following steps happen on it.
    case focus(DeviceName)
    /// Expectations about the named device, whichever is in focus.
    case expectOn(DeviceName, [Expectation])
}

/// A preset user of the project in use, named in a step's text (`$verified.email`), so that a
/// scenario follows whichever project it is played against.
public struct UserPlaceholder: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The first user with a verified email who is not disabled.
        case verified
        /// The first user with an unverified email who is not disabled.
        case unverified
    }

    public enum Field: String, Sendable, CaseIterable {
        case email, password
    }

    public var kind: Kind
    public var field: Field

    /// Every placeholder, as written in a scenario.
    public static let all: [String] = Kind.allCases.flatMap { kind in Field.allCases.map { "$\(kind.rawValue).\($0.rawValue)" } }

    /// Text starting with `$` is meant as a placeholder, known or misspelt.
    public static func isPlaceholder(_ text: String) -> Bool { text.hasPrefix("$") }

    public init?(_ text: String) {
        let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard Self.isPlaceholder(text), parts.count == 2,
              let kind = Kind(rawValue: String(parts[0])), let field = Field(rawValue: String(parts[1])) else { return nil }
        self.kind = kind
        self.field = field
    }

    /// The user's email or password in `project`; nil when the project has no such user.
    public func value(in project: ProjectConfiguration) -> String? {
        let user = project.users.first { !$0.disabled && $0.emailVerified == (kind == .verified) }
        return user.map { field == .email ? $0.email : $0.password }
    }
}

/// What a scenario checks at a point; each is reported in the transcript.
public enum Expectation: Sendable, Equatable, CustomStringConvertible {
    /// The app is in front, showing this route (`/articles/42`).
    case landsAt(String)
    /// The device shows this: `app`, `mailbox`, `webWidget`, `store`, `browser`, or an app screen
    /// name (`signIn`, `forgotPassword`, `verifyEmail`, `newPassword`, `confirmEmailForSignIn`).
    case screen(String)
    /// The error showing (banner or web widget page) has this server code.
    case fails(AuthErrorCode)
    /// No error is showing.
    case noError
    /// The app's cached user says this.
    case emailVerified(Bool)
    /// The inbox holds this many messages.
    case mailbox(Int)
    /// Signed in as this email, or signed out (nil).
    case signedIn(String?)
    case subscribed(Bool)
    /// The flow's step, or no flow (nil).
    case flowStep(FlowStep?)
    /// Some narration line since the previous expectation contains this text.
    case narrates(String)
    /// The last tapped link went here: `app`, `web widget`, `browser`, `Play Store`, `App Store`.
    case linkOpensIn(String)
    /// The store page asks to `install` or `upgrade`.
    case store(StorePage.Purpose)
    /// The settings last sent, or the last link, has this finding (`continue-url.personal-data`).
    case finding(String)

    public var description: String {
        switch self {
        case .landsAt(let path): "landsAt \(path)"
        case .screen(let name): "screen \(name)"
        case .fails(let code): "fails \(code.rawValue)"
        case .noError: "noError"
        case .emailVerified(let verified): "emailVerified \(verified)"
        case .mailbox(let count): "mailbox \(count)"
        case .signedIn(let email): "signedIn \(email ?? "false")"
        case .subscribed(let subscribed): "subscribed \(subscribed)"
        case .flowStep(let step): "flowStep \(step?.rawValue ?? "none")"
        case .narrates(let text): "narrates \"\(text)\""
        case .linkOpensIn(let place): "linkOpensIn \(place)"
        case .store(let purpose): "store \(purpose.rawValue)"
        case .finding(let code): "finding \(code)"
        }
    }
}

/// Device fields a scenario sets; nil leaves the field as it is.
public struct DevicePatch: Sendable, Equatable {
    public var platform: Device.Platform?
    public var osName: String?
    public var appInstalled: Bool?
    /// `.some(nil)` removes the version.
    public var installedVersion: Int??
    public var linksVerified: Bool?
    public var mailClient: Device.MailClient?
    public var mailScanner: Bool?
    public var appKilledBeforeTap: Bool?
    /// `.some(nil)` takes the SDK profile away.
    public var sdk: SDKProfile??
    public var passesWholeLink: Bool?
    /// `.some(nil)` claims whichever domain the project's links use again.
    public var linkDomains: [String]??

    public init() {}

    /// `killApp`: the app's process is gone before the next tap.
    public static var appKilled: DevicePatch {
        var patch = DevicePatch()
        patch.appKilledBeforeTap = true
        return patch
    }

    public func applied(to device: Device) -> Device {
        var device = device
        if let platform { device.platform = platform }
        if let osName { device.osName = osName }
        if let appInstalled { device.appInstalled = appInstalled }
        if let installedVersion { device.installedVersion = installedVersion }
        if let linksVerified { device.linksVerified = linksVerified }
        if let mailClient { device.mailClient = mailClient }
        if let mailScanner { device.mailScanner = mailScanner }
        if let appKilledBeforeTap { device.appKilledBeforeTap = appKilledBeforeTap }
        if let sdk { device.sdk = sdk }
        if let passesWholeLink { device.passesWholeLink = passesWholeLink }
        if let linkDomains { device.linkDomains = linkDomains?.map { $0.lowercased() } }
        return device
    }
}

/// Settings fields a scenario sets; `.some(nil)` clears an optional field.
public struct SettingsPatch: Sendable, Equatable {
    public var url: String??
    public var handleCodeInApp: Bool?
    public var iOSBundleID: String??
    public var androidPackageName: String??
    public var androidInstallIfNotAvailable: Bool?
    public var androidMinimumVersion: String??
    public var dynamicLinkDomain: String??
    public var linkDomain: String??

    public init() {}

    public func applied(to settings: ActionCodeSettings) -> ActionCodeSettings {
        var settings = settings
        if let url { settings.url = url }
        if let handleCodeInApp { settings.handleCodeInApp = handleCodeInApp }
        if let iOSBundleID { settings.iOSBundleID = iOSBundleID }
        if let androidPackageName { settings.androidPackageName = androidPackageName }
        if let androidInstallIfNotAvailable { settings.androidInstallIfNotAvailable = androidInstallIfNotAvailable }
        if let androidMinimumVersion { settings.androidMinimumVersion = androidMinimumVersion }
        if let dynamicLinkDomain { settings.dynamicLinkDomain = dynamicLinkDomain }
        if let linkDomain { settings.linkDomain = linkDomain }
        return settings
    }
}

/// Project fields a scenario overrides; nil keeps the base project's value.
public struct ProjectPatch: Sendable, Equatable {
    public var authorizedDomains: [String]?
    public var mobileLinkStyle: MobileLinkStyle?
    public var emailEnumerationProtection: Bool?
    public var actionHandlerURL: String??
    public var androidLatestVersion: Int?
    public var hostingDomains: [String]?
    public var dynamicLinkDomains: [String]?
    public var rateLimitMaxEmails: Int?
    public var passwordResetLifetime: TimeInterval?
    public var verifyEmailLifetime: TimeInterval?
    public var emailSignInLifetime: TimeInterval?

    public init() {}

    public var isEmpty: Bool { self == ProjectPatch() }

    public func applied(to project: ProjectConfiguration) -> ProjectConfiguration {
        var project = project
        if let authorizedDomains { project.authorizedDomains = authorizedDomains }
        if let mobileLinkStyle { project.mobileLinkStyle = mobileLinkStyle }
        if let emailEnumerationProtection { project.emailEnumerationProtection = emailEnumerationProtection }
        if let actionHandlerURL { project.actionHandlerURL = actionHandlerURL }
        if let androidLatestVersion { project.androidApp?.latestVersion = androidLatestVersion }
        if let hostingDomains { project.hostingDomains = hostingDomains }
        if let dynamicLinkDomains { project.dynamicLinkDomains = dynamicLinkDomains }
        if let rateLimitMaxEmails { project.rateLimit.maxEmails = rateLimitMaxEmails }
        if let passwordResetLifetime { project.codeLifetimes.passwordReset = passwordResetLifetime }
        if let verifyEmailLifetime { project.codeLifetimes.verifyEmail = verifyEmailLifetime }
        if let emailSignInLifetime { project.codeLifetimes.emailSignIn = emailSignInLifetime }
        return project
    }

    /// `applied(to:)`, held to the rules every project meets; a broken rule is reported against
    /// the scenario's `project` key that sets it (`passwordResetLifetime`, `authorizedDomains[1]`).
    public func validated(appliedTo base: ProjectConfiguration, source: String) throws(ScenarioFileError) -> ProjectConfiguration {
        let project = applied(to: base)
        if let problem = project.validate().first {
            throw ScenarioFileError(file: source, key: Self.scenarioKeys[problem.path] ?? problem.path, message: problem.message)
        }
        return project.normalized()
    }

    /// Project file paths whose scenario key is spelled differently.
    static let scenarioKeys = [
        "actionHandlerUrl": "actionHandlerURL",
        "androidApp.latestVersion": "androidLatestVersion",
        "rateLimit.maxEmails": "rateLimitMaxEmails",
        "codeLifetimes.passwordReset": "passwordResetLifetime",
        "codeLifetimes.verifyEmail": "verifyEmailLifetime",
        "codeLifetimes.emailSignIn": "emailSignInLifetime",
    ]
}

/// A scenario file that cannot be used: says which file, where, which key and what was expected.
public struct ScenarioFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var step: Int?
    public var key: String?
    public var message: String

    public var description: String {
        var place = UntrustedText.sanitize(file)
        if let line { place += ":\(line)" }
        var parts = [place]
        if let step { parts.append("step \(step)") }
        if let key { parts.append("`\(UntrustedText.sanitize(key))`") }
        return parts.joined(separator: ": ") + ": " + UntrustedText.sanitize(message)
    }
}
