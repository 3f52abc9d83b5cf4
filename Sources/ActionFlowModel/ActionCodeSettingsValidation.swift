extension ActionCodeSettings {
    /// The checks the SDKs make before sending (docs/sdk-profiles.md), all problems at once, each
    /// with the JS SDK's `auth/...` code. Fast enough to run on every keystroke.
    public func validate(for platform: ClientPlatform, requestType: OobRequestType) -> [SettingsValidationError] {
        var errors: [SettingsValidationError] = []
        let signIn = requestType == .emailSignIn
        switch url {
        case .some(let url) where url.isEmpty:
            errors.append(SettingsValidationError(code: "auth/invalid-continue-uri", field: "url",
                                                  message: "The continue URL is empty: give an absolute URL or leave it unset."))
        case .none where signIn:
            errors.append(SettingsValidationError(code: "auth/missing-continue-uri", field: "url",
                                                  message: "Email-link sign-in needs a continue URL: the link returns the user there to finish signing in."))
        case .none where platform != .iOS:
            errors.append(SettingsValidationError(code: "auth/invalid-continue-uri", field: "url",
                                                  message: "A continue URL is required whenever action code settings are given."))
        default:
            break
        }
        if signIn && !handleCodeInApp {
            errors.append(SettingsValidationError(code: "auth/argument-error", field: "handleCodeInApp",
                                                  message: "Email-link sign-in requires handleCodeInApp = true: \(platform.refusalOfSignInNotInApp)."))
        }
        func rejectEmpty(_ value: String?, code: String, field: String, what: String) {
            if value?.isEmpty == true {
                errors.append(SettingsValidationError(code: code, field: field, message: "The \(what) is empty: give one or leave it unset."))
            }
        }
        rejectEmpty(dynamicLinkDomain, code: "auth/invalid-dynamic-link-domain", field: "dynamicLinkDomain", what: "Dynamic Links domain")
        rejectEmpty(linkDomain, code: "auth/invalid-hosting-link-domain", field: "linkDomain", what: "Hosting link domain")
        rejectEmpty(iOSBundleID, code: "auth/missing-ios-bundle-id", field: "iOSBundleID", what: "iOS bundle id")
        rejectEmpty(androidPackageName, code: "auth/missing-android-pkg-name", field: "androidPackageName", what: "Android package name")
        if androidPackageName == nil, androidInstallIfNotAvailable || androidMinimumVersion != nil {
            let option = androidInstallIfNotAvailable ? "installIfNotAvailable" : "minimumVersion"
            errors.append(SettingsValidationError(code: "auth/missing-android-pkg-name", field: "androidPackageName",
                                                  message: "Android \(option) is set without a package name: the server answers MISSING_ANDROID_PACKAGE_NAME."))
        }
        return errors
    }
}

extension ClientPlatform {
    /// What the SDK does with an email-link sign-in request whose handleCodeInApp is false (the
    /// narration names the SDK):
    /// firebase-ios-sdk FirebaseAuth/Sources/Swift/Auth/Auth.swift:1225 (`fatalError`),
    /// firebase-js-sdk packages/auth/src/core/strategies/email_link.ts:91 (`_assert` with
    /// ARGUMENT_ERROR), and the Android SDK's `FirebaseAuth.sendSignInLinkToEmail`, which throws
    /// IllegalArgumentException ("You must set canHandleCodeInApp ...").
    var refusalOfSignInNotInApp: String {
        switch self {
        case .iOS: "otherwise the app stops with a fatal error"
        case .android: "otherwise the call throws IllegalArgumentException"
        case .web: "otherwise the call is rejected with auth/argument-error"
        }
    }

    /// The SDK's name as developers know it.
    public var sdkName: String {
        switch self {
        case .iOS: "iOS"
        case .android: "Android"
        case .web: "JavaScript"
        }
    }
}
