import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing
import TestSupport

/// The interface's one loop, in process: messages into `Interface.update`, the commands it
/// asks for, and the frames `MainView` draws of it on an in-memory terminal.
@MainActor
final class LoopHarness {
    var model: Interface
    let terminal: MemoryTerminal
    let panes = PaneCache()
    /// Every command the loop asked the runtime for.
    private(set) var commands: [InterfaceCommand] = []
    /// The simulated time the ticks carry.
    private(set) var now = Date(timeIntervalSince1970: 1_800_000_000)

    init(_ model: Interface) {
        self.model = model
        terminal = MemoryTerminal(width: model.width, height: model.height)
        draw()
    }

    /// A live embedded session presenting `scenario` (a shipped name), at `size`.
    static func presenting(_ scenario: String, size: (Int, Int) = (80, 24)) throws -> LoopHarness {
        let parsed = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate(scenario))
        let driver = parsed.embeddedSession(baseProject: try ProjectConfigLoader.loadDefault())
        return LoopHarness(Interface(driver: driver, scenario: parsed, colorMode: .full256, width: size.0, height: size.1))
    }

    /// A free session on the embedded project, opened on the welcome screen.
    static func live(size: (Int, Int) = (80, 24)) throws -> LoopHarness {
        return LoopHarness(Interface(driver: EmbeddedWorld.driver(project: try ProjectConfigLoader.loadDefault()), colorMode: .full256, width: size.0, height: size.1))
    }

    func send(_ message: InterfaceMessage) {
        let asked = model.update(message, panes: panes)
        commands += asked
        draw()
    }

    func keys(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    /// Lets time pass, a tick at a time, until nothing waits for one (or `limit` seconds).
    func settle(limit: TimeInterval = 30) {
        let end = now.addingTimeInterval(limit)
        while let due = model.nextTick, now < end {
            now = max(now.addingTimeInterval(0.01), min(due, end))
            send(.tick(now))
        }
    }

    /// Lets `seconds` pass, then ticks once.
    func wait(_ seconds: TimeInterval) {
        now = now.addingTimeInterval(seconds)
        send(.tick(now))
    }

    func draw() {
        terminal.present(MainView.render(model, transport: "embedded demo-actionflow", panes: panes))
    }

    var screen: String { terminal.text }
    var statusLine: String { screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast(1).last.map(String.init) ?? "" }
    /// The phone's Email field as drawn.
    var emailField: String { screen.split(separator: "\n").first { $0.hasPrefix("│ Email") }.map(String.init) ?? "" }
    var headerLine: String { screen.split(separator: "\n").first.map(String.init) ?? "" }
}

