import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

/// Sign up, sign in, lookup and account updates, through the embedded transport.
@Suite struct AccountOperationTests {
    @Test func signUpCreatesAnUnverifiedAccountThatCanSignIn() async throws {
        let transport = try embedded()
        let created = try await transport.signUp(SignUpRequest(email: "dave@example.com", password: "dave-secret"))
        #expect(created.email == "dave@example.com")
        #expect(created.isNewUser == true)
        #expect(created.idToken != nil)
        #expect(created.localId.count == 28)
        let signedIn = try await transport.signIn(("dave@example.com", "dave-secret"))
        #expect(signedIn.localId == created.localId)
        #expect(signedIn.registered == true)
        let looked = try await transport.lookup(LookupRequest(idToken: signedIn.idToken))
        #expect(looked.users?.first?.emailVerified == false)
    }

    @Test(arguments: [
        (SignUpRequest(email: "alice@example.com", password: "another-secret"), AuthErrorCode.emailExists),
        (SignUpRequest(email: "ALICE@example.com", password: "another-secret"), .emailExists),
        (SignUpRequest(email: "dave@example.com", password: "12345"), .weakPassword),
        (SignUpRequest(email: "dave.example.com", password: "dave-secret"), .invalidEmail),
        (SignUpRequest(email: "dave@example.com", password: nil), .missingPassword),
        (SignUpRequest(email: nil, password: "dave-secret"), .missingEmail),
    ])
    func signUpErrors(request: SignUpRequest, expected: AuthErrorCode) async throws {
        let transport = try embedded()
        #expect(await failureCode { try await transport.signUp(request) } == expected)
    }

    @Test func signInReturnsSessionForPresetUsers() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(alice)
        #expect(session.email == alice.email)
        #expect(session.displayName == "Alice")
        #expect(session.expiresIn == "3600")
        #expect(session.refreshToken?.count == 64)
        let idToken = try #require(session.idToken)
        #expect(idToken.hasPrefix("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0."))
    }

    @Test(arguments: [
        (false, alice.email, "wrong-password", AuthErrorCode.invalidPassword),
        (false, "nobody@example.com", "whatever-1", .emailNotFound),
        (false, carol.email, carol.password, .userDisabled),
        (false, "not-an-email", "whatever-1", .invalidEmail),
        (false, alice.email, "", .missingPassword),
        (true, alice.email, "wrong-password", .invalidLoginCredentials),
        (true, "nobody@example.com", "whatever-1", .invalidLoginCredentials),
        (true, carol.email, carol.password, .userDisabled),
    ])
    func signInErrors(protection: Bool, email: String, password: String, expected: AuthErrorCode) async throws {
        let transport = try embedded { $0.emailEnumerationProtection = protection }
        #expect(await failureCode { try await transport.signIn((email, password)) } == expected)
    }

    @Test func lookupByTokenAndByAdminKeys() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(bob)
        let byToken = try await transport.lookup(LookupRequest(idToken: session.idToken))
        let user = try #require(byToken.users?.first)
        #expect(user.email == bob.email)
        #expect(user.emailVerified == false)
        #expect(user.createdAt == "1768467600000")
        #expect(user.validSince == "1768467600")

        let byEmail = try await transport.lookup(LookupRequest(email: [bob.email, "nobody@example.com"]))
        #expect(byEmail.users?.map(\.localId) == [session.localId])
        let byLocalId = try await transport.lookup(LookupRequest(localId: [session.localId]))
        #expect(byLocalId.users?.first?.email == bob.email)
        let none = try await transport.lookup(LookupRequest(email: ["nobody@example.com"]))
        #expect(none.users == nil)
    }

    @Test func lookupWithUnknownTokenFails() async throws {
        let transport = try embedded()
        #expect(await failureCode { try await transport.lookup(LookupRequest(idToken: "garbage")) } == .invalidIDToken)
        #expect(await failureCode { try await transport.lookup(LookupRequest()) } == .missingIDToken)
    }

    @Test func lookupOfAccountDisabledAfterSignInFails() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(alice)
        _ = try await transport.update(UpdateAccountRequest(localId: session.localId, disableUser: true))
        #expect(await failureCode { try await transport.lookup(LookupRequest(idToken: session.idToken)) } == .userDisabled)
        #expect(await failureCode { try await transport.signIn(alice) } == .userDisabled)
    }

    @Test func adminUpdatesVerifyAndChangeAccounts() async throws {
        let transport = try embedded()
        let bobSession = try await transport.signIn(bob)
        let updated = try await transport.update(UpdateAccountRequest(localId: bobSession.localId, emailVerified: true))
        #expect(updated.emailVerified == true)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(localId: "no-such-user", emailVerified: true)) } == .userNotFound)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(localId: bobSession.localId, email: alice.email)) } == .emailExists)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(emailVerified: true)) } == .missingIDToken)
    }

    @Test func passwordChangeByTheUserRevokesOtherSessionsAndReturnsANewOne() async throws {
        let transport = try embedded()
        let first = try await transport.signIn(alice)
        let second = try await transport.signIn(alice)
        let changed = try await transport.update(UpdateAccountRequest(idToken: first.idToken, password: "changed-secret"))
        let fresh = try #require(changed.idToken)
        #expect(await failureCode { try await transport.lookup(LookupRequest(idToken: second.idToken)) } == .tokenExpired)
        #expect(await failureCode { try await transport.lookup(LookupRequest(idToken: fresh)) } == nil)
        #expect(await failureCode { try await transport.update(UpdateAccountRequest(idToken: fresh, password: "short")) } == .weakPassword)
        #expect(await failureCode { try await transport.signIn((alice.email, "changed-secret")) } == nil)
    }
}

@Suite struct IDTokenTests {
    @Test func idTokensAreUnsignedJWTsDescribingTheUser() async throws {
        let transport = try embedded()
        let session = try await transport.signIn(alice)
        let parts = try #require(session.idToken).split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts[2].isEmpty)
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let data = try #require(Data(base64Encoded: payload))
        let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(claims["email"] as? String == alice.email)
        #expect(claims["email_verified"] as? Bool == true)
        #expect(claims["user_id"] as? String == session.localId)
        #expect(claims["aud"] as? String == "demo-actionflow")
        #expect(claims["iat"] as? Int == 1_768_467_600)
        #expect(claims["exp"] as? Int == 1_768_467_600 + 3600)
    }
}
