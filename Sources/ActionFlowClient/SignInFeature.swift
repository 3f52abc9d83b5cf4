import ActionFlowBackend
import ActionFlowModel
import Foundation

// Signing in and the cached user: what the app does with sign-in and lookup replies, and with
// every reply or failure of its own calls.
extension Session {
    mutating func appSucceeded(_ reply: CallReply) -> [Effect] {
        switch reply {
        case .signUp(_, let response), .signInWithPassword(_, let response), .signInWithEmailLink(_, let response):
            return signedIn(response, via: reply.call)
        case .lookup(let request, let response):
            return reloaded(response, token: request.idToken)
        case .sendOobCode(let request, let locale, _):
            return emailSent(request, locale: locale)
        case .resetPassword(let request, let response):
            return passwordResetAnswered(request, response)
        case .update(_, let response):
            return codeApplied(response)
        case .startMfaEnrollment(let request, let response):
            return secondFactorCodeSent(request, response)
        case .finalizeMfaEnrollment(_, let response):
            return secondFactorEnrolled(response)
        }
    }

    /// A sign-in answered with tokens. As the SDKs do, the app loads the user (`accounts:lookup`)
    /// before it treats them as signed in, so the cached user starts out current.
    mutating func signedIn(_ response: SignInResponse, via call: AuthCall) -> [Effect] {
        let email = response.email ?? call.email
        app.banner = nil
        if response.idToken == nil, response.mfaPendingCredential != nil {
            return secondFactorRequired(email: email, factors: response.mfaInfo?.count ?? 0)
        }
        if case .signInWithEmailLink = call {
            app.emailForSignIn = nil
            log(.reply(.signedInWithEmailLink(email: email)))
        } else {
            log(.reply(.signedInWithPassword(email: email)))
        }
        guard let token = response.idToken else {
            app.session = CachedUser(localId: response.localId, email: email, emailVerified: false, idToken: nil)
            log(.reply(.signedInWithoutToken))
            return resume()
        }
        if app.flow != nil, app.flow?.step != .completed, app.flow?.step != .handledInWebWidget { app.flow?.step = .signingIn }
        return send(.lookup(LookupRequest(idToken: token)), for: .loadSignedInUser)
    }

    /// A lookup answer: the user of a fresh sign-in, or a reload of the cached one.
    mutating func reloaded(_ response: LookupResponse, token: String?) -> [Effect] {
        guard let user = response.users?.first else {
            log(.reply(.lookupFoundNoUser))
            app.session = nil
            app.screen = .signIn
            return []
        }
        let verified = user.emailVerified ?? false
        if let cached = app.session, cached.idToken == token {
            app.session?.emailVerified = verified
            if let email = user.email { app.session?.email = email }
            log(.reply(.lookupRefreshed(verified: verified, cachedWas: cached.emailVerified)))
        } else {
            app.session = CachedUser(localId: user.localId, email: user.email, emailVerified: verified, idToken: token)
            log(.reply(.lookupSignedIn(email: user.email, verified: verified)))
        }
        app.session?.secondFactors = user.mfaInfo.map { $0.map { $0.phoneInfo ?? $0.displayName ?? "authenticator app" } }
        return resume()
    }

    mutating func appFailed(_ call: AuthCall, _ failure: AuthFailure) -> [Effect] {
        let retryable = failure.isRetryable
        log(.callFailed(call.operation, failure, retryable: retryable))
        app.banner = ErrorBanner(message: Narration.describe(failure), code: failure.serverCode, retry: retryable ? .call(call, by: .app) : nil)
        if retryable { return [] }
        let code = failure.serverCode
        switch call {
        case .signUp, .signInWithPassword:
            app.screen = .signIn
            if app.flow?.step == .signingIn { app.flow = nil }
        case .sendOobCode:
            app.flow = nil
        case .resetPassword(let request):
            if request.newPassword != nil, code == .weakPassword {
                app.flow?.step = .enteringNewPassword
            } else {
                app.flow = nil
                app.screen = .forgotPassword
            }
        case .update:
            app.flow = nil
            app.screen = app.session == nil ? .signIn : .verifyEmail
        case .lookup:
            if code == .invalidIDToken || code == .tokenExpired || code == .userNotFound {
                app.session = nil
                app.screen = .signIn
            }
            if app.flow?.step == .reloadingUser { app.flow?.step = .completed }
        case .startMfaEnrollment, .finalizeMfaEnrollment:
            app.addingSecondFactor = nil
        case .signInWithEmailLink:
            if code == .invalidEmail, app.flow?.kind == .emailLinkSignIn {
                app.flow?.step = .emailSent
                app.screen = .confirmEmailForSignIn
            } else {
                app.flow = nil
                app.screen = .signIn
            }
        }
        return []
    }

    // MARK: Asking for an email, shared by the three flows