@MainActor
@Suite("The interface loop, in process")
struct InterfaceLoopTests {
    @Test("A presented scenario opens on a card with its name and description; n begins")
    func openingCard() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        #expect(loop.screen.contains("Password reset in app"), "the card's title is the scenario's name in words")
        #expect(loop.screen.contains("User story 1 on an iPhone with the app installed: Bob opens a"))
        #expect(loop.screen.contains("n begin"))
        loop.keys(.character("n"))
        #expect(!loop.screen.contains("n begin"))
        #expect(loop.model.session.journal.isEmpty, "closing the card plays no step")
        #expect(loop.headerLine.contains("step 0/8"))
    }

    @Test("Each n changes the phone: checks fold into the step they check and show as ✓ marks")
    func everyStepChangesTheScreen() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.keys(.character("n"))
        var previous = loop.screen
        for step in 1...8 {
            loop.keys(.character("n"))
            loop.settle()
            #expect(loop.screen != previous, "step \(step) changed nothing on screen")
            #expect(loop.headerLine.contains("step \(step)/8"), "\(loop.headerLine)")
            previous = loop.screen
        }
        #expect(loop.model.session.presenter?.isFinished == true)
        #expect(loop.model.session.presenter?.failed == false)
        #expect(loop.statusLine.contains("scenario complete ✓"))
    }

    @Test("The phone shows what the script types, as it types it, before the form is sent")
    func typingIsShown() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.keys(.character("n"), .character("n"))
        loop.settle()
        #expect(loop.screen.contains("Sign in"))
        loop.keys(.character("n"))
        // A few characters in: the email is being typed, nothing is sent yet.
        for _ in 0..<4 { loop.wait(Replay.typingPause) }
        #expect(loop.emailField.contains("bob@"), "\(loop.screen)")
        #expect(!loop.emailField.contains("bob@example.com"))
        #expect(loop.model.driver.session.exchanges.isEmpty)
        loop.settle()
        #expect(loop.emailField.contains("bob@example.com"), "the typed email stays in its field after the failed sign-in")
        #expect(loop.headerLine.contains("Tries to sign in as bob@example.com  ✓ refused"), "the check of the step shows as a mark: \(loop.headerLine)")
    }

    @Test("A step's caption is plain language, and the next one is announced")
    func captions() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app", size: (120, 36))
        loop.keys(.character("n"))
        #expect(loop.statusLine.contains("next (n): Opens /articles/42 in the app"), "\(loop.statusLine)")
        loop.keys(.character("n"))
        #expect(loop.headerLine.contains("Opens /articles/42 in the app  ✓ on the sign-in screen"), "\(loop.headerLine)")
        // The sign-in is expected to fail: its caption says it is tried, not done.
        #expect(loop.statusLine.contains("next (n): Tries to sign in as bob@example.com"), "\(loop.statusLine)")
    }

    @Test("b steps back a whole presented step, checks and typing included")
    func stepBack() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.keys(.character("n"), .character("n"))
        loop.settle()
        let afterOne = loop.model.session
        loop.keys(.character("n"))
        loop.settle()
        loop.keys(.character("b"))
        #expect(loop.model.session.app == afterOne.app)
        #expect(loop.headerLine.contains("step 1/8"))
    }

    @Test("g plays every step at its pace; a key stops it")
    func playToEnd() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.keys(.character("n"), .character("g"))
        loop.settle(limit: 120)
        #expect(loop.model.session.presenter?.isFinished == true)
        #expect(loop.model.session.app.session?.email == "bob@example.com")
    }

    @Test("A story picked on the welcome screen plays to its end, then leaves the user to it")
    func storyFromWelcome() throws {
        let loop = try LoopHarness.live()
        #expect(loop.screen.contains("Free exploration"))
        loop.keys(.character("1"))
        loop.settle()
        #expect(loop.model.session.presenter == nil)
        #expect(!loop.model.session.journal.isEmpty)
        #expect(loop.model.nextTick == nil)
    }

    @Test("e asks the runtime to export the session on screen, under the scenario's name")
    func exportAsked() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.keys(.character("n"), .character("n"), .escape, .character("e"))
        #expect(loop.commands.contains { if case .export(_, let title) = $0 { title == "password-reset-in-app" } else { false } })
    }

    @Test("c in the Network pane copies the selected exchange as a masked curl command, through OSC 52")
    func copyExchangeAsCurl() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app", size: (120, 40))
        loop.keys(.character("n"))
        for _ in 1...8 {
            loop.keys(.character("n"))
            loop.settle()
        }
        loop.keys(.character("c"))
        #expect(loop.statusLine.contains("c copies an exchange of the Network pane (5) as curl"))
        loop.keys(.character("5"), .down, .character("c"))
        #expect(loop.statusLine.contains("copied exchange 2 as curl (secrets masked)"), "\(loop.statusLine)")
        let copied = loop.commands.compactMap { if case .copyToClipboard(let text) = $0 { text } else { nil } }
        try #require(copied.count == 1)
        let record = try #require(loop.model.session.exchanges.first { $0.id == 2 })
        // The sequence the runtime writes: ESC ] 52 ; c ; BASE64 ESC \
        let sequence = ClipboardSequence.osc52(copied[0])
        #expect(sequence.hasPrefix("\u{1B}]52;c;") && sequence.hasSuffix("\u{1B}\\"))
        let payload = try #require(Data(base64Encoded: String(sequence.dropFirst(7).dropLast(2))))
        let command = String(decoding: payload, as: UTF8.self)
        #expect(command == CurlScript.pasteable(record))
        #expect(command.hasPrefix("# 2. \(record.operation!.rawValue): HTTP \(record.status!)"))
        #expect(command.split(separator: "\n").filter { $0.hasPrefix("curl ") }.count == 1)
        let sent = try #require(record.unmasked)
        #expect(!command.contains(try #require(sent.apiKey)))
        #expect(command.contains("# Secrets are masked"))
        #expect(loop.screen.contains("c copy as curl"), "the key bar names the key while the Network pane has it")
    }
}

