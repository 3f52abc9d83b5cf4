import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import Foundation
import Testing

/// Plays a shipped scenario on the default project and returns the session where it ended.
func shippedSession(_ name: String) async throws -> Session {
    let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(name))
    let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
    #expect(transcript.passed, "\(transcript.text())")
    return try #require(transcript.finalSession)
}

/// What a session's journal says the diagram must show: a request per call, a reply per
/// exchange, a mail per email sent, an alt per route, the scanner when it acted.
struct JournalTally {
    var calls = 0, replies = 0, mails = 0, routes = 0
    var scannerActed = false

    init(_ session: Session) {
        for entry in session.journal {
            switch entry.fact {
            case .request(_, let caller, _):
                calls += 1
                scannerActed = scannerActed || caller == .mailScanner
            case .exchange: replies += 1
            case .mailSent: mails += 1
            // A remote world's mail is seen when the mailbox lists it.
            case .mailboxListed(let new, _) where !session.isEmbedded: mails += new
            case .routed: routes += 1
            case .scanner: scannerActed = true
            default: break
            }
        }
    }
}

@Suite struct MermaidTextTests {
    @Test("Mermaid's syntax characters become entity codes")
    func syntaxCharacters() {
        #expect(MermaidText.escape("a;b") == "a#59;b")
        #expect(MermaidText.escape("#1") == "#35;1")
        #expect(MermaidText.escape(#"say "hi""#) == "say #quot;hi#quot;")
        #expect(MermaidText.escape("<br/>") == "#lt;br/#gt;")
        #expect(MermaidText.escape("a&b `c`") == "a#amp;b #96;c#96;")
        #expect(MermaidText.escape("#59;") == "#35;59#59;", "an entity in the text is shown, not decoded")
    }

    @Test("only a doubled percent sign is escaped: percent-encoded links stay readable")
    func percentSigns() {
        #expect(MermaidText.escape("https%3A%2F%2Fx") == "https%3A%2F%2Fx")
        #expect(MermaidText.escape("%%{init}%%") == "#37;#37;{init}#37;#37;")
        #expect(MermaidText.escape("100%") == "100%")
    }

    @Test("line breaks, controls and bidi characters are sanitized: one label stays one line")
    func controls() {
        let escaped = MermaidText.escape("a\nend\r\nb\u{1B}[31m\u{202E}c\u{0}")
        #expect(!escaped.contains("\n") && !escaped.contains("\r") && !escaped.contains("\u{1B}") && !escaped.contains("\u{202E}"))
        #expect(escaped == "a␊end␍␊b␛[31m\u{FFFD}c␀")
    }

    @Test("plain text is left as it is")
    func plain() {
        #expect(MermaidText.escape("open /articles/42: at /account") == "open /articles/42: at /account")
        #expect(MermaidText.escape(lines: ["a;", "b"]) == "a#59;<br/>b")
    }
}

@Suite struct SequenceDiagramTests {
    @Test("a web-widget reset: one arrow per call and per reply, the mail, the route in alt/end, the continue URL's path")
    func webWidgetReset() async throws {
        let session = try await shippedSession("password-reset-web-widget")
        let diagram = SequenceDiagram(session)
        #expect(diagram.lifelines.map(\.participant) == [.user, .app, .auth, .mailbox, .webWidget])
        #expect(diagram.lifelines[1].label == "App on iOS 18")
        #expect(diagram.lifelines[2].label == "Firebase Auth (demo-actionflow)")

        let tally = JournalTally(session)
        #expect(diagram.messages.filter { $0.to == .auth }.count == tally.calls)
        #expect(diagram.messages.filter { $0.from == .auth && $0.kind == .reply }.count == tally.replies)
        #expect(diagram.messages.filter { $0.from == .auth && $0.to == .mailbox }.count == tally.mails)
        #expect(diagram.items.filter { $0 == .routeEnds }.count == tally.routes)
        #expect(diagram.items.filter { if case .routeBegins = $0 { true } else { false } }.count == tally.routes)

        let send = try #require(diagram.messages.first { $0.text.hasPrefix("accounts:sendOobCode") })
        #expect(send.from == .app && send.kind == .request)
        #expect(send.text.contains("continueUrl https://www.example.com/articles/42"))
        #expect(send.text.contains("canHandleCodeInApp false"))
        #expect(send.text.contains("iOSBundleId com.example.ios"))
        #expect(diagram.messages.contains { $0.from == .webWidget && $0.text.contains("newPassword …(masked)") })
        #expect(diagram.messages.contains { $0.from == .user && $0.to == .app && $0.text == "press Continue on the web widget" })

        let noteLines = diagram.notes.flatMap(\.lines)
        for case .routed(_, let route) in session.journal.map(\.fact) {
            for assumption in route.assumptions {
                #expect(noteLines.contains(JournalText.clean(assumption)), "every assumption is a note")
            }
        }
        #expect(noteLines.first { $0.hasPrefix("continueUrl https://www.example.com/articles/42") } != nil, "where the continue URL starts")
        #expect(noteLines.last == "passwordReset complete: resumed at /articles/42 from continueUrl https://www.example.com/articles/42")

        let text = diagram.mermaid
        #expect(text.hasPrefix("sequenceDiagram\n    participant User as User\n"))
        #expect(text.contains("\n    App->>Auth: accounts:sendOobCode PASSWORD_RESET"))
        #expect(text.contains("\n    Auth-->>App: 200 accounts:sendOobCode: email bob@example.com\n"))
        #expect(text.contains("\n    alt the link opens in: web widget\n        User->>Widget: tap the link in the email\n"))
        for message in session.sentMail {
            #expect(!text.contains(try #require(message.oobCode)))
        }
        #expect(!text.contains(session.project.apiKey) && !text.contains("correct-horse-battery"))
    }

