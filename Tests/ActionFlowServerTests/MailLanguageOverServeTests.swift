import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite("serve: X-Firebase-Locale picks the email's language")
struct MailLanguageOverServeTests {
    @Test("The header travels over HTTP: iw is Hebrew, vi_VN Vietnamese, pt-BR the project default")
    func localeHeaderOverHTTP() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        for locale in ["iw", "vi_VN", "pt-BR"] {
            _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: "alice@example.com", continueUrl: "https://www.example.com/finish", canHandleCodeInApp: true), locale: locale)
        }
        let mails = try await fixture.rest.mailbox()
        #expect(mails.map(\.locale) == ["he", "vi", "en"])
        // The request time, in English and UTC, where the address once stood (protocol: the sign-in email).
        #expect(mails.first?.subject == "בקשה להתחבר ל-demo-actionflow ב-2026 January 15 09:00 UTC")
        #expect(mails.dropFirst().first?.subject == "Yêu cầu đăng nhập vào demo-actionflow lúc 2026 January 15 09:00 UTC")
        for mail in mails {
            #expect(mail.body.components(separatedBy: "\n").contains(mail.link))
            // The action URL, wrapped in the hosting link, says the same language.
            #expect(mail.link.removingPercentEncoding?.contains("lang=\(mail.locale)") == true)
        }
    }
}
