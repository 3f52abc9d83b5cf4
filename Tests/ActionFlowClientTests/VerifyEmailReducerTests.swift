@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

@Suite("Reducer: email verification (scenario 2)")
struct VerifyEmailReducerTests {
    let bob = "bob@example.com"
    let bobSession = CachedUser(localId: "uid-bob", email: "bob@example.com", emailVerified: false, idToken: "token-1")

    /// Signed in but unverified, at the verify prompt with the verification email in the inbox.
    func storeWithVerificationSent(settings: ActionCodeSettings) -> (TestStore, SendOobCodeRequest, MailMessage) {
        var app = Fixture.app(settings: settings)
        app.session = bobSession
        var store = TestStore(Fixture.session(app))
        store.send(.openRoute("/subscribe")) {
            $0.app.screen = .verifyEmail
            $0.app.pendingDestination = .subscribe
            $0.log(.gated(.open(.subscribe), target: .subscribe, gate: .verifiedEmail))
        }
        var sent = settings
        sent.url = "https://www.example.com/subscribe"
        let request = SendOobCodeRequest(requestType: .verifyEmail, email: nil, idToken: "token-1", settings: sent, clientType: .iOS)
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.verificationRequested, effects: [.call(send, by: .app)]) {
            $0.app.busy = [.sendOobCode]
            $0.app.flow = FlowProgress(kind: .verifyEmail, step: .requesting, email: self.bob, continueURL: "https://www.example.com/subscribe")
            $0.app.sentSettings = sent
            $0.log(.request(send, by: .app, purpose: .sendEmail(recipient: self.bob)))
        }
        store.receive(.callSucceeded(send, by: .app, .oobCodeSent(SendOobCodeResponse(email: bob))), effects: [.refreshMailbox]) {
            $0.app.busy = [.mailbox]
            $0.app.flow?.step = .emailSent
            $0.log(.reply(.oobCodeSent(.verifyEmail, email: self.bob, enumerationProtected: false)))
        }
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "VERIFY1")
        store.receive(.mailboxRefreshed([message])) {
            $0.app.busy = []
            $0.listMessages([message])
            $0.log(.mailboxListed(new: 1, total: 1))
        }
        store.send(.mailboxOpened, effects: [.refreshMailbox]) {
            $0.app.busy = [.mailbox]
            $0.app.location = .mailbox(openMessageID: nil)
            $0.app.seenMessages = 1
            $0.log(.mailboxOpened)
        }
        store.receive(.mailboxRefreshed([message])) {
            $0.app.busy = []
            $0.log(.mailboxListed(new: 0, total: 1))
        }
        return (store, request, message)
    }

    @Test("in the app: code applied, stale cache shown, reloaded, resumed at /subscribe, subscribed")
    func inApp() throws {
        var (store, _, message) = storeWithVerificationSent(settings: Fixture.inAppSettings)
        let route = LinkRouter.route(tapped: message.link, on: .iPhone, project: Fixture.project, requested: store.session.app.sentSettings)
        guard case .app = route.destination else {
            Issue.record("expected the iPhone to open the app, got \(route.destination)")
            return
        }
        let apply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        store.send(.linkTapped(messageID: "m1"), effects: [.call(apply, by: .app)]) {
            $0.app.busy = [.applyCode]
            $0.app.location = .app
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "app", anatomy: Fixture.anatomy(message.link), route: route)
            $0.app.flow = FlowProgress(kind: .verifyEmail, step: .applyingCode, email: self.bob, continueURL: "https://www.example.com/subscribe", oobCode: "VERIFY1")
            $0.log(.routed(link: message.link, route))
            $0.log(.request(apply, by: .app, purpose: .handleLink(continueURL: "https://www.example.com/subscribe")))
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(apply, by: .app, .updated(UpdateAccountResponse(localId: "uid-bob", email: bob, emailVerified: true))), effects: [.call(lookup, by: .app)]) {
            $0.app.busy = [.lookup]
            $0.app.flow?.step = .reloadingUser
            $0.log(.reply(.codeApplied(verifyEmail: true, serverSaysVerified: true)))
            $0.log(.request(lookup, by: .app, purpose: .reloadAfterApplying(cachedVerified: false)))
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .subscribe, completing: .verifyEmail)
        store.send(.subscribeTapped) {
            $0.app.subscribed = true
            $0.log(.subscribed(email: self.bob))
        }
        store.finish()

        #expect(store.session.narration == [
            "open /subscribe: /subscribe needs a verified email and the cached user says emailVerified false (stale until reloaded)",
            "sendOobCode VERIFY_EMAIL for bob@example.com with continueUrl https://www.example.com/subscribe, canHandleCodeInApp true, iOSBundleId com.example.ios",
            "sendOobCode VERIFY_EMAIL → sent to bob@example.com",
            "mailbox: 1 new, 1 in all",
            "open the mailbox",
            "mailbox: 1 message, nothing new",
        ] + Fixture.narration(of: route) + [
            "app handles mode verifyEmail (continueUrl https://www.example.com/subscribe): accounts:update with oobCode",
            "accounts:update with oobCode → VERIFY_EMAIL code consumed; the server now says emailVerified true",
            "cached user still says emailVerified false until reloaded: accounts:lookup with idToken",
        ] + TestStore.verifiedLookupNarration(email: bob, resumingAt: .subscribe, completing: .verifyEmail) + [
            "subscription completed for bob@example.com",
        ])
    }

    @Test("web widget: applied on the page, Continue reopens the app, stale cache until reload")
    func webWidget() throws {
        var (store, _, message) = storeWithVerificationSent(settings: Fixture.webWidgetSettings)
        let (loading, anatomy) = try store.applyInWebWidget(
            message, code: "VERIFY1", operation: .verifyEmail, email: bob,
            outcome: HostedActionHandler.Outcome(title: "Your email has been verified", detail: "You can now sign in with your new account.", email: bob),
            fact: .emailVerified(email: bob, continueShown: true))
        let continueRoute = try #require(LinkRouter.continueRoute(afterWidget: loading.actionURL, on: .iPhone, project: Fixture.project, requested: store.session.app.sentSettings))
        let continueURL = try #require(anatomy.continueUrl)
        store.send(.continueTapped) {
            $0.app.location = .app
            $0.app.screen = .verifyEmail
            $0.app.lastLink = LinkVisit(link: continueURL, outcome: "app", anatomy: nil, route: continueRoute)
            $0.log(.routed(link: continueURL, continueRoute))
            $0.log(.gated(.continueURL("https://www.example.com/subscribe"), target: .subscribe, gate: .verifiedEmail))
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.send(.reloadUserTapped, effects: [.call(lookup, by: .app)]) {
            $0.app.busy = [.lookup]
            $0.log(.request(lookup, by: .app, purpose: .reloadTapped))
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .subscribe, completing: .verifyEmail)
        store.finish()
    }

    @Test("a mail scanner consumes the code first; the user's tap fails and a reload recovers")
    func mailScanner() {
        var app = Fixture.app()
        app.session = bobSession
        app.device.mailScanner = true
        app.screen = .verifyEmail
        app.pendingDestination = .subscribe
        var store = TestStore(Fixture.session(app))
        let request = SendOobCodeRequest(requestType: .verifyEmail, email: nil, idToken: "token-1", settings: ActionCodeSettings(url: "https://www.example.com/subscribe", handleCodeInApp: true, iOSBundleID: "com.example.ios"), clientType: .iOS)
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "VERIFY1")
        let scannerApply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        store.send(.mailboxRefreshed([message]), effects: [.call(scannerApply, by: .mailScanner)]) {
            $0.listMessages([message])
            $0.app.scannedMessageIDs = ["m1"]
            $0.app.busy = [.scanner]
            $0.log(.mailboxListed(new: 1, total: 1))
            $0.log(.request(scannerApply, by: .mailScanner, purpose: .scannerPreOpened(subject: message.subject)))
        }
        store.receive(.callSucceeded(scannerApply, by: .mailScanner, .updated(UpdateAccountResponse(localId: "uid-bob", email: bob, emailVerified: true)))) {
            $0.app.busy = []
            $0.log(.scanner(.result(scannerApply)))
        }
        store.send(.mailboxRefreshed([message])) {
            $0.log(.mailboxListed(new: 0, total: 1))
        }
        let apply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        store.send(.linkPasted(message.link), effects: [.call(apply, by: .app)]) {
            $0.app.busy = [.applyCode]
            $0.app.lastLink = LinkVisit(link: message.link, outcome: "pasted into the app", anatomy: Fixture.anatomy(message.link))
            $0.app.flow = FlowProgress(kind: .verifyEmail, step: .applyingCode, email: self.bob, continueURL: "https://www.example.com/subscribe", oobCode: "VERIFY1")
            $0.log(.linkPasted(message.link))
            $0.log(.request(apply, by: .app, purpose: .handleLink(continueURL: "https://www.example.com/subscribe")))
        }
        let invalidCode = AuthFailure.server(.invalidOobCode, detail: nil)
        store.receive(.callFailed(apply, by: .app, invalidCode)) {
            $0.app.busy = []
            $0.app.flow = nil
            $0.app.banner = ErrorBanner(message: "INVALID_OOB_CODE (the code is malformed, already used, or of another kind)", code: .invalidOobCode, retry: nil)
            $0.log(.callFailed(.update, invalidCode, retryable: false))
        }
        store.send(.errorDismissed) {
            $0.app.banner = nil
            $0.log(.errorDismissed)
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.send(.reloadUserTapped, effects: [.call(lookup, by: .app)]) {
            $0.app.busy = [.lookup]
            $0.log(.request(lookup, by: .app, purpose: .reloadTapped))
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .subscribe, completing: nil)
        store.finish()

        #expect(store.session.narration == [
            "mailbox: 1 new, 1 in all",
            "mail scanner pre-opens the link in \"Reset your password for demo-actionflow\" like a desktop browser: the web widget applies the code on load (accounts:update with oobCode; consumes it)",
            "mail scanner: accounts:update with oobCode → code consumed (the email is verified, but the user's tap will fail with INVALID_OOB_CODE)",
            "mailbox: 1 message, nothing new",
            SecretMasking.maskLinks(in: "link pasted into the app: \(message.link)"),
            "app handles mode verifyEmail (continueUrl https://www.example.com/subscribe): accounts:update with oobCode",
            "accounts:update → INVALID_OOB_CODE (the code is malformed, already used, or of another kind)",
            "error dismissed",
            "reload user: accounts:lookup with idToken",
        ] + TestStore.verifiedLookupNarration(email: bob, resumingAt: .subscribe, completing: nil))
    }
}
