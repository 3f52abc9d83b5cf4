import ActionFlowBackend
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Synchronization
import Testing

/// What a call ended in, comparable across transports: the response as sorted JSON, or the failure.
enum Outcome: Equatable, CustomStringConvertible {
    case success(String)
    case failure(AuthFailure)

    static func of(_ body: () async throws(AuthFailure) -> some Encodable) async -> Outcome {
        do {
            let value = try await body()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .millisecondsSince1970
            return .success(withComparableTokens(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)))
        } catch {
            return .failure(error)
        }
    }

    /// ID tokens compared by their claims without `exp`: serve's tokens also stay valid against
    /// the wall clock (docs/serve.md, "ID tokens"), which the embedded project never reads.
    static func withComparableTokens(_ json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) else { return json }
        func rewrite(_ value: Any) -> Any {
            if let array = value as? [Any] { return array.map(rewrite) }
            guard var dictionary = value as? [String: Any] else { return value }
            for (key, inner) in dictionary {
                if key == "idToken", let token = inner as? String {
                    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
                    var payload = parts.count == 3 ? String(parts[1]) : ""
                    payload = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    while payload.count % 4 != 0 { payload += "=" }
                    if var claims = Data(base64Encoded: payload).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }) {
                        claims["exp"] = nil
                        dictionary[key] = claims
                    }
                } else {
                    dictionary[key] = rewrite(inner)
                }
            }
            return dictionary
        }
        let data = (try? JSONSerialization.data(withJSONObject: rewrite(object), options: [.sortedKeys])) ?? Data(json.utf8)
        return String(decoding: data, as: UTF8.self)
    }

    var serverCode: AuthErrorCode? {
        if case .failure(let failure) = self { failure.serverCode } else { nil }
    }

    var description: String {
        switch self {
        case .success(let json): "success \(json)"
        case .failure(let failure): "failure \(failure)"
        }
    }
}

/// One operation, set up by earlier steps that must succeed.
struct ParityCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// nil: the call succeeds.
    var expected: AuthErrorCode?
    var run: @Sendable (any AuthTransport) async throws -> Outcome

    var testDescription: String { name }
}

enum Steps {
    static let alice = (email: "alice@example.com", password: "alice-password-1")
    static let bob = (email: "bob@example.com", password: "bob-password-1")

    static func idToken(_ transport: any AuthTransport, _ user: (email: String, password: String)) async throws -> String {
        try #require(try await transport.signInWithPassword(SignInWithPasswordRequest(email: user.email, password: user.password)).idToken)
    }

    static func send(_ transport: any AuthTransport, _ request: SendOobCodeRequest) async throws -> String {
        _ = try await transport.sendOobCode(request, locale: nil)
        return try #require(try await transport.mailbox().last?.oobCode)
    }

    static func resetCode(_ transport: any AuthTransport) async throws -> String {
        try await send(transport, SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: "https://www.example.com/account"))
    }

    static func verifyCode(_ transport: any AuthTransport) async throws -> String {
        try await send(transport, SendOobCodeRequest(requestType: .verifyEmail, idToken: try await idToken(transport, bob)))
    }

    static func signInCode(_ transport: any AuthTransport, email: String = "dave@example.com") async throws -> String {
        try await send(transport, SendOobCodeRequest(requestType: .emailSignIn, email: email, continueUrl: "https://www.example.com/finish", canHandleCodeInApp: true))
    }

    static func oob(_ request: SendOobCodeRequest) -> @Sendable (any AuthTransport) async throws -> Outcome {
        { transport in await Outcome.of { () async throws(AuthFailure) in try await transport.sendOobCode(request, locale: "de") } }
    }
}