    @Test("a reply arrow names the reply's telling fields, the first listed user's too, secrets masked")
    func replyFields() {
        let lookup = #"{"kind":"x","users":[{"email":"bob@example.com","emailVerified":true,"localId":"u1"},{"email":"eve@example.com"}]}"#
        #expect(SequenceDiagramBuilder.replyFields(lookup) == ["email bob@example.com", "emailVerified true"])
        let reset = #"{"email":"bob@example.com","requestType":"PASSWORD_RESET","users":[{"email":"other@example.com"}]}"#
        #expect(SequenceDiagramBuilder.replyFields(reset) == ["email bob@example.com", "requestType PASSWORD_RESET"])
        let signIn = #"{"idToken":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSJ9.","emailVerified":false}"#
        #expect(SequenceDiagramBuilder.replyFields(signIn) == ["emailVerified false", "idToken \(SecretMasking.mask("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSJ9.", named: "idToken"))"])
        for notAnObject in ["[]", "\"email\"", "not json", ""] {
            #expect(SequenceDiagramBuilder.replyFields(notAnObject).isEmpty, "\(notAnObject)")
        }
    }

    @Test("the mail scanner gets a lifeline only when it acted")
    func scannerLifeline() async throws {
        let scanned = SequenceDiagram(try await shippedSession("mail-scanner-consumes-code"))
        #expect(scanned.lifelines.last?.participant == .scanner)
        #expect(scanned.messages.contains { $0.from == .scanner && $0.to == .auth })
        let plain = SequenceDiagram(try await shippedSession("password-reset-in-app"))
        #expect(!plain.lifelines.contains { $0.participant == .scanner })
    }

    @Test("every shipped scenario's and story's diagram declares only the participants that send or receive an arrow or carry a note",
          arguments: ScenarioLibrary.shippedFiles() + ScenarioLibrary.storyFiles())
    func onlyActingParticipants(_ file: URL) async throws {
        let transcript = await ScenarioLibrary.runEmbedded(try ScenarioParser.load(contentsOf: file), baseProject: try ProjectConfigLoader.loadDefault())
        let diagram = SequenceDiagram(try #require(transcript.finalSession))
        var acting: Set<SequenceDiagram.Participant> = []
        for message in diagram.messages { acting.formUnion([message.from, message.to]) }
        for note in diagram.notes { acting.formUnion(note.over) }
        #expect(Set(diagram.lifelines.map(\.participant)) == acting, "\(file.lastPathComponent)")
        let declared = diagram.mermaid.split(separator: "\n").filter { $0.hasPrefix("    participant ") }
        #expect(declared.count == acting.count, "\(file.lastPathComponent): \(declared)")
    }

    @Test("a store visit and the app it installs", arguments: ["android-app-missing-install", "android-app-too-old"])
    func store(_ name: String) async throws {
        let diagram = SequenceDiagram(try await shippedSession(name))
        #expect(diagram.lifelines.first { $0.participant == .store }?.label == "Play Store")
        #expect(diagram.items.contains(.routeBegins("the link opens in: \(name.hasSuffix("install") ? "Play Store (install)" : "Play Store (upgrade)"), then app")))
        #expect(diagram.messages.contains { $0.from == .store && $0.to == .app })
    }

    @Test("hostile text stays inside its label: every line of the diagram is one statement", arguments: HostileSession.texts)
    func hostile(_ text: String) {
        let session = HostileSession.session(text)
        let diagram = SequenceDiagram(session)
        let lines = diagram.mermaid.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 + diagram.lifelines.count + diagram.items.count)
        for line in lines {
            let withoutEntities = line.replacingOccurrences(of: #"#(\d+|[a-z]+);"#, with: "", options: .regularExpression)
            for forbidden in [";", "#", "\"", "<script", "%%", "`", "\u{1B}", "\u{202E}", "\r"] {
                #expect(!withoutEntities.contains(forbidden), "\(line)")
            }
        }
        for secret in HostileSession.secrets {
            #expect(!diagram.mermaid.contains(secret))
        }
    }
}
