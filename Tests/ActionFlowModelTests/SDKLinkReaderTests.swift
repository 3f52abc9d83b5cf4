import ActionFlowModel
import Foundation
import Testing

/// Each case names the SDK source line it follows (tags of firebase-ios-sdk and firebase-js-sdk).
@Suite struct SDKLinkReaderTests {
    static let actionURL = "https://demo-actionflow.firebaseapp.com/__/auth/action?apiKey=AIzaKey&mode=signIn&oobCode=CODE&continueUrl=https%3A%2F%2Fwww.example.com%2FfinishSignUp%3FcartId%3D1234&lang=en"
    static let wrapped = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent(actionURL)

    func reading(_ profile: String, _ link: String) throws -> SDKLinkReading {
        try SDKProfile.named(profile).read(link)
    }

    func parsed(_ profile: String, _ link: String) throws -> SDKActionCodeURL {
        let reading = try reading(profile, link)
        guard case .parsed(let url) = reading.parseLink else {
            Issue.record("\(profile) gave \(reading.parseLink.word)")
            throw SDKProfileError.badVersion(profile)
        }
        return url
    }

    @Test func versionsResolveToTheirRanges() throws {
        #expect(try SDKProfile.named("ios@11.15.0").range == "11.12-11.15")
        #expect(try SDKProfile.named("ios@12.16").range == "12.0-12.16")
        #expect(try SDKProfile.named("ios@12.18.0").range == "12.17+")
        #expect(try SDKProfile.named("js@11.6.0").range == "11.0-11.6.0")
        #expect(try SDKProfile.named("js@11.6.1").range == "11.6.1-11.x")
        #expect(try SDKProfile.named("JS@10").name == "js@10.0.0")
        #expect(throws: SDKProfileError.outOfRange("ios@9.6.0")) { try SDKProfile.named("ios@9.6.0") }
        #expect(try SDKProfile.named("android@24.0.0").range == "23.2+")
        #expect(try SDKProfile.named("flutterfire@4.6.0").range == "0.18.1+")
        #expect(try SDKProfile.named("rnfb@21.11.0").range == "6-21.x")
        #expect(try SDKProfile.named("rnfb@22.1.0").range == "22-24.x")
        #expect(try SDKProfile.named("rnfb@26.3.2").range == "25+")
        #expect(throws: SDKProfileError.outOfRange("android@22.0.0")) { try SDKProfile.named("android@22.0.0") }
        #expect(throws: SDKProfileError.unknownPlatform("windows@1.0.0")) { try SDKProfile.named("windows@1.0.0") }
        #expect(throws: SDKProfileError.badVersion("ios@latest")) { try SDKProfile.named("ios@latest") }
        #expect(SDKProfileError.unknownPlatform("x").description.contains("ios@11.0-11.11"))
    }

    /// iOS 10.x FIRAuth.m:276-281 keeps a value whole and maps modes as request types (234-253);
    /// 11.0-11.11 ActionCodeURL.swift:69-71 keeps the piece before the second `=` and reads
    /// `languageCode` (:59); 11.12 reads `lang` (:62) and maps modes (ActionCodeInfo.swift:45-50);
    /// JS querystringDecode (util/src/query.ts:51-52) decodes after splitting, so `%3D` stays.
    @Test func unwrappedLinkPerRange() throws {
        let ios10 = try parsed("ios@10.29.0", Self.actionURL)
        #expect(ios10.operation == "unknown")
        #expect(ios10.continueUrl == "https://www.example.com/finishSignUp?cartId=1234")
        #expect(ios10.languageCode == nil)
        let ios11 = try parsed("ios@11.11.0", Self.actionURL)
        #expect(ios11.operation == "unknown")
        #expect(ios11.continueUrl == "https://www.example.com/finishSignUp?cartId")
        #expect(ios11.languageCode == nil)
        for profile in ["ios@11.12.0", "ios@12.16.0", "ios@12.18.0"] {
            let url = try parsed(profile, Self.actionURL)
            #expect(url.operation == "EMAIL_SIGNIN")
            #expect(url.continueUrl == "https://www.example.com/finishSignUp?cartId", "\(profile)")
            #expect(url.languageCode == "en")
            #expect(url.apiKey == "AIzaKey")
        }
        let js10 = try parsed("js@10.14.1", Self.actionURL)
        #expect(js10.continueUrl == "https://www.example.com/finishSignUp?cartId=1234")
        #expect(js10.languageCode == nil, "action_code_url.ts:32 reads languageCode before 11.6.1")
        #expect(try parsed("js@12.18.0", Self.actionURL).languageCode == "en")
        for profile in SDKProfile.all {
            #expect(profile.read(Self.actionURL).isSignInWithEmailLink == .yes, "\(profile.name)")
        }
    }

