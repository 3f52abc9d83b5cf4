import ActionFlowModel
import Foundation
import Testing

/// What an app on each SDK profile does with a link; each case names the SDK source it follows.
@Suite struct SDKAppHandlingTests {
    static let host = "https://demo-actionflow.firebaseapp.com/__/auth/action"
    static let cartURL = "https%3A%2F%2Fwww.example.com%2Farticles%2F42%3FcartId%3D1234"
    static let reset = "\(host)?mode=resetPassword&oobCode=RESETCODE&apiKey=AIzaKey&continueUrl=\(cartURL)&lang=en"
    static let signIn = "\(host)?apiKey=AIzaKey&mode=signIn&oobCode=SIGNINCODE&continueUrl=\(cartURL)&lang=en"
    static let signInWithoutKey = "\(host)?mode=signIn&oobCode=SIGNINCODE&continueUrl=\(cartURL)&lang=en"

    func handling(_ profile: String, _ link: String) throws -> SDKAppHandling {
        try SDKProfile.named(profile).appHandling(of: link)
    }

    func outcome(_ profile: String, _ link: String) throws -> SDKAppHandling.Outcome {
        try handling(profile, link).outcome
    }

    /// ActionCodeURL.swift parseURL `split(separator: "=")`, `splitArray[1]` (CocoaPods-11.15.0:72-74):
    /// the continue URL loses what follows its query's `=`; the link's own reading keeps it.
    @Test func iOSCutsTheContinueURLsQuery() throws {
        let handling = try handling("ios@11.15.0", Self.reset)
        #expect(handling.outcome == .handles(.passwordReset, code: "RESETCODE", continueURL: "https://www.example.com/articles/42?cartId"))
        #expect(handling.linkContinueURL == "https://www.example.com/articles/42?cartId=1234")
        #expect(handling.reasons.contains { $0.contains("ActionCodeURL keeps only the text between the first and the second = of continueUrl") && $0.contains("CocoaPods-11.15.0") })
        #expect(handling.reasons.first == SDKAppHandling.appPattern)
        // JS splits each token on every `=` but keeps the decoded value whole (util/src/query.ts:51-52).
        #expect(try outcome("js@12.18.0", Self.reset) == .handles(.passwordReset, code: "RESETCODE", continueURL: "https://www.example.com/articles/42?cartId=1234"))
    }

    /// Up to 11.11 ActionCodeInfo maps only request types (CocoaPods-11.11.0 ActionCodeInfo.swift:43-51):
    /// a resetPassword link is operation unknown, so the app has nothing to handle.
    @Test func iOS11MapsRealModesToUnknown() throws {
        let handling = try handling("ios@11.5.0", Self.reset)
        #expect(handling.outcome == .ignores)
        #expect(handling.reasons.contains { $0.contains("ActionCodeURL.operation is unknown for mode=resetPassword") })
        // Sign-in does not go through the operation: isSignIn(withEmailLink:) checks mode=signIn itself.
        #expect(try outcome("ios@11.5.0", Self.signIn) == .handles(.emailLink, code: "SIGNINCODE", continueURL: "https://www.example.com/articles/42?cartId"))
    }

    /// A piece without a value traps in 11.0-12.16 (`splitArray[1]`), and is skipped from 12.17.0
    /// (ActionCodeURL.swift:73, CocoaPods-12.17.0).
    @Test func aTrailingAmpersandCrashesTheAppUntil12_17() throws {
        let link = Self.reset + "&"
        #expect(try outcome("ios@12.16.0", link) == .crashes("ActionCodeURL(link:) trapped"))
        #expect(try outcome("ios@12.17.0", link) == .handles(.passwordReset, code: "RESETCODE", continueURL: "https://www.example.com/articles/42?cartId"))
        // A sign-in link: isSignIn says yes, then reading its continue URL traps.
        #expect(try outcome("ios@12.0.0", Self.signIn + "&") == .crashes("ActionCodeURL(link:) trapped while the app read the continue URL"))
    }

    /// decodeURIComponent throws outside parseLink's try (action_code_url.ts:147-148, firebase@12.18.0).
    @Test func aMalformedEscapeThrowsInTheWebApp() throws {
        let link = Self.signIn.replacingOccurrences(of: "&lang=en", with: "&lang=%E0%A4%A")
        guard case .throwsError(let message) = try outcome("js@12.18.0", link) else {
            Issue.record("js did not throw")
            return
        }
        #expect(message.hasPrefix("URIError"))
    }

    /// Without apiKey: iOS signs in (Auth.swift isSignIn checks oobCode and mode only); JS refuses
    /// (action_code_url.ts:128); Android's native check refuses (react-native-firebase
    /// emailLink.e2e.js:73-89@v26.3.2); flutterfire's Dart check says yes and the native sign-in
    /// then throws (platform_interface_firebase_auth.dart:283-287, #8360); react-native-firebase
    /// up to 22.0.x crashes on that throw (ReactNativeFirebaseAuthModule.java:462-477@v22.1.0).
    @Test func aSignInLinkWithoutAPIKeyPerSDK() throws {
        #expect(try outcome("ios@12.18.0", Self.signInWithoutKey) == .handles(.emailLink, code: "SIGNINCODE", continueURL: "https://www.example.com/articles/42?cartId"))
        #expect(try outcome("js@12.18.0", Self.signInWithoutKey) == .ignores)
        #expect(try outcome("android@23.2.0", Self.signInWithoutKey) == .ignores)
        guard case .throwsError(let message) = try outcome("flutterfire@4.6.0", Self.signInWithoutKey) else {
            Issue.record("flutterfire did not throw")
            return
        }
        #expect(message.contains("Given link is not a valid email link"))
        guard case .crashes = try outcome("rnfb@21.0.0", Self.signInWithoutKey) else {
            Issue.record("rnfb 21 did not crash")
            return
        }
        #expect(try outcome("rnfb@22.1.0", Self.signInWithoutKey) == .ignores)
    }

