import Foundation
import TestSupport
import Testing

/// A real browser against serve: headless Chromium (Debian's `chromium` and `chromium-driver`)
/// driven by Selenium from a virtual environment that `.ci/run` prepares (the test creates it
/// when missing).
@Suite("headless Chromium against serve", .serialized)
struct BrowserInteropTests {
    static let venv = FirebaseAdminInteropTests.packageRoot.appendingPathComponent(".build/browser-venv")
    static let script = FirebaseAdminInteropTests.packageRoot.appendingPathComponent("Tests/ActionFlowServerTests/Interop/browser_interop.py")
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    static func python() async throws -> String {
        try await virtualEnvironmentPython(venv, importing: "selenium", installing: ["selenium"])
    }

    struct Report: Decodable {
        struct Fetch: Decodable {
            var status: Int?
            var email: String?
            var error: String?
        }
        var resetForm: String
        var weakBlocked: Bool
        var weak: String
        var saved: String
        var continueHref: String
        var used: String
        var verified: String
        var fetch: Fetch
    }

    @Test("the hosted pages from a reset link (weak, then good password, Continue), a verification link, a used link, and fetch from another origin")
    func browser() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium) && FileManager.default.isExecutableFile(atPath: Self.chromedriver),
                     "install Debian's chromium and chromium-driver (.ci/run does)")
        let python = try await Self.python()
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let result = try await FirebaseAdminInteropTests.run(python, [Self.script.path, String(fixture.server.port), Self.chromium, Self.chromedriver], timeout: .seconds(180))
        try #require(result.status == 0, "browser_interop.py failed: \(result.errors)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.output.utf8))

        #expect(report.resetForm == "Reset your password")
        #expect(report.weakBlocked, "the form's minlength stops a short password in the browser")
        #expect(report.weak.contains("at least 6 characters"))
        #expect(report.saved.contains("Password changed"))
        #expect(report.continueHref == "https://www.example.com/checkout?cartId=1234")
        #expect(report.used.contains("already been used"))
        #expect(report.verified == "Your email has been verified")
        #expect(report.fetch.error == nil, "the browser refused the cross-origin call: \(report.fetch.error ?? "")")
        #expect(report.fetch.status == 200)
        #expect(report.fetch.email == "alice@example.com")
        _ = try await fixture.rest.signInWithPassword(.init(email: "alice@example.com", password: "brand-new-pass"))
    }
}
