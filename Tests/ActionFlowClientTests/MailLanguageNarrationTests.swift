import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import TestSupport
import Testing

@Suite("Mail language: the app's locale picks the email, a locale without templates is narrated")
struct MailLanguageNarrationTests {
    /// A reset requested on the bundled project, with `locale` as the app's `languageCode`.
    func resetRequested(locale: String?, defaultLocale: String = "en") throws -> Session {
        var project = try ProjectConfigLoader.loadDefault()
        project.defaultLocale = defaultLocale
        let app = AppState(device: .iPhone, settings: Fixture.inAppSettings, locale: locale)
        var session = EmbeddedSession(project: project, app: app)
        _ = session.reduce(.passwordResetRequested(email: "alice@example.com"))
        _ = session.reduce(.mailboxOpened)
        return session.session
    }

    var fallbackFacts: (Session) -> [ReplyFact] {
        { session in
            session.journal.compactMap {
                if case .reply(let reply) = $0.fact, case .mailLanguageFallback = reply { reply } else { nil }
            }
        }
    }

    @Test(arguments: [("he-IL", "he"), ("iw", "he"), ("vi_VN", "vi"), ("fr", "fr"), ("ja", "ja")])
    func theLocaleThatHasTemplatesPicksThem(locale: String, language: String) throws {
        let session = try resetRequested(locale: locale)
        let mail = try #require(session.inbox.last)
        #expect(mail.locale == language)
        #expect(fallbackFacts(session).isEmpty)
        #expect(!session.narration.contains { $0.contains("falls back") })
    }

    @Test func withoutALocaleTheProjectDefaultIsUsedQuietly() throws {
        let session = try resetRequested(locale: nil, defaultLocale: "vi")
        #expect(session.inbox.last?.locale == "vi")
        #expect(fallbackFacts(session).isEmpty)
    }

    @Test func aLocaleWithoutTemplatesFallsBackToEnglishAndTheNarrationSaysSo() throws {
        let session = try resetRequested(locale: "pt-BR")
        #expect(session.inbox.last?.locale == "en")
        #expect(fallbackFacts(session) == [.mailLanguageFallback(locale: "pt-BR", language: "en")])
        #expect(session.narration.contains(
            "no email templates for X-Firebase-Locale pt-BR: the email falls back to English (en), the project's default language"))
        // The fact follows the reply it explains.
        let sent = session.journal.firstIndex { if case .reply(.oobCodeSent) = $0.fact { true } else { false } }
        let fallback = session.journal.firstIndex { if case .reply(.mailLanguageFallback) = $0.fact { true } else { false } }
        #expect(try #require(sent) + 1 == fallback)
    }

    @Test func theFallbackIsTheProjectDefaultWhenItIsNotEnglish() throws {
        let session = try resetRequested(locale: "pt-BR", defaultLocale: "de")
        #expect(session.inbox.last?.locale == "de")
        #expect(session.narration.contains { $0.hasSuffix("falls back to German (de), the project's default language") })
    }

    @Test func aHostileLocaleIsNarratedSafely() throws {
        let session = try resetRequested(locale: "x\u{1B}[2J\u{202E}")
        let line = try #require(session.narration.first { $0.contains("falls back") })
        #expect(!UntrustedText.needsSanitizing(line))
    }

    @Test func theFallbackFactSurvivesTheSessionFile() throws {
        let fact = JournalFact.reply(.mailLanguageFallback(locale: "pt-BR", language: "en"))
        let data = try JSONEncoder().encode(fact)
        #expect(try JSONDecoder().decode(JournalFact.self, from: data) == fact)
    }
}
