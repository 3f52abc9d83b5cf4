import ActionFlowBackend
@testable import ActionFlowClient
@testable import ActionFlowCommands
import ActionFlowServeCommands
import ActionFlowModel
import ActionFlowTUI
import Foundation
import Testing
import TestSupport

/// Every claim backed by its evidence: each shipped scenario and each capture of the corpus is
/// turned into its outputs (the review report, its security review), and no two of them may
/// disagree, nor may a sentence deny what the flow holds.
@Suite("Every output of every scenario and capture agrees with the evidence")
struct EvidenceConsistencyTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Captures")
    /// Every capture of the fixtures but the broken ones: real traffic of real clients against
    /// serve (record-*.sh, record-flow-captures.py) and one hand-written production capture.
    static let corpus: [String] = {
        let broken: Set<String> = ["cut-short.har", "entry-without-request.har", "not-json.har"]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: captures.path)) ?? []
        return names.filter { $0.hasSuffix(".har") && !broken.contains($0) }.sorted()
    }()
    /// The captures of serve's own traffic: compared with serve, nothing may differ.
    static let servedCorpus = corpus.filter { $0.hasPrefix("serve-") || $0.hasPrefix("flow-") }

    /// What the flow holds, worked out from the session itself, not from any output.
    struct Held {
        var acceptedSends: Int
        var sentTypes: Set<OobRequestType>
        var codes: Int
        var links: Int
        /// Links a capture shows requested by GET.
        var opened = 0
        /// A captured call or form that set a password or changed the address, answered 2xx.
        var credentialChanged = false

        init(_ session: Session) {
            var accepted = session.sentMail.count
            var types = Set(session.sentMail.map(\.requestType))
            var links = session.sentMail.count
            var codes = session.sentMail.filter { $0.oobCode != nil }.count
            var changeCodes: Set<String> = []
            for entry in session.journal {
                switch entry.fact {
                case .captured(.call(let call)) where call.operation == "sendOobCode" && (200..<300).contains(call.status):
                    accepted += 1
                    if let type = call.requestType.flatMap(OobRequestType.init(rawValue:)) { types.insert(type) }
                case .captured(.call(let call)) where (200..<300).contains(call.status):
                    if call.operation == "resetPassword", call.setsPassword { credentialChanged = true }
                    if call.operation == "mfaEnrollment:finalize" { credentialChanged = true }
                    if call.operation == "update", let code = call.oobCodeFingerprint, changeCodes.contains(code) { credentialChanged = true }
                case .captured(.actionLink(let link)):
                    if link.source == .opened { opened += 1 }
                    if link.source == .formSent, link.mode == "resetPassword" { credentialChanged = true }
                    links += 1
                    if ["verifyAndChangeEmail", "recoverEmail"].contains(link.mode),
                       let code = (try? LinkInspector.inspect(link.link, authorizedDomains: []))?.oobCode {
                        changeCodes.insert(SecretMasking.fingerprint(code))
                    }
                    if (try? LinkInspector.inspect(link.link, authorizedDomains: []))?.oobCode != nil { codes += 1 }
                default: break
                }
            }
            acceptedSends = accepted
            sentTypes = types
            self.codes = codes
            self.links = links
        }
    }

    /// The sentences of the outputs that deny what the flow holds.
    static func contradictions(_ name: String, _ session: Session) -> [String] {
        let held = Held(session)
        let report = ReviewReport(title: name, session: session).markdown
        let checks = Dictionary(uniqueKeysWithValues: SecurityReview(session).checks.map { ($0.id, $0) })
        var found: [String] = []
        func deny(_ claim: Bool, _ text: String) { if claim { found.append("\(name): \(text)") } }
        deny(held.acceptedSends > 0 && report.contains("No email was sent."), "the report says no email was sent, but \(held.acceptedSends) sends were accepted")
        deny(held.codes > 0 && checks["6.5.4"]?.evidence == "No code was seen.", "6.5.4 says no code was seen, but the flow holds \(held.codes) links with a code")
        for id in ["6.5.5", "6.6.2"] {
            deny(held.acceptedSends + held.codes > 0 && checks[id]?.evidence == "No email action code was sent.", "\(id) says no code was sent, but the flow holds sends or codes")
        }
        deny(held.links > 0 && checks["14.2.1"]?.verdict == .notApplicable, "14.2.1 is not applicable, but the flow holds \(held.links) links")
        deny(held.codes == 0 && checks["6.5.1"]?.verdict == .notMet, "6.5.1 says a code was accepted twice, but the flow holds no code")
        deny(held.sentTypes.contains(.emailSignIn) && checks["6.3.6"]?.verdict == .notApplicable, "6.3.6 is not applicable, but an EMAIL_SIGNIN was sent")
        deny(held.links > 0 && report.contains("No link was opened or sent."), "the report says no link was opened or sent, but the flow holds \(held.links)")
        deny(held.opened > 0 && checks["3.5.3"]?.evidence == "No link was opened in this flow.", "3.5.3 says no link was opened, but the capture shows \(held.opened) opened")
        deny(held.credentialChanged && checks["6.3.7"]?.verdict == .notApplicable, "6.3.7 is not applicable, but a password was set, the address changed or a second factor was added")
        // Where each device ended is said in words: no state or screen name of the code.
        for line in report.split(separator: "\n") where ["- Device:", "- Screen:", "- Flow:"].contains(where: { line.trimmingCharacters(in: .whitespaces).hasPrefix($0) }) {
            let code = line.split(whereSeparator: { !$0.isLetter }).filter { word in
                word.first?.isLowercase == true && word.contains(where: \.isUppercase) && !["iPhone", "iOS", "iPad", "macOS"].contains(String(word))
            }
            deny(!code.isEmpty, "the report's outcome says \(code) in \"\(line)\"")
        }
        return found
    }

    @Test("every shipped scenario, played on the embedded project")
    func scenarios() async throws {
        var found: [String] = []
        for file in ScenarioLibrary.shippedFiles() + ScenarioLibrary.storyFiles() {
            let scenario = try ScenarioParser.load(contentsOf: file)
            let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
            let session = try #require(transcript.recording?.current)
            found += Self.contradictions(scenario.name, session)
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the corpus holds at least 12 captures, of both behaviours and every email action")
    func corpusCoverage() throws {
        #expect(Self.corpus.count >= 12, "\(Self.corpus)")
        let project = try ProjectConfigLoader.loadDefault()
        var types: Set<String> = []
        var behaviours: Set<String> = []
        for name in Self.servedCorpus {
            let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent(name)), project: project)
            types.formUnion(flow.operations.compactMap(\.requestType))
            types.formUnion(flow.actionLinks.compactMap(\.anatomy.mode))
            behaviours.insert(CaptureComparison.behaviour(of: flow).rawValue)
        }
        for action in ["PASSWORD_RESET", "VERIFY_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "recoverEmail", "revertSecondFactorAddition"] {
            #expect(types.contains(action), "no capture of \(action)")
        }
        #expect(behaviours == ["emulator", "production"])
    }

    @Test("a capture of serve, compared with serve, differs nowhere", arguments: servedCorpus)
    func comparisonOfServe(_ name: String) async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent(name)), project: project)
        let comparison = await CaptureComparison.compare(flow, project: project)
        #expect(comparison.rows.allSatisfy { !$0.differs }, "\(comparison.text)")
        #expect(comparison.emulatorRequests.allSatisfy { $0.captured == $0.simulated }, "\(comparison.text)")
    }

    @Test("every difference of every capture's comparison says why", arguments: corpus)
    func comparisonNotes(_ name: String) async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent(name)), project: project)
        let comparison = await CaptureComparison.compare(flow, project: project)
        for row in comparison.rows where row.differs {
            #expect(row.note != nil && row.note?.contains("does not show why") == false, "\(name): \(comparison.text)")
        }
    }

    @Test("the narration ties every spent code to its link, and no link's code is said unused when a call carried it", arguments: corpus)
    func codesTiedToLinks(_ name: String) throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent(name)), project: project)
        let lines = flow.narration(source: name).split(separator: "\n").map(String.init)
        for (index, link) in flow.actionLinks.enumerated() {
            guard let code = link.anatomy.oobCode, flow.operations.contains(where: { $0.oobCode == code }) else { continue }
            let start = try #require(lines.firstIndex { $0.hasPrefix(String(format: "%4d  ", index + 1)) && $0.contains(" link, ") })
            let block = lines[start...].prefix(6).joined(separator: "\n")
            #expect(!block.contains("carried by no captured call"), "\(name): \(block)")
        }
        for operation in flow.operations where operation.oobCode != nil {
            let linked = flow.actionLinks.contains { $0.anatomy.oobCode == operation.oobCode }
            #expect(lines.contains { $0.contains(linked ? "its code is link " : "its code is in no link this capture holds") }, "\(name)")
        }
    }

    @Test("every capture of the corpus, imported", arguments: corpus)
    func capture(_ name: String) throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(try Data(contentsOf: Self.captures.appendingPathComponent(name)), project: project)
        let session = flow.recording(project: project, source: name).current
        let found = Self.contradictions(name, session)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// A production capture as issue 37 saw it: three sends answered 200 with no link in the
    /// answer (production returns none), the hosted page opened by GET, and lookups around it.
    static func productionCapture() -> Data {
        let code = "Zq8vH2kLm4Pz7RtYwB3nC9dF1gJ5xQ0aS6eU8iO2pL4kJ7hG3fD1sA"
        func post(_ method: String, _ body: String, _ answer: String, _ second: Int) -> [String: Any] {
            ["startedDateTime": "2026-11-27T10:00:\(second < 10 ? "0" : "")\(second).000Z",
             "request": ["method": "POST", "url": "https://identitytoolkit.googleapis.com/v1/accounts:\(method)?key=AIzaTest",
                         "headers": [["name": "Content-Type", "value": "application/json"]], "postData": ["mimeType": "application/json", "text": body]],
             "response": ["status": 200, "headers": [], "content": ["mimeType": "application/json", "text": answer]]]
        }
        let lookup = #"{"idToken":"eyJhbGciOiJub25lIn0.e30."}"#
        let entries: [[String: Any]] = [
            post("lookup", lookup, #"{"users":[{"email":"ann@shop.example","emailVerified":false}]}"#, 1),
            post("sendOobCode", #"{"requestType":"VERIFY_EMAIL","idToken":"eyJhbGciOiJub25lIn0.e30.","continueUrl":"https://shop.acme.com/account"}"#, #"{"email":"ann@shop.example"}"#, 2),
            post("sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"ann@shop.example","continueUrl":"https://shop.acme.com/login"}"#, #"{"email":"ann@shop.example"}"#, 3),
            post("sendOobCode", #"{"requestType":"EMAIL_SIGNIN","email":"ann@shop.example","continueUrl":"https://shop.acme.com/finish","canHandleCodeInApp":true}"#, #"{"email":"ann@shop.example"}"#, 4),
            ["startedDateTime": "2026-11-27T10:00:05.000Z",
             "request": ["method": "GET", "url": "https://shop-acme.firebaseapp.com/__/auth/action?mode=verifyEmail&oobCode=\(code)&apiKey=AIzaTest&lang=en", "headers": []],
             "response": ["status": 200, "headers": [], "content": ["mimeType": "text/html", "text": "<html></html>"]]],
            post("lookup", lookup, #"{"users":[{"email":"ann@shop.example","emailVerified":true}]}"#, 6),
        ]
        return try! JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]])
    }

    @Test("a production capture: what it shows is said, what it cannot show is said so")
    func production() throws {
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(Self.productionCapture(), project: project)
        let session = flow.recording(project: project, source: "shop.har").current
        #expect(Self.contradictions("shop.har", session).isEmpty, "\(Self.contradictions("shop.har", session))")
        let checks = Dictionary(uniqueKeysWithValues: SecurityReview(session).checks.map { ($0.id, $0) })
        #expect(checks["6.5.5"]?.verdict == .notShown)
        #expect(checks["6.5.5"]?.evidence.contains("the captured project's setting, which the capture does not show") == true)
        #expect(checks["6.5.4"]?.verdict == .met, "the opened link's code was seen")
        #expect(checks["14.2.1"]?.verdict == .notMet)
        #expect(checks["3.4.5"]?.verdict == .notShown)
        #expect(checks["3.5.3"]?.verdict == .notMet, "\(checks["3.5.3"]?.evidence ?? "")")
        #expect(checks["3.5.3"]?.evidence.contains("emailVerified true") == true)
        #expect(checks["6.3.6"]?.verdict == .notMet, "an EMAIL_SIGNIN was sent")
        // No captured request changed a credential: nothing to be told about.
        #expect(checks["6.3.7"]?.verdict == .notApplicable)
        let report = ReviewReport(title: "shop.har", session: session).markdown
        #expect(report.contains("The captured server accepted 3 requests for an email"), "\(report)")
        #expect(!report.contains("No email was sent."))
        // Judged as its own project: named from its hosted page, never the bundled demo's.
        #expect(SequenceDiagram.label(of: .auth, in: session) == "Firebase Auth (captured project shop-acme)")
        #expect(checks["3.7.2"]?.verdict == .notShown)
        #expect(checks["3.7.2"]?.evidence.contains("demo-actionflow") == false)
        // The lookups say what they answered.
        #expect(flow.narration(source: "shop.har").contains("lookup: 200, ann@shop.example, email verified"))
    }

    @Test("a production capture is judged against its own project: the authorized domains its getProjectConfig answered, never the bundled demo's")
    func judgedAgainstItsOwnProject() throws {
        let code = "Zq8vH2kLm4Pz7RtYwB3nC9dF1gJ5xQ0aS6eU8iO2pL4kJ7hG3fD1sA"
        func get(_ url: String, _ answer: String, _ second: Int) -> [String: Any] {
            ["startedDateTime": "2026-11-27T10:00:0\(second).000Z", "request": ["method": "GET", "url": url, "headers": []],
             "response": ["status": 200, "headers": [], "content": ["mimeType": "application/json", "text": answer]]]
        }
        let send: [String: Any] = [
            "startedDateTime": "2026-11-27T10:00:02.000Z",
            "request": ["method": "POST", "url": "https://identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=AIzaTest",
                        "headers": [["name": "Content-Type", "value": "application/json"]],
                        "postData": ["mimeType": "application/json", "text": #"{"requestType":"PASSWORD_RESET","email":"ann@shop.example","continueUrl":"https://shop.acme.com/login"}"#]],
            "response": ["status": 200, "headers": [], "content": ["mimeType": "application/json", "text": #"{"email":"ann@shop.example"}"#]]]
        let page = "https://shop-acme.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=\(code)&apiKey=AIzaTest&continueUrl="
        let entries: [[String: Any]] = [
            get("https://identitytoolkit.googleapis.com/v1/projects?key=AIzaTest", #"{"projectId":"1234","authorizedDomains":["shop-acme.firebaseapp.com","accounts.acme.com"]}"#, 1),
            send,
            get(page + "https%3A%2F%2Faccounts.acme.com%2Fdone", "<html></html>", 3),
            get(page.replacingOccurrences(of: "Zq8vH2", with: "Yq8vH2") + "https%3A%2F%2Fevil.example%2Fx", "<html></html>", 4),
        ]
        let data = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]])
        let project = try ProjectConfigLoader.loadDefault()
        let flow = try CapturedFlow.read(data, project: project)
        let narration = flow.narration(source: "acme.har")
        #expect(narration.contains("judged against the captured project's authorized domains (its getProjectConfig answer, entry 1): shop-acme.firebaseapp.com, accounts.acme.com; and continue URL hosts its server accepted in a send (shop.acme.com)"), "\(narration)")
        let unauthorized = flow.findings.filter { $0.finding.code == "continue-url.unauthorized" }.map(\.subject)
        #expect(unauthorized == ["actionLinks[1]"], "only the evil.example link: \(narration)")
        #expect(flow.actionLinks.map(\.anatomy.continueUrlAuthorized) == [true, false])
        // The session, its report and review, hold the capture to the same domains.
        let session = flow.recording(project: project, source: "acme.har").current
        #expect(session.project.authorizedDomains.contains("accounts.acme.com") && !session.project.authorizedDomains.contains("www.example.com"))
        #expect(Self.contradictions("acme.har", session).isEmpty)
    }

    @Test("a capture's status line says what its traffic shows of a sign-in, never the simulated app's 'signed out'")
    func statusLineOfACapture() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var ui = UIState(colorMode: .full256)
        ui.mode = .main
        func status(_ data: Data) throws -> String {
            let session = try CapturedFlow.read(data, project: project).recording(project: project, source: "c.har").current
            let rows = MainView.render(session: session, ui: ui, transport: "capture", width: 120, height: 30).text.split(separator: "\n")
            return String(rows[rows.count - 2])
        }
        let signedIn = try status(HARFixture.calls([("signInWithPassword", #"{"email":"a@example.com","password":"pw-123456"}"#, 200, #"{"email":"a@example.com","idToken":"x"}"#)]))
        #expect(signedIn.contains("signed in as a@example.com (captured)"), "\(signedIn)")
        let none = try status(Self.productionCapture())
        #expect(none.contains("no sign-in captured") && !none.contains("signed out"), "\(none)")
    }

    @Test("a captured reset: 6.3.7 is not shown by a capture, never judged by the mail it cannot hold")
    func resetNotification() throws {
        let project = try ProjectConfigLoader.loadDefault()
        let data = HARFixture.calls([
            ("sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"a@example.com"}"#, 200, #"{"email":"a@example.com"}"#),
            ("resetPassword", #"{"oobCode":"code-1code-1code-1","newPassword":"first-password-1"}"#, 200, #"{"email":"a@example.com"}"#),
        ])
        let session = try CapturedFlow.read(data, project: project).recording(project: project, source: "reset.har").current
        let check = try #require(SecurityReview(session).checks.first { $0.id == "6.3.7" })
        #expect(check.verdict == .notShown)
        #expect(check.evidence.contains("not shown by a capture"))
    }
}