    /// Android's firebase-auth has no public link parser: the app reads the link's parameters
    /// itself (assumed), so a reset link keeps its whole continue URL.
    @Test func androidAppsReadTheLinkThemselves() throws {
        let handling = try handling("android@23.2.0", Self.reset)
        #expect(handling.outcome == .handles(.passwordReset, code: "RESETCODE", continueURL: "https://www.example.com/articles/42?cartId=1234"))
        #expect(handling.reasons.contains { $0.hasPrefix("assumed: with no SDK parser") })
    }

    /// Given the whole Hosting link, iOS reads the payload's first pair as `link`
    /// (AuthWebUtils.swift:190-207): with mode first, the mode is lost; JS unwraps
    /// (action_code_url.ts:66-81).
    @Test func theWholeHostingLinkPerSDK() throws {
        let wrapped = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent(Self.reset)
        #expect(try outcome("ios@12.18.0", wrapped) == .ignores)
        #expect(try outcome("js@12.18.0", wrapped) == .handles(.passwordReset, code: "RESETCODE", continueURL: "https://www.example.com/articles/42?cartId=1234"))
    }

    @Test func choicesFitTheDevice() {
        #expect(SDKProfile.choices(for: .iOS).map(\.name) == ["ios@10.29.0", "ios@11.11.0", "ios@11.15.0", "ios@12.16.0", "ios@12.19.0"])
        #expect(SDKProfile.choices(for: .desktop).allSatisfy { $0.platform == .js })
        #expect(Set(SDKProfile.choices(for: .android).map(\.platform)) == [.android, .flutterfire, .rnfb])
    }

    /// A device is written with its profile's name and read back; a file naming no profile is
    /// refused with the reason.
    @Test func aDeviceKeepsItsProfileInFiles() throws {
        var device = Device.iPhone
        device.sdk = try SDKProfile.named("ios@11.15.0")
        device.passesWholeLink = true
        let data = try JSONEncoder().encode(device)
        #expect(String(decoding: data, as: UTF8.self).contains("\"sdk\":\"ios@11.15.0\""))
        #expect(try JSONDecoder().decode(Device.self, from: data) == device)
        var old = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(Device.iPhone)) as? [String: Any])
        old["sdk"] = nil
        old["passesWholeLink"] = nil
        #expect(try JSONDecoder().decode(Device.self, from: JSONSerialization.data(withJSONObject: old)) == .iPhone)
        old["sdk"] = "ios@9.0.0"
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Device.self, from: JSONSerialization.data(withJSONObject: old)) }
    }

    /// What each release sends for the same settings (GetOOBConfirmationCodeRequest.swift,
    /// action_code_settings.ts, the wrappers' ActionCodeSettings parsers).
    @Test func whatEachReleaseSends() throws {
        let given = ActionCodeSettings(url: "https://www.example.com/a", handleCodeInApp: true, dynamicLinkDomain: "example.page.link", linkDomain: "links.example.com")
        func sent(_ profile: String) throws -> SDKSentSettings { try SDKProfile.named(profile).sends(given, appBundleID: "com.example.ios") }

        let ios11 = try sent("ios@11.7.0")
        #expect(ios11.settings.iOSBundleID == "com.example.ios", "the main bundle's id when none is set")
        #expect(ios11.settings.linkDomain == nil && ios11.settings.dynamicLinkDomain == "example.page.link")
        #expect(ios11.notes.contains { $0.hasPrefix("ios@11.7.0 does not send linkDomain (links.example.com): the setting arrived in 11.8.0") })
        let ios12 = try sent("ios@12.18.0")
        #expect(ios12.settings.linkDomain == "links.example.com" && ios12.settings.dynamicLinkDomain == nil)
        #expect(ios12.notes.contains { $0.contains("CocoaPods-12.17.0") })

        let js10 = try sent("js@10.14.1")
        #expect(js10.settings.linkDomain == nil && js10.settings.iOSBundleID == nil, "JS has no default bundle id")
        #expect(try sent("js@11.3.0").settings.linkDomain == "links.example.com")
        #expect(try sent("js@12.18.0").notes.isEmpty, "JS 12 sends both domains as given")

        #expect(try sent("rnfb@21.0.0").settings.linkDomain == nil)
        #expect(try sent("rnfb@23.0.0").settings.dynamicLinkDomain == nil)
        #expect(try sent("flutterfire@6.0.0").settings.dynamicLinkDomain == nil)
        #expect(try sent("flutterfire@5.4.0").settings.linkDomain == nil)
        #expect(try sent("android@23.2.0").settings == given)
    }
}
