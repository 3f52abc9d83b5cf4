import ActionFlowModel
import Foundation

/// The app on the device: its screens, cached user, flow and settings. The world it talks to
/// (project, mailbox, clock) is the session's, not the app's.
public struct AppState: Sendable, Equatable, Codable {
    /// The newsletter app's current screen.
    public var screen: AppScreen = .articles
    /// The signed-in user as the app caches it; stale until reloaded with `accounts:lookup`.
    public var session: CachedUser?
    /// Where the user was going when the app asked them to sign in or verify.
    public var pendingDestination: AppScreen?
    /// The email action flow in progress, if any.
    public var flow: FlowProgress?
    /// Which app the user is looking at on the device.
    public var location: DeviceLocation = .app
    public var device: Device
    /// The settings template the app sends; `url` nil means "the screen the user was trying to reach".
    public var settings: ActionCodeSettings
    /// The settings sent with the last `sendOobCode`: routing a Hosting link depends on them.
    public var sentSettings: ActionCodeSettings?
    /// The web origin of the app's continue URLs: `continueURLBase + path`.
    public var continueURLBase: String
    /// `X-Firebase-Locale` the app sends; nil lets the project pick.
    public var locale: String?
    /// The last link tapped or pasted, and what the device did with it.
    public var lastLink: LinkVisit?
    /// How many of the world's messages the mail app has listed (it lists on opening).
    public var listedMessages = 0
    /// How many of the world's messages the user has seen in the mail app (the rest are unread);
    /// nil in sessions saved before it was kept.
    public var seenMessages: Int?
    /// Messages the mail security scanner has already opened.
    public var scannedMessageIDs: Set<String> = []
    /// Operations waiting for the transport.
    public var busy: Set<BusyTask> = []
    public var banner: ErrorBanner?
    /// The email the app remembers for finishing email-link sign-in (as apps keep it in storage).
    public var emailForSignIn: String?
    /// The newsletter subscription, kept by the app itself.
    public var subscribed = false
    /// The link the app last cold-started from, having been killed before the tap.
    public var coldStartLink: String?
    /// The phone second factor being added, until it is enrolled or refused.
    public var addingSecondFactor: SecondFactorEnrollment?

    public init(device: Device, settings: ActionCodeSettings, continueURLBase: String = "https://www.example.com", locale: String? = nil) {
        self.device = device
        self.settings = settings
        self.continueURLBase = continueURLBase
        self.locale = locale
    }

    /// The platform whose SDK the app uses: decides `clientType`.
    public var clientPlatform: ClientPlatform {
        switch device.platform {
        case .iOS: .iOS
        case .android: .android
        case .desktop: .web
        }
    }
}

/// Screens of the newsletter app. Those with a `path` are reachable by URL.
public enum AppScreen: Sendable, Hashable, Codable {
    /// `/`: the article list.
    case articles
    /// `/articles/ID`: members-only.
    case article(id: String)
    /// `/subscribe`: needs a verified email.
    case subscribe
    /// `/account`: needs sign-in.
    case account
    case signIn
    case forgotPassword
    /// "Verify your email first" prompt in front of `/subscribe`.
    case verifyEmail
    /// The app's own new-password form (handleCodeInApp true).
    case newPassword(email: String)
    /// Email-link sign-in opened where the app does not remember the email: ask for it.
    case confirmEmailForSignIn

    public var path: String? {
        switch self {
        case .articles: "/"
        case .article(let id): "/articles/\(id)"
        case .subscribe: "/subscribe"
        case .account: "/account"
        default: nil
        }
    }

    /// Parses an app route (`/`, `/articles/ID`, `/subscribe`, `/account`); nil for anything else.
    public init?(path: String) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        switch trimmed {
        case "", "/": self = .articles
        case "/subscribe": self = .subscribe
        case "/account": self = .account
        default:
            let prefix = "/articles/"
            guard trimmed.hasPrefix(prefix) else { return nil }
            let id = trimmed.dropFirst(prefix.count)
            // Article ids are slugs: letters, digits, `-` and `_`.
            guard !id.isEmpty, id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }) else { return nil }
            self = .article(id: String(id))
        }
    }

    /// Short name for expectations and the UI.
    public var name: String {
        switch self {
        case .articles, .article, .subscribe, .account: path ?? "/"
        case .signIn: "signIn"
        case .forgotPassword: "forgotPassword"
        case .verifyEmail: "verifyEmail"
        case .newPassword: "newPassword"
        case .confirmEmailForSignIn: "confirmEmailForSignIn"
        }
    }

    var needsSignIn: Bool {
        switch self {
        case .article, .account, .subscribe: true
        default: false
        }
    }
}

/// The user as the SDK caches it after sign-in or reload.
public struct CachedUser: Sendable, Hashable, Codable {
    public var localId: String
    public var email: String?
    /// As last reloaded: the server may already know better.
    public var emailVerified: Bool
    public var idToken: String?
    /// The second factors the last lookup listed (phone numbers, or names); nil before one, and
    /// in sessions saved before they were kept.
    public var secondFactors: [String]?
}

/// A phone number becoming a second factor: the SMS code's session once one was sent.
public struct SecondFactorEnrollment: Sendable, Hashable, Codable {
    public var phoneNumber: String
    public var sessionInfo: String?
}

