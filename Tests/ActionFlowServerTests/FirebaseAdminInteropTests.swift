import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import TestSupport
import Testing

/// The official firebase-admin Python SDK, a client written elsewhere, pointed at serve with
/// FIREBASE_AUTH_EMULATOR_HOST. `.ci/run` prepares its virtual environment; the test creates
/// it when it is missing.
@Suite("firebase-admin (Python) against serve", .serialized)
struct FirebaseAdminInteropTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venv = packageRoot.appendingPathComponent(".build/firebase-admin-venv")
    static let script = packageRoot.appendingPathComponent("Tests/ActionFlowServerTests/Interop/admin_interop.py")

    struct ProcessResult {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(300)) async throws -> ProcessResult {
        let child = try SpawnedChild.start(executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            child.terminate()
        }
        let finished = await child.finish()
        watchdog.cancel()
        return ProcessResult(status: finished.status, output: String(decoding: finished.output, as: UTF8.self), errors: String(decoding: finished.errors, as: UTF8.self))
    }

    /// The virtual environment's python with firebase-admin, created when missing.
    static func python() async throws -> String {
        try await virtualEnvironmentPython(venv, importing: "firebase_admin", installing: ["firebase-admin"])
    }

    struct AdminReport: Decodable {
        struct Lookup: Decodable {
            var email: String?
            var displayName: String?
            var emailVerified: Bool
        }
        var uid: String
        var lookupByUid: Lookup
        var lookupByEmailUid: String
        var listed: [String]
        var resetLink: String
        var verifyLink: String
        var refusals: [String: String]
    }

    @Test("create a user, generate reset and verification links with full ActionCodeSettings, look the user up; the links inspect correctly and complete both flows")
    func adminLinks() async throws {
        let python = try await Self.python()
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let email = "interop@example.com"
        let result = try await Self.run(python, [Self.script.path, fixture.configuration.projectId, email, "interop-password-1"],
                                        environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(fixture.server.port)"], timeout: .seconds(60))
        try #require(result.status == 0, "admin_interop.py failed: \(result.errors)")
        let report = try JSONDecoder().decode(AdminReport.self, from: Data(result.output.utf8))

        // What the SDK read back.
        #expect(report.lookupByUid.email == email)
        #expect(report.lookupByUid.displayName == "Interop User")
        #expect(report.lookupByUid.emailVerified == false)
        #expect(report.lookupByEmailUid == report.uid)
        // The preset users and the new one, each once, across pages of two.
        #expect(report.listed.count == fixture.configuration.users.count + 1)
        #expect(Set(report.listed).count == report.listed.count)
        #expect(report.listed.contains(report.uid))
        #expect(report.refusals["unauthorizedContinueUrl"]?.contains("UNAUTHORIZED_DOMAIN") == true)
        #expect(report.refusals["invalidLinkDomain"]?.hasPrefix("InvalidHostingLinkDomainError") == true, "the SDK recognises serve's code: \(report.refusals)")
        #expect(report.refusals["unknownUser"] == "UserNotFoundError", "as production answers: \(report.refusals)")

        // The reset link: handled in the app, so a Hosting link on the requested domain around the action URL.
        let reset = try LinkInspector.inspect(report.resetLink, authorizedDomains: fixture.configuration.authorizedDomains)
        #expect(reset.layers.map(\.kind) == [.hostingWrapper, .actionURL, .continueURL])
        #expect(reset.layers.first?.host == "links.example.com")
        #expect(reset.operation == .passwordReset)
        #expect(reset.apiKey == fixture.configuration.apiKey)
        #expect(reset.continueUrl == "https://www.example.com/checkout?cartId=1234")
        #expect(reset.continueUrlAuthorized == true)
        let resetCode = try #require(reset.oobCode)

        // The app applies the code itself: check, confirm, sign in with the new password.
        #expect(try await fixture.rest.resetPassword(ResetPasswordRequest(oobCode: resetCode)).email == email)
        _ = try await fixture.rest.resetPassword(ResetPasswordRequest(oobCode: resetCode, newPassword: "changed-by-link"))
        let session = try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: email, password: "changed-by-link"))

        // The verification link: web widget first, whose continue URL is a mobile link back to the app.
        let verify = try LinkInspector.inspect(report.verifyLink, authorizedDomains: fixture.configuration.authorizedDomains)
        #expect(verify.layers.first?.kind == .actionURL)
        #expect(verify.operation == .verifyEmail)
        let continueLink = try #require(verify.continueLink)
        #expect(continueLink.isMobileLink)
        #expect(continueLink.destination == "https://www.example.com/newsletter")

        // Open it in the browser: serve's action handler page verifies the email.
        let query = try #require(URLComponents(string: verify.actionURL)?.percentEncodedQuery)
        let page = try await fixture.http("GET", "/__/auth/action?\(query)")
        #expect(page.status == 200)
        #expect(page.body.contains("Your email has been verified"))
        let idToken = try #require(session.idToken)
        #expect(try await fixture.rest.lookup(LookupRequest(idToken: idToken)).users?.first?.emailVerified == true)
    }

    struct EmulatorReport: Decodable {
        struct Claims: Decodable {
            var uid: String
            var email: String?
            var provider: String
        }
        var uid: String
        var resetLink: String
        var verifyLink: String
        var claims: Claims
        var revoked: String
        var refusals: [String: String]
        var lookupByEmailUid: String
        var listed: [String]
        var deleted: String
    }

    @Test("against serve --as emulator: emulator links, ID tokens verified with revocation checks, lookups, deletion")
    func emulatorBehaviour() async throws {
        let python = try await Self.python()
        let fixture = try await ServeFixture.start(as: .emulator)
        defer { Task { await fixture.stop() } }
        let script = Self.packageRoot.appendingPathComponent("Tests/ActionFlowServerTests/Interop/admin_emulator_interop.py")
        let email = "interop@example.com"
        let result = try await Self.run(python, [script.path, fixture.configuration.projectId, email, "interop-password-1"],
                                        environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(fixture.server.port)"], timeout: .seconds(60))
        try #require(result.status == 0, "admin_emulator_interop.py failed: \(result.errors)")
        let report = try JSONDecoder().decode(EmulatorReport.self, from: Data(result.output.utf8))

        #expect(report.resetLink.hasPrefix("\(fixture.origin)/emulator/action?mode=resetPassword&lang=en&oobCode="))
        #expect(report.resetLink.hasSuffix("&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fapp.test%2Fafter-reset"))
        #expect(report.verifyLink.hasPrefix("\(fixture.origin)/emulator/action?mode=verifyEmail&lang=en&oobCode="))
        #expect(report.claims.uid == report.uid)
        #expect(report.claims.email == email)
        #expect(report.claims.provider == "password")
        #expect(report.revoked == "RevokedIdTokenError")
        #expect(report.refusals["unknownUser"] == "UserNotFoundError")
        #expect(report.lookupByEmailUid == report.uid)
        #expect(report.listed == [report.uid], "list_users over accounts:batchGet")
        #expect(report.deleted == "UserNotFoundError")
    }
}