    mutating func requestEmail(_ type: OobRequestType, email: String?) -> [Effect] {
        app.location = .app
        app.banner = nil
        var sent = app.settingsToSend()
        let platform = app.clientPlatform
        if let problem = sent.validate(for: platform, requestType: type).first {
            log(.refused(.sdkRefused(type, sdk: platform.sdkName, problem)))
            app.banner = ErrorBanner(message: Narration.safe(problem.message), code: AuthErrorCode(problem.code), retry: nil)
            return []
        }
        if let sdk = app.device.sdk {
            let release = sdk.sends(sent, appBundleID: project.iOSApp?.bundleId)
            sent = release.settings
            if !release.notes.isEmpty { log(.sdkSent(release.notes)) }
        }
        let request = SendOobCodeRequest(requestType: type, email: type == .verifyEmail ? nil : email, idToken: type == .verifyEmail ? app.session?.idToken : nil, settings: sent, clientType: platform)
        app.flow = FlowProgress(kind: FlowKind(type), step: .requesting, email: email, continueURL: sent.url)
        app.sentSettings = sent
        return send(.sendOobCode(request, locale: app.locale), for: .sendEmail(recipient: email))
    }

    mutating func emailSent(_ request: SendOobCodeRequest, locale: String?) -> [Effect] {
        let email = request.email ?? app.session?.email
        app.flow = FlowProgress(kind: FlowKind(request.requestType), step: .emailSent, email: email, continueURL: request.continueUrl)
        if request.requestType == .emailSignIn { app.emailForSignIn = request.email }
        let protected = project.emailEnumerationProtection && request.requestType == .passwordReset
        log(.reply(.oobCodeSent(request.requestType, email: email, enumerationProtected: protected)))
        if let locale, MailTemplates.language(for: locale) == nil {
            log(.reply(.mailLanguageFallback(locale: locale, language: project.defaultLocale)))
        }
        if request.requestType == .passwordReset, app.screen == .forgotPassword {
            app.screen = .signIn
            log(.reply(.checkYourEmail))
        }
        return start(.refreshMailbox)
    }
}

extension AuthFailure {
    /// Whether the banner offers retry: network failures and the rate limit, never a wrong or
    /// weak password (sends are never retried by themselves).
    var isRetryable: Bool {
        switch self {
        case .network: true
        case .server(let code, _): code == .tooManyAttempts || code == .resetPasswordExceedLimit
        }
    }
}

extension FlowKind {
    public init(_ requestType: OobRequestType) {
        switch requestType {
        case .passwordReset: self = .passwordReset
        case .emailSignIn: self = .emailLinkSignIn
        default: self = .verifyEmail
        }
    }

    /// The steps of this flow and what each does, as the Flow pane lists them.
    public static func plan(for kind: FlowKind, inApp: Bool) -> [(FlowStep, String)] {
        switch (kind, inApp) {
        case (.passwordReset, true):
            [(.requesting, "sendOobCode PASSWORD_RESET"), (.emailSent, "email in the inbox"), (.checkingCode, "resetPassword {oobCode}: check"),
             (.enteringNewPassword, "app asks for a new password"), (.confirmingNewPassword, "resetPassword {oobCode, newPassword}"), (.completed, "signed in, resumed")]
        case (.passwordReset, false):
            [(.requesting, "sendOobCode PASSWORD_RESET"), (.emailSent, "email in the inbox"), (.handledInWebWidget, "web widget resets, then Continue"),
             (.signingIn, "app signs in with the new password"), (.completed, "resumed at the continue URL")]
        case (.verifyEmail, true):
            [(.requesting, "sendOobCode VERIFY_EMAIL"), (.emailSent, "email in the inbox"), (.applyingCode, "update {oobCode}: apply"),
             (.reloadingUser, "lookup: reload the cached user"), (.completed, "verified, resumed")]
        case (.verifyEmail, false):
            [(.requesting, "sendOobCode VERIFY_EMAIL"), (.emailSent, "email in the inbox"), (.handledInWebWidget, "web widget applies, then Continue"),
             (.reloadingUser, "lookup: reload the cached user"), (.completed, "verified, resumed")]
        case (.emailLinkSignIn, _):
            [(.requesting, "sendOobCode EMAIL_SIGNIN"), (.emailSent, "email in the inbox"), (.signingIn, "signInWithEmailLink {email, oobCode}"),
             (.completed, "signed in, resumed")]
        }
    }

    /// The `sendOobCode` request type that starts this flow.
    public var requestType: OobRequestType {
        switch self {
        case .passwordReset: .passwordReset
        case .verifyEmail: .verifyEmail
        case .emailLinkSignIn: .emailSignIn
        }
    }
}

extension Effect {
    var busyTask: BusyTask {
        switch self {
        case .call(let call, let caller): caller == .mailScanner ? .scanner : call.busyTask
        case .refreshMailbox: .mailbox
        case .readTextMessages: .secondFactor
        case .advanceClock: .clock
        case .resetWorld, .applyProject: .resetWorld
        case .onDevice(_, let effect): effect.busyTask
        }
    }

    var summary: String {
        switch self {
        case .call(let call, _): call.operation.rawValue
        case .refreshMailbox: "mailbox refresh"
        case .readTextMessages: "text messages"
        case .advanceClock: "clock advance"
        case .resetWorld: "world reset"
        case .applyProject: "project change"
        case .onDevice(_, let effect): effect.summary
        }
    }
}
