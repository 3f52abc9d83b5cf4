import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

@Suite("The hosted web widget: one behaviour with serve's page")
struct WebWidgetTests {
    let alice = "alice@example.com"

    /// An email sign-in link sent from a desktop browser, so that a tap opens the hosted page.
    func signInLinkOnDesktop(scanner: Bool = false) throws -> Session {
        var device = Device.desktop
        device.mailScanner = scanner
        var session = Session.embedded(project: try ProjectConfigLoader.loadDefault(), app: AppState(device: device, settings: ActionCodeSettings(url: "https://www.example.com/account", handleCodeInApp: true)))
        _ = session.reduce(.signInLinkRequested(email: alice))
        _ = session.reduce(.mailboxOpened)
        return session
    }

    @Test("an email sign-in link asks for the email on the page, as serve's page does; the code is used only then")
    func asksForTheEmail() throws {
        var session = try signInLinkOnDesktop()
        let message = try #require(session.inbox.last)
        _ = session.reduce(.linkTapped(messageID: message.id))
        guard case .webWidget(let page) = session.app.location else {
            Issue.record("expected the web widget, got \(session.app.location)")
            return
        }
        #expect(page.step == .confirmEmail)
        #expect(HostedPageAction(page.operation) == .askEmailThenSignIn)
        #expect(session.exchanges.last.map { $0.request.contains("sendOobCode") } == true, "no call until the email is given")
        #expect(session.narration.last?.contains("asks for the email the link was sent to") == true)

        _ = session.reduce(.signInEmailConfirmed(alice))
        guard case .webWidget(let done) = session.app.location, case .done = done.step else {
            Issue.record("expected the widget's done page, got \(session.app.location)")
            return
        }
        let facts = session.journal.map(\.fact)
        #expect(facts.contains(.request(.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice, oobCode: message.oobCode ?? "")), by: .webWidget, purpose: .emailConfirmed)))
        #expect(facts.contains(.webWidget(.signedInOnPage(email: alice))))
        #expect(session.app.session == nil, "signed in on the web page, not in the app")
    }

    @Test("a mail scanner cannot answer the page's question: an email sign-in code survives it")
    func scannerLeavesSignInCodes() throws {
        var session = try signInLinkOnDesktop(scanner: true)
        #expect(session.journal.map(\.fact).contains(.scanner(.cannotConfirmEmail(subject: session.inbox.last?.subject ?? ""))))
        #expect(!session.exchanges.contains { $0.request.contains("signInWithEmailLink") })
        _ = session.reduce(.linkTapped(messageID: session.inbox.last?.id ?? ""))
        _ = session.reduce(.signInEmailConfirmed(alice))
        #expect(session.journal.map(\.fact).contains(.webWidget(.signedInOnPage(email: alice))), "the user's own tap still works")
    }
}
