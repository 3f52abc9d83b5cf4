@testable import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite struct MailLanguageTests {
    static let languages = ["en", "fr", "de", "es", "ja", "he", "vi"]
    static let types: [OobRequestType] = [.passwordReset, .verifyEmail, .emailSignIn, .verifyAndChangeEmail, .recoverEmail]
    static let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=CODE%2B1&apiKey=KEY&lang=xx"

    @Test func theSeedLanguagesAndJapaneseHaveTemplates() {
        #expect(MailTemplates.languages == Set(Self.languages))
    }

    @Test(arguments: languages)
    func everyRequestTypeRendersWithEveryPlaceholderFilledAndTheLinkIntact(language: String) throws {
        for type in Self.types {
            let template = try #require(MailTemplates.template(type, language: language), "\(language) \(type)")
            let mail = MailTemplates.compose(type, language: language, appName: "demo-actionflow", email: "old@example.com", newEmail: "new@example.com", link: Self.link, requestedAt: Date(timeIntervalSince1970: 1_768_467_600))
            #expect(!mail.subject.isEmpty && !mail.body.isEmpty)
            for placeholder in ["%APP_NAME%", "%EMAIL%", "%NEW_EMAIL%", "%LINK%"] {
                #expect(!mail.subject.contains(placeholder) && !mail.body.contains(placeholder), "\(language) \(type) left \(placeholder)")
            }
            // The link stands alone on its line, so mail apps and the phone view show it whole.
            #expect(mail.body.components(separatedBy: "\n").contains(Self.link), "\(language) \(type)")
            #expect(template.body.components(separatedBy: "%LINK%").count == 2, "\(language) \(type): one link")
            #expect(mail.body.contains("demo-actionflow"), "\(language) \(type)")
            // What each message must tell the reader, in any language.
            switch type {
            case .passwordReset, .emailSignIn: #expect(mail.body.contains("old@example.com"), "\(language) \(type)")
            case .verifyAndChangeEmail, .recoverEmail: #expect(mail.body.contains("new@example.com"), "\(language) \(type)")
            default: break
            }
            #expect(!UntrustedText.needsSanitizing(mail.subject), "\(language) \(type)")
            #expect(mail.body == mail.body.precomposedStringWithCanonicalMapping, "\(language) \(type): NFC")
        }
    }

    /// docs/file-formats.md, "How the simulated project answers": the request time, in English and UTC, in the
    /// subject and the body of every language, so that two sign-in emails never read the same
    /// subject; never the address where the time goes.
    @Test(arguments: languages)
    func theSignInEmailNamesTheRequestTimeNotTheAddress(language: String) {
        let first = MailTemplates.compose(.emailSignIn, language: language, appName: "demo-actionflow", email: "alice@example.com", newEmail: nil,
                                          link: Self.link, requestedAt: Date(timeIntervalSince1970: 1_768_467_600))
        let later = MailTemplates.compose(.emailSignIn, language: language, appName: "demo-actionflow", email: "alice@example.com", newEmail: nil,
                                          link: Self.link, requestedAt: Date(timeIntervalSince1970: 1_768_467_600 + 7 * 60))
        #expect(first.subject.contains("2026 January 15 09:00 UTC"), "\(language): \(first.subject)")
        #expect(first.body.contains("2026 January 15 09:00 UTC"), "\(language)")
        #expect(!first.subject.contains("alice@example.com"), "\(language): \(first.subject)")
        #expect(first.subject != later.subject, "\(language): two requests read the same subject")
    }

    @Test func hebrewAndVietnameseAreWrittenInTheirScripts() throws {
        for type in Self.types {
            let hebrew = try #require(MailTemplates.template(type, language: "he"))
            #expect(hebrew.subject.unicodeScalars.contains { (0x05D0...0x05EA).contains($0.value) })
            #expect(hebrew.body.hasPrefix("שלום,"))
            let vietnamese = try #require(MailTemplates.template(type, language: "vi"))
            #expect(vietnamese.body.hasPrefix("Xin chào,"))
        }
    }

    @Test(arguments: [
        ("he", "he"), ("he-IL", "he"), ("HE_il", "he"), ("iw", "he"), ("iw-IL", "he"),
        ("vi", "vi"), ("vi_VN", "vi"), ("vi-VN", "vi"), ("ja", "ja"), ("en-GB", "en"),
    ])
    func localeTagsPickTheirTemplates(locale: String, language: String) {
        #expect(MailTemplates.language(for: locale) == language)
    }

    @Test(arguments: ["pt-BR", "zz", "", "-", "ar"])
    func localesWithoutTemplatesPickNone(locale: String) {
        #expect(MailTemplates.language(for: locale) == nil)
    }

    @Test func aLocaleWithoutTemplatesFallsBackToTheProjectDefault() async throws {
        let english = try embedded()
        _ = try await english.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL), locale: "pt-BR")
        let englishMail = try #require(try await english.mailbox().first)
        #expect(englishMail.locale == "en")
        #expect(englishMail.subject == "Reset your password for demo-actionflow")

        let hebrew = try embedded { $0.defaultLocale = "he" }
        _ = try await hebrew.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL), locale: "pt-BR")
        let hebrewMail = try #require(try await hebrew.mailbox().first)
        #expect(hebrewMail.locale == "he")
        #expect(queryValue("lang", in: hebrewMail.link) == "he")
    }

    @Test func namesOfTheLanguagesForNarration() {
        #expect(MailTemplates.name(of: "he") == "Hebrew")
        #expect(MailTemplates.name(of: "vi") == "Vietnamese")
        #expect(MailTemplates.name(of: "en") == "English")
    }

    @Test("Markers are filled in text of any script; a lone or unknown marker stays as written")
    func markersFillInAnyText() {
        let values = ["APP_NAME": "démo 🙂", "LINK": "https://x.example/?a=1%202"]
        #expect(MailTemplates.fill("こんにちは %APP_NAME%。%LINK% עברית", values) == "こんにちは démo 🙂。https://x.example/?a=1%202 עברית")
        #expect(MailTemplates.fill("100% sure, %UNKNOWN% and %APP_NAME%%", values) == "100% sure, %UNKNOWN% and démo 🙂%")
        #expect(MailTemplates.fill("%", values) == "%")
        #expect(MailTemplates.fill("", values) == "")
        #expect(MailTemplates.fill("%APP_NAME%%APP_NAME%", values) == "démo 🙂démo 🙂")
    }
}
