import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import TestSupport
import Testing

@Suite("The app on the device reads links as its SDK profile does")
struct SDKAppTests {
    /// An iPhone app on `profile`, in the middle of a password reset for bob, with the reset email in the mailbox.
    func resetRequested(on profile: String, url: String = "https://www.example.com/articles/42?cartId=1234") throws -> EmbeddedSession {
        var device = Device.iPhone
        device.sdk = try SDKProfile.named(profile)
        var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(),
                                       app: AppState(device: device, settings: ActionCodeSettings(url: url, handleCodeInApp: true, iOSBundleID: "com.example.ios")))
        _ = session.reduce(.openRoute("/articles/42"))
        _ = session.reduce(.passwordResetRequested(email: "bob@example.com"))
        _ = session.reduce(.mailboxOpened)
        return session
    }

    /// The action URL inside the message's Hosting link, as an app that unwraps it pastes it.
    func actionURL(_ message: MailMessage) throws -> String {
        try LinkInspector.inspect(message.link).actionURL
    }

    @Test("iOS 12.0-12.16: a link ending in & traps in ActionCodeURL: the app crashes, the reset in progress is lost, the banner says why")
    func trailingAmpersandCrashes() throws {
        var session = try resetRequested(on: "ios@12.16.0")
        let message = try #require(session.inbox.last)
        let effects = session.reduce(.linkPasted(try actionURL(message) + "&"))
        #expect(effects.isEmpty, "no call goes out")
        #expect(session.app.flow == nil)
        #expect(session.app.screen == .articles)
        #expect(session.app.banner?.message.hasPrefix("The app crashed: ios@12.16.0: ActionCodeURL(link:) trapped") == true)
        #expect(session.narration.contains { $0.hasPrefix("the app crashed (ios@12.16.0: ActionCodeURL(link:) trapped): the passwordReset in progress is lost") })
        #expect(session.narration.contains { $0.contains("traps on the query piece") && $0.contains("fixed in 12.17.0") })
    }

    @Test("the same link on 12.17: the app handles it, with the code and the continue URL its ActionCodeURL read")
    func sameLinkOnNewerSDK() throws {
        var session = try resetRequested(on: "ios@12.17.0")
        let message = try #require(session.inbox.last)
        _ = session.reduce(.linkPasted(try actionURL(message) + "&"))
        #expect(session.app.flow?.step == .enteringNewPassword, "the embedded project found the code valid")
        #expect(message.link.contains(try #require(session.app.flow?.oobCode)), "the code the SDK read is the link's")
        #expect(session.app.flow?.continueURL == "https://www.example.com/articles/42?cartId")
        let headline = try #require(session.narration.first { $0.hasPrefix("the app (ios@12.17.0) reads the link with its SDK") })
        #expect(headline.hasSuffix("it handles resetPassword, continue URL https://www.example.com/articles/42?cartId, where the link carries https://www.example.com/articles/42?cartId=1234"))
    }

    @Test("given the whole Hosting link, an iOS app loses the payload's first parameter; given the action URL, it does not")
    func wholeLinkOrActionURL() throws {
        var session = try resetRequested(on: "ios@12.18.0")
        let message = try #require(session.inbox.last)
        session.edit { $0.app.device.passesWholeLink = true }
        var whole = session
        _ = whole.reduce(.linkTapped(messageID: message.id))
        #expect(whole.app.flow?.step == .emailSent, "the reset never starts")
        #expect(whole.app.banner?.message == "The app did not handle this link: ios@12.18.0 found no action in it")
        #expect(whole.narration.contains("the app hands its SDK the whole Hosting link the system opened it with"))
        session.edit { $0.app.device.passesWholeLink = false }
        _ = session.reduce(.linkTapped(messageID: message.id))
        #expect(session.app.flow?.step == .enteringNewPassword)
        #expect(session.narration.contains("the app takes the action URL out of the Hosting link's link= before handing it to its SDK"))
    }

    @Test("the Sequence diagram shows the SDK's headline over the app, not its rules")
    func diagramHeadline() throws {
        var session = try resetRequested(on: "ios@11.11.0")
        let message = try #require(session.inbox.last)
        _ = session.reduce(.linkTapped(messageID: message.id))
        let diagram = SequenceDiagram(session.session).mermaid
        #expect(diagram.contains("the app (ios@11.11.0) reads the link with its SDK: it finds no action to handle"))
        #expect(!diagram.contains("ActionCodeInfo actionCodeOperation"))
    }

    @Test("an iOS app with no bundle id set sends its own, so the Hosting link opens the app; the idealised app's link names no app and falls back to the web widget")
    func iOSSendsItsOwnBundleID() throws {
        func tapped(_ profile: String?) throws -> Session {
            var device = Device.iPhone
            device.sdk = try profile.map(SDKProfile.named)
            var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(),
                                           app: AppState(device: device, settings: ActionCodeSettings(url: "https://www.example.com/articles/42", handleCodeInApp: true)))
            _ = session.reduce(.passwordResetRequested(email: "bob@example.com"))
            _ = session.reduce(.mailboxOpened)
            _ = session.reduce(.linkTapped(messageID: try #require(session.inbox.last).id))
            return session.session
        }
        let onSDK = try tapped("ios@12.18.0")
        #expect(onSDK.app.sentSettings?.iOSBundleID == "com.example.ios")
        #expect(onSDK.app.lastLink?.outcome == "app")
        #expect(onSDK.narration.contains { $0.hasPrefix("ios@12.18.0 sends iOSBundleId com.example.ios, the app's own bundle id, when none is set") })
        let idealised = try tapped(nil)
        #expect(idealised.app.sentSettings?.iOSBundleID == nil)
        #expect(idealised.app.lastLink?.outcome == "web widget")
    }
}
