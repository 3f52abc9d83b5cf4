import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

/// An embedded project behind the limits of a server run elsewhere: like a production project
/// (no mailbox, no clock, no reset, no project change) or like the Auth Emulator (everything but
/// a project change).
struct RestrictedTransport: AuthTransport {
    let base: EmbeddedTransport
    let name: String
    let likeProduction: Bool

    static func productionLike(_ base: EmbeddedTransport) -> RestrictedTransport { RestrictedTransport(base: base, name: "production-like", likeProduction: true) }
    static func emulatorLike(_ base: EmbeddedTransport) -> RestrictedTransport { RestrictedTransport(base: base, name: "emulator-like", likeProduction: false) }

    var summary: String { "\(name) \(base.summary)" }
    var capabilities: TransportCapabilities {
        likeProduction ? TransportCapabilities(listsMailbox: false, controlsClock: false, resetsWorld: false) : base.capabilities
    }
    private func unless<Value>(_ what: String, _ call: () async throws(AuthFailure) -> Value) async throws(AuthFailure) -> Value {
        if likeProduction { throw .network(.unsupported("no \(what)")) }
        return try await call()
    }
    func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply { try await base.perform(call) }
    func mailbox() async throws(AuthFailure) -> [MailMessage] { try await unless("mailbox") { () async throws(AuthFailure) in try await base.mailbox() } }
    func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode] { try await unless("text messages") { () async throws(AuthFailure) in try await base.textMessages() } }
    func now() async throws(AuthFailure) -> Date { likeProduction ? Date(timeIntervalSince1970: 0) : try await base.now() }
    func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date { try await unless("clock") { () async throws(AuthFailure) in try await base.advanceClock(by: seconds) } }
    func resetWorld() async throws(AuthFailure) { try await unless("reset") { () async throws(AuthFailure) in try await base.resetWorld() } }
    func applyProject(_ project: ProjectConfiguration) async throws(AuthFailure) -> Date {
        throw .network(.unsupported(likeProduction ? "configured in the console" : "takes its configuration from firebase.json"))
    }
}

@Suite("Scenarios over a transport run elsewhere")
struct ScenarioOverTransportTests {
    @Test("a used world is reset before the scenario plays")
    func resetsFirst() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let shared = RestrictedTransport.emulatorLike(EmbeddedTransport(configuration: project))
        _ = try await shared.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com"), locale: nil)
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("expired-link"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: shared)
        #expect(transcript.passed, "\(transcript.text())")
    }

    @Test("project overrides cannot apply to a transport run elsewhere")
    func refusesOverrides() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("legacy-dynamic-links"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: RestrictedTransport.emulatorLike(EmbeddedTransport(configuration: project)))
        let failure = try #require(transcript.failure)
        #expect(failure.isSetup)
        #expect(failure.description.hasSuffix("legacy-dynamic-links.yaml: cannot start the transport: network failure: not supported: the scenario overrides the project, which only the embedded transport and actionflow serve can apply"))
    }

    @Test("a transport without a mailbox cannot play scenarios, and says so")
    func needsMailbox() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-in-app"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: RestrictedTransport.productionLike(EmbeddedTransport(configuration: project)))
        #expect(transcript.failure?.isSetup == true)
        #expect(transcript.failure?.message.contains("cannot list the mailbox") == true)
    }

    @Test("a transport that takes projects plays a scenario that overrides the project")
    func appliesOverrides() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("legacy-dynamic-links"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: EmbeddedTransport(configuration: project))
        #expect(transcript.passed, "\(transcript.text())")
        #expect(transcript.finalSession?.project.mobileLinkStyle == .firebaseDynamicLinkDomain)
    }

    @Test("over a remote world the transcript reads line for line as on the embedded one")
    func sameTranscript() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-web-widget"))
        let embedded = await ScenarioLibrary.runEmbedded(scenario, baseProject: project)
        let remote = await ScenarioLibrary.run(scenario, baseProject: project, over: EmbeddedTransport(configuration: project))
        #expect(remote.text() == embedded.text())
        #expect(remote.finalSession?.app == embedded.finalSession?.app)
    }
}
