import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Testing

/// The Flow pane says what is true of the flow on screen.
@Suite("Flow pane")
struct FlowPaneTests {
    private func text(_ blocks: [Block]) -> String {
        blocks.map { block in
            switch block {
            case .heading(let text), .paragraph(let text, _): text
            case .line(let spans): spans.map(\.text).joined()
            default: ""
            }
        }.joined(separator: "\n")
    }

    @Test("A link the app asked for that opened in a webmail's in-app browser shows the web widget's steps, those done ticked")
    func webmailInAppBrowser() async throws {
        var webmail = Device.iPhone
        webmail.mailClient = .webmailInAppBrowser
        let world = try await World.start(device: webmail)
        let session = await world.send(.openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: "bob@example.com"), .mailboxOpened)
        _ = await world.send(.linkTapped(messageID: session.inbox.last?.id ?? "none"))
        let shown = text(InspectorContent.flowTimeline(await world.state()))
        #expect(shown.contains("Password reset · handled by the web widget"), "\(shown)")
        #expect(shown.contains(" ✓  requesting"), "\(shown)")
        #expect(shown.contains(" ✓  emailSent"), "\(shown)")
        #expect(shown.contains(" ▶  handledInWebWidget"), "\(shown)")
        #expect(shown.contains("web widget resets, then Continue"), "\(shown)")
        // After the widget saved the password and Continue, back in the app signing in: still the widget's route.
        _ = await world.send(.newPasswordSubmitted("correct-horse-battery"), .continueTapped, .appOpened,
                             .signInSubmitted(email: "bob@example.com", password: "correct-horse-battery"))
        let after = text(InspectorContent.flowTimeline(await world.state()))
        #expect(after.contains("handled by the web widget") && !after.contains("app asks for a new password"), "\(after)")
        #expect(after.contains(" ✓  handledInWebWidget"), "\(after)")
    }

    @Test("With no flow yet, the hint names what starts one from the screen on the phone")
    func hintFollowsTheScreen() async throws {
        let world = try await World.start()
        #expect(text(InspectorContent.flowTimeline(await world.send(.openRoute("/articles/42")))).contains("Forgot password? starts a password reset"))
        #expect(text(InspectorContent.flowTimeline(await world.send(.forgotPasswordTapped))).contains("Send reset email starts a password reset."))
        #expect(InspectorContent.startHint(.articles) == "Open a members-only article signed out, or Subscribe unverified, to start one.")
    }
}

@Suite("Devices pane")
struct DevicesPaneTests {
    @Test("Platforms are written as people write them: ‹ iOS ›, ‹ Android ›")
    func platformNames() async throws {
        var ui = UIState(colorMode: .full256)
        ui.mode = .main
        ui.tab = .device
        for (device, shown) in [(Device.iPhone, "‹ iOS ›"), (Device.pixel, "‹ Android ›")] {
            let text = render(try await World.start(device: device).state(), ui, (100, 30)).text
            #expect(text.contains(shown), "\(text)")
        }
    }
}

@Suite("The phone says what happened after a send")
struct AfterSendTests {
    @Test("After a reset email is sent the sign-in screen says to check the email, and m mail shows the unread count until the mail app lists it")
    func checkYourEmailAndUnread() async throws {
        let world = try await World.start()
        var session = await world.send(.openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: "alice@example.com"))
        var text = render(session, mainUI(), small).text
        #expect(text.contains("✉ Check your email"), "\(text)")
        #expect(text.contains("m mail ●1"), "\(text)")
        session = await world.send(.mailboxOpened, .appOpened)
        text = render(session, mainUI(), small).text
        #expect(text.contains("m mail  p paste") && !text.contains("mail ●"), "\(text)")
    }
}
