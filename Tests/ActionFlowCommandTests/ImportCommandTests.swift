@testable import ActionFlowCommands
import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import ArgumentParser
import Foundation
import Testing

/// `actionflow import`: HAR captures, two recorded from real traffic through mitmproxy in front of
/// `serve` (Fixtures/Captures/record-serve-capture.sh, and record-browser-capture.sh with headless
/// Chromium), the others written by hand
/// for what a proxy in front of `serve` cannot show (production hosts, base64 bodies, redirects).
@Suite struct ImportCommandTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Captures")

    static func capture(_ name: String) throws -> Data {
        try Data(contentsOf: captures.appendingPathComponent(name))
    }

    static func report(_ name: String, authorizedDomains: [String] = []) throws -> [String: Any] {
        var project = try ProjectConfigLoader.loadDefault()
        if !authorizedDomains.isEmpty { project.authorizedDomains = authorizedDomains }
        let output = try ImportCommand.render(try capture(name), source: name, json: true, project: project)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    static func narration(_ name: String) throws -> String {
        try ImportCommand.render(try capture(name), source: name, json: false, project: try ProjectConfigLoader.loadDefault())
    }

    /// An operation's `actionCodeSettings`, JSON Booleans told apart from text.
    static func settings(_ operation: [String: Any]) -> [String: String]? {
        (operation["actionCodeSettings"] as? [String: Any])?.mapValues { value in
            if let number = value as? NSNumber, IdentityToolkitMapping.isBoolean(number) { return "\(number.boolValue) (Boolean)" }
            return value as? String ?? "\(value)"
        }
    }

    @Test func recordedEmulatorCaptureNamesEveryCallByItsV1Method() throws {
        let report = try Self.report("serve-emulator.har")
        #expect(Set(report.keys) == ["operations", "actionLinks", "findings"])
        let operations = try #require(report["operations"] as? [[String: Any]])
        let names = operations.map { $0["operation"] as? String ?? "" }
        // The v3 calls first (signupNewUser, verifyPassword, getOobConfirmationCode), then v1.
        #expect(Array(names.prefix(6)) == ["signUp", "signInWithPassword", "signInWithPassword", "sendOobCode", "sendOobCode", "sendOobCode"])
        #expect(Array(names.suffix(3)) == ["signInWithPassword", "sendOobCode", "resetPassword"], "the REST transport's story 1 follows")
        #expect(operations[1]["status"] as? Int == 400)
        #expect(operations[1]["error"] as? String == "INVALID_PASSWORD")
        #expect(operations[0]["error"] is NSNull)
        for key in ["operation", "requestType", "email", "continueUrl", "actionCodeSettings", "status", "error"] {
            #expect(operations.allSatisfy { $0.keys.contains(key) }, "every operation has \(key)")
        }
        #expect(operations[2]["error"] as? String == "EMAIL_NOT_FOUND", "an address with no account")
        let ios = operations[3]
        #expect(ios["requestType"] as? String == "PASSWORD_RESET")
        #expect(ios["continueUrl"] as? String == "https://evil.example/after-reset")
        #expect(Self.settings(ios) == [
            "continueUrl": "https://evil.example/after-reset", "iOSBundleId": "com.example.ios", "canHandleCodeInApp": "true (Boolean)",
        ])
        // Android: snake_case keys and requestType 6, under the v1 names.
        let android = operations[4]
        #expect(android["requestType"] as? String == "EMAIL_SIGNIN")
        #expect(android["email"] as? String == "android@example.com")
        #expect(Self.settings(android) == [
            "continueUrl": "https://www.example.com/finish", "androidPackageName": "com.example.android", "androidInstallApp": "true (Boolean)",
            "androidMinimumVersion": "12", "canHandleCodeInApp": "true (Boolean)",
        ])
        // A form body.
        #expect(Self.settings(operations[5]) == ["continueUrl": "https://www.example.com/reset"])
    }

    @Test func recordedCaptureListsTheEmulatorsLinksAndKeepsOutPreflightsAndOtherTraffic() throws {
        let report = try Self.report("serve-emulator.har")
        let links = try #require(report["actionLinks"] as? [[String: Any]])
        #expect(links.contains { $0["mode"] as? String == "resetPassword" && $0["continueUrl"] as? String == "https://evil.example/after-reset" && $0["lang"] as? String == "en" })
        #expect(links.contains { $0["mode"] as? String == "signIn" })
        #expect(links.allSatisfy { ($0["oobCode"] as? String)?.hasSuffix(SecretMasking.marker) == true }, "codes are masked")
        let text = try Self.narration("serve-emulator.har")
        #expect(text.contains("kept out of the flow: 1 CORS preflight, 3 unrelated requests"))
        #expect(text.contains("sendOobCode (v3 getOobConfirmationCode, emulator) PASSWORD_RESET for ios@example.com: 200"))
        #expect(!text.contains("OPTIONS"))
        // Nothing of a password, code or token in clear.
        #expect(!text.contains("secret-123"))
        for link in links {
            let masked = try #require(link["link"] as? String)
            #expect(masked.contains("oobCode=") && masked.contains(SecretMasking.marker))
        }
    }

    @Test func findingsComeFromTheSettingsSentAndTheLinks() throws {
        let report = try Self.report("serve-emulator.har")
        let findings = try #require(report["findings"] as? [[String: Any]])
        // evil.example is not among the default project's authorized domains.
        #expect(findings.contains { $0["code"] as? String == "continue-url.unauthorized" && $0["subject"] as? String == "operations[3]" })
        let allowed = try Self.report("serve-emulator.har", authorizedDomains: ["evil.example", "www.example.com"])
        let allowedFindings = try #require(allowed["findings"] as? [[String: Any]])
        #expect(!allowedFindings.contains { $0["code"] as? String == "continue-url.unauthorized" })
    }

    @Test func productionHostsBase64AndFormBodiesAndRedirects() throws {
        let report = try Self.report("production-hand-written.har")
        let operations = try #require(report["operations"] as? [[String: Any]])
        #expect(operations.map { $0["operation"] as? String } == ["sendOobCode", "sendOobCode", "token", "lookup"])
        #expect(operations.map { $0["api"] as? String } == ["v3", "v1", "securetoken", "v1"])
        // The v3 answer came base64-encoded.
        #expect(operations[0]["status"] as? Int == 400)
        #expect(operations[0]["error"] as? String == "INVALID_DYNAMIC_LINK_DOMAIN")
        #expect(Self.settings(operations[0]) == [
            "continueUrl": "https://app.evil.example/finish", "iOSBundleId": "com.example.ios",
            "dynamicLinkDomain": "example.page.link", "canHandleCodeInApp": "false (Boolean)",
        ])
        // A form given as HAR params, with Android's integer request type.
        #expect(operations[1]["requestType"] as? String == "PASSWORD_RESET")
        #expect(Self.settings(operations[1]) == [
            "continueUrl": "https://www.example.com/after", "linkDomain": "links.other.example", "canHandleCodeInApp": "true (Boolean)",
        ])
        let links = try #require(report["actionLinks"] as? [[String: Any]])
        #expect(links.count == 1)
        #expect(links.first?["source"] as? String == "redirect")
        #expect(links.first?["lang"] as? String == "fr")
        let codes = Set((report["findings"] as? [[String: Any]] ?? []).map { "\($0["subject"] as? String ?? "") \($0["code"] as? String ?? "")" })
        #expect(codes.isSuperset(of: [
            "operations[0] settings.sign-in-not-in-app", "operations[0] legacy-dynamic-links", "operations[0] continue-url.unauthorized",
            "actionLinks[0] continue-url.unauthorized",
        ]))
        // Its send to links.other.example was answered 200: that project knows the link domain.
        #expect(codes.contains("operations[1] capture.project-accepted") && !codes.contains("operations[1] settings.link-domain-unknown"))
    }

    @Test func hostileStringsAreSanitizedAndSecretsMasked() throws {
        let text = try Self.narration("production-hand-written.har")
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" })
        #expect(text.contains("lookup for ␛[2Jhostile"))
        #expect(!text.contains("Zq8vH2kLm4Pz7RtYwB3nC9dF1gJ5"), "the action code is masked")
        #expect(!text.contains("AMf-vBxRefreshTokenValue"))
        var project = try ProjectConfigLoader.loadDefault()
        project.authorizedDomains = ["www.example.com"]
        let json = try ImportCommand.render(try Self.capture("production-hand-written.har"), source: "x", json: true, project: project)
        #expect(!json.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(!json.contains("Zq8vH2kLm4Pz7RtYwB3nC9dF1gJ5"))
    }

    @Test(arguments: [
        ("cut-short.har", "the file is cut short: its JSON ends at byte"),
        ("not-json.har", "not JSON: "),
        ("not-har.json", "not a HAR capture: it has no log object"),
        ("entry-without-request.har", "log.entries[0] has no request"),
    ])
    func badCapturesAreRefusedWithTheReason(name: String, reason: String) async throws {
        let project = try ProjectConfigLoader.loadDefault()
        #expect {
            _ = try ImportCommand.render(try Self.capture(name), source: name, json: false, project: project)
        } throws: { error in
            (error as? CaptureError)?.description.hasPrefix(reason) == true
        }
        let command = try #require(try ActionFlowCommand.parseAsRoot(["import", Self.captures.appendingPathComponent(name).path]) as? ImportCommand)
        await #expect(throws: ExitCode(2)) { try await command.run() }
    }

    @Test("text that is no UTF-8, JSON nested past what a parser reads and the value null are each named for what they are")
    func notJSONSaysWhy() throws {
        var invalid = Data(#"{"log": {"entries": ["#.utf8)
        invalid.append(contentsOf: [0xC3, 0x28])
        invalid.append(contentsOf: Data("]}}".utf8))
        let deep = Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        for (data, reason) in [(invalid, "not JSON: it is not UTF-8 text (the first bad byte is at offset 21)"),
                               (deep, "not JSON: it nests 600 levels deep, past the 512 a JSON parser reads"),
                               (Data("null".utf8), "not a HAR capture: the whole file is the JSON value null, not an object")] {
            #expect {
                _ = try HTTPArchive.load(data)
            } throws: { error in
                (error as? CaptureError)?.description == reason
            }
        }
    }

    @Test func cutShortNamesThePosition() throws {
        let data = try Self.capture("cut-short.har")
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).count
        #expect {
            _ = try HTTPArchive.load(data)
        } throws: { error in
            (error as? CaptureError)?.description.contains("byte \(data.count) (line \(lines),") == true
        }
    }

    @Test func captureWithoutIdentityToolkitCallsIsRefused() throws {
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://www.example.com/"}, "response": {"status": 200}}]}}"#
        #expect(throws: CaptureError.noIdentityToolkitCall(entries: 1)) {
            _ = try CapturedFlow.read(Data(har.utf8), project: try ProjectConfigLoader.loadDefault())
        }
        #expect(throws: CaptureError.notHAR("log.entries[0].request.url is not a string")) {
            _ = try HTTPArchive.load(Data(#"{"log": {"entries": [{"request": {"method": "GET", "url": 7}}]}}"#.utf8))
        }
    }

    @Test("import --save writes the capture as a session file that export reads as it reads the HAR itself")
    func saveAndExport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = Self.captures.appendingPathComponent("serve-emulator.har").path
        let saved = folder.appendingPathComponent("capture.json").path
        let command = try #require(try ActionFlowCommand.parseAsRoot(["import", har, "--save", saved]) as? ImportCommand)
        try await command.run()

        let project = try ProjectFileOption.parse([])
        let fromFile = try await SessionSource.load(saved, project: project)
        let fromHAR = try await SessionSource.load(har, project: project)
        #expect(fromFile.recording == fromHAR.recording)
        #expect(fromHAR.title == "serve-emulator.har")
        let markdown = SessionExport.text(.markdown, recording: fromHAR.recording, title: fromHAR.title, drawing: SessionExport.Drawing(columns: 100, rows: 30))
        #expect(markdown.contains("## Security review (OWASP ASVS 5.0)"))
        #expect(markdown.contains("POST /v1/accounts:sendOobCode"))
    }

    @Test("a cut capture given to export or replay names the file and the reason; import --save into a missing folder writes nothing")
    func badCaptureAsSession() async throws {
        let cut = Self.captures.appendingPathComponent("cut-short.har").path
        await #expect {
            _ = try await SessionSource.load(cut, project: try ProjectFileOption.parse([]))
        } throws: { error in
            "\(error)".contains("cut-short.har") && "\(error)".contains("the file is cut short")
        }
        let har = Self.captures.appendingPathComponent("serve-emulator.har").path
        let command = try #require(try ActionFlowCommand.parseAsRoot(["import", har, "--save", "/nonexistent-folder/capture.json"]) as? ImportCommand)
        await #expect(throws: ExitCode(2)) { try await command.run() }
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-folder/capture.json"))
    }

    /// Other traffic whose text holds every character the entry scan must see past: braces and
    /// brackets in strings, escaped quotes and backslashes, keys named log and entries.
    static func padded(_ capture: Data, entries count: Int, bodyBytes: Int) throws -> Data {
        var archive = try #require(try JSONSerialization.jsonObject(with: capture) as? [String: Any])
        var log = try #require(archive["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        let tricky = #"{"log": {"entries": [ "}", "\"", "\\", "]", "{" ]}} "# + String(repeating: "y", count: bodyBytes)
        let other: [[String: Any]] = (0..<count).map { index in
            ["startedDateTime": "2026-01-15T09:00:00.000Z", "time": 3,
             "request": ["method": "POST", "url": "https://cdn.example.com/\(index)?q=%7B", "headers": [["name": "X-Entries", "value": "]}{["]],
                         "postData": ["mimeType": "application/json", "text": #"{"entries": [{"log": "}"}]}"#]],
             "response": ["status": 200, "headers": [], "content": ["mimeType": "text/plain", "text": tricky]],
             "entries": ["not", "a", "capture's"]]
        }
        entries.insert(contentsOf: other, at: 2)
        log["entries"] = entries
        archive["log"] = log
        return try JSONSerialization.data(withJSONObject: archive)
    }

    @Test("a capture is read one entry at a time: other traffic full of braces, quotes and keys named entries changes nothing, and read bytes are given back in order")
    func streamedEntriesAreTheWholeFilesEntries() throws {
        let project = try ProjectConfigLoader.loadDefault()
        let small = try CapturedFlow.read(try Self.capture("serve-emulator.har"), project: project)
        let big = try Self.padded(try Self.capture("serve-emulator.har"), entries: 40, bodyBytes: 60_000)
        var released: [Range<Int>] = []
        let flow = try CapturedFlow.read(big, project: project) { released.append($0) }
        #expect(flow.entries == small.entries + 40)
        #expect(flow.operations.map(\.operation) == small.operations.map(\.operation))
        #expect(flow.operations.map(\.status) == small.operations.map(\.status))
        #expect(flow.actionLinks.map(\.anatomy.link) == small.actionLinks.map(\.anatomy.link))
        #expect(flow.unrelated == small.unrelated + 40)
        #expect(!released.isEmpty, "a 2 MB capture gives its read megabytes back")
        #expect(zip(released, released.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "in order, each once")
        #expect((released.last?.upperBound ?? 0) <= big.count)
    }

    @Test("an entry the scan finds broken is reported as the whole file's decoding names it")
    func brokenEntryMidFile() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var archive = try #require(try JSONSerialization.jsonObject(with: try Self.capture("serve-emulator.har")) as? [String: Any])
        var log = try #require(archive["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        entries[5]["request"] = ["url": "https://example.com/"]
        log["entries"] = entries
        archive["log"] = log
        #expect(throws: CaptureError.notHAR("log.entries[5].request.method is missing")) {
            _ = try CapturedFlow.read(try JSONSerialization.data(withJSONObject: archive), project: project)
        }
        entries[5] = ["request": "not an object"]
        log["entries"] = entries
        archive["log"] = log
        #expect(throws: CaptureError.notHAR("log.entries[5].request is not an object")) {
            _ = try CapturedFlow.read(try JSONSerialization.data(withJSONObject: archive), project: project)
        }
    }

    @Test("bytes between entries that JSON does not allow are refused, as the whole file's decoding refuses them, not skipped")
    func strayBytesBetweenEntries() throws {
        let project = try ProjectConfigLoader.loadDefault()
        let archive = try #require(try JSONSerialization.jsonObject(with: try Self.capture("serve-emulator.har")) as? [String: Any])
        let entries = try #require((archive["log"] as? [String: Any])?["entries"] as? [Any])
        let texts = try entries.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        func capture(_ separator: String) -> Data {
            Data((#"{"log": {"version": "1.2", "entries": ["# + texts.joined(separator: separator) + "]}}").utf8)
        }
        #expect(try CapturedFlow.read(capture(", "), project: project).operations.count == 9, "the entries rejoined as JSON read as before")
        #expect(throws: CaptureError.self) { _ = try CapturedFlow.read(capture(" garbage "), project: project) }
        #expect(throws: CaptureError.self) { _ = try CapturedFlow.read(capture(" "), project: project) }
        #expect(throws: CaptureError.self) { _ = try CapturedFlow.read(capture(", 7, "), project: project) }
    }

    @Test("a real browser's capture (headless Chromium through mitmproxy, JS-SDK-shaped calls against serve --as production): calls, settings, statuses, errors, preflights and the French links")
    func browserCapture() throws {
        let report = try Self.report("serve-production-browser.har")
        let operations = try #require(report["operations"] as? [[String: Any]])
        #expect(operations.map { $0["operation"] as? String ?? "" } == [
            "signUp", "signInWithPassword", "sendOobCode", "sendOobCode", "sendOobCode", "sendOobCode",
            "resetPassword", "resetPassword", "resetPassword", "signInWithPassword", "token",
        ])
        #expect(operations.map { $0["status"] as? Int ?? 0 } == [200, 400, 200, 400, 200, 200, 200, 200, 400, 200, 200])
        // The server's whole `error.message`; its code is what comes before " : ".
        #expect(operations.map { ($0["error"] as? String).map { String($0.prefix { $0 != " " }) } } == [
            nil, "INVALID_PASSWORD", nil, "UNAUTHORIZED_DOMAIN", nil, nil, nil, nil, "INVALID_OOB_CODE", nil, nil,
        ])
        #expect(operations[2...5].map { $0["requestType"] as? String } == ["VERIFY_EMAIL", "PASSWORD_RESET", "PASSWORD_RESET", "EMAIL_SIGNIN"])
        #expect(Self.settings(operations[4]) == ["continueUrl": "https://www.example.com/account?tab=security", "canHandleCodeInApp": "false (Boolean)"])
        #expect(Self.settings(operations[5]) == ["continueUrl": "https://www.example.com/finish", "canHandleCodeInApp": "true (Boolean)"])
        let links = try #require(report["actionLinks"] as? [[String: Any]])
        #expect(links.map { $0["mode"] as? String } == ["verifyEmail", "resetPassword", "signIn"])
        #expect(links.allSatisfy { $0["lang"] as? String == "fr" }, "X-Firebase-Locale chose the emails' language")
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["code"] as? String == "continue-url.unauthorized" && $0["subject"] as? String == "operations[3]" })
        #expect(!findings.contains { $0["code"] as? String == "capture.departs-from-firebase" }, "serve --as production answered as Firebase documents")
        let text = try Self.narration("serve-production-browser.har")
        #expect(text.contains("kept out of the flow: 5 CORS preflights"))
        for secret in ["first-secret-1", "second-secret-2", "third-secret-3", "wrong-password"] { #expect(!text.contains(secret)) }
        // The browser's own headers reach the Network pane.
        let project = try ProjectConfigLoader.loadDefault()
        let session = try CapturedFlow.read(try Self.capture("serve-production-browser.har"), project: project).recording(project: project, source: "browser").current
        #expect(session.exchanges.first?.requestHeaders["x-client-version"] == "Chrome/JsCore/11.0.2/FirebaseCore-web")
        #expect(session.exchanges.first?.requestHeaders["origin"]?.hasPrefix("http://127.0.0.1:") == true)
    }
}

extension ImportCommand {
    /// The command's output for a capture's bytes, or why they are no capture.
    static func render(_ data: Data, source: String, json: Bool, project: ProjectConfiguration) throws(CaptureError) -> String {
        let flow = try CapturedFlow.read(data, project: project)
        return json ? JSONOutput.commandOutput(CapturedFlow.Report(flow)) : flow.narration(source: source)
    }
}
