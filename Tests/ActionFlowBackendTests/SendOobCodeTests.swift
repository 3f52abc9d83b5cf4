import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite struct SendOobCodeTests {
    @Test func passwordResetMailsALinkCarryingTheContinueURL() async throws {
        let transport = try embedded()
        let response = try await transport.sendOobCode(
            SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, clientType: .iOS), locale: nil)
        #expect(response.email == alice.email)
        #expect(response.oobCode == nil)
        #expect(response.oobLink == nil)

        let mail = try #require(try await transport.mailbox().first)
        #expect(mail.to == alice.email)
        #expect(mail.requestType == .passwordReset)
        #expect(mail.subject == "Reset your password for demo-actionflow")
        #expect(mail.body.contains(mail.link))
        #expect(mail.body.contains("for your alice@example.com account"))
        #expect(mail.locale == "en")
        #expect(mail.sentAt == (try await transport.now()))
        let code = try #require(mail.oobCode)
        #expect(mail.link.hasPrefix("https://demo-actionflow.firebaseapp.com/__/auth/action?"))
        #expect(queryValue("mode", in: mail.link) == "resetPassword")
        #expect(queryValue("oobCode", in: mail.link) == code)
        #expect(queryValue("apiKey", in: mail.link) == "fake-api-key-demo-actionflow")
        #expect(queryValue("continueUrl", in: mail.link) == articleURL)
        #expect(queryValue("lang", in: mail.link) == "en")
    }

    @Test func codesLookLikeTheEmulatorsAndRememberTheirSettings() async throws {
        let transport = try embedded()
        let request = SendOobCodeRequest(
            requestType: .emailSignIn, email: "new@example.com", continueUrl: articleURL, iOSBundleId: "com.example.ios",
            androidPackageName: "com.example.android", androidMinimumVersion: "12", androidInstallApp: true,
            canHandleCodeInApp: true, linkDomain: "links.example.com", clientType: .android)
        _ = try await transport.sendOobCode(request, locale: nil)
        let code = try #require(try await transport.mailbox().first?.oobCode)
        #expect(code.count == 54)
        #expect(code.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
        let settings = try #require(transport.settings(forOobCode: code))
        #expect(settings == ActionCodeSettings(
            url: articleURL, handleCodeInApp: true, iOSBundleID: "com.example.ios", androidPackageName: "com.example.android",
            androidInstallIfNotAvailable: true, androidMinimumVersion: "12", linkDomain: "links.example.com"))
        #expect(transport.settings(forOobCode: "unknown") == nil)
        let issued = try #require(transport.issuedCodes().first)
        #expect(issued.clientType == .android)
        #expect(issued.expiresAt.timeIntervalSince(issued.issuedAt) == 6 * 3600)
    }

    @Test func handleCodeInAppWrapsTheActionLinkInTheHostingLink() async throws {
        let transport = try embedded()
        _ = try await transport.sendOobCode(SendOobCodeRequest(
            requestType: .emailSignIn, email: alice.email, continueUrl: articleURL, iOSBundleId: "com.example.ios",
            canHandleCodeInApp: true, linkDomain: "links.example.com"), locale: nil)
        let mail = try #require(try await transport.mailbox().first)
        #expect(mail.link.hasPrefix("https://links.example.com/__/auth/links?link="))
        let inner = try #require(queryValue("link", in: mail.link))
        #expect(queryValue("mode", in: inner) == "signIn")
        #expect(queryValue("oobCode", in: inner) == mail.oobCode)
        #expect(queryValue("continueUrl", in: inner) == articleURL)
    }

    @Test func emptyStringsCountAsAbsent() async throws {
        let transport = try embedded()
        _ = try await transport.sendOobCode(SendOobCodeRequest(
            requestType: .passwordReset, email: alice.email, continueUrl: articleURL, iOSBundleId: "", iOSAppStoreId: "",
            androidPackageName: "", androidMinimumVersion: "", dynamicLinkDomain: "", linkDomain: ""), locale: nil)
        let mail = try #require(try await transport.mailbox().first)
        #expect(queryValue("continueUrl", in: mail.link) == articleURL)
        let settings = try #require(transport.settings(forOobCode: mail.oobCode ?? ""))
        #expect(settings == ActionCodeSettings(url: articleURL))
    }

    @Test func appReturnLinkWrapsTheContinueURLForTheWebWidget() async throws {
        let transport = try embedded()
        _ = try await transport.sendOobCode(SendOobCodeRequest(
            requestType: .passwordReset, email: alice.email, continueUrl: articleURL, iOSBundleId: "com.example.ios"), locale: nil)
        let link = try #require(try await transport.mailbox().first?.link)
        #expect(queryValue("mode", in: link) == "resetPassword")
        let continueLink = try #require(queryValue("continueUrl", in: link))
        #expect(continueLink.hasPrefix("https://demo-actionflow.firebaseapp.com/__/auth/links?link="))
        #expect(queryValue("link", in: continueLink) == articleURL)
    }

    @Test func legacyProjectsBuildDynamicLinks() async throws {
        let transport = try embedded { $0.mobileLinkStyle = .firebaseDynamicLinkDomain }
        _ = try await transport.sendOobCode(SendOobCodeRequest(
            requestType: .passwordReset, email: alice.email, continueUrl: articleURL, androidPackageName: "com.example.android",
            canHandleCodeInApp: true), locale: nil)
        let link = try #require(try await transport.mailbox().first?.link)
        #expect(link.hasPrefix("https://example.page.link/"))
        #expect(queryValue("apn", in: link) == "com.example.android")
        #expect(queryValue("mode", in: queryValue("link", in: link) ?? "") == "resetPassword")
    }

    @Test func adminCallersGetTheCodeAndLinkInsteadOfAMail() async throws {
        let transport = try embedded()
        let response = try await transport.sendOobCode(
            SendOobCodeRequest(requestType: .verifyEmail, email: bob.email, returnOobLink: true), locale: "de")
        let code = try #require(response.oobCode)
        let link = try #require(response.oobLink)
        #expect(queryValue("oobCode", in: link) == code)
        #expect(queryValue("lang", in: link) == "de")
        #expect(try await transport.mailbox().isEmpty)
        _ = try await transport.update(UpdateAccountRequest(oobCode: code))
        #expect(try await transport.lookup(LookupRequest(email: [bob.email])).users?.first?.emailVerified == true)
    }

    /// Every validation of `accounts:sendOobCode`, each in the situation that raises it.
    @Test(arguments: [
        (SendOobCodeRequest(requestType: .recoverEmail, email: alice.email), AuthErrorCode.invalidRequestType),
        (SendOobCodeRequest(requestType: .passwordReset), .missingEmail),
        (SendOobCodeRequest(requestType: .passwordReset, email: "alice"), .invalidEmail),
        (SendOobCodeRequest(requestType: .emailSignIn, email: "", continueUrl: articleURL), .missingEmail),
        (SendOobCodeRequest(requestType: .verifyEmail, email: bob.email), .missingIDToken),
        (SendOobCodeRequest(requestType: .verifyEmail, idToken: "garbage"), .invalidIDToken),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: "not a url"), .invalidContinueURI),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: "javascript:alert(1)"), .invalidContinueURI),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: "https://evil.com/articles/42"), .unauthorizedDomain),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: "https://www.example.com.evil.com/"), .unauthorizedDomain),
        (SendOobCodeRequest(requestType: .emailSignIn, email: alice.email, canHandleCodeInApp: true), .missingContinueURI),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, iOSAppStoreId: "123456789"), .missingIOSBundleID),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, androidInstallApp: true), .missingAndroidPackageName),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, androidMinimumVersion: "12"), .missingAndroidPackageName),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, linkDomain: "evil.web.app"), .invalidHostingLinkDomain),
        // A default Hosting domain the project owns is still refused as linkDomain (firebase-js-sdk errors.ts:392-394).
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, linkDomain: "demo-actionflow.web.app"), .invalidHostingLinkDomain),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, linkDomain: "Demo-Actionflow.firebaseapp.com"), .invalidHostingLinkDomain),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, linkDomain: "links.example.org"), .invalidHostingLinkDomain),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, dynamicLinkDomain: "other.page.link"), .invalidDynamicLinkDomain),
        (SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com"), .emailNotFound),
        (SendOobCodeRequest(requestType: .passwordReset, email: carol.email), .userDisabled),
        (SendOobCodeRequest(requestType: .emailSignIn, email: carol.email, continueUrl: articleURL, canHandleCodeInApp: true), .userDisabled),
        (SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: "https://www.example.com@evil.com/"), .unauthorizedDomain),
    ])
    func validationErrors(request: SendOobCodeRequest, expected: AuthErrorCode) async throws {
        let transport = try embedded()
        #expect(await failureCode { try await transport.sendOobCode(request, locale: nil) } == expected)
        #expect(try await transport.mailbox().isEmpty)
    }

    @Test func validationOrderPutsTheContinueURLBeforeTheAccount() async throws {
        let transport = try embedded()
        let request = SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com", continueUrl: "https://evil.com/",
                                         iOSAppStoreId: "1", linkDomain: "evil.web.app")
        #expect(await failureCode { try await transport.sendOobCode(request, locale: nil) } == .unauthorizedDomain)
        var withoutURL = request
        withoutURL.continueUrl = nil
        #expect(await failureCode { try await transport.sendOobCode(withoutURL, locale: nil) } == .missingIOSBundleID)
        withoutURL.iOSAppStoreId = nil
        #expect(await failureCode { try await transport.sendOobCode(withoutURL, locale: nil) } == .invalidHostingLinkDomain)
        withoutURL.linkDomain = nil
        #expect(await failureCode { try await transport.sendOobCode(withoutURL, locale: nil) } == .emailNotFound)
    }

    @Test func verifyEmailUsesTheSignedInUser() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(bob)
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: session.idToken, continueUrl: "https://www.example.com/subscribe"), locale: nil)
        let mail = try #require(try await transport.mailbox().first)
        #expect(mail.to == bob.email)
        #expect(mail.requestType == .verifyEmail)
        #expect(mail.subject == "Verify your email for demo-actionflow")
        #expect(queryValue("mode", in: mail.link) == "verifyEmail")
    }

    @Test func enumerationProtectionHidesUnknownAndDisabledAddresses() async throws {
        let transport = try embedded { $0.emailEnumerationProtection = true }
        let unknown = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com"), locale: nil)
        #expect(unknown.email == "nobody@example.com")
        let disabled = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: carol.email), locale: nil)
        #expect(disabled.email == carol.email)
        #expect(try await transport.mailbox().isEmpty)
        // Email-link sign-in may create the account, so it is sent to unknown addresses.
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: "nobody@example.com", continueUrl: articleURL, canHandleCodeInApp: true), locale: nil)
        #expect(try await transport.mailbox().map(\.to) == ["nobody@example.com"])
    }

    @Test func rateLimitPerAddressWithinTheWindow() async throws {
        let transport = try embedded { $0.rateLimit = RateLimit(maxEmails: 3, windowSeconds: 600) }
        let reset = SendOobCodeRequest(requestType: .passwordReset, email: alice.email)
        for _ in 0..<3 {
            _ = try await transport.sendOobCode(reset, locale: nil)
            _ = try await transport.advanceClock(by: 60)
        }
        #expect(await failureCode { try await transport.sendOobCode(reset, locale: nil) } == .resetPasswordExceedLimit)
        // Other addresses are not affected; other kinds say TOO_MANY_ATTEMPTS_TRY_LATER.
        #expect(await failureCode { try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: bob.email), locale: nil) } == nil)
        let signIn = SendOobCodeRequest(requestType: .emailSignIn, email: alice.email, continueUrl: articleURL, canHandleCodeInApp: true)
        #expect(await failureCode { try await transport.sendOobCode(signIn, locale: nil) } == .tooManyAttempts)
        #expect(try await transport.mailbox().count == 4)
        // The first send leaves the window after 600 s.
        _ = try await transport.advanceClock(by: 421)
        #expect(await failureCode { try await transport.sendOobCode(reset, locale: nil) } == nil)
    }

    @Test(arguments: [
        ("fr", "fr", "Réinitialisez votre mot de passe pour demo-actionflow"),
        ("fr-CA", "fr", "Réinitialisez votre mot de passe pour demo-actionflow"),
        ("de_DE", "de", "Passwort für demo-actionflow zurücksetzen"),
        ("es", "es", "Restablece tu contraseña de demo-actionflow"),
        ("ja-JP", "ja", "demo-actionflow のパスワードを再設定してください"),
        ("EN", "en", "Reset your password for demo-actionflow"),
        ("zz", "en", "Reset your password for demo-actionflow"),
        ("he-IL", "he", "איפוס הסיסמה שלך ל-demo-actionflow"),
        ("iw", "he", "איפוס הסיסמה שלך ל-demo-actionflow"),
        ("vi_VN", "vi", "Đặt lại mật khẩu của bạn cho demo-actionflow"),
    ])
    func mailLanguageFollowsTheLocaleHeader(locale: String, language: String, subject: String) async throws {
        let transport = try embedded()
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL), locale: locale)
        let mail = try #require(try await transport.mailbox().first)
        #expect(mail.locale == language)
        #expect(mail.subject == subject)
        #expect(mail.body.contains(mail.link))
        #expect(queryValue("lang", in: mail.link) == language)
    }

    @Test func projectDefaultLocaleAppliesWithoutHeader() async throws {
        let transport = try embedded { $0.defaultLocale = "de" }
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: alice.email, continueUrl: articleURL, canHandleCodeInApp: true), locale: nil)
        let mail = try #require(try await transport.mailbox().first)
        #expect(mail.subject == "Anmeldung bei demo-actionflow angefordert um 2026 January 15 09:00 UTC")
    }

    @Test func twoFreshProjectsHandOutTheSameCodesAndTokens() async throws {
        func run() async throws -> [String] {
            let transport = try embedded()
            let session = try await transport.signIn(bob)
            _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: session.idToken), locale: "fr")
            _ = try await transport.advanceClock(by: 30)
            _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email), locale: nil)
            let mails = try await transport.mailbox()
            return [session.localId, session.idToken ?? "", session.refreshToken ?? ""] + mails.map { "\($0.oobCode ?? "")|\($0.link)|\($0.sentAt)" }
        }
        let first = try await run()
        let second = try await run()
        #expect(first == second)
        #expect(Set(first).count == first.count)
    }
}

@Suite struct MailTemplateTests {
    @Test func fillsKnownPlaceholdersAndKeepsOtherPercentSigns() {
        let template = MailTemplates.Template(subject: "%APP_NAME%: 100% ready", body: "%EMAIL% -> %NEW_EMAIL%\n%LINK%\n%UNKNOWN% %")
        let rendered = MailTemplates.render(template, appName: "demo", email: "a@example.com", newEmail: nil, link: "https://h/a?x=%25", requestedAt: Date(timeIntervalSince1970: 0))
        #expect(rendered.subject == "demo: 100% ready")
        #expect(rendered.body == "a@example.com -> a@example.com\nhttps://h/a?x=%25\n%UNKNOWN% %")
    }
}
