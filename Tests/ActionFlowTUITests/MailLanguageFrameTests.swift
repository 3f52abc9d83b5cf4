import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("Frames: a Hebrew and a Vietnamese email on the phone")
struct MailLanguageFrameTests {
    /// The reset email of story 1, requested with `locale` as the app's `languageCode`, opened.
    func resetMessageOpened(locale: String) async throws -> Session {
        let world = try await World.start()
        await world.send(.localeEdited(locale), .openRoute("/articles/42"), .forgotPasswordTapped)
        let sent = await world.send(.passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        return await world.send(.messageOpened(id: sent.inbox.last?.id ?? ""))
    }

    @Test("Hebrew reads right to left in visual order; the link and the address stay left to right")
    func hebrewMessage() async throws {
        let session = try await resetMessageOpened(locale: "he-IL")
        let message = try #require(session.inbox.last)
        #expect(message.locale == "he")
        for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
            let frame = render(session, mainUI(), size)
            expectIntact(frame)
            let text = frame.text
            #expect(text.contains(",םולש"))
            #expect(text.contains("alice@example.com"))
            #expect(text.contains("https://"))
            #expect(!text.contains("שלום,"))
            GoldenFile.check(frame, "phone-message-hebrew-\(suffix)")
        }
    }

    @Test("Vietnamese diacritics keep the frame aligned")
    func vietnameseMessage() async throws {
        let session = try await resetMessageOpened(locale: "vi_VN")
        #expect(session.inbox.last?.locale == "vi")
        for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
            let frame = render(session, mainUI(), size)
            expectIntact(frame)
            #expect(frame.text.contains("Xin chào,"))
            GoldenFile.check(frame, "phone-message-vietnamese-\(suffix)")
        }
    }
}

@Suite("Settings pane: the app's languageCode")
struct LanguageCodeFieldTests {
    private func languageCodeField(_ session: Session) throws -> Control {
        let blocks = InspectorContent.blocks(.settings, session, mainUI(focus: .inspector, tab: .settings))
        let controls = blocks.compactMap { block -> Control? in
            if case .control(let control) = block { return control }
            return nil
        }
        return try #require(controls.first { $0.id == "settings.locale" })
    }

    @Test("Sent as X-Firebase-Locale; empty sends none; a locale without templates is flagged while typed")
    func languageCode() async throws {
        let world = try await World.start()
        let session = await world.state()
        let field = try languageCodeField(session)
        #expect(field.commit("he-IL", session) == [.send(.localeEdited("he-IL"))])
        #expect(field.commit("  ", session) == [.send(.localeEdited(nil))])
        #expect(field.validate("iw", session) == nil)
        #expect(field.validate("vi_VN", session) == nil)
        #expect(field.validate("pt-BR", session)?.text == "no email templates: falls back to English (en)")
        let edited = try languageCodeField(await world.send(.localeEdited("pt-BR")))
        #expect(edited.kind == .text(value: "pt-BR", placeholder: "(none: project default en)", secret: false))
        #expect(edited.note?.text == "no email templates: falls back to English (en)")
    }
}
