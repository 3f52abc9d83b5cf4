import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite("Runtime: effects against real transports")
struct AppRuntimeTests {
    let bob = "bob@example.com"

    func runtime(_ transport: any AuthTransport, project: ProjectConfiguration) -> AppRuntime {
        AppRuntime(state: AppState(device: .iPhone, settings: ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios"), project: project), transport: transport)
    }

    @Test("a send that fails on the network is offered for retry, never retried by itself")
    func networkFailureThenRetry() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let faulty = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(faults: [.connectionLost(on: .sendOobCode)]))
        let app = runtime(faulty, project: project)
        await app.process(.forgotPasswordTapped)
        await app.process(.passwordResetRequested(email: bob))
        let failed = await app.state
        #expect(failed.banner?.retry != nil)
        #expect(failed.banner?.code == nil)
        #expect(failed.screen == .forgotPassword)
        #expect(failed.busy.isEmpty)
        #expect(try await faulty.mailbox().isEmpty, "nothing was sent, and nothing is retried without the user")
        await app.process(.retryTapped)
        let sent = await app.state
        #expect(sent.banner == nil)
        #expect(sent.inbox.count == 1)
        #expect(sent.flow?.step == .emailSent)
    }

    @Test("a response lost after the email went out: the app shows the error, the inbox has the email")
    func responseLostAfterSending() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let faulty = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(faults: [.connectionLost(on: .sendOobCode, timing: .afterResponse)]))
        let app = runtime(faulty, project: project)
        await app.process(.passwordResetRequested(email: bob))
        #expect(await app.state.banner?.retry != nil)
        #expect(try await faulty.mailbox().count == 1)
        await app.process(.mailboxOpened)
        await app.process(.tapLink(latestOf: app))
        #expect(await app.state.screen == .newPassword(email: bob), "the email that did arrive still works")
    }

    @Test("the rate limit leaves the app on the form with a retry")
    func rateLimit() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let faulty = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(faults: [.serverError(.tooManyAttempts, on: .sendOobCode)]))
        let app = runtime(faulty, project: project)
        await app.process(.forgotPasswordTapped)
        await app.process(.passwordResetRequested(email: bob))
        let limited = await app.state
        #expect(limited.banner?.code == .tooManyAttempts)
        #expect(limited.banner?.retry != nil)
        #expect(limited.screen == .forgotPassword)
        #expect(limited.flow?.step == .requesting)
        await app.process(.retryTapped)
        #expect(await app.state.inbox.count == 1)
    }

    @Test("send returns at once with the work busy; settle waits; a UI sees the settled state")
    func backgroundEffects() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let slow = FaultInjectingTransport(EmbeddedTransport(configuration: project), plan: FaultPlan(latency: .milliseconds(30)))
        let app = runtime(slow, project: project)
        let updates = await app.updates()
        let watcher = Task {
            for await state in updates where state.inbox.count == 1 && state.busy.isEmpty {
                return Optional(state)
            }
            return nil
        }
        await app.send(.passwordResetRequested(email: bob))
        #expect(await app.state.busy.contains(.sendOobCode))
        await app.settle()
        let settled = await app.state
        #expect(settled.busy.isEmpty)
        #expect(settled.inbox.count == 1)
        #expect(await watcher.value == settled)
    }

    @Test("recorded exchanges reach the state with secrets masked")
    func exchanges() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let recorder = RecordingTransport(EmbeddedTransport(configuration: project), apiKey: project.apiKey)
        let app = AppRuntime(state: AppState(device: .iPhone, settings: .iOSDefault(bundleID: "com.example.ios"), project: project), transport: recorder, exchanges: AppRuntime.exchanges(of: recorder))
        await app.process(.signInSubmitted(email: bob, password: "bob-password-1"))
        let state = await app.state
        #expect(state.exchangeCount == 2, "signInWithPassword, then lookup")
        #expect(state.exchanges.map(\.request).allSatisfy { $0.hasPrefix("POST ") })
        #expect(!state.exchanges.contains { $0.requestBody.contains("bob-password-1") })
    }

    @Test("the exchange total counts every call since the last project change, beyond what the recorder keeps")
    func exchangeTotal() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let embedded = EmbeddedTransport(configuration: project)
        let recorder = RecordingTransport(embedded, apiKey: project.apiKey, capacity: 1)
        let app = AppRuntime(state: AppState(device: .iPhone, settings: .iOSDefault(bundleID: "com.example.ios"), project: project), transport: recorder,
                             reconfigure: AppRuntime.reconfiguring(embedded, clearing: recorder), exchanges: AppRuntime.exchanges(of: recorder))
        await app.process(.signInSubmitted(email: bob, password: "bob-password-1"))
        #expect(await app.state.exchangeCount == 2, "signInWithPassword and lookup, though only one is kept")
        var edited = project
        edited.emailEnumerationProtection = true
        await app.process(.projectEdited(edited))
        await app.process(.signInSubmitted(email: bob, password: "wrong-password"))
        let state = await app.state
        #expect(state.exchangeCount == 1, "the old world's calls are forgotten")
        #expect(state.exchanges.map(\.id) == [1])
    }

    @Test("a project change restarts the embedded world with the new link style")
    func projectChange() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let embedded = EmbeddedTransport(configuration: project)
        let app = AppRuntime(state: AppState(device: .pixel, settings: ActionCodeSettings(handleCodeInApp: true, androidPackageName: "com.example.android"), project: project), transport: embedded, reconfigure: AppRuntime.reconfiguring(embedded))
        var legacy = project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        await app.process(.projectEdited(legacy))
        await app.process(.passwordResetRequested(email: bob))
        let state = await app.state
        #expect(state.project.mobileLinkStyle == .firebaseDynamicLinkDomain)
        #expect(state.inbox.first?.link.hasPrefix("https://example.page.link/") == true)
    }

    @Test("without a way to change the project, the change is reported, not lost silently")
    func projectChangeUnsupported() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let app = runtime(EmbeddedTransport(configuration: project), project: project)
        await app.process(.projectEdited(project))
        let banner = try #require(await app.state.banner)
        #expect(banner.message.contains("cannot change its project"))
    }
}

extension AppEvent {
    /// Taps the newest message in the runtime's inbox.
    static func tapLink(latestOf app: AppRuntime) async -> AppEvent {
        .linkTapped(messageID: await app.state.inbox.last?.id ?? "none")
    }
}