    /// iOS never unwraps: the payload's first pair is read as `link` (Auth.swift getQueryItems,
    /// AuthWebUtils.swift:195-203), so apiKey is lost and the continue URL, encoded twice, comes
    /// out whole; JS unwraps `link` (action_code_url.ts:67, 80).
    @Test func wrappedHostingLink() throws {
        for profile in ["ios@10.29.0", "ios@11.15.0", "ios@12.18.0"] {
            let url = try parsed(profile, Self.wrapped)
            #expect(url.apiKey == nil, "\(profile)")
            #expect(url.code == "CODE")
            #expect(url.continueUrl == "https://www.example.com/finishSignUp?cartId=1234")
            #expect(try reading(profile, Self.wrapped).isSignInWithEmailLink == .yes)
        }
        let js = try parsed("js@12.18.0", Self.wrapped)
        #expect(js.apiKey == "AIzaKey")
        #expect(js.operation == "EMAIL_SIGNIN")
        let modeFirst = "https://demo-actionflow.firebaseapp.com/__/auth/links?link=" + PercentEncoding.encodeComponent("https://demo-actionflow.firebaseapp.com/__/auth/action?mode=signIn&oobCode=CODE&apiKey=AIzaKey")
        #expect(try reading("ios@12.18.0", modeFirst).isSignInWithEmailLink == .no)
        #expect(try reading("js@12.18.0", modeFirst).isSignInWithEmailLink == .yes)
    }

    /// The emulator's link carries apiKey=fake-api-key: every SDK accepts it.
    @Test func emulatorLink() throws {
        let link = "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=CODE&apiKey=fake-api-key&continueUrl=http%3A%2F%2Flocalhost%3A5173%2Fdone"
        for profile in SDKProfile.all {
            #expect(profile.read(link).isSignInWithEmailLink == .yes, "\(profile.name)")
        }
        #expect(try parsed("js@11.6.1", link).continueUrl == "http://localhost:5173/done")
        #expect(try parsed("ios@12.17.0", link).apiKey == "fake-api-key")
    }

    /// JS extractQuerystring takes the first `?` anywhere (util/src/query.ts:62-70); iOS reads
    /// URLComponents.query, which a fragment never holds.
    @Test func hashRouterLink() throws {
        let link = "https://app.example.com/#/finish?apiKey=AIzaKey&mode=signIn&oobCode=CODE"
        #expect(try reading("js@10.14.1", link).isSignInWithEmailLink == .yes)
        #expect(try parsed("js@12.18.0", link).code == "CODE")
        for profile in ["ios@10.29.0", "ios@11.0.0", "ios@12.18.0"] {
            #expect(try reading(profile, link).isSignInWithEmailLink == .no)
            #expect(try reading(profile, link).parseLink == .none)
        }
    }

    /// parseDeepLink runs outside parseLink's try (action_code_url.ts:147-148) and
    /// decodeURIComponent throws (util/src/query.ts:52); iOS is assumed to find no query.
    @Test func malformedEscape() throws {
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?apiKey=AIzaKey&mode=signIn&oobCode=CODE&continueUrl=https%3A%2F%2Fx.example%2F%ZZ"
        let js = try reading("js@12.18.0", link)
        #expect(js.isSignInWithEmailLink == .throwsError)
        #expect(js.parseLink == .throwsError)
        let ios = try reading("ios@12.18.0", link)
        #expect(ios.isSignInWithEmailLink == .no)
        #expect(ios.notes.contains { $0.hasPrefix("assumed:") })
    }

    /// Auth.swift isSignIn(withEmailLink:) (CocoaPods-12.17.0:1287-1296) checks oobCode and mode
    /// only; JS asserts apiKey (action_code_url.ts:128).
    @Test func missingAPIKey() throws {
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=signIn&oobCode=CODE&lang=en"
        // Text checks (flutterfire's Dart, react-native-firebase up to 21.x) accept it as iOS does.
        let acceptors: Set<String> = ["flutterfire@0.18.1+", "rnfb@6-21.x"]
        for profile in SDKProfile.all {
            let accepts = profile.platform == .ios || acceptors.contains(profile.name)
            #expect(profile.read(link).isSignInWithEmailLink == (accepts ? .yes : .no), "\(profile.name)")
        }
        let android = try reading("android@24.0.0", link)
        #expect(android.notes.contains { $0.contains("IllegalArgumentException") && $0.contains("#8360") })
        #expect(try reading("js@12.18.0", link).parseLink == .none)
    }

