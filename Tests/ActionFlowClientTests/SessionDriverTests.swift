import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing
import TestSupport

@Suite("Session: embedded calls inline, remote effects through a transport")
struct SessionDriverTests {
    let bob = "bob@example.com"
    let inApp = AppState(device: .iPhone, settings: ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios"))

    func remote(_ transport: any AuthTransport, project: ProjectConfiguration) -> SessionDriver {
        SessionDriver(session: .remote(project: project, app: inApp, now: nil), runner: .remote(RemoteEffects(transport: transport, apiKey: project.apiKey)))
    }

    @Test("a send that fails on the network is offered for retry, never retried by itself")
    func networkFailureThenRetry() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let faulty = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(faults: [.connectionLost(on: .sendOobCode)]))
        var driver = remote(faulty, project: project)
        await driver.send(.forgotPasswordTapped)
        await driver.send(.passwordResetRequested(email: bob))
        let failed = driver.session.app
        #expect(failed.banner?.retry != nil)
        #expect(failed.banner?.code == nil)
        #expect(failed.screen == .forgotPassword)
        #expect(failed.busy.isEmpty)
        #expect(try await faulty.mailbox().isEmpty, "nothing was sent, and nothing is retried without the user")
        await driver.send(.retryTapped)
        #expect(driver.session.app.banner == nil)
        #expect(driver.session.inbox.count == 1)
        #expect(driver.session.app.flow?.step == .emailSent)
    }

    @Test("a response lost after the email went out: the app shows the error, the inbox has the email")
    func responseLostAfterSending() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let faulty = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(faults: [.connectionLost(on: .sendOobCode, timing: .afterResponse)]))
        var driver = remote(faulty, project: project)
        await driver.send(.passwordResetRequested(email: bob))
        #expect(driver.session.app.banner?.retry != nil)
        #expect(try await faulty.mailbox().count == 1)
        await driver.send(.mailboxOpened)
        await driver.send(.linkTapped(messageID: driver.session.inbox.last?.id ?? "none"))
        #expect(driver.session.app.screen == .newPassword(email: bob), "the email that did arrive still works")
    }

    @Test("the rate limit leaves the app on the form with a retry")
    func rateLimit() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let faulty = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(faults: [.serverError(.tooManyAttempts, on: .sendOobCode)]))
        var driver = remote(faulty, project: project)
        await driver.send(.forgotPasswordTapped)
        await driver.send(.passwordResetRequested(email: bob))
        let limited = driver.session.app
        #expect(limited.banner?.code == .tooManyAttempts)
        #expect(limited.banner?.retry != nil)
        #expect(limited.screen == .forgotPassword)
        #expect(limited.flow?.step == .requesting)
        await driver.send(.retryTapped)
        #expect(driver.session.inbox.count == 1)
    }

    @Test("over the embedded world a call is a function call: reduce leaves nothing to run or wait for")
    func embeddedIsSynchronous() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var session = EmbeddedSession(project: project, app: inApp)
        #expect(session.reduce(.passwordResetRequested(email: bob)).isEmpty)
        #expect(session.app.busy.isEmpty)
        #expect(session.inbox.count == 1, "sent, and listed by the mail app after the send")
        #expect(session.app.flow?.step == .emailSent)
        let facts = session.journal.map(\.fact)
        #expect(facts.contains { if case .mailSent(_, bob, .passwordReset) = $0 { true } else { false } })
        #expect(facts.contains { if case .exchange(1, .sendOobCode, .app, 200, nil) = $0 { true } else { false } })
    }

    @Test("exchanges are recorded in the session with secrets masked, and the journal points at them")
    func exchanges() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var session = EmbeddedSession(project: project, app: inApp)
        _ = session.reduce(.signInSubmitted(email: bob, password: "bob-password-1"))
        #expect(session.exchangeCount == 2, "signInWithPassword, then lookup")
        #expect(session.exchanges.map(\.id) == [1, 2])
        #expect(session.exchanges.map(\.request).allSatisfy { $0.hasPrefix("POST ") && !$0.contains(project.apiKey) })
        #expect(!session.exchanges.contains { $0.requestBody.contains("bob-password-1") })
        #expect(session.journal.filter { if case .exchange = $0.fact { true } else { false } }.count == 2)
        #expect(session.journal.allSatisfy { $0.at == project.clockStart }, "entries carry the simulated time")
    }

    @Test("the exchange total counts every call since the last project change, beyond the window kept")
    func exchangeTotal() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var session = EmbeddedSession(project: project, app: inApp)
        for _ in 0..<60 { _ = session.reduce(.signInSubmitted(email: bob, password: "wrong-password")) }
        #expect(session.exchangeCount == 60)
        _ = session.reduce(.signInSubmitted(email: bob, password: "bob-password-1"))
        #expect(session.exchangeCount == 62)
        #expect(session.exchanges.count == Session.exchangeWindow)
        #expect(session.exchanges.last?.id == 62)
        var edited = project
        edited.emailEnumerationProtection = true
        _ = session.reduce(.projectEdited(edited))
        _ = session.reduce(.signInSubmitted(email: bob, password: "wrong-password"))
        #expect(session.exchangeCount == 1, "the old world's calls are forgotten")
        #expect(session.exchanges.map(\.id) == [1])
    }

    @Test("a project change restarts the embedded world with the new link style")
    func projectChange() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var session = EmbeddedSession(project: project, app: AppState(device: .pixel, settings: ActionCodeSettings(handleCodeInApp: true, androidPackageName: "com.example.android")))
        var legacy = project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        _ = session.reduce(.projectEdited(legacy))
        _ = session.reduce(.passwordResetRequested(email: bob))
        #expect(session.project.mobileLinkStyle == .firebaseDynamicLinkDomain)
        #expect(session.inbox.first?.link.hasPrefix("https://example.page.link/") == true)
    }

    @Test("a project the server refuses leaves the app on the old project, and says why")
    func projectChangeRefused() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        var driver = remote(RestrictedTransport.emulatorLike(EmbeddedTransport(configuration: project)), project: project)
        var legacy = project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        await driver.send(.projectEdited(legacy))
        #expect(driver.session.project == project, "routing keeps the project the server has")
        let banner = try #require(driver.session.app.banner)
        #expect(banner.message.contains("takes its configuration from firebase.json"))
        #expect(driver.session.app.busy.isEmpty)
    }

    @Test("a project the server takes becomes the app's project")
    func projectChangeAccepted() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let decorated = FaultInjectingTransport(RecordingTransport(EmbeddedTransport(configuration: project), apiKey: nil), plan: FaultPlan())
        var driver = remote(decorated, project: project)
        var legacy = project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        await driver.send(.projectEdited(legacy))
        #expect(driver.session.project == legacy, "every decorator forwards the change")
        await driver.send(.passwordResetRequested(email: bob))
        #expect(driver.session.inbox.first?.link.hasPrefix("https://example.page.link/") == true)
    }

    @Test("the driver keeps every event: replaying them from the start gives the same session")
    func replay() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        var driver = SessionDriver.embedded(project: project, app: inApp)
        for event: AppEvent in [.openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: bob), .mailboxOpened] {
            await driver.send(event)
        }
        await driver.send(.linkTapped(messageID: driver.session.inbox.last?.id ?? "none"))
        await driver.send(.newPasswordSubmitted("correct-horse-battery"))
        #expect(driver.session.app.screen == .article(id: "42"))
        var replayed = driver.start
        for event in driver.events { _ = replayed.reduce(event) }
        #expect(replayed.app == driver.session.app)
        #expect(replayed.world == driver.session.world)
        #expect(replayed.journal == driver.session.journal)
    }

    @Test("the Flow pane's tail of the narration is the full narration's tail, however long the journal")
    func narrationTail() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var session = EmbeddedSession(project: project, app: inApp)
        for _ in 0..<40 {
            _ = session.reduce(.openRoute("/articles/42"))
            _ = session.reduce(.passwordResetRequested(email: bob))
            _ = session.reduce(.linkTapped(messageID: session.inbox.last?.id ?? "none"))
        }
        let full = session.narration
        #expect(session.journal.allSatisfy { JournalText.lineCount($0.fact) == $0.lines.count })
        for limit in [0, 1, 7, 200, full.count + 5] {
            let (total, lines) = session.session.narrationTail(limit)
            #expect(total == full.count)
            #expect(lines == Array(full.suffix(limit)))
        }
    }

    @Test("an app killed before the tap cold-starts from the link: memory is gone, the cached user and the continue URL remain")
    func appKilledBeforeTheTap() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var session = EmbeddedSession(project: project, app: inApp)
        _ = session.reduce(.openRoute("/articles/42"))
        _ = session.reduce(.forgotPasswordTapped)
        _ = session.reduce(.passwordResetRequested(email: bob))
        var killed = session.app.device
        killed.appKilledBeforeTap = true
        _ = session.reduce(.deviceEdited(killed))
        let link = try #require(session.inbox.last?.link)
        _ = session.reduce(.linkTapped(messageID: session.inbox.last?.id ?? "none"))
        let coldStart = session.journal.compactMap { entry -> (AppScreen?, String?, FlowKind?)? in
            if case .appColdStarted(_, let destination, let email, let flow) = entry.fact { return (destination, email, flow) }
            return nil
        }
        #expect(coldStart.count == 1)
        #expect(coldStart.first?.0 == .article(id: "42"))
        #expect(coldStart.first?.2 == .passwordReset)
        #expect(!session.app.device.appKilledBeforeTap, "the knob is spent: the app runs now")
        #expect(session.app.coldStartLink != nil && session.app.coldStartLink != link, "the app received the link's payload")
        #expect(session.app.screen == .newPassword(email: bob))
        #expect(session.app.pendingDestination == .article(id: "42"), "restored from the continue URL alone")

        var pasted = EmbeddedSession(project: project, app: inApp)
        _ = pasted.reduce(.passwordResetRequested(email: bob))
        killed = pasted.app.device
        killed.appKilledBeforeTap = true
        _ = pasted.reduce(.deviceEdited(killed))
        _ = pasted.reduce(.linkPasted(pasted.inbox.last?.link ?? ""))
        #expect(pasted.app.device.appKilledBeforeTap, "a link pasted into the app finds it running")
        #expect(!pasted.journal.contains { if case .appColdStarted = $0.fact { true } else { false } })
    }
}
