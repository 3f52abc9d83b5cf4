import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("Project pane edits")
struct ProjectPaneTests {
    private func control(_ id: String, _ session: Session) throws -> Control {
        let blocks = InspectorContent.blocks(.project, session, mainUI(focus: .inspector, tab: .project))
        let controls = blocks.compactMap { block -> Control? in
            if case .control(let control) = block { return control }
            return nil
        }
        return try #require(controls.first { $0.id == id })
    }

    @Test("Lifetimes read and show durations as project files do; a malformed one says why and changes nothing")
    func lifetimes() async throws {
        let session = try await World.start().state()
        let field = try control("project.lifetime.reset", session)
        guard case .text(let shown, _, _) = field.kind else { throw PaneError.notATextField }
        #expect(shown == "1h")
        var expected = session.project
        expected.codeLifetimes.passwordReset = 5400
        #expect(field.commit("1h30m", session) == [.send(.projectEdited(expected))])
        #expect(field.commit("5400", session) == [.send(.projectEdited(expected))])
        #expect(field.validate("1h30m", session) == nil)
        #expect(field.commit("30m1h", session).isEmpty)
        #expect(field.validate("30m1h", session)?.text.contains("'h' comes too late (units go d, h, m, s)") == true)
        #expect(field.commit("1.5h", session).isEmpty)
        #expect(field.commit("0", session).isEmpty)
    }

    @Test("Dynamic Links needs a Dynamic Links domain: the pane refuses the switch, and says why")
    func dynamicLinksNeedADomain() async throws {
        var session = try await World.start { $0.dynamicLinkDomains = [] }.state()
        let style = try control("project.style", session)
        #expect(style.activate(1).isEmpty)
        #expect(style.note?.text == "✗ mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains")

        session = try await World.start { $0.dynamicLinkDomains = ["Example.page.link"] }.state()
        var legacy = session.project
        legacy.mobileLinkStyle = .firebaseDynamicLinkDomain
        legacy.dynamicLinkDomains = ["example.page.link"]
        #expect(try control("project.style", session).activate(1) == [.send(.projectEdited(legacy))], "domains are compared in lowercase")

        session = try await World.start { $0 = legacy }.state()
        let domains = try control("project.fdl", session)
        #expect(domains.commit("", session).isEmpty)
        #expect(domains.validate("", session)?.text == "✗ mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains")
    }

    @Test("Text fields follow the project file's rules: a URL is not a domain, a handler needs http(s)")
    func textFieldsFollowTheProjectRules() async throws {
        let session = try await World.start().state()
        let domains = try control("project.domains", session)
        #expect(domains.commit("localhost, https://shop.example.com", session).isEmpty)
        #expect(domains.validate("localhost, https://shop.example.com", session)?.text
            == "✗ authorizedDomains[1]: expected a domain name, got 'https://shop.example.com' (write the host only, without scheme, port or path)")
        var expected = session.project
        expected.authorizedDomains = ["localhost", "shop.example.com"]
        #expect(domains.commit("localhost, Shop.Example.com", session) == [.send(.projectEdited(expected))])
        #expect(try control("project.handler", session).validate("ftp://example.com/action", session)?.text == "✗ actionHandlerUrl: expected an absolute http(s) URL, got 'ftp://example.com/action'")
        #expect(try control("project.ios", session).commit("ios", session).isEmpty)
    }

    enum PaneError: Error { case notATextField }
}

extension Control {
    /// Saves `text` in this text field as the interface does, against the session it was built from.
    func commit(_ text: String, _ session: Session) -> [InterfaceMessage] { InspectorContent.commit(self, text, session: session) }
    /// What the field says of `text` while it is typed.
    func validate(_ text: String, _ session: Session) -> Note? { field.flatMap { InspectorContent.validate($0, text, session: session) } }
}
