import Foundation
import TestSupport
import Testing

/// `import --compare` hands over to actionflow-serve, which answers each captured request with
/// serve's own API: the real programs, as a user runs them.
@Suite("import --compare", .onDedicatedThread)
struct ImportCompareEndToEndTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ActionFlowCommandTests/Fixtures/Captures")

    /// A captured exchange: a POST with a JSON body, or a GET when `request` is nil.
    static func entry(_ url: String, _ request: String?, status: Int, _ response: String) -> [String: Any] {
        [
            "startedDateTime": "2026-11-27T08:00:00.000Z", "time": 1,
            "request": ["method": request == nil ? "GET" : "POST", "url": url, "headers": [["name": "Content-Type", "value": "application/json"]],
                        "postData": ["mimeType": "application/json", "text": request ?? ""]] as [String: Any],
            "response": ["status": status, "headers": [] as [Any], "content": ["mimeType": "application/json", "text": response]] as [String: Any],
        ]
    }

    /// An emulator's reset link carrying `code`.
    static func link(_ code: String) -> String {
        "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=\(code)&apiKey=fake-api-key"
    }

    func comparison(_ capture: String) throws -> (behaviour: String?, rows: [[String: Any]]) {
        try comparison(at: Self.captures.appendingPathComponent(capture))
    }

    func comparison(at capture: URL) throws -> (behaviour: String?, rows: [[String: Any]]) {
        let result = try Spawn.run(BuiltBinary.url.path, ["import", capture.path, "--compare", "--json"], capture: true)
        #expect(result.status == 0, "\(result.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["operations"] != nil, "the import's own report stays")
        let comparison = try #require(object["comparison"] as? [String: Any])
        return (comparison["behaviour"] as? String, try #require(comparison["rows"] as? [[String: Any]]))
    }

    @Test("a capture of serve as the Auth Emulator is answered alike by serve's emulator behaviour, request by request")
    func emulatorCaptureMatches() throws {
        let (behaviour, rows) = try comparison("serve-emulator.har")
        #expect(behaviour == "emulator", "an emulator's capture is compared with the emulator's answers")
        #expect(rows.count == 9)
        #expect(rows.allSatisfy { $0["differs"] as? Bool == false }, "\(rows)")
        let unknown = try #require(rows.first { ($0["captured"] as? [String: Any])?["error"] as? String == "EMAIL_NOT_FOUND" })
        #expect((unknown["simulated"] as? [String: Any])?["error"] as? String == "EMAIL_NOT_FOUND")
        // The REST transport's story restarted the project with its users (PUT config): sent
        // again, so bob's wrong password and his reset code are answered as they were.
        #expect(rows.suffix(3).map { $0["operation"] as? String } == ["signInWithPassword", "sendOobCode", "resetPassword"])
        #expect((rows[6]["simulated"] as? [String: Any])?["error"] as? String == "INVALID_PASSWORD")
        let result = try Spawn.run(BuiltBinary.url.path, ["import", Self.captures.appendingPathComponent("serve-emulator.har").path, "--compare"], capture: true)
        #expect(result.output.contains("entry 14 PUT /emulator/v1/projects/demo-actionflow/config: captured 200, simulated 200"), "\(result.output)")
        // The link the capture opened is sent again too, its code standing for the simulated one.
        #expect(result.output.contains("entry 11 GET /emulator/action: captured 400, simulated 400"), "\(result.output)")
    }

    @Test("a production capture: each difference is listed, with what explains it where it can be told")
    func productionCaptureDiffers() throws {
        let (behaviour, rows) = try comparison("production-hand-written.har")
        #expect(behaviour == "production")
        let refresh = try #require(rows.first { $0["operation"] as? String == "token" })
        #expect(refresh["differs"] as? Bool == true)
        #expect((refresh["captured"] as? [String: Any])?["status"] as? Int == 200)
        #expect((refresh["simulated"] as? [String: Any])?["error"] as? String == "INVALID_REFRESH_TOKEN")
        #expect(refresh["note"] as? String == "the token came from a sign-in the capture does not hold")
        // The form's fields are text (requestType=1, canHandleCodeInApp=true), read as the web
        // app sent them: the answer differs only where the project does, on the link domain.
        let form = try #require(rows.first { ($0["captured"] as? [String: Any])?["status"] as? Int == 200 && $0["operation"] as? String == "sendOobCode" })
        #expect((form["simulated"] as? [String: Any])?["error"] as? String == "INVALID_HOSTING_LINK_DOMAIN", "\(form)")
        let text = try Spawn.run(BuiltBinary.url.path, ["import", Self.captures.appendingPathComponent("production-hand-written.har").path, "--compare"], capture: true)
        #expect(text.output.contains("Compared with the simulated project as production answers (serve --as production)"))
        #expect(!text.output.contains("\u{1B}"), "hostile text from the capture stays inert")
    }

    @Test("a captured code stands for the one the simulated project sent to the same address, not merely the newest of its kind")
    func codesFollowTheirAddress() throws {
        let v1 = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts"
        let entries = [
            Self.entry("\(v1):signUp?key=k", #"{"email":"ann@example.com","password":"first-pass-1"}"#, status: 200, #"{"localId":"a"}"#),
            Self.entry("\(v1):signUp?key=k", #"{"email":"ben@example.com","password":"first-pass-2"}"#, status: 200, #"{"localId":"b"}"#),
            Self.entry("\(v1):sendOobCode?key=k", #"{"requestType":"PASSWORD_RESET","email":"ann@example.com"}"#, status: 200, #"{"email":"ann@example.com"}"#),
            Self.entry("\(v1):sendOobCode?key=k", #"{"requestType":"PASSWORD_RESET","email":"ben@example.com"}"#, status: 200, #"{"email":"ben@example.com"}"#),
            Self.entry("http://127.0.0.1:9099/emulator/v1/projects/demo-actionflow/oobCodes", nil, status: 200,
                  #"{"oobCodes":[{"email":"ann@example.com","oobCode":"CODE-ANN","oobLink":"\#(Self.link("CODE-ANN"))","requestType":"PASSWORD_RESET"},"#
                  + #"{"email":"ben@example.com","oobCode":"CODE-BEN","oobLink":"\#(Self.link("CODE-BEN"))","requestType":"PASSWORD_RESET"}]}"#),
            Self.entry("\(v1):resetPassword?key=k", #"{"oobCode":"CODE-ANN","newPassword":"second-pass-1"}"#, status: 200, #"{"email":"ann@example.com"}"#),
            Self.entry("\(v1):signInWithPassword?key=k", #"{"email":"ann@example.com","password":"second-pass-1"}"#, status: 200, #"{"localId":"a"}"#),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-compare-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": entries]]).write(to: file)
        let (behaviour, rows) = try comparison(at: file)
        #expect(behaviour == "emulator")
        #expect(rows.count == 6)
        // Ann's code was spent on Ann's password: her new password signs her in, as it did.
        #expect(rows.allSatisfy { $0["differs"] as? Bool == false }, "\(rows)")
    }

    @Test("a code the captured server never issued stays one the simulated project never issued; an older code keeps its own counterpart")
    func madeUpCodesStayMadeUp() throws {
        let v1 = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts"
        let invalid = #"{"error":{"code":400,"message":"INVALID_OOB_CODE"}}"#
        let entries = [
            Self.entry("\(v1):signUp?key=k", #"{"email":"ann@example.com","password":"first-pass-1"}"#, status: 200, #"{"localId":"a"}"#),
            Self.entry("\(v1):sendOobCode?key=k", #"{"requestType":"PASSWORD_RESET","email":"ann@example.com"}"#, status: 200, #"{"email":"ann@example.com"}"#),
            Self.entry("\(v1):sendOobCode?key=k", #"{"requestType":"PASSWORD_RESET","email":"ann@example.com"}"#, status: 200, #"{"email":"ann@example.com"}"#),
            Self.entry("http://127.0.0.1:9099/emulator/v1/projects/demo-actionflow/oobCodes", nil, status: 200,
                  #"{"oobCodes":[{"email":"ann@example.com","oobCode":"CODE-OLD","oobLink":"\#(Self.link("CODE-OLD"))","requestType":"PASSWORD_RESET"},"#
                  + #"{"email":"ann@example.com","oobCode":"CODE-NEW","oobLink":"\#(Self.link("CODE-NEW"))","requestType":"PASSWORD_RESET"}]}"#),
            // The app sends a code nobody issued: refused, as the simulated project refuses it too.
            Self.entry("\(v1):resetPassword?key=k", #"{"oobCode":"MADE-UP-CODE","newPassword":"second-pass-1"}"#, status: 400, invalid),
            Self.entry("\(v1):signInWithPassword?key=k", #"{"email":"ann@example.com","password":"first-pass-1"}"#, status: 200, #"{"localId":"a"}"#),
            // Then the older of the two real codes: the emulator still takes it.
            Self.entry("\(v1):resetPassword?key=k", #"{"oobCode":"CODE-OLD","newPassword":"third-pass-1"}"#, status: 200, #"{"email":"ann@example.com"}"#),
            Self.entry("\(v1):signInWithPassword?key=k", #"{"email":"ann@example.com","password":"third-pass-1"}"#, status: 200, #"{"localId":"a"}"#),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-compare-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": entries]]).write(to: file)
        let (_, rows) = try comparison(at: file)
        #expect(rows.count == 7)
        #expect(rows.allSatisfy { $0["differs"] as? Bool == false }, "no difference is invented: \(rows)")
        #expect(rows.allSatisfy { $0["differs"] as? Bool != true || $0["note"] as? String != nil }, "every difference says why")
    }
}
