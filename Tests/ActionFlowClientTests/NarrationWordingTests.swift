@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import TestSupport
import Testing

/// Server errors as the narration and the phone say them: each part once.
@Suite("Error wording")
struct NarrationWordingTests {
    @Test("a server detail that starts with the code does not repeat it")
    func codeSaidOnce() {
        let text = Narration.describe(.server(.invalidOobCode, detail: "INVALID_OOB_CODE : The action code has already been used"))
        #expect(text == "INVALID_OOB_CODE: The action code has already been used (the code is malformed, already used, or of another kind)")
    }

    @Test("a server detail that already says what the code means is not followed by the same meaning")
    func meaningSaidOnce() {
        let text = Narration.describe(.server(.unauthorizedDomain, detail: "the continue URL's host is not on the project's authorized domains"))
        #expect(text == "UNAUTHORIZED_DOMAIN: the continue URL's host is not on the project's authorized domains")
    }

    @Test("a code alone, or with a detail of its own, keeps its meaning in parentheses")
    func meaningKept() {
        #expect(Narration.describe(.server(.invalidPassword, detail: nil)) == "INVALID_PASSWORD (wrong password)")
        #expect(Narration.describe(.server(.unauthorizedDomain, detail: "host evil.example.net is not an authorized domain"))
            == "UNAUTHORIZED_DOMAIN: host evil.example.net is not an authorized domain (the continue URL's host is not on the project's authorized domains)")
    }
}

@Suite("Narration of a send without an email")
struct EmptyEmailNarrationTests {
    @Test("a reset asked for with the email field left empty is narrated as (no email), never as an empty slot")
    func noEmptySlot() throws {
        let app = AppState(device: .iPhone, settings: Fixture.inAppSettings)
        var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), app: app)
        _ = session.reduce(.passwordResetRequested(email: ""))
        let line = try #require(session.narration.first { $0.contains("sendOobCode PASSWORD_RESET") }, "\(session.narration)")
        #expect(line.contains("sendOobCode PASSWORD_RESET for (no email) with continueUrl"), "\(line)")
        #expect(!session.narration.contains { $0.contains("for  with") || $0.contains("for with") })
    }
}

@Suite("Client-side checks name the SDK of the device that calls")
struct SDKRefusalWordingTests {
    static let devices: [(device: Device, sdk: String)] = [(.iPhone, "iOS"), (.pixel, "Android"), (.desktop, "JavaScript")]

    @Test("a sign-in link asked for with handleCodeInApp false is refused in the words of the calling device's SDK, and no other", arguments: [0, 1, 2])
    func signInNotInApp(_ index: Int) throws {
        let (device, sdk) = Self.devices[index]
        var settings = Fixture.webWidgetSettings
        settings.url = "https://www.example.com/"
        var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), app: AppState(device: device, settings: settings))
        _ = session.reduce(.signInLinkRequested(email: "bob@example.com"))
        let line = try #require(session.narration.first { $0.contains("refused by") }, "\(session.narration)")
        #expect(line.hasPrefix("sendOobCode EMAIL_SIGNIN refused by the \(sdk) SDK before sending: auth/argument-error (handleCodeInApp)"), "\(line)")
        #expect(line.contains("the \(sdk) SDK "), "\(line)")
        let banner = try #require(session.app.banner?.message)
        for other in Self.devices.map(\.sdk) where other != sdk {
            #expect(!line.contains("\(other) SDK"), "\(line)")
            #expect(!banner.contains("\(other) SDK"), "\(banner)")
        }
    }

    @Test("every check's message names no SDK but the caller's", arguments: [ClientPlatform.iOS, .android, .web])
    func everyMessage(_ platform: ClientPlatform) {
        let settings = ActionCodeSettings(handleCodeInApp: false, iOSBundleID: "", androidPackageName: "", dynamicLinkDomain: "", linkDomain: "")
        let messages = [OobRequestType.emailSignIn, .passwordReset].flatMap { settings.validate(for: platform, requestType: $0).map(\.message) }
        #expect(!messages.isEmpty)
        for message in messages {
            for other in [ClientPlatform.iOS, .android, .web] where other != platform {
                #expect(!message.contains("\(other.sdkName) SDK"), "\(message)")
            }
        }
    }
}
