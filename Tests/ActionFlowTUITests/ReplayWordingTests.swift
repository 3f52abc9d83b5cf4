import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

@Suite("A replay names each event in plain words")
struct ReplayWordingTests {
    @Test("an event where the user typed reads 'Types into Email' in the status line, not the field's identifier", arguments: [small, (120, 36)])
    func typedField(_ size: (Int, Int)) async throws {
        var driver = SessionDriver.embedded(project: try ProjectConfigLoader.loadDefault(), app: AppState(device: .iPhone, settings: ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios")))
        await driver.send(.openRoute("/articles/42"))
        await driver.send(.draftEdited(field: DraftField.signInEmail.rawValue, text: "bob@example.com"))
        await driver.send(.forgotPasswordTapped)
        var replay = Replay(SessionRecording(driver))
        var ui = UIState(colorMode: .full256)
        ui.mode = .main
        // Before the event, the status line names what comes next; after it, the message that a
        // step forward or back shows names what just happened.
        replay.seek(to: 1)
        let text = MainView.render(session: replay.shownSession(title: "typed"), ui: ui, transport: replay.transportLabel, width: size.0, height: size.1).text
        #expect(text.contains("next (n): Types into Email"), "\(text)")
        #expect(!text.contains("signIn.email") && !text.contains("draft "), "\(text)")
        replay.seek(to: 2)
        #expect(replay.shownSession(title: "typed").presenter?.lastResult == "step 2: Types into Email")
    }

    @Test("a replay of a headless run shows what each form sent, as presenter mode shows it typed: never the placeholders")
    func formsShowWhatWasSent() async throws {
        let scenario = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate("password-reset-in-app"))
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        var replay = Replay(try #require(transcript.recording))
        var ui = UIState(colorMode: .full256)
        ui.mode = .main
        // Just after the wrong password was sent: the form shows Bob's address and the password as dots.
        let signIn = try #require(replay.recording.events.firstIndex { if case .signInSubmitted = $0 { true } else { false } })
        replay.seek(to: signIn + 1)
        while let next = replay.nextEvent, !next.isUserStep { replay.forward() }
        let text = MainView.render(session: replay.shownSession(title: "run"), ui: ui, transport: replay.transportLabel, width: 80, height: 24).text
        #expect(text.contains("INVALID_PASSWORD"), "\(text)")
        #expect(text.contains("bob@example.com"), "\(text)")
        #expect(!text.contains("you@example.com"), "the placeholder is not shown for a field that was sent: \(text)")
        #expect(text.contains("•••••"), "the password is shown as dots")
        #expect(!text.contains("not-my-password"))
    }
}
