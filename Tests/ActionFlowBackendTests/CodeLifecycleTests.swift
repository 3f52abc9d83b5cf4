import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

/// Checking, consuming and expiring codes; the clock; session revocation.
@Suite struct CodeLifecycleTests {
    @Test func checkingDoesNotConsumeButConfirmingDoes() async throws {
        let transport = try embedded()
        let code = try await transport.mailedResetCode(bob.email)
        for _ in 0..<2 {
            let checked = try await transport.resetPassword(ResetPasswordRequest(oobCode: code))
            #expect(checked.requestType == .passwordReset)
            #expect(checked.email == bob.email)
        }
        let confirmed = try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "bob-new-secret"))
        #expect(confirmed.email == bob.email)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "bob-other-secret")) } == .invalidOobCode)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: code)) } == .invalidOobCode)
        // The reset proves the address: bob is verified now, and only the new password works.
        #expect(await failureCode { try await transport.signIn(bob) } == .invalidPassword)
        let session = try await transport.signIn((bob.email, "bob-new-secret"))
        #expect(try await transport.lookup(LookupRequest(idToken: session.idToken)).users?.first?.emailVerified == true)
    }

    @Test func weakPasswordLeavesTheCodeUsable() async throws {
        let transport = try embedded()
        let code = try await transport.mailedResetCode(alice.email)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "12345")) } == .weakPassword)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "")) } == .weakPassword)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "123456")) } == nil)
    }

    @Test func garbageAndMissingCodes() async throws {
        let transport = try embedded()
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: "not-a-code")) } == .invalidOobCode)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(oobCode: "not-a-code")) } == .invalidOobCode)
        #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice.email, oobCode: "not-a-code")) } == .invalidOobCode)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: "")) } == .missingOobCode)
    }

    @Test func codesOfTheWrongKindAreInvalid() async throws {
        let transport = try embedded()
        let resetCode = try await transport.mailedResetCode(alice.email)
        let session = try await transport.signIn(bob)
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: session.idToken), locale: nil)
        let verifyCode = try #require(try await transport.mailbox().last?.oobCode)

        #expect(await failureCode { try await transport.update(UpdateAccountRequest(oobCode: resetCode)) } == .invalidOobCode)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: verifyCode, newPassword: "bob-new-secret")) } == .invalidOobCode)
        #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice.email, oobCode: resetCode)) } == .invalidOobCode)
        // Refused codes stay usable for their own purpose.
        #expect(try await transport.resetPassword(ResetPasswordRequest(oobCode: verifyCode)).requestType == .verifyEmail)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(oobCode: verifyCode)) } == nil)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: resetCode, newPassword: "alice-new-secret")) } == nil)
    }

    @Test func applyingAVerificationCodeVerifiesOnceAndTheUserSeesItAfterReloading() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(bob)
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: session.idToken, continueUrl: "https://www.example.com/subscribe"), locale: nil)
        let code = try #require(try await transport.mailbox().last?.oobCode)
        let applied = try await transport.update(UpdateAccountRequest(oobCode: code))
        #expect(applied.email == bob.email)
        #expect(applied.emailVerified == true)
        #expect(try await transport.lookup(LookupRequest(idToken: session.idToken)).users?.first?.emailVerified == true)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(oobCode: code)) } == .invalidOobCode)
    }

    /// Each kind of code works until just before its lifetime ends and fails with EXPIRED_OOB_CODE after.
    @Test(arguments: [(OobRequestType.passwordReset, 3600.0), (.verifyEmail, 3 * 86400.0), (.emailSignIn, 6 * 3600.0)])
    func codesExpireOnTheSimulatedClock(type: OobRequestType, lifetime: TimeInterval) async throws {
        func freshCode() async throws -> (EmbeddedTransport, String) {
            let transport = try embedded()
            let session = try await transport.signIn(bob)
            _ = try await transport.sendOobCode(SendOobCodeRequest(
                requestType: type, email: bob.email, idToken: type == .verifyEmail ? session.idToken : nil,
                continueUrl: articleURL, canHandleCodeInApp: true), locale: nil)
            return (transport, try #require(try await transport.mailbox().last?.oobCode))
        }
        let (early, earlyCode) = try await freshCode()
        _ = try await early.advanceClock(by: lifetime - 1)
        #expect(try await early.resetPassword(ResetPasswordRequest(oobCode: earlyCode)).requestType == type)

        let (late, lateCode) = try await freshCode()
        _ = try await late.advanceClock(by: lifetime)
        #expect(await failureCode { try await late.resetPassword(ResetPasswordRequest(oobCode: lateCode)) } == .expiredOobCode)
        switch type {
        case .passwordReset:
            #expect(await failureCode { try await late.resetPassword(ResetPasswordRequest(oobCode: lateCode, newPassword: "bob-new-secret")) } == .expiredOobCode)
        case .verifyEmail:
            #expect(await failureCode { try await late.update(UpdateAccountRequest(oobCode: lateCode)) } == .expiredOobCode)
        default:
            #expect(await failureCode { try await late.signInWithEmailLink(SignInWithEmailLinkRequest(email: bob.email, oobCode: lateCode)) } == .expiredOobCode)
        }
    }

    @Test func passwordResetRevokesOlderSessions() async throws {
        let transport = try embedded()
        let before = try await transport.signIn(alice)
        let code = try await transport.mailedResetCode(alice.email)
        _ = try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "alice-new-secret"))
        #expect(await failureCode { try await transport.lookup(LookupRequest(idToken: before.idToken)) } == .tokenExpired)
        #expect(await failureCode { try await transport.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: before.idToken), locale: nil) } == .tokenExpired)
        let after = try await transport.signIn((alice.email, "alice-new-secret"))
        let user = try #require(try await transport.lookup(LookupRequest(idToken: after.idToken)).users?.first)
        #expect(user.validSince == "1768467600")
    }

    @Test func emailLinkSignInCreatesOrSignsInAndVerifies() async throws {
        let transport = try embedded()
        for email in ["newcomer@example.com", bob.email] {
            _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: email, continueUrl: articleURL, canHandleCodeInApp: true), locale: nil)
            let code = try #require(try await transport.mailbox().last?.oobCode)
            let session = try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: email.uppercased(), oobCode: code))
            #expect(session.isNewUser == (email == "newcomer@example.com"))
            #expect(session.email == email)
            let user = try #require(try await transport.lookup(LookupRequest(idToken: session.idToken)).users?.first)
            #expect(user.emailVerified == true)
            #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code)) } == .invalidOobCode)
        }
    }

    @Test func emailLinkSignInNeedsTheSameEmail() async throws {
        let transport = try embedded()
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: alice.email, continueUrl: articleURL, canHandleCodeInApp: true), locale: nil)
        let code = try #require(try await transport.mailbox().last?.oobCode)
        #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: bob.email, oobCode: code)) } == .invalidEmail)
        #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: "", oobCode: code)) } == .missingEmail)
        #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice.email, oobCode: code)) } == nil)
    }

    @Test func emailLinkSignInOfADisabledAccountFails() async throws {
        let transport = try embedded()
        let response = try await transport.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: alice.email, continueUrl: articleURL, canHandleCodeInApp: true, returnOobLink: true), locale: nil)
        let code = try #require(response.oobCode)
        let localId = try #require(try await transport.lookup(LookupRequest(email: [alice.email])).users?.first?.localId)
        _ = try await transport.update(UpdateAccountRequest(localId: localId, disableUser: true))
        #expect(await failureCode { try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: alice.email, oobCode: code)) } == .userDisabled)
    }

    @Test func changingTheEmailThenRecoveringIt() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(alice)
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: session.idToken, newEmail: "alice.new@example.com"), locale: "fr")
        let change = try #require(try await transport.mailbox().last)
        #expect(change.to == "alice.new@example.com")
        #expect(change.subject == "Validez votre nouvelle adresse e-mail pour demo-actionflow")
        let changeCode = try #require(change.oobCode)
        let checked = try await transport.resetPassword(ResetPasswordRequest(oobCode: changeCode))
        #expect(checked.requestType == .verifyAndChangeEmail)
        #expect(checked.email == alice.email)
        #expect(checked.newEmail == "alice.new@example.com")

        let applied = try await transport.update(UpdateAccountRequest(oobCode: changeCode))
        #expect(applied.email == "alice.new@example.com")
        #expect(await failureCode { try await transport.signIn(alice) } == .emailNotFound)

        let recover = try #require(try await transport.mailbox().last)
        #expect(recover.requestType == .recoverEmail)
        #expect(recover.to == alice.email)
        #expect(recover.locale == "fr")
        let recoverCode = try #require(recover.oobCode)
        let recoverCheck = try await transport.resetPassword(ResetPasswordRequest(oobCode: recoverCode))
        #expect(recoverCheck.requestType == .recoverEmail)
        // As the Auth Emulator answers (issue 10): `email` is the address being restored, no `newEmail`.
        #expect(recoverCheck.email == alice.email)
        #expect(recoverCheck.newEmail == nil)
        #expect(try await transport.update(UpdateAccountRequest(oobCode: recoverCode)).email == alice.email)
        #expect(await failureCode { try await transport.signIn(alice) } == nil)
    }

    @Test(arguments: [
        (String?.none, String?.some("alice.new@example.com"), AuthErrorCode.missingIDToken),
        ("token", nil, .missingNewEmail),
        ("token", "not-an-email", .invalidNewEmail),
        ("token", "bob@example.com", .emailExists),
    ])
    func changeEmailErrors(token: String?, newEmail: String?, expected: AuthErrorCode) async throws {
        let transport = try embedded()
        let session = try await transport.signIn(alice)
        let request = SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: token == nil ? nil : session.idToken, newEmail: newEmail)
        #expect(await failureCode { try await transport.sendOobCode(request, locale: nil) } == expected)
    }

    @Test func clockMovesOnlyForwardAndResetRestoresTheWorld() async throws {
        let transport = try embedded()
        let start = try await transport.now()
        #expect(start == Date(timeIntervalSince1970: 1_768_467_600))
        #expect(try await transport.advanceClock(by: 90) == start.addingTimeInterval(90))
        #expect(await failureCode { try await transport.advanceClock(by: -1) } == .invalidArgument)
        #expect(await failureCode { try await transport.advanceClock(by: .infinity) } == .invalidArgument)

        let code = try await transport.mailedResetCode(alice.email)
        _ = try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "alice-new-secret"))
        _ = try await transport.signUp(SignUpRequest(email: "dave@example.com", password: "dave-secret"))
        try await transport.resetWorld()

        #expect(try await transport.now() == start)
        #expect(try await transport.mailbox().isEmpty)
        #expect(transport.issuedCodes().isEmpty)
        #expect(await failureCode { try await transport.signIn(alice) } == nil)
        #expect(await failureCode { try await transport.signIn(("dave@example.com", "dave-secret")) } == .emailNotFound)
        #expect(await failureCode { try await transport.resetPassword(ResetPasswordRequest(oobCode: code)) } == .invalidOobCode)
    }

    @Test func transportDescribesItself() throws {
        let transport = try embedded()
        #expect(transport.summary == "embedded demo-actionflow")
        #expect(transport.capabilities == TransportCapabilities(listsMailbox: true, controlsClock: true, resetsWorld: true))
    }

    /// The status line names the project in use, also after a project edit restarts the world.
    @Test func summaryFollowsAProjectEdit() throws {
        let transport = try embedded()
        var edited = transport.configuration
        edited.projectId = "demo-edited"
        try transport.withProject { $0 = SimulatedProject(configuration: edited) }
        #expect(transport.summary == "embedded demo-edited")
        #expect(transport.configuration.projectId == "demo-edited")
    }
}

@Suite struct EmbeddedTransportConcurrencyTests {
    @Test func concurrentCallersEachGetTheirOwnAccountAndCode() async throws {
        let transport = try embedded { $0.rateLimit = RateLimit(maxEmails: 1000, windowSeconds: 60) }
        let count = 200
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<count {
                group.addTask {
                    let email = "user\(index)@example.com"
                    let created = try await transport.signUp(SignUpRequest(email: email, password: "secret-\(index)"))
                    _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: email), locale: nil)
                    return created.localId
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(ids).count == count)
        let mails = try await transport.mailbox()
        #expect(mails.count == count)
        #expect(Set(mails.compactMap(\.oobCode)).count == count)
        #expect(Set(mails.map(\.id)).count == count)
    }
}
