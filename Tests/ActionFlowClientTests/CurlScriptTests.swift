import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing
import TestSupport

/// A script run by `/bin/sh` with `curl` replaced by a shim that keeps each call's arguments,
/// byte for byte, in a file of its own, and answers as a session's server did: each call with
/// its recorded answer, the emulator's listing with the emails sent before that call.
struct ShimmedShell {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-shim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("calls"), withIntermediateDirectories: true)
        let shim = folder.appendingPathComponent("bin/curl")
        try SpawnedChild.writeProgram(Data("""
        #!/bin/sh
        n=0
        while [ -e "$CURL_CALLS/$n" ]; do n=$((n + 1)); done
        case "$*" in
        */emulator/v1/projects/*/oobCodes*) cat "$CURL_ANSWERS/listing-$n" 2>/dev/null; exit 0 ;;
        esac
        for argument in "$@"; do printf '%s\\000' "$argument"; done > "$CURL_CALLS/$n"
        cat "$CURL_ANSWERS/answer-$n" 2>/dev/null
        exit 0

        """.utf8), to: shim)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("answers"), withIntermediateDirectories: true)
    }

    /// Makes the shim answer as `session`'s server did.
    func answer(as session: Session) throws {
        let answers = folder.appendingPathComponent("answers")
        for (index, record) in session.exchanges.enumerated() {
            try Data((record.unmasked?.response ?? "{}").utf8).write(to: answers.appendingPathComponent("answer-\(index)"))
        }
        var sent: [[String: String]] = []
        var calls = 0
        func writeListing() throws {
            let listing = try JSONSerialization.data(withJSONObject: ["oobCodes": sent])
            try listing.write(to: answers.appendingPathComponent("listing-\(calls)"))
        }
        try writeListing()
        for entry in session.journal {
            switch entry.fact {
            case .exchange:
                calls += 1
                try writeListing()
            case .mailSent(let id, _, _):
                if let mail = session.sentMail.first(where: { $0.id == id }), let code = mail.oobCode {
                    sent.append(["email": mail.to, "requestType": mail.requestType.rawValue, "oobCode": code])
                    try writeListing()
                }
            default: break
            }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `script` with `arguments` before it (`-n` checks its syntax); returns the exit status and standard error.
    @discardableResult
    func run(_ script: String, shellOptions: [String] = [], emulatorHost: String? = nil, variables: [String: String] = [:]) throws -> (status: Int32, errors: String) {
        let path = folder.appendingPathComponent("script-\(UUID().uuidString).sh")
        try script.write(to: path, atomically: true, encoding: .utf8)
        var environment = ["PATH": folder.appendingPathComponent("bin").path + ":/usr/bin:/bin", "CURL_CALLS": folder.appendingPathComponent("calls").path,
                           "CURL_ANSWERS": folder.appendingPathComponent("answers").path]
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = emulatorHost
        environment.merge(variables) { _, given in given }
        // In the folder: the outer shell changes to it, then runs the script's shell.
        let child = try SpawnedChild.start("/bin/sh", ["-c", #"cd "$0" && exec /bin/sh "$@""#, folder.path] + shellOptions + [path.path], environment: environment)
        let finished = child.finishBlocking()
        return (finished.status, String(decoding: finished.errors, as: UTF8.self))
    }

    /// Each call's arguments, in the order made; the calls are forgotten.
    func takeCalls() throws -> [[String]] {
        let calls = folder.appendingPathComponent("calls")
        var result: [[String]] = []
        while let data = FileManager.default.contents(atPath: calls.appendingPathComponent("\(result.count)").path) {
            result.append(data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) })
        }
        for index in result.indices { try FileManager.default.removeItem(at: calls.appendingPathComponent("\(index)")) }
        return result
    }
}

/// One curl call's arguments, read back.
struct CurlCall {
    var arguments: [String]

    /// The argument after `option`'s each occurrence.
    func values(of option: String) -> [String] {
        arguments.indices.dropLast().filter { arguments[$0] == option }.map { arguments[$0 + 1] }
    }

    var url: String? { arguments.last { $0.hasPrefix("http") } }
    var body: String? { values(of: "--data-raw").first }
}

/// Parses JSON text into Foundation values compared with `NSDictionary` equality.
func jsonObject(_ text: String) throws -> NSDictionary {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
}

@Suite("Exchanges as curl", .onDedicatedThread)
struct CurlScriptTests {
    static func played(_ name: String) async throws -> Session {
        let scenario = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate(name))
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        #expect(transcript.passed, "\(transcript.text())")
        return try #require(transcript.recording).current
    }

    /// Every secret a session's requests carried, as sent.
    static func secretsSent(_ session: Session) throws -> Set<String> {
        var secrets: Set<String> = []
        func collect(_ value: Any, key: String?) {
            switch value {
            case let dictionary as [String: Any]: for (name, member) in dictionary { collect(member, key: name) }
            case let array as [Any]: for element in array { collect(element, key: key) }
            case let text as String where key.map(SecretMasking.secretKeys.contains) == true: secrets.insert(text)
            default: break
            }
        }
        for record in session.exchanges {
            let sent = try #require(record.unmasked)
            collect(try JSONSerialization.jsonObject(with: Data(sent.body.utf8)), key: nil)
            if let key = sent.apiKey { secrets.insert(key) }
        }
        return secrets
    }

    @Test("password-reset-in-app: a checked POSIX script, one named curl command per exchange, in order")
    func oneCommandPerExchange() async throws {
        let session = try await Self.played("password-reset-in-app")
        let script = CurlScript(title: "password-reset-in-app", session: session, revealsSecrets: false).script
        #expect(script.hasPrefix("#!/bin/sh\n"))
        #expect(script.contains("\nset -eu\n"))
        let commands = script.split(separator: "\n").filter { $0.hasPrefix("curl ") || $0.hasPrefix("ANSWER=$(curl ") }
        #expect(session.exchanges.count >= 4)
        #expect(commands.count == session.exchanges.count)
        let comments = script.split(separator: "\n").filter { $0.hasPrefix("# ") && $0.dropFirst(2).first?.isNumber == true }.map(String.init)
        #expect(comments == session.exchanges.map { "# \($0.id). \($0.operation!.rawValue): HTTP \($0.status!)\($0.failure?.serverCode.map { " \($0.rawValue)" } ?? "")" })
        let shell = try ShimmedShell()
        defer { shell.remove() }
        let check = try shell.run(script, shellOptions: ["-n"])
        #expect(check.status == 0, "\(check.errors)")
    }

    @Test("each call goes to the emulator when FIREBASE_AUTH_EMULATOR_HOST is set, else to production, with the recorded body and headers")
    func callsAsRecorded() async throws {
        let shell = try ShimmedShell()
        defer { shell.remove() }
        // The second sends X-Firebase-Locale.
        for name in ["password-reset-in-app", "password-reset-in-hebrew"] {
            let session = try await Self.played(name)
            #expect(session.exchanges.contains { !$0.requestHeaders.isEmpty } == (name == "password-reset-in-hebrew"))
            try shell.answer(as: session)
            // Codes come from the emulator's listing; production's are in the mail, given by hand.
            var byHand: [String: String] = [:]
            for line in CurlScript(title: "t", session: session, revealsSecrets: true).script.split(separator: "\n") where line.contains("$(oob_code ") {
                let name = String(line.prefix { $0 != "=" })
                let code = try #require(session.sentMail.compactMap(\.oobCode).first { code in
                    session.exchanges.contains { $0.unmasked?.body.contains(code) == true }
                        && !byHand.values.contains(code)
                })
                byHand[name] = code
            }
            for reveal in [false, true] {
                let script = CurlScript(title: "t", session: session, revealsSecrets: reveal).script
                for host in ["127.0.0.1:9099", nil] {
                    let run = try shell.run(script, emulatorHost: host, variables: host == nil ? byHand : [:])
                    #expect(run.status == 0, "\(run.errors)")
                    let calls = try shell.takeCalls().map(CurlCall.init)
                    try #require(calls.count == session.exchanges.count)
                    for (call, record) in zip(calls, session.exchanges) {
                        let operation = try #require(record.operation)
                        let root = host.map { "http://\($0)/identitytoolkit.googleapis.com" } ?? "https://identitytoolkit.googleapis.com"
                        let sent = try #require(record.unmasked)
                        let key = reveal ? sent.apiKey! : SecretMasking.mask(sent.apiKey!)
                        #expect(call.url == root + "/v1/" + operation.rawValue + "?key=" + RESTTransportConfiguration.queryValue(apiKey: key))
                        #expect(call.values(of: "-X") == ["POST"])
                        // Masked, a carried token or code is still the one the answer gave: masked alike.
                        let body = try #require(call.body)
                        let shown = reveal ? body : SecretMasking.maskJSON(Data(body.utf8))
                        #expect(try jsonObject(shown) == jsonObject(reveal ? sent.body : record.requestBody), "exchange \(record.id)")
                        let headers = Set(call.values(of: "-H"))
                        #expect(headers.contains("Content-Type: application/json"))
                        for (header, value) in record.requestHeaders { #expect(headers.contains("\(header): \(value)")) }
                    }
                }
            }
        }
    }

    @Test("masked, the script holds no password, code, token or key as sent; revealed, it holds each")
    func maskedHoldsNoSecret() async throws {
        for name in ["password-reset-in-app", "email-link-sign-in", "verify-email-in-app"] {
            let session = try await Self.played(name)
            let secrets = try Self.secretsSent(session)
            #expect(secrets.count >= 3, "\(name)")
            let masked = CurlScript(title: name, session: session, revealsSecrets: false).script
            let revealed = CurlScript(title: name, session: session, revealsSecrets: true).script
            // A token or code an answer or an email gave is carried from there (the calls the
            // shim sees carry them exactly: callsAsRecorded), never written.
            var answered: Set<String> = []
            func collect(_ value: Any, key: String?) {
                switch value {
                case let dictionary as [String: Any]: for (name, member) in dictionary { collect(member, key: name) }
                case let array as [Any]: for element in array { collect(element, key: key) }
                case let text as String where key.map { SecretMasking.secretKeys.contains($0) && !SecretMasking.passwordKeys.contains($0) } == true: answered.insert(text)
                default: break
                }
            }
            for answer in session.exchanges.compactMap(\.unmasked?.response) { collect(try JSONSerialization.jsonObject(with: Data(answer.utf8)), key: nil) }
            let carried = secrets.intersection(answered.union(session.sentMail.compactMap(\.oobCode)))
            for secret in secrets {
                #expect(!masked.contains(secret), "\(name): \(secret) in clear")
                #expect(revealed.contains(secret) != carried.contains(secret), "\(name): \(secret) neither revealed nor carried")
            }
            #expect(masked.contains("--reveal-secrets"))
            // The same commands and variables: only the variables' values differ.
            let commands = { (script: String) in
                script.split(separator: "\n").filter { line in !line.hasPrefix("#") && !(line.first?.isUppercase == true && line.contains("=")) }
            }
            #expect(commands(masked) == commands(revealed))
        }
    }

    @Test("a repeated secret is one variable; two different ones are two, even masked alike")
    func variablesPerValue() throws {
        func record(_ id: Int, password: String, key: String) -> ExchangeRecord {
            ExchangeRecord(id: id, .signInWithPassword, request: SignInWithPasswordRequest(email: "bob@example.com", password: password), locale: nil, apiKey: key,
                           result: Result<SignInResponse, AuthFailure>.failure(.server(.invalidPassword, detail: nil)), startedAt: Date(timeIntervalSince1970: 0), duration: 0)
        }
        let script = CurlScript(title: "t", exchanges: [record(1, password: "first-secret", key: "key-one-abcdefgh"), record(2, password: "second-secret", key: "key-one-abcdefgh"), record(3, password: "first-secret", key: "key-one-abcdefgh")], exchangeCount: 3, revealsSecrets: false).script
        let definitions = script.split(separator: "\n").filter { $0.first?.isUppercase == true && $0.contains("=") }
        #expect(definitions == ["API_KEY_1='key-on%E2%80%A6(masked)'", "PASSWORD_1='…(masked)'", "PASSWORD_2='…(masked)'"])
        let bodies = script.split(separator: "\n").filter { $0.contains("--data-raw") }
        #expect(bodies.map { $0.contains("$PASSWORD_1") } == [true, false, true])
    }

    @Test("hostile values reach curl exactly as sent, and run nothing on the way")
    func hostileValuesRoundTrip() throws {
        let hostile = "it's $(touch pwned1) `touch pwned2` \"q\" \\ \n\t\u{7}\u{1B}[31m\u{7F}\u{85}\u{202E}é ${HOME}'"
        // A header field holds no control character (RFC 9110 section 5.5): the rest of it.
        let hostileField = "it's $(touch pwned3) `touch pwned4` \"q\" \\ é ${HOME}'"
        let request = SignInWithPasswordRequest(email: hostile, password: hostile)
        let record = ExchangeRecord(id: 1, .signInWithPassword, request: request, locale: hostileField, apiKey: hostile,
                                    result: Result<SignInResponse, AuthFailure>.failure(.server(.invalidPassword, detail: nil)), startedAt: Date(timeIntervalSince1970: 0), duration: 0)
        var bearer = record
        bearer.id = 2
        bearer.requestHeaders["Authorization"] = "Bearer " + hostileField
        var controls = record
        controls.id = 3
        controls.requestHeaders["X-Firebase-Locale"] = "fr\r\nX-Injected: 1"
        let shell = try ShimmedShell()
        defer { shell.remove() }
        let script = CurlScript(title: "title\nrm -rf / `id` $(id)", exchanges: [record, bearer, controls], exchangeCount: 3, revealsSecrets: true).script
        #expect(!script.contains("\nrm -rf"), "the title stays in its comment")
        #expect(try shell.run(script, shellOptions: ["-n"]).status == 0)
        let run = try shell.run(script, emulatorHost: "127.0.0.1:9")
        #expect(run.status == 0, "\(run.errors)")
        let calls = try shell.takeCalls().map(CurlCall.init)
        try #require(calls.count == 3)
        for call in calls {
            let body = try #require(call.body)
            let parsed = try jsonObject(body)
            #expect(parsed["password"] as? String == hostile)
            #expect(parsed["email"] as? String == hostile)
            #expect(call.url == "http://127.0.0.1:9/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=" + RESTTransportConfiguration.queryValue(apiKey: hostile))
            // The exact bytes: the body as JSON writes it, every member in order.
            let literal = JSONBody.literal(hostile)
            #expect(body == "{\"email\":\(literal),\"password\":\(literal),\"returnSecureToken\":true}")
        }
        #expect(calls[0].values(of: "-H").contains("X-Firebase-Locale: " + hostileField))
        #expect(calls[1].values(of: "-H").contains("Authorization: Bearer " + hostileField))
        #expect(calls[2].values(of: "-H").contains("X-Firebase-Locale: fr␍␊X-Injected: 1"))
        for marker in ["pwned1", "pwned2", "pwned3", "pwned4"] {
            #expect(!FileManager.default.fileExists(atPath: shell.folder.appendingPathComponent(marker).path), "\(marker) was run")
        }
        // Nothing in the file moves a terminal's cursor or reorders its text.
        #expect(!script.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x85 || $0.value == 0x07 })
    }

    @Test("a session without calls, and calls recorded before their secrets were kept")
    func noCallsAndOlderRecords() throws {
        let empty = CurlScript(title: "t", exchanges: [], exchangeCount: 0, revealsSecrets: false).script
        #expect(empty.contains("# No backend call was made."))
        var old = ExchangeRecord(id: 7, .sendOobCode, request: SendOobCodeRequest(requestType: .passwordReset, email: "bob@example.com"), locale: "fr", apiKey: "fake-api-key-demo",
                                 result: Result<SendOobCodeResponse, AuthFailure>.success(SendOobCodeResponse(email: "bob@example.com")), startedAt: Date(timeIntervalSince1970: 0), duration: 0)
        old.unmasked = nil
        let script = CurlScript(title: "t", exchanges: [old], exchangeCount: 60, revealsSecrets: true).script
        #expect(script.contains("# The session made 60 calls: only the latest 1 are recorded."))
        #expect(script.contains("this session file does not keep the values sent"), "no record keeps them: --reveal-secrets has nothing to reveal")
        #expect(script.contains("API_KEY_1='fake-a%E2%80%A6(masked)'"))
        #expect(script.contains("# 7. accounts:sendOobCode: HTTP 200"))
    }
}
