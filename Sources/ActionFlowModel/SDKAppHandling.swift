/// What an app built on one SDK profile does with an action link the system opens it with: the
/// profile's link reading (SDKLinkReader.swift) used as an app's link handler uses it.
public struct SDKAppHandling: Sendable, Hashable, Codable {
    public enum Outcome: Sendable, Hashable, Codable {
        /// The app handles the action with the code and continue URL its SDK read.
        case handles(ActionCodeOperation, code: String, continueURL: String?)
        /// The SDK's reading leaves the app no action to handle.
        case ignores
        /// An SDK call throws; the app shows the error.
        case throwsError(String)
        /// The SDK traps: the app's process ends.
        case crashes(String)
    }

    /// The profile, as the device names it (`ios@11.15.0`).
    public var profile: String
    public var outcome: Outcome
    /// What decided, in order: each rule with the SDK source it follows, or "assumed:".
    public var reasons: [String]
    /// The continue URL the link itself carries, to set beside the one the SDK read.
    public var linkContinueURL: String?

    /// How the app is taken to use its SDK; no SDK source decides what app code does.
    public static let appPattern = "assumed: the app calls isSignInWithEmailLink, then signs in with the link; for any other link it reads mode, code and continue URL with the SDK's ActionCodeURL, or from the link itself where the SDK has no parser"
}

extension SDKProfile.Platform {
    /// The device an app on this SDK runs on: the JS SDK is the web app on a computer; flutterfire
    /// and react-native-firebase are taken on Android, where their checks differ from the native SDK's.
    public var device: Device.Platform {
        switch self {
        case .ios: .iOS
        case .js: .desktop
        case .android, .flutterfire, .rnfb: .android
        }
    }

    /// Whether sign-in with the link is Android's native `signInWithEmailLink` under the SDK's own check.
    var signsInNatively: Bool { self == .flutterfire || self == .rnfb }
}

extension SDKProfile {
    /// The profiles an app on `device` can be built on, each named by the newest version read
    /// in its range (`ios@11.15.0`), oldest first.
    public static func choices(for device: Device.Platform) -> [SDKProfile] {
        all.filter { $0.platform.device == device }.compactMap { try? named("\($0.platform.rawValue)@\($0.newestRead)") }
    }

    /// What the app does with `link`, the URL the system opened it with.
    public func appHandling(of link: String) -> SDKAppHandling {
        let reading = read(link)
        // The link's own fields, read once: the fallback where the SDK has no parser, and what
        // the narration sets beside the SDK's reading.
        let own = ownReading(link)
        var reasons = [SDKAppHandling.appPattern] + reading.notes
        func finish(_ outcome: SDKAppHandling.Outcome) -> SDKAppHandling {
            SDKAppHandling(profile: name, outcome: outcome, reasons: reasons, linkContinueURL: own?.continueURL)
        }
        switch reading.isSignInWithEmailLink {
        case .crash:
            return finish(.crashes("isSignInWithEmailLink trapped"))
        case .throwsError:
            return finish(.throwsError("URIError: URI malformed (isSignInWithEmailLink)"))
        case .yes:
            reasons.append("isSignInWithEmailLink answered true (\(platform.rawValue) \(readAt))")
            return signIn(link, reading: reading, own: own, reasons: &reasons).map(finish) ?? finish(.ignores)
        case .no:
            break
        }
        switch reading.parseLink {
        case .crash:
            return finish(.crashes("ActionCodeURL(link:) trapped"))
        case .throwsError where platform == .js:
            return finish(.throwsError("URIError: URI malformed (ActionCodeURL.parseLink)"))
        case .parsed(let url):
            guard let type = OobRequestType(rawValue: url.operation), let code = url.code else {
                reasons.append("ActionCodeURL gives operation \(url.operation): the app cannot tell which action the link holds")
                return finish(.ignores)
            }
            let operation = ActionCodeOperation(requestType: type)
            guard operation != .emailLink else {
                reasons.append("isSignInWithEmailLink answered false: the app does not sign in with the link")
                return finish(.ignores)
            }
            return finish(.handles(operation, code: code, continueURL: url.continueUrl))
        case .none where platform == .ios || platform == .js:
            reasons.append("ActionCodeURL finds no action in the link: the app has nothing to handle")
            return finish(.ignores)
        case .none, .throwsError:
            // No parser (Android's firebase-auth, flutterfire, react-native-firebase before 25).
            guard let own else { return finish(.ignores) }
            guard own.operation != .emailLink else {
                reasons.append("isSignInWithEmailLink answered false: the app does not sign in with the link")
                return finish(.ignores)
            }
            reasons.append("assumed: with no SDK parser, the app reads mode, oobCode and continueUrl from the link as Android's Uri.getQueryParameter does")
            return finish(.handles(own.operation, code: own.code, continueURL: own.continueURL))
        }
    }

