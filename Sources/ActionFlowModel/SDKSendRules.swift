/// What an SDK release puts in the send request (`sendOobCode` / iOS `getOobConfirmationCode`)
/// for the settings an app gives it: the fields it drops or fills in, each rule with its source.
public struct SDKSentSettings: Sendable, Hashable {
    public var settings: ActionCodeSettings
    /// Each field the SDK changed, and why.
    public var notes: [String]
}

extension SDKProfile {
    /// The version the rules are judged at: the one asked for, else the newest read.
    var judgedVersion: SDKVersion { requested ?? newestRead }

    /// The settings this SDK sends when the app gives it `settings`; `appBundleID` is the app's
    /// own bundle id, which iOS sends when none is set.
    public func sends(_ settings: ActionCodeSettings, appBundleID: String?) -> SDKSentSettings {
        var sent = settings
        var notes: [String] = []
        let version = judgedVersion
        func drop(_ field: WritableKeyPath<ActionCodeSettings, String?>, _ name: String, because reason: String) {
            guard let value = sent[keyPath: field] else { return }
            sent[keyPath: field] = nil
            notes.append("\(self.name) does not send \(name) (\(value)): \(reason)")
        }
        switch platform {
        case .ios:
            if sent.iOSBundleID == nil, let appBundleID {
                sent.iOSBundleID = appBundleID
                // The ActionCodeSettings initializer sets iOSBundleID = Bundle.main.bundleIdentifier.
                let site = version < "11.0.0" ? "FIRActionCodeSettings.m:26@CocoaPods-10.29.0"
                    : version < "12.0.0" ? "ActionCodeSettings.swift:145@CocoaPods-11.15.0" : "ActionCodeSettings.swift:123@CocoaPods-12.17.0"
                notes.append("\(name) sends iOSBundleId \(appBundleID), the app's own bundle id, when none is set (\(site))")
            }
            if version < "11.8.0" {
                drop(\.linkDomain, "linkDomain", because: "the setting arrived in 11.8.0 (GetOOBConfirmationCodeRequest.swift:285@CocoaPods-11.8.0)")
            }
            if version >= "12.0.0" {
                drop(\.dynamicLinkDomain, "dynamicLinkDomain", because: "12.0 removed it, so setting it does not compile (GetOOBConfirmationCodeRequest.swift@CocoaPods-12.0.0 has no such key)")
            }
        case .js:
            if version < "11.3.0" {
                drop(\.linkDomain, "linkDomain", because: "releases before 11.3.0 copy no such field into the request, silently (packages/auth/src/core/strategies/action_code_settings.ts:41-63@firebase@10.14.1; sent from :49@firebase@11.3.0)")
            }
        case .android:
            break
        case .flutterfire:
            if version >= "6.0.0" {
                drop(\.dynamicLinkDomain, "dynamicLinkDomain", because: "firebase_auth 6.0.0 removed it from ActionCodeSettings (action_code_settings.dart:13-21@firebase_auth-v6.5.7)")
            }
            if version < "5.5.0" {
                drop(\.linkDomain, "linkDomain", because: "the Android plugin passes it from 5.5.0 (PigeonParser.java:251-280@firebase_auth-v6.5.7)")
            }
        case .rnfb:
            if version >= "23.0.0" {
                drop(\.dynamicLinkDomain, "dynamicLinkDomain", because: "23.0.0 removed it (ReactNativeFirebaseAuthModule.java:2583-2616@v23.0.0)")
            }
            if version < "21.11.0" {
                drop(\.linkDomain, "linkDomain", because: "it is passed from 21.11.0 (ReactNativeFirebaseAuthModule.java:2575-2582@v21.11.0)")
            }
        }
        return SDKSentSettings(settings: sent, notes: notes)
    }
}
