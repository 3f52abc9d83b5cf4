import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import PropertyBased
import TestSupport
import Testing

/// Random sessions of user intents (hostile text included) against the embedded project: the app
/// never crashes, never stays busy, and never puts unsanitized text in narration or banners.
@Suite("Property: random sessions keep the app usable")
struct RandomSessionTests {
    static let hostileEmail = "bob\u{1B}[2J@example.com\u{202E}"

    /// Intents by index; some depend on the state (the newest message).
    static func intent(_ index: Int, in session: Session) -> AppEvent {
        let newest = session.inbox.last
        switch index {
        case 0: return .openRoute("/articles/42")
        case 1: return .openRoute("/subscribe")
        case 2: return .signInSubmitted(email: "bob@example.com", password: "bob-password-1")
        case 3: return .signInSubmitted(email: hostileEmail, password: "x")
        case 4: return .forgotPasswordTapped
        case 5: return .passwordResetRequested(email: "bob@example.com")
        case 6: return .passwordResetRequested(email: hostileEmail)
        case 7: return .verificationRequested
        case 8: return .signInLinkRequested(email: "alice@example.com")
        case 9: return .mailboxOpened
        case 10: return .linkTapped(messageID: newest?.id ?? "none")
        case 11: return .linkPasted(newest?.link ?? "not a link")
        case 12: return .linkPasted("https://evil.example/__/auth/action?mode=resetPassword&oobCode=\u{1B}]0;x\u{07}&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F%1B%5B2J")
        case 13: return .newPasswordSubmitted("correct-horse-battery")
        case 14: return .newPasswordSubmitted("123")
        case 15: return .continueTapped
        case 16: return .storeActionTapped
        case 17: return .reloadUserTapped
        case 18: return .subscribeTapped
        case 19: return .signOutTapped
        case 20: return .clockAdvanceRequested(seconds: 7200)
        case 21: return .retryTapped
        case 22: return .errorDismissed
        case 23: return .signInEmailConfirmed("alice@example.com")
        case 24: return .deviceEdited(Device(platform: .android, osName: "Android\u{1B}[31m 14", appInstalled: false, installedVersion: nil, linksVerified: true, mailClient: .native, mailScanner: true))
        case 25: return .settingsEdited(ActionCodeSettings(url: "https://www.example.com@evil.example/\u{202E}", handleCodeInApp: true, androidPackageName: "com.example.android", androidInstallIfNotAvailable: true))
        case 26: return .appOpened
        default: return .worldResetRequested
        }
    }

    @Test("any sequence of intents leaves a usable, sanitized app")
    func randomSessions() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        await propertyCheck(count: 60, input: Gen.int(in: 0...27).array(of: 1...30)) { script in
            var session = EmbeddedSession(project: project, app: AppState(device: .iPhone, settings: ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios")))
            for index in script {
                #expect(session.reduce(Self.intent(index, in: session.session)).isEmpty, "the embedded world leaves nothing to run")
            }
            let state = session.app
            #expect(state.busy.isEmpty, "busy after settling: \(state.busy)")
            #expect(!session.narration.contains { UntrustedText.needsSanitizing($0) }, "unsanitized narration")
            #expect(!UntrustedText.needsSanitizing(state.banner?.message ?? ""), "unsanitized banner")
            #expect(!session.narration.contains { $0.contains("bob-password-1") || $0.contains("correct-horse-battery") }, "a password reached the narration")
            let decoded = try? SessionFile.decode(SessionFile.encode(SessionRecording(session.driver)), path: "random", transport: "embedded")
            #expect(decoded == SessionRecording(session.driver), "the session survives its file")
        }
    }

    @Test("with two devices, any sequence of intents and focus moves leaves both apps usable, and the session survives its file")
    func randomTwoDeviceSessions() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let settings = ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios")
        await propertyCheck(count: 40, input: Gen.int(in: 0...30).array(of: 1...30)) { script in
            var session = EmbeddedSession(project: project, devices: [SessionDevice(name: .iphone, settings: settings), SessionDevice(name: .laptop, settings: settings)])
            for index in script {
                // 28 and above move the focus to the other device.
                let event = index >= 28 ? .deviceFocused(1 - session.focus) : Self.intent(index, in: session.session)
                #expect(session.reduce(event).isEmpty, "the embedded world leaves nothing to run")
            }
            #expect(session.devices.allSatisfy { $0.app.busy.isEmpty }, "busy after settling")
            #expect(session.journal.allSatisfy { $0.device != nil || $0.fact.isAboutTheWorld }, "a fact of one device without its name")
            #expect(!session.narration.contains { UntrustedText.needsSanitizing($0) }, "unsanitized narration")
            let decoded = try? SessionFile.decode(SessionFile.encode(SessionRecording(session.driver)), path: "random", transport: "embedded")
            #expect(decoded == SessionRecording(session.driver), "the session survives its file")
        }
    }
}
