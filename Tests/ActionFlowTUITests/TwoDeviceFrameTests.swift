import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import TestSupport
import Testing

/// The iPhone asked for a reset on the way to /account; the laptop opened the email: the web
/// widget's form for the new password, the iPhone still waiting on its sign-in screen.
func crossDeviceResetOnTheLaptop() throws -> Session {
    let project = try ProjectConfigLoader.loadDefault()
    var settings = EmbeddedWorld.defaultApp(project: project).settings
    settings.handleCodeInApp = false
    var session = EmbeddedSession(project: project, devices: [.iphone, .laptop].map { SessionDevice(name: $0, settings: settings) })
    for event: AppEvent in [.openRoute("/account"), .forgotPasswordTapped, .passwordResetRequested(email: "bob@example.com"), .deviceFocused(1), .mailboxOpened] {
        _ = session.reduce(event)
    }
    _ = session.reduce(.linkTapped(messageID: session.inbox.last?.id ?? ""))
    var state = session.session
    state.exchanges = state.exchanges.map { record in
        var record = record
        record.duration = 0.0012
        return record
    }
    return state
}

@Suite("Frames of two devices: side by side when wide, the one in focus when narrow")
struct TwoDeviceFrameTests {
    @Test("golden frames: both devices at 160x48, the laptop in focus at 80x24")
    func golden() throws {
        let session = try crossDeviceResetOnTheLaptop()
        for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
            let frame = render(session, mainUI(), size)
            expectIntact(frame)
            GoldenFile.check(frame, "two-devices-\(suffix)")
        }
    }

    @Test("wide: both devices are drawn, the first on the left, the one in focus marked; the status line names it")
    func wide() throws {
        let session = try crossDeviceResetOnTheLaptop()
        var ui = mainUI()
        #expect(render(session, ui, large).text.contains("type into the field"), "the reset form's field takes the keys")
        _ = Controller.handle(.escape, session: session, ui: &ui, width: large.0, height: large.1)
        let text = render(session, ui, large).text
        let rows = text.split(separator: "\n").map(String.init)
        #expect(rows[1].contains("iPhone · iOS 18 · app build 11"))
        #expect(rows[1].contains("▶ laptop · Web browser"))
        #expect(rows[1].range(of: "iPhone")!.lowerBound < rows[1].range(of: "laptop")!.lowerBound)
        #expect(text.contains("Sign in"), "the iPhone still waits on its sign-in screen")
        #expect(text.contains("Reset your password"), "the laptop shows the web widget")
        #expect(rows[rows.count - 2].contains("on the laptop"))
        #expect(rows[rows.count - 1].contains("d → iPhone"))
    }

    @Test("narrow: only the device in focus is drawn; d brings the other")
    func narrow() throws {
        var session = try crossDeviceResetOnTheLaptop()
        var ui = mainUI()
        var text = render(session, ui, small).text
        #expect(text.contains("Reset your password") && !text.contains("to continue to /account"))
        // The laptop's reset form has its field chosen: Esc leaves it, then d is a shortcut.
        _ = Controller.handle(.escape, session: session, ui: &ui, width: small.0, height: small.1)
        let commands = Controller.handle(.character("d"), session: session, ui: &ui, width: small.0, height: small.1)
        #expect(commands == [.send(.deviceFocused(0))])
        #expect(ui.message == "on the iPhone")
        _ = session.reduce(.deviceFocused(0))
        text = render(session, ui, small).text
        #expect(text.contains("to continue to /account") && !text.contains("Reset your password"))
    }

    @Test("the Device pane edits the device in focus, and says which")
    func devicePane() throws {
        var session = try crossDeviceResetOnTheLaptop()
        let ui = mainUI(focus: .inspector, tab: .device)
        #expect(render(session, ui, large).text.contains("Device · laptop"))
        let blocks = InspectorContent.blocks(.device, session, ui)
        let scanner = try #require(blocks.compactMap { if case .control(let control) = $0, control.id == "device.scanner" { control } else { nil } }.first)
        for command in scanner.activate(1) {
            if case .send(let event) = command { _ = session.reduce(event) }
        }
        #expect(session.devices[1].app.device.mailScanner && !session.devices[0].app.device.mailScanner)
        #expect(session.narration.last?.hasPrefix("On the laptop: device: Web browser") == true)
    }

    @Test("a click on the other device gives it the focus; taps then happen there")
    func clickOtherDevice() throws {
        let session = try crossDeviceResetOnTheLaptop()
        var ui = mainUI(focus: .inspector)
        let layout = ScreenLayout(width: large.0, height: large.1, session: session)
        let other = try #require(layout.otherPhone)
        #expect(other.x == 0, "the iPhone, the first device, stands on the left")
        let commands = Controller.handle(.mouse(x: other.x + 3, y: other.y + 5, button: .left), session: session, ui: &ui, width: large.0, height: large.1)
        #expect(commands == [.send(.deviceFocused(0))])
        #expect(ui.focus == .phone)
    }

    @Test("one device: no d key, no device names, the layout as before")
    func oneDevice() async throws {
        let session = await (try await World.start()).state()
        var ui = mainUI()
        #expect(Controller.handle(.character("d"), session: session, ui: &ui, width: large.0, height: large.1).isEmpty)
        #expect(ScreenLayout(width: large.0, height: large.1, session: session).otherPhone == nil)
        #expect(!MainView.hints(for: ui).contains { $0.0 == "d" })
    }
}