    /// Sign-in with the link, once `isSignInWithEmailLink` said yes: the code the SDK's sign-in
    /// sends, and the continue URL the app resumes at; nil when the app never gets that far.
    private func signIn(_ link: String, reading: SDKLinkReading, own: LinkFields?, reasons: inout [String]) -> SDKAppHandling.Outcome? {
        let continueURL: String?
        switch reading.parseLink {
        case .crash:
            return .crashes("ActionCodeURL(link:) trapped while the app read the continue URL")
        case .parsed(let url):
            continueURL = url.continueUrl
        case .none, .throwsError:
            continueURL = own?.continueURL
        }
        let code: String?
        switch platform {
        case .ios:
            // Auth.swift internalSignInAndRetrieveData (CocoaPods-12.17.0): getQueryItems(link)["oobCode"],
            // the reading isSignIn(withEmailLink:) used.
            code = IOSLinkReading.queryItems(link, split: IOSLinkReading.splitAtFirstEquals)["oobCode"]
        case .js:
            // email_link.ts signInWithEmailLink: ActionCodeURL.parseLink(emailLink).code.
            if case .parsed(let url) = reading.parseLink { code = url.code } else { code = nil }
        case .android, .flutterfire, .rnfb:
            var notes: [String] = []
            let native = WrapperLinkReading.androidCheck(link, notes: &notes)
            if platform.signsInNatively, native != .yes {
                reasons += notes
                let refusal = "IllegalArgumentException: Given link is not a valid email link (Android's signInWithEmailLink, react-native-firebase #8360)"
                // react-native-firebase up to 22.0.x let the exception escape the bridge
                // (ReactNativeFirebaseAuthModule.java:462-477@v22.1.0 catches it).
                if platform == .rnfb, (requested ?? first) < "22.1.0" { return .crashes(refusal) }
                return .throwsError(refusal)
            }
            reasons.append("assumed: Android's signInWithEmailLink reads the code as the JS SDK does")
            if case .parsed(let url) = JSLinkReading(languageKey: "lang", tag: readAt).read(link, notes: &notes).1 { code = url.code } else { code = nil }
        }
        guard let code else {
            reasons.append("the SDK finds no oobCode to sign in with")
            return nil
        }
        return .handles(.emailLink, code: code, continueURL: continueURL)
    }

    /// The link's own mode, code and continue URL, read as a plain URL.
    typealias LinkFields = (operation: ActionCodeOperation, code: String, continueURL: String?)

    private func ownReading(_ link: String) -> LinkFields? {
        guard let anatomy = try? LinkInspector.inspect(link), let code = anatomy.oobCode else { return nil }
        return (anatomy.operation, code, anatomy.continueLink?.destination ?? anatomy.continueUrl)
    }
}

extension SDKProfile: Codable {
    /// A profile is written as the name it resolves from (`ios@11.15.0`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(platform.rawValue)@\(requested ?? newestRead)")
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try SDKProfile.named(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }
}