@Suite("Controls are data")
struct ControlsAreDataTests {
    @Test("The same session lays out equal controls, in every pane: what a control does is a value, compared like one")
    func equalControls() async throws {
        let session = try await World.start().resetLinkTapped()
        for tab in InspectorTab.allCases {
            var ui = mainUI(focus: .inspector, tab: tab)
            ui.mode = .main
            let first = InspectorContent.blocks(tab, session, ui).compactMap { if case .control(let control) = $0 { control } else { nil } }
            let second = InspectorContent.blocks(tab, session, ui).compactMap { if case .control(let control) = $0 { control } else { nil } }
            #expect(first == second, "\(tab)")
        }
        let toggle = try #require(InspectorContent.blocks(.device, session, mainUI(tab: .device)).lazy.compactMap { block -> Control? in
            if case .control(let control) = block, control.id == "device.installed" { control } else { nil }
        }.first)
        var uninstalled = session.app.device
        uninstalled.appInstalled = false
        #expect(toggle.forward == [.send(.deviceEdited(uninstalled))])
    }
}

@MainActor
@Suite("Signals and resizes are messages too")
struct InterfaceSignalTests {
    @Test("A terminating signal asks to quit, SIGTSTP to suspend, a resize to redraw at the new size")
    func signals() throws {
        let loop = try LoopHarness.live()
        #expect(loop.model.update(.terminated(signal: SIGTERM)) == [.quit])
        #expect(loop.model.update(.suspend) == [.suspend])
        #expect(loop.model.update(.resized(width: 120, height: 36)) == [.redraw])
        #expect(loop.model.width == 120 && loop.model.height == 36)
    }
}

@MainActor
@Suite("Presenter frames")
struct PresenterFrameTests {
    @Test("The opening card and a played step at 80x24, in golden frames")
    func presenterFrames() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        GoldenFile.check(loop.terminal.screen!, "presenter-card-80x24")
        loop.keys(.character("n"), .character("n"), .character("n"))
        loop.settle()
        GoldenFile.check(loop.terminal.screen!, "presenter-step-2-80x24")
    }
}

@MainActor
@Suite("Saving is a command")
struct InterfaceSaveTests {
    private func saves(_ commands: [InterfaceCommand]) -> [SessionRecording] {
        commands.compactMap { if case .save(let recording) = $0 { recording } else { nil } }
    }

    @Test("With --session, the session is saved as it opens and after each key that changed it, never after one that did not")
    func savedWhenChanged() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.model.savesSession = true
        let opening = try #require(saves(loop.model.pendingSave().map { [$0] } ?? []).first)
        #expect(opening.events == loop.model.driver.events)
        #expect(loop.model.pendingSave() == nil, "asked once")

        loop.keys(.character("n"))
        #expect(saves(loop.commands).isEmpty, "closing the opening card changes no session")
        loop.keys(.character("n"))
        let saved = saves(loop.commands)
        #expect(saved.count == 1)
        #expect(saved.last?.events == loop.model.driver.events, "the file holds the step just played")
        loop.keys(.character("2"), .character("3"))
        #expect(saves(loop.commands).count == 1, "switching panes is not saved")
    }

    @Test("A save that failed is said in the status line and asked for again with the next change")
    func failedSave() throws {
        let loop = try LoopHarness.presenting("password-reset-in-app")
        loop.model.savesSession = true
        _ = loop.model.pendingSave()
        loop.send(.notSaved("disk full"))
        #expect(loop.statusLine.contains("not saved: disk full"))
        #expect(saves(loop.commands).isEmpty, "not asked again at once")
        #expect(loop.model.pendingSave() != nil, "asked again after the failure")
    }

    @Test("A replay is never saved")
    func replayNotSaved() throws {
        let presented = try LoopHarness.presenting("password-reset-in-app")
        presented.keys(.character("n"), .character("n"))
        let recording = SessionRecording(presented.model.driver)
        var model = Interface(replaying: recording, title: "r", colorMode: .full256, width: 80, height: 24)
        model.savesSession = true
        #expect(model.pendingSave() == nil)
        #expect(saves(model.update(.key(.character("n")))).isEmpty)
    }
}

