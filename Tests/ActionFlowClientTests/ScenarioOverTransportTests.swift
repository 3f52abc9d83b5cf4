import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

/// A transport like a production project: it cannot list the mailbox or reset its world.
struct ProductionLikeTransport: AuthTransport {
    let base: EmbeddedTransport
    var summary: String { "production-like \(base.summary)" }
    var capabilities: TransportCapabilities { TransportCapabilities(listsMailbox: false, controlsClock: false, resetsWorld: false) }
    func signUp(_ request: SignUpRequest) async throws(AuthFailure) -> SignInResponse { try await base.signUp(request) }
    func signInWithPassword(_ request: SignInWithPasswordRequest) async throws(AuthFailure) -> SignInResponse { try await base.signInWithPassword(request) }
    func sendOobCode(_ request: SendOobCodeRequest, locale: String?) async throws(AuthFailure) -> SendOobCodeResponse { try await base.sendOobCode(request, locale: locale) }
    func resetPassword(_ request: ResetPasswordRequest) async throws(AuthFailure) -> ResetPasswordResponse { try await base.resetPassword(request) }
    func update(_ request: UpdateAccountRequest) async throws(AuthFailure) -> UpdateAccountResponse { try await base.update(request) }
    func lookup(_ request: LookupRequest) async throws(AuthFailure) -> LookupResponse { try await base.lookup(request) }
    func signInWithEmailLink(_ request: SignInWithEmailLinkRequest) async throws(AuthFailure) -> SignInResponse { try await base.signInWithEmailLink(request) }
    func mailbox() async throws(AuthFailure) -> [MailMessage] { throw .network(.unsupported("no mailbox")) }
    func now() async throws(AuthFailure) -> Date { Date(timeIntervalSince1970: 0) }
    func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date { throw .network(.unsupported("no clock")) }
    func resetWorld() async throws(AuthFailure) { throw .network(.unsupported("no reset")) }
}

@Suite("Scenarios over a transport run elsewhere")
struct ScenarioOverTransportTests {
    @Test("a used world is reset before the scenario plays")
    func resetsFirst() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let shared = EmbeddedTransport(configuration: project)
        _ = try await shared.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com"), locale: nil)
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("expired-link"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: shared)
        #expect(transcript.passed, "\(transcript.text())")
    }

    @Test("project overrides cannot apply to a transport run elsewhere")
    func refusesOverrides() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("legacy-dynamic-links"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: EmbeddedTransport(configuration: project))
        let failure = try #require(transcript.failure)
        #expect(failure.isSetup)
        #expect(failure.description.hasSuffix("legacy-dynamic-links.yaml: cannot start the transport: network failure: not supported: the scenario overrides the project, which only the embedded transport and actionflow serve can apply"))
    }

    @Test("a transport without a mailbox cannot play scenarios, and says so")
    func needsMailbox() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-in-app"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: ProductionLikeTransport(base: EmbeddedTransport(configuration: project)))
        #expect(transcript.failure?.isSetup == true)
        #expect(transcript.failure?.message.contains("cannot list the mailbox") == true)
    }
}
