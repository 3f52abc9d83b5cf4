import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import TestSupport
import Testing

@Suite("Reducer: a phone second factor added, then removed by the revert link")
struct SecondFactorReducerTests {
    let alice = "alice@example.com"
    let phone = "+15555550100"

    func signedInAtAccount() -> Session {
        var session = Fixture.session()
        session.app.session = CachedUser(localId: "uid-\(alice)", email: alice, emailVerified: true, idToken: "token-1")
        session.app.screen = .account
        return session
    }

    /// "Add phone" tapped, and the answer that an SMS code went out with `sessionInfo`: the phone
    /// reads its messages next.
    func startAdding(_ store: inout TestStore, sessionInfo: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let start = AuthCall.startMfaEnrollment(StartMfaEnrollmentRequest(idToken: "token-1", phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: phone)))
        store.send(.secondFactorRequested(phoneNumber: phone), effects: [.call(start, by: .app)], sourceLocation: sourceLocation) {
            $0.app.busy = [.secondFactor]
            $0.app.addingSecondFactor = SecondFactorEnrollment(phoneNumber: self.phone)
            $0.log(.request(start, by: .app, purpose: .addSecondFactor))
        }
        let started = StartMfaEnrollmentResponse(phoneSessionInfo: PhoneSessionInfo(sessionInfo: sessionInfo))
        store.receive(.callSucceeded(start, by: .app, .mfaEnrollmentStarted(started)), effects: [.readTextMessages], sourceLocation: sourceLocation) {
            $0.app.addingSecondFactor?.sessionInfo = sessionInfo
            $0.log(.reply(.secondFactorCodeSent(phoneNumber: self.phone)))
        }
    }

    @Test("adding a phone: the SMS code is read and used, the new token kept, the user reloaded with the factor, the mailbox read")
    func addPhone() {
        var store = TestStore(signedInAtAccount())
        startAdding(&store, sessionInfo: "sms-session-2")
        // Another enrollment's code to the same number is not this one's.
        let codes = [PhoneVerificationCode(code: "111111", phoneNumber: phone, sessionInfo: "sms-session-1"),
                     PhoneVerificationCode(code: "654321", phoneNumber: phone, sessionInfo: "sms-session-2")]
        let finalize = AuthCall.finalizeMfaEnrollment(FinalizeMfaEnrollmentRequest(idToken: "token-1", phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: "sms-session-2", code: "654321")))
        store.receive(.textMessagesRead(codes), effects: [.call(finalize, by: .app)]) {
            $0.log(.textMessageArrived(phoneNumber: self.phone))
            $0.log(.request(finalize, by: .app, purpose: .finishSecondFactor))
        }
        let lookup = AuthCall.lookup(LookupRequest(idToken: "token-2"))
        store.receive(.callSucceeded(finalize, by: .app, .mfaEnrolled(MfaTokensResponse(idToken: "token-2", refreshToken: "refresh-2"))), effects: [.call(lookup, by: .app), .refreshMailbox]) {
            $0.app.busy = [.lookup, .mailbox]
            $0.app.addingSecondFactor = nil
            $0.app.session?.idToken = "token-2"
            $0.log(.reply(.secondFactorEnrolled(phoneNumber: self.phone)))
            $0.log(.request(lookup, by: .app, purpose: .reloadAfterSecondFactor))
        }
        var user = UserRecord(localId: "uid-\(alice)", email: alice, emailVerified: true)
        user.mfaInfo = [MfaEnrollmentRecord(mfaEnrollmentId: "factor-1", displayName: nil, enrolledAt: "2027-01-15T08:00:00.000Z", phoneInfo: phone, unobfuscatedPhoneInfo: phone)]
        store.receive(.callSucceeded(lookup, by: .app, .lookedUp(LookupResponse(users: [user])))) {
            $0.app.busy = [.mailbox]
            $0.app.session?.secondFactors = [self.phone]
            $0.log(.reply(.lookupRefreshed(verified: true, cachedWas: true)))
        }
        let message = Fixture.message(id: "m1", for: SendOobCodeRequest(requestType: .revertSecondFactorAddition, email: alice), to: alice, code: "REVERT1")
        store.receive(.mailboxRefreshed([message])) {
            $0.app.busy = []
            $0.listMessages([message])
            $0.log(.mailboxListed(new: 1, total: 1))
        }
        store.finish()
        #expect(store.session.narration == [
            "add +15555550100 as a second sign-in step: accounts/mfaEnrollment:start with idToken sends it an SMS code",
            "accounts/mfaEnrollment:start → SMS code sent to +15555550100",
            "SMS to +15555550100 arrives with a 6-digit code; the app fills it in",
            "accounts/mfaEnrollment:finalize with the SMS code and its sessionInfo",
            "accounts/mfaEnrollment:finalize → +15555550100 is a second factor now; new ID token (a production project emails a link that removes it again)",
            "accounts:lookup with the new idToken to load the enrolled factor",
            "accounts:lookup → emailVerified true (unchanged)",
            "mailbox: 1 new, 1 in all",
        ])
    }

    @Test("the revert link opens the web widget, which applies its code on load and says the second step is gone")
    func revertLink() throws {
        var store = TestStore(signedInAtAccount())
        let message = Fixture.message(id: "m1", for: SendOobCodeRequest(requestType: .revertSecondFactorAddition, email: alice), to: alice, code: "REVERT1")
        store.send(.mailboxRefreshed([message])) {
            $0.listMessages([message])
            $0.log(.mailboxListed(new: 1, total: 1))
        }
        _ = try store.applyInWebWidget(
            message, code: "REVERT1", operation: .revertSecondFactorAddition, email: alice,
            outcome: HostedActionHandler.Outcome(title: "The second sign-in step was removed", detail: "If you did not add it, change your password now.", email: alice),
            fact: .secondFactorRemoved(email: alice, continueShown: false))
        store.finish()
        #expect(store.session.narration.last == "web widget: accounts:update with oobCode → REVERT_SECOND_FACTOR_ADDITION code consumed; the second factor of alice@example.com is removed: the password alone signs in again")
    }

    @Test("a password sign-in that waits for a second factor leaves the app signed out, saying why")
    func signInWaitsForSecondFactor() {
        var store = TestStore(Fixture.session())
        let signIn = AuthCall.signInWithPassword(SignInWithPasswordRequest(email: alice, password: "alice-password-1"))
        store.send(.signInSubmitted(email: alice, password: "alice-password-1"), effects: [.call(signIn, by: .app)]) {
            $0.app.busy = [.signIn]
            $0.log(.request(signIn, by: .app, purpose: .signInForm))
        }
        var pending = SignInResponse(localId: "uid-\(alice)", email: alice, idToken: nil, refreshToken: nil, expiresIn: nil)
        pending.mfaPendingCredential = "pending"
        pending.mfaInfo = [MfaEnrollmentRecord(mfaEnrollmentId: "factor-1", displayName: nil, enrolledAt: "2027-01-15T08:00:00.000Z", phoneInfo: "+*******0100", unobfuscatedPhoneInfo: nil)]
        store.receive(.callSucceeded(signIn, by: .app, .signedIn(pending))) {
            $0.app.busy = []
            $0.app.screen = .signIn
            $0.app.banner = ErrorBanner(message: "This account has a second sign-in step (SMS), which this app does not ask for", code: nil, retry: nil)
            $0.log(.reply(.secondFactorRequired(email: self.alice, factors: 1)))
        }
        store.finish()
        #expect(store.session.app.session == nil)
        #expect(store.session.narration.last == "signInWithPassword → no ID token for alice@example.com: the account has 1 second factor, and the sign-in waits for one (mfaPendingCredential)")
    }

    @Test("adding a phone needs a signed-in user; an SMS that never came adds nothing")
    func refusals() {
        var store = TestStore(Fixture.session())
        store.send(.secondFactorRequested(phoneNumber: phone)) {
            $0.app.banner = ErrorBanner(message: "Sign in before adding a second sign-in step", code: nil, retry: nil)
            $0.log(.refused(.secondFactorNeedsSignIn))
        }
        store.finish()

        var signedIn = TestStore(signedInAtAccount())
        startAdding(&signedIn, sessionInfo: "sms-session-1")
        signedIn.receive(.textMessagesRead([])) {
            $0.app.busy = []
            $0.app.addingSecondFactor = nil
            $0.log(.refused(.noTextMessage(phoneNumber: self.phone)))
        }
        signedIn.finish()
        #expect(signedIn.session.narration.last == "no SMS code for +15555550100 arrived: the second factor is not added")
    }

    @Test("the revert-second-factor scenario's session: the Network pane, curl export and diagram show the v2 calls; its file reads back whole")
    func shippedScenarioSession() async throws {
        let scenario = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate("revert-second-factor"))
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        let recording = try #require(transcript.recording)
        let session = recording.current
        let enrollment = session.exchanges.filter { $0.request.contains("/v2/") }
        #expect(enrollment.map(\.operation) == [.startMfaEnrollment, .finalizeMfaEnrollment])
        #expect(enrollment.allSatisfy { $0.status == 200 })
        #expect(enrollment.first?.request.hasPrefix("POST /v2/accounts/mfaEnrollment:start?key=") == true)
        let script = CurlScript(title: scenario.name, session: session, revealsSecrets: false).script
        #expect(script.contains("/v2/accounts/mfaEnrollment:finalize"))
        let diagram = SequenceDiagram(session).mermaid
        #expect(diagram.contains("add +15555550100 as a second step"))
        #expect(diagram.contains("200 accounts/mfaEnrollment:finalize"))
        let reread = try SessionFile.decode(try SessionFile.encode(recording), path: "revert.json", transport: nil)
        #expect(reread.current == session)
        #expect(reread.events.contains(.secondFactorRequested(phoneNumber: "+15555550100")))
    }

    @Test("a session file written before second factors were kept still loads: the cached user has none listed")
    func olderSessionFileLoads() throws {
        var session = signedInAtAccount()
        session.app.session?.secondFactors = nil
        let recording = SessionRecording(start: session, events: [], current: session)
        let data = try SessionFile.encode(recording)
        let json = String(decoding: data, as: UTF8.self)
        #expect(!json.contains("secondFactors") && !json.contains("addingSecondFactor"), "an older file has neither key")
        let loaded = try SessionFile.decode(data, path: "old.json", transport: nil)
        #expect(loaded.current.app.session?.secondFactors == nil)
        #expect(loaded.current.app.addingSecondFactor == nil)
        #expect(loaded.current.app.session?.email == alice)
    }

    @Test("a mail scanner pre-opens the \"second factor added\" link like a browser: the hosted page removes the factor before the user reads the email")
    func scannerRemovesFactor() throws {
        var app = AppState(device: .iPhone, settings: ActionCodeSettings())
        app.device.mailScanner = true
        var session = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), app: app)
        for event: AppEvent in [.openRoute("/account"), .signInSubmitted(email: alice, password: "alice-password-1"), .secondFactorRequested(phoneNumber: phone)] {
            _ = session.reduce(event)
        }
        #expect(session.narration.contains { $0.contains("is a second factor now") })
        #expect(session.narration.contains("mail scanner: accounts:update with oobCode → REVERT_SECOND_FACTOR_ADDITION code consumed: the second factor is removed before the user reads the email, and the user's tap will fail with INVALID_OOB_CODE"))
        _ = session.reduce(.signOutTapped)
        _ = session.reduce(.signInSubmitted(email: alice, password: "alice-password-1"))
        #expect(session.app.session?.email == alice, "one factor again: \(session.narration.suffix(4))")
    }
}
