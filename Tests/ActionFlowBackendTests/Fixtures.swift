import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

/// The shipped default project, optionally changed for one test.
func defaultProject(_ change: (inout ProjectConfiguration) -> Void = { _ in }) throws -> ProjectConfiguration {
    var configuration = try ProjectConfigLoader.loadDefault()
    change(&configuration)
    return configuration
}

func embedded(_ change: (inout ProjectConfiguration) -> Void = { _ in }) throws -> EmbeddedTransport {
    EmbeddedTransport(configuration: try defaultProject(change))
}

/// How a call fails, or nil when it succeeds.
func failure<T>(_ call: () async throws -> T) async -> AuthFailure? {
    do {
        _ = try await call()
        return nil
    } catch let failure as AuthFailure {
        return failure
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// The server code a call fails with, or nil when it succeeds (`(network)` for failures below the protocol).
func failureCode<T>(_ call: () async throws -> T) async -> AuthErrorCode? {
    await failure(call).map { $0.serverCode ?? AuthErrorCode("(network)") }
}

/// The value of a query parameter of a URL, percent-decoded once.
func queryValue(_ name: String, in url: String) -> String? {
    URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
}

let alice = (email: "alice@example.com", password: "alice-password-1")
let bob = (email: "bob@example.com", password: "bob-password-1")
let carol = (email: "carol@example.com", password: "carol-password-1")
let articleURL = "https://www.example.com/articles/42"

extension EmbeddedTransport {
    func signIn(_ user: (email: String, password: String)) async throws(AuthFailure) -> SignInResponse {
        try await signInWithPassword(SignInWithPasswordRequest(email: user.email, password: user.password))
    }

    /// Sends a password reset for `email` and returns the mailed code.
    func mailedResetCode(_ email: String, continueURL: String? = articleURL) async throws -> String {
        _ = try await sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: email, continueUrl: continueURL), locale: nil)
        let message = try #require(try await mailbox().last)
        return try #require(message.oobCode)
    }
}
