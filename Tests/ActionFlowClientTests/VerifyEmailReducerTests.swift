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
        var initial = Fixture.state(settings: settings)
        initial.session = bobSession
        var store = TestStore(initial)
        store.send(.openRoute("/subscribe")) {
            $0.screen = .verifyEmail
            $0.pendingDestination = .subscribe
            $0.narration.append("open /subscribe: /subscribe needs a verified email and the cached user says emailVerified false (stale until reloaded)")
        }
        var sent = settings
        sent.url = "https://www.example.com/subscribe"
        let request = SendOobCodeRequest(requestType: .verifyEmail, email: nil, idToken: "token-1", settings: sent, clientType: .iOS)
        let send = AuthCall.sendOobCode(request, locale: nil)
        store.send(.verificationRequested, effects: [.call(send, by: .app)]) {
            $0.busy = [.sendOobCode]
            $0.flow = FlowProgress(kind: .verifyEmail, step: .requesting, email: self.bob, continueURL: "https://www.example.com/subscribe")
            $0.sentSettings = sent
            $0.narration.append("sendOobCode VERIFY_EMAIL for bob@example.com with continueUrl https://www.example.com/subscribe, canHandleCodeInApp \(settings.handleCodeInApp), iOSBundleId com.example.ios")
        }
        store.receive(.callSucceeded(send, by: .app, .oobCodeSent(SendOobCodeResponse(email: bob))), effects: [.refreshMailbox]) {
            $0.busy = [.mailbox]
            $0.flow?.step = .emailSent
            $0.narration.append("sendOobCode VERIFY_EMAIL → sent to bob@example.com")
        }
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "VERIFY1")
        store.receive(.mailboxRefreshed([message])) {
            $0.busy = []
            $0.inbox = [message]
            $0.narration.append("mailbox: 1 new, 1 in all")
        }
        store.send(.mailboxOpened, effects: [.refreshMailbox]) {
            $0.busy = [.mailbox]
            $0.location = .mailbox(openMessageID: nil)
            $0.narration.append("open the mailbox")
        }
        store.receive(.mailboxRefreshed([message])) {
            $0.busy = []
            $0.narration.append("mailbox: 1 message, nothing new")
        }
        return (store, request, message)
    }

    @Test("in the app: code applied, stale cache shown, reloaded, resumed at /subscribe, subscribed")
    func inApp() throws {
        var (store, _, message) = storeWithVerificationSent(settings: Fixture.inAppSettings)
        let route = LinkRouter.route(tapped: message.link, on: .iPhone, project: Fixture.project, requested: store.state.sentSettings)
        guard case .app = route.destination else {
            Issue.record("expected the iPhone to open the app, got \(route.destination)")
            return
        }
        let apply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        store.send(.linkTapped(messageID: "m1"), effects: [.call(apply, by: .app)]) {
            $0.busy = [.applyCode]
            $0.location = .app
            $0.lastLink = LinkVisit(link: message.link, outcome: "app", anatomy: Fixture.anatomy(message.link), route: route)
            $0.flow = FlowProgress(kind: .verifyEmail, step: .applyingCode, email: self.bob, continueURL: "https://www.example.com/subscribe", oobCode: "VERIFY1")
            $0.narration += Fixture.narration(of: route)
            $0.narration.append("app handles mode verifyEmail (continueUrl https://www.example.com/subscribe): accounts:update with oobCode")
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.receive(.callSucceeded(apply, by: .app, .updated(UpdateAccountResponse(localId: "uid-bob", email: bob, emailVerified: true))), effects: [.call(lookup, by: .app)]) {
            $0.busy = [.lookup]
            $0.flow?.step = .reloadingUser
            $0.narration.append("accounts:update with oobCode → VERIFY_EMAIL code consumed; the server now says emailVerified true")
            $0.narration.append("cached user still says emailVerified false until reloaded: accounts:lookup with idToken")
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .subscribe, completing: .verifyEmail)
        store.send(.subscribeTapped) {
            $0.subscribed = true
            $0.narration.append("subscription completed for bob@example.com")
        }
        store.finish()
    }

    @Test("web widget: applied on the page, Continue reopens the app, stale cache until reload")
    func webWidget() throws {
        var (store, _, message) = storeWithVerificationSent(settings: Fixture.webWidgetSettings)
        let apply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        let (loading, anatomy) = try store.tapIntoWebWidget(message, call: apply, busy: .applyCode, operation: .verifyEmail, code: "VERIFY1",
                                                           action: "applies the code on load (accounts:update with oobCode; consumes it)")
        var done = loading
        done.step = .done(message: "Your email has been verified. You can now sign in with your new account.")
        store.receive(.callSucceeded(apply, by: .webWidget, .updated(UpdateAccountResponse(localId: "uid-bob", email: bob, emailVerified: true)))) {
            $0.busy = []
            $0.location = .webWidget(done)
            $0.narration.append("web widget: accounts:update with oobCode → code consumed; bob@example.com verified on the server; Continue shown")
        }
        let continueRoute = try #require(LinkRouter.continueRoute(afterWidget: loading.actionURL, on: .iPhone, project: Fixture.project, requested: store.state.sentSettings))
        store.send(.continueTapped) {
            $0.location = .app
            $0.screen = .verifyEmail
            $0.lastLink = LinkVisit(link: anatomy.continueUrl ?? "", outcome: "app", anatomy: nil, route: continueRoute)
            $0.narration += Fixture.narration(of: continueRoute)
            $0.narration.append("app opened with continue URL https://www.example.com/subscribe: /subscribe needs a verified email and the cached user says emailVerified false (stale until reloaded)")
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.send(.reloadUserTapped, effects: [.call(lookup, by: .app)]) {
            $0.busy = [.lookup]
            $0.narration.append("reload user: accounts:lookup with idToken")
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .subscribe, completing: .verifyEmail)
        store.finish()
    }

    @Test("a mail scanner consumes the code first; the user's tap fails and a reload recovers")
    func mailScanner() {
        var initial = Fixture.state()
        initial.session = bobSession
        initial.device.mailScanner = true
        initial.screen = .verifyEmail
        initial.pendingDestination = .subscribe
        var store = TestStore(initial)
        let request = SendOobCodeRequest(requestType: .verifyEmail, email: nil, idToken: "token-1", settings: ActionCodeSettings(url: "https://www.example.com/subscribe", handleCodeInApp: true, iOSBundleID: "com.example.ios"), clientType: .iOS)
        let message = Fixture.message(id: "m1", for: request, to: bob, code: "VERIFY1")
        let scannerApply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        store.send(.mailboxRefreshed([message]), effects: [.call(scannerApply, by: .mailScanner)]) {
            $0.inbox = [message]
            $0.scannedMessageIDs = ["m1"]
            $0.busy = [.scanner]
            $0.narration.append("mailbox: 1 new, 1 in all")
            $0.narration.append("mail scanner pre-opens the link in \"Reset your password for demo-actionflow\" like a desktop browser: the web widget applies the code on load (accounts:update with oobCode; consumes it)")
        }
        store.receive(.callSucceeded(scannerApply, by: .mailScanner, .updated(UpdateAccountResponse(localId: "uid-bob", email: bob, emailVerified: true)))) {
            $0.busy = []
            $0.narration.append("mail scanner: accounts:update with oobCode → code consumed (the email is verified, but the user's tap will fail with INVALID_OOB_CODE)")
        }
        store.send(.mailboxRefreshed([message])) {
            $0.narration.append("mailbox: 1 message, nothing new")
        }
        let apply = AuthCall.update(UpdateAccountRequest(oobCode: "VERIFY1"))
        store.send(.linkPasted(message.link), effects: [.call(apply, by: .app)]) {
            $0.busy = [.applyCode]
            $0.lastLink = LinkVisit(link: message.link, outcome: "pasted into the app", anatomy: Fixture.anatomy(message.link))
            $0.flow = FlowProgress(kind: .verifyEmail, step: .applyingCode, email: self.bob, continueURL: "https://www.example.com/subscribe", oobCode: "VERIFY1")
            $0.narration.append(SecretMasking.maskLinks(in: "link pasted into the app: \(message.link)"))
            $0.narration.append("app handles mode verifyEmail (continueUrl https://www.example.com/subscribe): accounts:update with oobCode")
        }
        store.receive(.callFailed(apply, by: .app, .server(.invalidOobCode, detail: nil))) {
            $0.busy = []
            $0.flow = nil
            $0.banner = ErrorBanner(message: "INVALID_OOB_CODE (the code is malformed, already used, or of another kind)", code: .invalidOobCode, retry: nil)
            $0.narration.append("accounts:update → INVALID_OOB_CODE (the code is malformed, already used, or of another kind)")
        }
        store.send(.errorDismissed) {
            $0.banner = nil
            $0.narration.append("error dismissed")
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-1"))
        store.send(.reloadUserTapped, effects: [.call(lookup, by: .app)]) {
            $0.busy = [.lookup]
            $0.narration.append("reload user: accounts:lookup with idToken")
        }
        store.receiveVerifiedLookup(lookup, email: bob, resumingAt: .subscribe, completing: nil)
        store.finish()
    }
}