@MainActor
@Suite("The doctor in the Project pane")
struct ProjectPaneDoctorTests {
    static func own() throws -> LoopHarness {
        var project = try ProjectConfigLoader.loadDefault()
        project.projectId = "my-app-1234"
        project.hostingDomains = ["my-app-1234.firebaseapp.com", "links.my-app.test"]
        project.authorizedDomains = ["localhost", "my-app-1234.firebaseapp.com", "my-app-1234.web.app"]
        let loop = LoopHarness(Interface(driver: EmbeddedWorld.driver(project: project), colorMode: .full256, width: 80, height: 24))
        loop.keys(.character("6"), .character("6"), .character("G"))
        return loop
    }

    @Test("Check link domains asks the runtime for the project's checks; its answer shows each finding, with what the phone does")
    func runs() throws {
        let loop = try Self.own()
        loop.model.checksLinkDomains = true
        loop.keys(.enter)
        let project = loop.model.session.project
        #expect(loop.commands.contains { if case .runDoctor(project, _) = $0 { true } else { false } }, "\(loop.commands)")
        #expect(loop.screen.contains("Checking…"))
        let checks = [
            DoctorCheck(.pass, "links.my-app.test assetlinks.json", "answers 200", source: "Android"),
            DoctorCheck(.fail, "links.my-app.test apple-app-site-association", "answers 301, a redirect", source: "Apple", onThePhone: "the link opens the browser, not the iOS app",
                        domain: "links.my-app.test", platform: .apple),
        ]
        loop.send(.doctorFinished(project, checks))
        #expect(loop.statusLine.contains("link domains checked: 1 failed"))
        loop.keys(.character("G"))
        #expect(loop.screen.contains("✗ links.my-app.test apple-app-site"))
        #expect(loop.screen.contains("phone: the link opens the browser"))
        #expect(loop.screen.contains("1 passed, 1 failed"))

        // Enter on the finding taps a link on that domain on a phone that could not verify it:
        // the phone shows the browser, and the narration says why.
        loop.keys(.enter)
        #expect(loop.screen.contains("⚿ my-app-1234.firebaseapp.com") && loop.screen.contains("web widget"), "the browser, not the app")
        #expect(!loop.model.session.app.device.linksVerified)
        #expect(loop.model.session.narration.contains { $0.contains("universal links are not verified for links.my-app.test") })

        // An answer for a project since edited is kept out.
        var other = project
        other.projectId = "someone-else"
        loop.send(.doctorFinished(other, []))
        #expect(loop.screen.contains("1 passed, 1 failed"))
    }

    @Test("A fresh app on the user's own project continues on the project's own web origin, so that its emails are sent")
    func ownOrigin() throws {
        let loop = try Self.own()
        #expect(loop.model.session.app.continueURLBase == "https://my-app-1234.firebaseapp.com", "not the demo's www.example.com")
        var project = loop.model.session.project
        project.authorizedDomains = ["localhost", "app.my-app.test", "my-app-1234.web.app"]
        #expect(project.appOrigin == "https://app.my-app.test")
        #expect(try ProjectConfigLoader.loadDefault().appOrigin == "https://www.example.com", "the demo's stories keep their origin")
    }

    @Test("The demo project's domains are never fetched, nor any where the runtime offers no check")
    func refused() throws {
        let demo = try LoopHarness.live(size: (160, 60))
        demo.model.checksLinkDomains = true
        demo.keys(.character("6"), .character("6"), .character("G"))
        #expect(!demo.screen.contains("Check link domains"), "no button that cannot work")
        #expect(demo.screen.contains("domains are examples"))
        demo.send(.checkLinkDomains)
        #expect(!demo.commands.contains { if case .runDoctor = $0 { true } else { false } })
        #expect(demo.statusLine.contains("the demo project's domains are examples"))

        let own = try Self.own()
        own.keys(.enter)
        #expect(!own.commands.contains { if case .runDoctor = $0 { true } else { false } })
        #expect(own.statusLine.contains("not offered here: run actionflow doctor"))
    }
}