public enum FlowKind: String, Sendable, Hashable, CaseIterable, Codable {
    case passwordReset, verifyEmail, emailLinkSignIn
}

public enum FlowStep: String, Sendable, Hashable, CaseIterable, Codable {
    /// `sendOobCode` on its way.
    case requesting
    /// The email is in the inbox; waiting for the user to open the link.
    case emailSent
    /// The app checks the code (`resetPassword` with `oobCode` only).
    case checkingCode
    case enteringNewPassword
    /// `resetPassword` with `newPassword`.
    case confirmingNewPassword
    /// `accounts:update` with `oobCode`.
    case applyingCode
    /// `accounts:lookup` to refresh the cached user.
    case reloadingUser
    case signingIn
    /// The web widget took over; the app waits for Continue.
    case handledInWebWidget
    case completed
}

public struct FlowProgress: Sendable, Hashable, Codable {
    public var kind: FlowKind
    public var step: FlowStep
    public var email: String?
    /// The continue URL the app sent (nil when it sent none).
    public var continueURL: String?
    /// The code from the opened link, once the app has it.
    public var oobCode: String?
    /// Whether the hosted web widget handled the link (a webmail's in-app browser, say), whatever
    /// the app asked for: the flow's later steps are then the widget's. Nil in older sessions.
    public var handledByWebWidget: Bool?

    /// Whether the flow goes (or went) the app's way rather than the web widget's.
    public func handledInApp(asked handleCodeInApp: Bool) -> Bool {
        step != .handledInWebWidget && handledByWebWidget != true && handleCodeInApp
    }
}

/// What is on the device's screen.
public enum DeviceLocation: Sendable, Hashable, Codable {
    case app
    case mailbox(openMessageID: String?)
    case webWidget(WebWidgetPage)
    /// An App Store or Play Store page: install or upgrade, then the app receives the link.
    case store(StorePage)
    case browser(url: String)

    /// `app`, `mailbox`, `webWidget`, `store` or `browser`.
    public var name: String {
        switch self {
        case .app: "app"
        case .mailbox: "mailbox"
        case .webWidget: "webWidget"
        case .store: "store"
        case .browser: "browser"
        }
    }
}

/// The hosted email action handler page (`/__/auth/action`) on the device's screen: the shared
/// `HostedActionHandler` at this action URL.
public struct WebWidgetPage: Sendable, Hashable, Codable {
    public var actionURL: String
    public var handler: HostedActionHandler

    public init(actionURL: String, handler: HostedActionHandler) {
        self.actionURL = actionURL
        self.handler = handler
    }

    /// The page as it opens at `actionURL`.
    public init(actionURL: String) {
        self.init(actionURL: actionURL, handler: HostedActionHandler.open(actionURL: actionURL).0)
    }

    public var operation: ActionCodeOperation { handler.operation }
    public var oobCode: String? { handler.oobCode }
    /// The `continueUrl` parameter: where Continue goes.
    public var continueURL: String? { handler.continueURL }
    public var step: HostedActionHandler.Step {
        get { handler.step }
        set { handler.step = newValue }
    }
}

/// The App Store or Play Store page a link sent the user to.
public struct StorePage: Sendable, Hashable, Codable {
    public typealias Store = StoreVisit.Store
    public typealias Purpose = StoreVisit.Purpose
    public var store: Store
    public var purpose: Purpose
    /// The Android package name or iOS App Store id.
    public var appID: String
    /// The version the store installs, when the project knows it.
    public var version: Int?
    /// The URL the app receives once installed or updated.
    public var thenOpens: String

    public init(store: Store, purpose: Purpose, appID: String, version: Int?, thenOpens: String) {
        self.store = store
        self.purpose = purpose
        self.appID = appID
        self.version = version
        self.thenOpens = thenOpens
    }

    /// The router's visit, with the version the project's store listing offers.
    public init(_ visit: StoreVisit, project: ProjectConfiguration) {
        self.init(store: visit.store, purpose: visit.purpose, appID: visit.appID,
                  version: visit.store == .playStore ? project.androidApp?.latestVersion : nil, thenOpens: visit.thenAppReceives)
    }
}

/// A link the user tapped or pasted, what it holds and where the device sent it.
public struct LinkVisit: Sendable, Hashable, Codable {
    public var link: String
    /// Where it went: `app`, `web widget`, `browser`, `Play Store`, `App Store`, `pasted into the app`.
    public var outcome: String
    /// The link taken apart; nil when it is no action link (a plain continue URL).
    public var anatomy: LinkAnatomy?
    /// Why the device sent it there; nil for pasted links.
    public var route: TapRoute?
}

public enum BusyTask: String, Sendable, Hashable, CaseIterable, Codable {
    case signIn, sendOobCode, checkCode, resetPassword, applyCode, lookup, emailLinkSignIn, secondFactor
    case mailbox, clock, resetWorld, scanner
}

/// A recoverable error: the user dismisses it or retries.
public struct ErrorBanner: Sendable, Hashable, Codable {
    public var message: String
    public var code: AuthErrorCode?
    /// Sends are never retried automatically; the user may retry this one.
    public var retry: Effect?

    public init(message: String, code: AuthErrorCode?, retry: Effect?) {
        self.message = message
        self.code = code
        self.retry = retry
    }
}