@Suite("REST transport against serve: same answers as the embedded transport")
struct RESTParityTests {
    static let cases: [ParityCase] = [
        // Sign up and sign in.
        ParityCase(name: "signUp", expected: nil) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signUp(SignUpRequest(email: "erin@example.com", password: "erin-password")) } },
        ParityCase(name: "signUp EMAIL_EXISTS", expected: .emailExists) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signUp(SignUpRequest(email: Steps.alice.email, password: "whatever1")) } },
        ParityCase(name: "signUp WEAK_PASSWORD", expected: .weakPassword) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signUp(SignUpRequest(email: "erin@example.com", password: "123")) } },
        ParityCase(name: "signUp INVALID_EMAIL", expected: .invalidEmail) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signUp(SignUpRequest(email: "not-an-email", password: "erin-password")) } },
        ParityCase(name: "signUp MISSING_PASSWORD", expected: .missingPassword) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signUp(SignUpRequest(email: "erin@example.com", password: nil)) } },
        ParityCase(name: "signInWithPassword", expected: nil) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signInWithPassword(SignInWithPasswordRequest(email: Steps.alice.email, password: Steps.alice.password)) } },
        ParityCase(name: "signInWithPassword EMAIL_NOT_FOUND", expected: .emailNotFound) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signInWithPassword(SignInWithPasswordRequest(email: "nobody@example.com", password: "x-password")) } },
        ParityCase(name: "signInWithPassword INVALID_PASSWORD", expected: .invalidPassword) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signInWithPassword(SignInWithPasswordRequest(email: Steps.alice.email, password: "wrong-password")) } },
        ParityCase(name: "signInWithPassword USER_DISABLED", expected: .userDisabled) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signInWithPassword(SignInWithPasswordRequest(email: "carol@example.com", password: "carol-password-1")) } },
        ParityCase(name: "signInWithPassword MISSING_EMAIL", expected: .missingEmail) { t in await Outcome.of { () async throws(AuthFailure) in try await t.signInWithPassword(SignInWithPasswordRequest(email: "", password: "x-password")) } },

        // sendOobCode, each validation.
        ParityCase(name: "sendOobCode PASSWORD_RESET with full settings", expected: nil, run: Steps.oob(SendOobCodeRequest(
            requestType: .passwordReset, email: Steps.alice.email, continueUrl: "https://www.example.com/checkout?cartId=1234",
            iOSBundleId: "com.example.ios", androidPackageName: "com.example.android", androidMinimumVersion: "12",
            androidInstallApp: true, canHandleCodeInApp: true, linkDomain: "links.example.com", clientType: .iOS))),
        ParityCase(name: "sendOobCode INVALID_REQ_TYPE", expected: .invalidRequestType, run: Steps.oob(SendOobCodeRequest(requestType: .recoverEmail, email: Steps.alice.email))),
        ParityCase(name: "sendOobCode MISSING_EMAIL", expected: .missingEmail, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset))),
        ParityCase(name: "sendOobCode INVALID_EMAIL", expected: .invalidEmail, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: "alice-at-example"))),
        ParityCase(name: "sendOobCode MISSING_ID_TOKEN", expected: .missingIDToken, run: Steps.oob(SendOobCodeRequest(requestType: .verifyEmail))),
        ParityCase(name: "sendOobCode INVALID_ID_TOKEN", expected: .invalidIDToken, run: Steps.oob(SendOobCodeRequest(requestType: .verifyEmail, idToken: "forged-token"))),
        ParityCase(name: "sendOobCode INVALID_CONTINUE_URI", expected: .invalidContinueURI, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email, continueUrl: "www.example.com/no-scheme"))),
        ParityCase(name: "sendOobCode UNAUTHORIZED_DOMAIN", expected: .unauthorizedDomain, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email, continueUrl: "https://www.example.com@evil.com/"))),
        ParityCase(name: "sendOobCode MISSING_CONTINUE_URI", expected: .missingContinueURI, run: Steps.oob(SendOobCodeRequest(requestType: .emailSignIn, email: Steps.alice.email, canHandleCodeInApp: true))),
        ParityCase(name: "sendOobCode MISSING_IOS_BUNDLE_ID", expected: .missingIOSBundleID, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email, iOSAppStoreId: "123456789"))),
        ParityCase(name: "sendOobCode MISSING_ANDROID_PACKAGE_NAME", expected: .missingAndroidPackageName, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email, androidInstallApp: true))),
        ParityCase(name: "sendOobCode INVALID_HOSTING_LINK_DOMAIN", expected: .invalidHostingLinkDomain, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email, linkDomain: "links.evil.com"))),
        ParityCase(name: "sendOobCode INVALID_DYNAMIC_LINK_DOMAIN", expected: .invalidDynamicLinkDomain, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email, dynamicLinkDomain: "other.page.link"))),
        ParityCase(name: "sendOobCode EMAIL_NOT_FOUND", expected: .emailNotFound, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com"))),
        ParityCase(name: "sendOobCode USER_DISABLED", expected: .userDisabled, run: Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: "carol@example.com"))),
        ParityCase(name: "sendOobCode MISSING_NEW_EMAIL", expected: .missingNewEmail) { t in
            let token = try await Steps.idToken(t, Steps.alice)
            return try await Steps.oob(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: token))(t)
        },
        ParityCase(name: "sendOobCode INVALID_NEW_EMAIL", expected: .invalidNewEmail) { t in
            let token = try await Steps.idToken(t, Steps.alice)
            return try await Steps.oob(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: token, newEmail: "nope"))(t)
        },
        ParityCase(name: "sendOobCode RESET_PASSWORD_EXCEED_LIMIT", expected: .resetPasswordExceedLimit) { t in
            for _ in 0..<5 { _ = try await Steps.resetCode(t) }
            return try await Steps.oob(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email))(t)
        },
        ParityCase(name: "sendOobCode TOO_MANY_ATTEMPTS_TRY_LATER", expected: .tooManyAttempts) { t in
            for _ in 0..<5 { _ = try await Steps.signInCode(t) }
            return try await Steps.oob(SendOobCodeRequest(requestType: .emailSignIn, email: "dave@example.com", continueUrl: "https://www.example.com/finish", canHandleCodeInApp: true))(t)
        },

        // Codes.
        ParityCase(name: "resetPassword check", expected: nil) { t in
            let code = try await Steps.resetCode(t)
            return await Outcome.of { () async throws(AuthFailure) in try await t.resetPassword(ResetPasswordRequest(oobCode: code)) }
        },
        ParityCase(name: "resetPassword confirm, then the new password signs in", expected: nil) { t in
            let code = try await Steps.resetCode(t)
            _ = try await t.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "brand-new-password"))
            return await Outcome.of { () async throws(AuthFailure) in try await t.signInWithPassword(SignInWithPasswordRequest(email: Steps.alice.email, password: "brand-new-password")) }
        },
        ParityCase(name: "resetPassword WEAK_PASSWORD", expected: .weakPassword) { t in
            let code = try await Steps.resetCode(t)
            return await Outcome.of { () async throws(AuthFailure) in try await t.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "12345")) }
        },
        ParityCase(name: "resetPassword INVALID_OOB_CODE (used twice)", expected: .invalidOobCode) { t in
            let code = try await Steps.resetCode(t)
            _ = try await t.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "brand-new-password"))
            return await Outcome.of { () async throws(AuthFailure) in try await t.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "another-password")) }
        },
        ParityCase(name: "resetPassword EXPIRED_OOB_CODE on the simulated clock", expected: .expiredOobCode) { t in
            let code = try await Steps.resetCode(t)
            _ = try await t.advanceClock(by: 2 * 3600)
            return await Outcome.of { () async throws(AuthFailure) in try await t.resetPassword(ResetPasswordRequest(oobCode: code)) }
        },
        ParityCase(name: "update applies a verification code", expected: nil) { t in
            let code = try await Steps.verifyCode(t)
            return await Outcome.of { () async throws(AuthFailure) in try await t.update(UpdateAccountRequest(oobCode: code)) }
        },
        ParityCase(name: "update INVALID_OOB_CODE", expected: .invalidOobCode) { t in
            await Outcome.of { () async throws(AuthFailure) in try await t.update(UpdateAccountRequest(oobCode: "no-such-code")) }
        },
        ParityCase(name: "lookup", expected: nil) { t in
            let token = try await Steps.idToken(t, Steps.bob)
            return await Outcome.of { () async throws(AuthFailure) in try await t.lookup(LookupRequest(idToken: token)) }
        },
        ParityCase(name: "lookup INVALID_ID_TOKEN", expected: .invalidIDToken) { t in
            await Outcome.of { () async throws(AuthFailure) in try await t.lookup(LookupRequest(idToken: "forged-token")) }
        },
        ParityCase(name: "lookup TOKEN_EXPIRED after a password reset revoked the session", expected: .tokenExpired) { t in
            let token = try await Steps.idToken(t, Steps.alice)
            let code = try await Steps.resetCode(t)
            _ = try await t.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "brand-new-password"))
            return await Outcome.of { () async throws(AuthFailure) in try await t.lookup(LookupRequest(idToken: token)) }
        },
        ParityCase(name: "signInWithEmailLink", expected: nil) { t in
            let code = try await Steps.signInCode(t)
            return await Outcome.of { () async throws(AuthFailure) in try await t.signInWithEmailLink(SignInWithEmailLinkRequest(email: "dave@example.com", oobCode: code)) }
        },
        ParityCase(name: "signInWithEmailLink INVALID_EMAIL (another address)", expected: .invalidEmail) { t in
            let code = try await Steps.signInCode(t)
            return await Outcome.of { () async throws(AuthFailure) in try await t.signInWithEmailLink(SignInWithEmailLinkRequest(email: "mallory@example.com", oobCode: code)) }
        },
        ParityCase(name: "signInWithEmailLink INVALID_OOB_CODE (a reset code)", expected: .invalidOobCode) { t in
            let code = try await Steps.resetCode(t)
            return await Outcome.of { () async throws(AuthFailure) in try await t.signInWithEmailLink(SignInWithEmailLinkRequest(email: Steps.alice.email, oobCode: code)) }
        },

        // Mailbox, clock and reset.
        ParityCase(name: "mailbox lists the rendered message in the request's language", expected: nil) { t in
            _ = try await t.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: Steps.alice.email), locale: "ja")
            return await Outcome.of { () async throws(AuthFailure) in try await t.mailbox() }
        },
        ParityCase(name: "advanceClock", expected: nil) { t in
            await Outcome.of { () async throws(AuthFailure) in try await t.advanceClock(by: 90) }
        },
        ParityCase(name: "advanceClock backwards is refused", expected: .invalidArgument) { t in
            await Outcome.of { () async throws(AuthFailure) in try await t.advanceClock(by: -5) }
        },
        ParityCase(name: "resetWorld empties the mailbox and restores the users", expected: nil) { t in
            _ = try await Steps.resetCode(t)
            _ = try await t.signUp(SignUpRequest(email: "erin@example.com", password: "erin-password"))
            try await t.resetWorld()
            #expect(try await t.mailbox().isEmpty)
            return await Outcome.of { () async throws(AuthFailure) in try await t.signUp(SignUpRequest(email: "erin@example.com", password: "erin-password")) }
        },
    ]

    @Test("same outcome over REST as embedded", arguments: cases)
    func parity(_ parityCase: ParityCase) async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let direct = EmbeddedTransport(configuration: fixture.configuration)
        let expected = try await parityCase.run(direct)
        let overREST = try await parityCase.run(fixture.rest)
        #expect(expected.serverCode == parityCase.expected, "embedded: \(expected)")
        if parityCase.expected == nil, case .failure = expected { Issue.record("embedded failed: \(expected)") }
        #expect(overREST == expected)
    }

    @Test("capabilities and summary of a REST transport pointed at serve")
    func capabilities() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        #expect(fixture.rest.capabilities == TransportCapabilities(listsMailbox: true, controlsClock: true, resetsWorld: true))
        #expect(fixture.rest.summary == "rest \(fixture.origin) (actionflow serve --as production, project demo-actionflow)")
        #expect(try await fixture.rest.now() == fixture.configuration.clockStart)
    }

    @Test("the summary names the server's behaviour, as its GET / reports it")
    func summaryNamesTheBehaviour() async throws {
        let fixture = try await ServeFixture.start(as: .emulator)
        defer { Task { await fixture.stop() } }
        #expect(fixture.rest.summary == "rest \(fixture.origin) (actionflow serve --as emulator, project demo-actionflow)")
    }

    @Test("a probe lost while the other answered is asked once more: serve is still named, not taken for a silent emulator")
    func lostProbeIsAskedAgain() async throws {
        let statusCalls = Mutex(0)
        let server = try await MisbehavingServer.start { request in
            if request.uri.path.hasSuffix("/clock") {
                return MisbehavingServer.reply(status: .ok, #"{"nowMillis":1768467600000,"now":"2026-01-15T09:00:00.000Z"}"#)
            }
            // The first GET / is lost (a busy server's 503); the second answers as serve.
            let first = statusCalls.withLock { calls in
                calls += 1
                return calls == 1
            }
            return first ? MisbehavingServer.reply(status: .serviceUnavailable, "{}")
                : MisbehavingServer.reply(status: .ok, #"{"authEmulator":{"ready":true},"actionflow":{"behaviour":"production","project":"demo-actionflow"}}"#)
        }
        defer { Task { await server.stop() } }
        let transport = await RESTTransport.connect(configuration: RESTTransportConfiguration(
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: "fake-api-key", projectId: "demo-actionflow", timeout: ServeFixture.loopbackTimeout
        ))
        #expect(transport.summary == "rest http://127.0.0.1:\(server.port) (actionflow serve --as production, project demo-actionflow)")
        #expect(transport.capabilities.controlsClock)
        #expect(statusCalls.withLock { $0 } == 2)
    }

    @Test("a server answering GET / as the Auth Emulator alone is named so")
    func summaryOfAPlainEmulator() async throws {
        let server = try await MisbehavingServer.start { _ in
            MisbehavingServer.reply(status: .ok, #"{"authEmulator":{"ready":true,"docs":"https://firebase.google.com/docs/emulator-suite","apiSpec":"/emulator/openapi.json"}}"#)
        }
        defer { Task { await server.stop() } }
        let transport = await RESTTransport.connect(configuration: RESTTransportConfiguration(
            target: .emulator(host: "127.0.0.1", port: server.port), apiKey: "fake-api-key", projectId: "demo-actionflow", timeout: ServeFixture.loopbackTimeout
        ))
        #expect(transport.summary == "rest http://127.0.0.1:\(server.port) (Auth Emulator, project demo-actionflow)")
    }
}
