import ActionFlowBackend
@testable import ActionFlowCommands
@testable import ActionFlowModel
import ActionFlowTransport
import ArgumentParser
import Foundation
import Testing
import TestSupport

/// `doctor` against a real HTTPS server on loopback, under a test CA (`--cacert`), each host
/// sent there with `--resolve`: every broken variant is a ✗ with its reason, a correct domain passes.
@Suite("Doctor: link domains over HTTPS")
struct DoctorTests {
    static let sha256 = "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"
    static let apple = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.ios"], "components": [{"/": "/__/auth/*"}]}]}}"#
    static let android = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.android", "sha256_cert_fingerprints": ["\#(sha256)"]}}]"#

    typealias Answer = AssociationServer.Answer
    static let aasa = SiteAssociation.appleFilePath
    static let assetlinks = SiteAssociation.androidFilePath

    /// Each host a variant: the good one, and one broken way per host.
    static let hosts: [String: [String: Answer]] = [
        "good.example.test": [aasa: .json(apple), assetlinks: .json(android)],
        "redirect.example.test": [aasa: Answer(status: 301, headers: [("Location", "https://www.example.test/aasa")], body: Data()),
                                  assetlinks: Answer(status: 302, headers: [("Location", "https://x.test/\u{1B}[2Jevil")], body: Data())],
        "type.example.test": [aasa: .json(apple, contentType: "text/html; charset=utf-8"), assetlinks: .json(android, contentType: nil)],
        "big.example.test": [aasa: .json(#"{"applinks": {"details": []}, "pad": ""# + "\"" + String(repeating: "x", count: 140 * 1024) + "\"}"),
                             assetlinks: .json(String(repeating: " ", count: 2 * 1024 * 1024))],
        "garbage.example.test": [aasa: .json("<html>not json</html>"), assetlinks: Answer(body: Data([0xFF, 0xFE, 0x00, 0x41]))],
        "deep.example.test": [aasa: .json(String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)),
                              assetlinks: .json(String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000))],
        "team.example.test": [aasa: .json(apple.replacingOccurrences(of: "ABCDE12345", with: "ZZZZZ99999")),
                              assetlinks: .json(android.replacingOccurrences(of: "com.example.android", with: "com.other.app"))],
        "paths.example.test": [aasa: .json(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.ios"], "components": [{"/": "/__/auth/links", "exclude": true}, {"/": "/__/auth/act?on"}]}]}}"#),
                               assetlinks: .json(android.replacingOccurrences(of: "FA:C6", with: "00:00"))],
        "legacy.example.test": [aasa: .json(#"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.ios", "paths": ["NOT /__/auth/action", "/__/*"]}]}}"#), assetlinks: .json(android)],
    ]

    func checks(_ host: String, _ server: AssociationServer, project: ProjectConfiguration) async throws -> [DoctorCheck] {
        let authority = "\(host):\(server.port)"
        let fetcher = try AssociationFetcher(caCertificates: server.caFile, resolve: [try #require(.init("\(host):\(server.port):127.0.0.1"))], timeoutSeconds: 10)
        var checks: [DoctorCheck] = []
        for platform in LinkDomainDoctor.Platform.allCases {
            let fetched = await fetcher.fetch(authority: authority, path: platform.path, limit: LinkDomainDoctor.fetchLimit)
            checks += LinkDomainDoctor.checkFile(platform, domain: authority, fetched: fetched, project: project)
        }
        await fetcher.shutdown()
        return checks
    }

    @Test("A correct domain passes every check; each broken variant fails with its reason and what the phone does")
    func variants() async throws {
        let server = try await AssociationServer.start(Self.hosts)
        defer { Task { await server.stop() } }
        let project = try ProjectConfigLoader.loadDefault()

        let good = try await checks("good.example.test", server, project: project)
        #expect(good.allSatisfy { $0.status == .pass }, "\(good.filter { $0.status != .pass }.map(\.text))")
        #expect(good.count == 9)

        let expected: [String: [String]] = [
            "redirect.example.test": ["answers 301, a redirect to https://www.example.test/aasa", "[2Jevil: the platform does not follow redirects"],
            "type.example.test": ["is served as text/html, not application/json", "is served as no Content-Type, not application/json"],
            "big.example.test": ["Apple reads at most 128 KB", "is larger than 1024 KB: not read"],
            "garbage.example.test": ["is not valid JSON", "is not UTF-8 text"],
            // Nested 50,000 and 100,000 deep: refused or read, never a crash, and never a pass.
            "deep.example.test": [],
            "team.example.test": ["names no app ABCDE12345.com.example.ios", "has no delegate_permission/common.handle_all_urls statement for android_app com.example.android"],
            "paths.example.test": ["does not let ABCDE12345.com.example.ios open /__/auth/links", "does not list the app's SHA-256 fingerprint"],
            "legacy.example.test": ["does not let ABCDE12345.com.example.ios open /__/auth/action"],
        ]
        for (host, reasons) in expected {
            let found = try await checks(host, server, project: project)
            let failures = found.filter { $0.status == .fail }
            for reason in reasons {
                #expect(failures.contains { $0.text.contains(reason) }, "\(host): no failure saying \(reason); got \(failures.map(\.text))")
            }
            #expect(failures.allSatisfy { $0.onThePhone?.contains("opens the browser, not the") == true }, "\(host)")
            #expect(Set(failures.map { $0.subject.split(separator: " ").last ?? "" }).count == 2 || host == "legacy.example.test", "\(host): both files fail")
            #expect(!found.contains { $0.text.unicodeScalars.contains { $0 == "\u{1B}" } }, "\(host): an escape reached the report")
        }
        // The good half of a variant still passes: only what is broken fails.
        let legacy = try await checks("legacy.example.test", server, project: project)
        #expect(legacy.contains { $0.status == .pass && $0.text.contains("open /__/auth/links") })
    }

    @Test("A fetch that fails says why: refused, TLS (a host the certificate does not cover, a CA not trusted), DNS, timeout")
    func unreachable() async throws {
        let server = try await AssociationServer.start(Self.hosts)
        defer { Task { await server.stop() } }
        let project = try ProjectConfigLoader.loadDefault()
        func fetched(_ authority: String, resolve: [String], ca: String?, timeout: Double = 10) async throws -> FetchedFile {
            let fetcher = try AssociationFetcher(caCertificates: ca, resolve: resolve.compactMap(AssociationFetcher.Resolve.init), timeoutSeconds: timeout)
            defer { Task { await fetcher.shutdown() } }
            return await fetcher.fetch(authority: authority, path: Self.aasa, limit: LinkDomainDoctor.fetchLimit)
        }
        let refusing = try RefusingPort()
        // Listening, never accepting: the connection opens and nothing ever answers.
        let (silent, silentPort) = try RefusingPort.boundLoopbackSocket()
        defer { close(silent) }
        #expect(listen(silent, 4) == 0)
        let cases: [(FetchedFile, String)] = [
            (try await fetched("good.example.test:\(silentPort)", resolve: ["good.example.test:\(silentPort):127.0.0.1"], ca: server.caFile, timeout: 0.5), "time"),
            (try await fetched("good.example.test:\(refusing.port)", resolve: ["good.example.test:\(refusing.port):127.0.0.1"], ca: server.caFile), "refused the connection"),
            (try await fetched("other.test:\(server.port)", resolve: ["other.test:\(server.port):127.0.0.1"], ca: server.caFile), "failed the TLS handshake"),
            (try await fetched("good.example.test:\(server.port)", resolve: ["good.example.test:\(server.port):127.0.0.1"], ca: nil), "failed the TLS handshake"),
            (try await fetched("nowhere.invalid", resolve: [], ca: nil), "has a name that does not resolve"),
        ]
        for (result, reason) in cases {
            let found = LinkDomainDoctor.checkFile(.apple, domain: "d", fetched: result, project: project)
            #expect(found.count == 1 && found[0].status == .fail && found[0].text.contains(reason), "\(found.map(\.text)) should say \(reason)")
        }
        _ = refusing
    }

    @Test("The command: exit 0 when nothing fails, 1 when something does, 2 when it cannot run; --json says the same")
    func command() async throws {
        let server = try await AssociationServer.start(Self.hosts)
        defer { Task { await server.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let projectFile = folder.appendingPathComponent("project.yaml").path
        try Data("""
        dynamicLinkDomains: []
        fieldApps:
          - {name: iOS 4.0, platform: iOS, sdk: ios@12.18.0, linkDomains: [links.example.com]}
          - {name: Android 12, platform: android, version: 12, sdk: android@23.2.0, linkDomains: [links.example.com]}
        """.utf8).write(to: URL(fileURLWithPath: projectFile))
        func run(_ host: String, _ extra: [String] = []) async throws -> Int32 {
            let arguments = ["doctor", "--project", projectFile, "--domain", "\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1",
                             "--cacert", server.caFile, "--continue-url", "https://www.example.com/articles/42"] + extra
            let command = try #require(ActionFlowCommand.parseAsRoot(arguments) as? DoctorCommand)
            do {
                try await command.run()
                return 0
            } catch let exit as ExitCode {
                return exit.rawValue
            }
        }
        #expect(try await run("good.example.test") == 0)
        #expect(try await run("good.example.test", ["--json"]) == 0)
        #expect(try await run("team.example.test") == 1)
        #expect(try await run("good.example.test", ["--continue-url", "https://evil.test/"]) == 1)
        #expect(try await run("good.example.test", ["--cacert", "/nonexistent.pem"]) == 2)
        #expect(try await run("good.example.test", ["--resolve", "elsewhere.test:1:127.0.0.1"]) == 2)
        #expect(try await run("https://good.example.test/") == 2)
    }

    @Test("The project's own settings: Dynamic Links still configured, old SDKs, unauthorized continue URLs fail; what the file cannot tell is a question, never a pass")
    func projectChecks() throws {
        var project = try ProjectConfigLoader.loadDefault()
        let checks = LinkDomainDoctor.projectChecks(project, continueURLs: ["https://www.example.com/a", "https://evil.test/b"])
        let failed = checks.filter { $0.status == .fail }.map(\.text)
        #expect(failed.contains { $0.contains("evil.test is not an authorized domain") })
        #expect(failed.contains { $0.contains("still configures Dynamic Links (example.page.link)") })
        #expect(failed.contains { $0.contains("iOS 3.1 ships ios@11.7.0, older than 11.8.0") })
        #expect(checks.contains { $0.status == .unknown && $0.text.contains("Android 9 (rnfb@21.0.0)") })

        project.iOSApp?.teamId = nil
        project.androidApp?.sha256 = []
        project.fieldApps = []
        let unknown = LinkDomainDoctor.projectChecks(project, continueURLs: []).filter { $0.status == .unknown }.map(\.text)
        for question in ["--continue-url", "iosApp.teamId", "androidApp.sha256", "no fieldApps"] {
            #expect(unknown.contains { $0.contains(question) }, "no question about \(question)")
        }
    }

    @Test("firebase.json: a site that serves links with appAssociation NONE, or a redirect taking an association file's path, fails; a rewrite is a question")
    func hostingRules() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hosting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("firebase.json")
        try Data(#"""
        {"hosting": [
          {"site": "demo-actionflow", "appAssociation": "NONE",
           "redirects": [{"source": "/.well-known/{apple-app-site-association,other}", "destination": "/aasa", "type": 301}],
           "rewrites": [{"source": "**", "destination": "/index.html"}, {"regex": "^/\\.well-known/assetlinks\\.json$", "destination": "/al.json"}]},
          {"site": "marketing", "redirects": [{"source": "**", "destination": "https://example.com", "type": 302}]}
        ]}
        """#.utf8).write(to: file)
        let project = try ProjectConfigLoader.loadDefault()
        let config = try AppConfigReader.read([file.path], knownProject: .init(value: project.projectId, file: "the project file", field: nil))
        let checks = config.hostingChecks(project)
        #expect(checks.allSatisfy { $0.subject.hasPrefix("site demo-actionflow") }, "the marketing site serves no links: not judged")
        let failed = checks.filter { $0.status == .fail }.map(\.text)
        #expect(failed.contains { $0.contains("appAssociation is NONE: demo-actionflow.firebaseapp.com, demo-actionflow.web.app serve links") })
        #expect(failed.contains { $0.contains("hosting[0].redirects[0] '/.well-known/{apple-app-site-association,other}' redirects /.well-known/apple-app-site-association") })
        #expect(!failed.contains { $0.contains("redirects /.well-known/assetlinks.json") })
        let questions = checks.filter { $0.status == .unknown }.map(\.text)
        #expect(questions.contains { $0.contains("rewrites[0] '**' rewrites /.well-known/assetlinks.json") })
        #expect(questions.contains { $0.contains("rewrites[1]") && $0.contains("assetlinks.json") })

        // The files of another project than the one checked are refused, naming the file and field.
        try Data(#"{"projects": {"default": "someone-else"}}"#.utf8).write(to: folder.appendingPathComponent(".firebaserc"))
        #expect {
            _ = try AppConfigReader.read([folder.path], knownProject: .init(value: project.projectId, file: "the project file's projectId", field: nil))
        } throws: { error in
            "\(error)" == ".firebaserc: projects.default: is 'someone-else', but the project file's projectId is 'demo-actionflow': these files belong to another project"
        }
    }

    @Test("Apple's path patterns: * and ?, first match decides, exclude and NOT keep a path out")
    func patterns() {
        #expect(LinkDomainDoctor.glob("/__/auth/*", matches: "/__/auth/links"))
        #expect(LinkDomainDoctor.glob("*", matches: "/anything/at/all"))
        #expect(LinkDomainDoctor.glob("/__/auth/act?on", matches: "/__/auth/action"))
        #expect(!LinkDomainDoctor.glob("/__/auth/links", matches: "/__/auth/links/x"))
        #expect(!LinkDomainDoctor.glob("/shop/*", matches: "/__/auth/links"))
        #expect(!LinkDomainDoctor.covers(["components": [["/": "/__/*", "exclude": true], ["/": "*"]]], path: "/__/auth/links"))
        #expect(LinkDomainDoctor.covers(["paths": ["NOT /x", "/__/*"]], path: "/__/auth/links"))
    }
}
