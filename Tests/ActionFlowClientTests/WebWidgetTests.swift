import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import TestSupport
import Testing

@Suite("The hosted web widget: one behaviour with serve's page")
struct WebWidgetTests {
    let alice = "alice@example.com"

    /// An email sign-in link sent from a desktop browser, so that a tap opens the hosted page.
    func signInLinkOnDesktop(scanner: Bool = false) throws -> EmbeddedSession {
        var device = Device.desktop
        device.mailScanner = scanner
        var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), app: AppState(device: device, settings: ActionCodeSettings(url: "https://www.example.com/account", handleCodeInApp: true)))
        _ = session.reduce(.signInLinkRequested(email: alice))
        _ = session.reduce(.mailboxOpened)
        return session
    }

    @Test("an email sign-in link: the hosted page forwards it to the continue URL, where the web app signs in with the email this computer remembers")
    func forwardsToTheWebApp() throws {
        var session = try signInLinkOnDesktop()
        let message = try #require(session.inbox.last)
        _ = session.reduce(.linkTapped(messageID: message.id))
        let facts = session.journal.map(\.fact)
        let forward = try #require(facts.compactMap { if case .webWidget(.forwarded(let url)) = $0 { url } else { nil } }.first)
        let items = try #require(URLComponents(string: forward)?.queryItems)
        #expect(forward.hasPrefix("https://www.example.com/account?"))
        #expect(items.first { $0.name == "mode" }?.value == "signIn")
        #expect(items.first { $0.name == "oobCode" }?.value == message.oobCode)
        #expect(!items.contains { $0.name == "continueUrl" }, "the continue URL is the page itself")
        #expect(facts.contains(.webAppOpened(forward)))
        #expect(!facts.contains { if case .request(_, by: .webWidget, _) = $0 { true } else { false } }, "the hosted page makes no call for mode signIn")
        #expect(facts.contains(.request(.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice, oobCode: message.oobCode ?? "")), by: .app, purpose: .handleLink(continueURL: "https://www.example.com/account"))),
                "the web app signs in with the email it kept when it asked for the link")
        #expect(session.app.location == .app)
        #expect(session.app.screen == .account)
        #expect(session.app.session?.email == alice)
        #expect(session.app.flow?.step == .completed)
    }

    @Test("a mail scanner is forwarded too, and cannot answer the web app's question: an email sign-in code survives it")
    func scannerLeavesSignInCodes() throws {
        var session = try signInLinkOnDesktop(scanner: true)
        #expect(session.journal.map(\.fact).contains(.scanner(.cannotConfirmEmail(subject: session.inbox.last?.subject ?? ""))))
        #expect(!session.exchanges.contains { $0.request.contains("signInWithEmailLink") })
        _ = session.reduce(.linkTapped(messageID: session.inbox.last?.id ?? ""))
        #expect(session.app.session?.email == alice, "the user's own tap still works")
    }

    @Test("asked for in the iPhone app, opened on the laptop: forwarded to the web app, which says it asks for the email; the diagram draws the forward")
    func forwardedToAnotherDevicesWebApp() throws {
        let settings = ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios")
        var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), devices: [DeviceName.iphone, .laptop].map { SessionDevice(name: $0, settings: settings) })
        _ = session.reduce(.openRoute("/articles/7"))
        _ = session.reduce(.signInLinkRequested(email: alice))
        _ = session.reduce(.deviceFocused(1))
        _ = session.reduce(.mailboxOpened)
        _ = session.reduce(.linkTapped(messageID: session.inbox.last?.id ?? ""))
        #expect(session.app.location == .app && session.app.screen == .confirmEmailForSignIn)
        #expect(session.app.pendingDestination == .article(id: "7"), "the web app is at the continue URL's page")
        let narration = session.narration
        #expect(narration.contains { $0.hasPrefix("On the laptop: web widget: mode signIn: no sign-in on this page") && $0.contains("oobCode=") && !$0.contains(session.inbox.last?.oobCode ?? "-") },
                "the forward is narrated, its code masked")
        #expect(narration.contains { $0.hasPrefix("On the laptop: the web app at the continue URL finishes the sign-in") && $0.contains("it asks for it") })

        let messages = SequenceDiagram(session.session).messages
        let forward = try #require(messages.firstIndex { $0.from == .webWidget && $0.to == .browser && $0.text.contains("303 to the continue URL") })
        let webApp = try #require(messages.firstIndex { $0.from == .browser && $0.to == .app2 && $0.text == "open the web app at /articles/7" })
        let ask = try #require(messages.firstIndex { $0.from == .app2 && $0.to == .user })
        #expect(forward < webApp && webApp < ask)
        #expect(!messages.contains { $0.from == .webWidget && $0.to == .auth }, "the hosted page makes no call")
    }
}