    /// ActionCodeURL.swift:72-74 traps on a piece without a value (CocoaPods-11.0.0 to 12.16.0);
    /// 12.17.0 skips it (:73); 10.x skips pieces without `=` (FIRAuth.m:277).
    @Test func trailingAmpersandAndEmptyValue() throws {
        for link in [Self.actionURL + "&", Self.actionURL.replacingOccurrences(of: "lang=en", with: "lang=")] {
            #expect(try reading("ios@11.0.0", link).parseLink == .crash)
            #expect(try reading("ios@12.16.0", link).parseLink == .crash)
            #expect(try reading("ios@12.16.0", link).isSignInWithEmailLink == .yes, "AuthWebUtils.parseURL does not trap")
            #expect(try parsed("ios@12.17.0", link).code == "CODE")
            #expect(try parsed("ios@10.29.0", link).code == "CODE")
            #expect(try parsed("js@12.18.0", link).code == "CODE")
        }
    }

    /// react-native-firebase e2e emailLink.e2e.js:73-89@v26.3.2: a goo.gl wrapper whose `link`
    /// payload holds the parameters is a sign-in link on Android; flutterfire's text check finds
    /// them encoded (platform_interface_firebase_auth.dart:283-287).
    @Test func wrappersAndAndroid() throws {
        let payload = "https://demo.firebaseapp.com/__/auth/action?apiKey%3Dk%26mode%3DsignIn%26oobCode%3Dc"
        let wrapped = "https://x59dg.app.goo.gl/?link=\(payload)"
        #expect(try reading("android@24.0.0", wrapped).isSignInWithEmailLink == .yes)
        #expect(try reading("flutterfire@6.5.7", wrapped).isSignInWithEmailLink == .yes)
        #expect(try reading("rnfb@21.0.0", wrapped).isSignInWithEmailLink == .yes)
        let verify = "https://demo.firebaseapp.com/__/auth/action?apiKey=k&mode=verifyEmail&oobCode=c"
        for name in ["android@24.0.0", "flutterfire@6.5.7", "rnfb@21.0.0", "rnfb@26.0.0"] {
            #expect(try reading(name, verify).isSignInWithEmailLink == .no, "\(name)")
        }
        // No parser on Android or in flutterfire; react-native-firebase's throws up to 24.x.
        #expect(try reading("android@24.0.0", verify).parseLink == .none)
        #expect(try reading("flutterfire@6.5.7", verify).parseLink == .none)
        #expect(try reading("rnfb@24.0.0", verify).parseLink == .throwsError)
    }

    /// react-native-firebase 25+ lib/ActionCodeURL.ts splits each pair at its first `=`, so an
    /// unencoded continue URL's query survives, where the JS SDK keeps the piece before the
    /// second `=` (util/src/query.ts:51).
    @Test func reactNativeParserKeepsTheValueWhole() throws {
        let link = "https://demo.firebaseapp.com/__/auth/action?apiKey=k&mode=signIn&oobCode=c&continueUrl=https://www.example.com/f?cartId=1234&lang=fr"
        guard case .parsed(let rnfb) = try reading("rnfb@26.3.2", link).parseLink else { Issue.record("rnfb did not parse"); return }
        #expect(rnfb.continueUrl == "https://www.example.com/f?cartId=1234")
        #expect(rnfb.languageCode == "fr")
        guard case .parsed(let js) = try reading("js@12.18.0", link).parseLink else { Issue.record("js did not parse"); return }
        #expect(js.continueUrl == "https://www.example.com/f?cartId")
        #expect(try reading("rnfb@26.3.2", "https://h.example/__/auth/action?apiKey=K&mode=signIn&oobCode=C%ZZ").parseLink == .throwsError)
    }

    /// checkActionCode reports the server's request type: iOS up to 11.11 maps request types
    /// (ActionCodeInfo.swift:43-51@CocoaPods-11.11.0), from 11.12 only modes, so every code is
    /// unknown (ActionCodeInfo.swift:45-50@CocoaPods-11.12.0, firebase-ios-sdk #15010); JS passes
    /// it through (email_and_password.ts:199-235@firebase@12.18.0); react-native-firebase maps five
    /// operations (NativeRNFBTurboAuth.java:1741-1767@v26.3.2).
    @Test func checkActionCodePerSDK() throws {
        let reset = Self.actionURL.replacingOccurrences(of: "mode=signIn", with: "mode=resetPassword")
        #expect(try reading("ios@11.11.0", reset).checkActionCode == "PASSWORD_RESET")
        let ios12 = try reading("ios@12.18.0", reset)
        #expect(ios12.checkActionCode == "unknown")
        #expect(ios12.notes.contains { $0.contains("#15010") })
        #expect(try reading("js@10.14.1", reset).checkActionCode == "PASSWORD_RESET")
        let revert = Self.actionURL.replacingOccurrences(of: "mode=signIn", with: "mode=revertSecondFactorAddition")
        #expect(try reading("rnfb@26.3.2", revert).checkActionCode == "unknown")
        #expect(try reading("flutterfire@6.5.7", revert).checkActionCode == "REVERT_SECOND_FACTOR_ADDITION")
        #expect(try reading("js@12.18.0", "https://www.example.com/no-action").checkActionCode == nil)
    }
}
