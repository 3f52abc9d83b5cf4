import ActionFlowBackend
import Foundation
import TestSupport
import Testing

/// pyrebase4 and firebase-rest-api, Python clients of Firebase's REST API written elsewhere,
/// against serve through an adapter that sends their calls for Google's hosts to it
/// (`Interop/rest_clients_interop.py`). `.ci/run` prepares their virtual environment; the test
/// creates it when it is missing.
@Suite("pyrebase4 and firebase-rest-api (Python) against serve", .serialized)
struct RESTClientsInteropTests {
    static let venv = FirebaseAdminInteropTests.packageRoot.appendingPathComponent(".build/rest-clients-venv")
    static let script = FirebaseAdminInteropTests.packageRoot.appendingPathComponent("Tests/ActionFlowServerTests/Interop/rest_clients_interop.py")

    /// Each library's steps, each with what it returned (`ok`) or the server's error message.
    typealias Report = [String: [String: [String: JSONValue]]]

    enum JSONValue: Decodable, Equatable {
        case text(String)
        case flag(Bool)
        case none

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let flag = try? value.decode(Bool.self) { self = .flag(flag) } else if let text = try? value.decode(String.self) { self = .text(text) } else { self = .none }
        }
    }

    static func run(as behaviour: ServeBehaviour) async throws -> Report {
        _ = try await virtualEnvironmentPython(venv, importing: "pyrebase", installing: ["pyrebase4"])
        let python = try await virtualEnvironmentPython(venv, importing: "firebase", installing: ["firebase-rest-api"])
        let fixture = try await ServeFixture.start(as: behaviour)
        defer { Task { await fixture.stop() } }
        let result = try await FirebaseAdminInteropTests.run(python, [script.path, "127.0.0.1:\(fixture.server.port)", fixture.configuration.projectId, fixture.configuration.apiKey], timeout: .seconds(120))
        try #require(result.status == 0, "rest_clients_interop.py failed: \(result.errors)")
        return try JSONDecoder().decode(Report.self, from: Data(result.output.utf8))
    }

    /// The steps every library completes in both behaviours, with what each returns.
    static func expectEmailFlows(_ steps: [String: [String: JSONValue]], email: String) {
        for name in ["createUser", "signIn", "accountInfo", "sendVerification", "applyVerification", "sendReset", "confirmReset", "signInAfterReset", "signInAfterChange"] {
            #expect(steps[name]?["ok"] == .text(email), "\(name): \(String(describing: steps[name]))")
        }
        for name in ["verified", "refresh", "changePassword", "anonymous"] {
            #expect(steps[name]?["ok"] == .flag(true), "\(name): \(String(describing: steps[name]))")
        }
        #expect(steps["delete"]?["ok"] == .text("identitytoolkit#DeleteAccountResponse"))
        guard case .text(let afterDelete) = steps["signInAfterDelete"]?["error"] else {
            Issue.record("a deleted account still signs in: \(String(describing: steps["signInAfterDelete"]))")
            return
        }
        #expect(afterDelete.hasPrefix("EMAIL_NOT_FOUND"))
        guard case .text(let customToken) = steps["customToken"]?["error"] else {
            Issue.record("custom tokens: \(String(describing: steps["customToken"]))")
            return
        }
        #expect(customToken.hasPrefix("identitytoolkit.accounts.signInWithCustomToken (custom token sign-in) is not simulated"))
    }

    static let emails = ["pyrebase4": "pyrebase@example.com", "firebase-rest-api": "firebase-rest@example.com"]

    @Test("--as emulator: sign-up, sign-in, verification, reset, refresh, password change and deletion work; update_profile's nulls get the emulator's schema error")
    func emulatorBehaviour() async throws {
        let report = try await Self.run(as: .emulator)
        #expect(Set(report.keys) == Set(Self.emails.keys))
        for (library, email) in Self.emails {
            let steps = report[library] ?? [:]
            Self.expectEmailFlows(steps, email: email)
            // Both send deleteAttribute: null, first in the schema's order.
            #expect(steps["updateProfile"]?["error"] == .text("Invalid JSON payload received. /deleteAttribute must be array"), "\(library)")
        }
    }

    @Test("--as production: the same flows work, and update_profile's nulls read as absent, as production reads them")
    func productionBehaviour() async throws {
        let report = try await Self.run(as: .production)
        #expect(Set(report.keys) == Set(Self.emails.keys))
        for (library, email) in Self.emails {
            let steps = report[library] ?? [:]
            Self.expectEmailFlows(steps, email: email)
            #expect(steps["updateProfile"]?["ok"] == .text("Py User"), "\(library): \(String(describing: steps["updateProfile"]))")
        }
    }
}
