import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import TestSupport
import Testing

/// Drives a real session over the embedded project (deterministic: seeded codes, a fixed
/// clock) to reach the states the frames show.
final class World {
    private var embedded: EmbeddedSession
    var session: Session { embedded.session }

    init(session: EmbeddedSession) {
        embedded = session
    }

    static func start(device: Device = .iPhone, inApp: Bool = true, project edit: (inout ProjectConfiguration) -> Void = { _ in }) async throws -> World {
        var project = try ProjectConfigLoader.loadDefault()
        edit(&project)
        var app = EmbeddedWorld.defaultApp(project: project)
        app.device = device
        app.settings.handleCodeInApp = inApp
        return World(session: EmbeddedSession(project: project, app: app))
    }

    @discardableResult
    func send(_ events: AppEvent...) async -> Session {
        for event in events { embedded.reduce(event) }
        return await state()
    }

    /// The session with exchange timings fixed, so frames do not depend on the machine's speed.
    func state() async -> Session {
        var state = session
        state.exchanges = state.exchanges.map { record in
            var record = record
            record.duration = 0.0012
            return record
        }
        return state
    }

    /// Story 1 up to the tapped reset link (the session's new-password form).
    func resetLinkTapped() async -> Session {
        await send(.openRoute("/articles/42"), .signInSubmitted(email: "alice@example.com", password: "wrong"), .forgotPasswordTapped,
                   .passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        return await send(.linkTapped(messageID: session.inbox.last?.id ?? ""))
    }
}

func mainUI(focus: UIState.Focus = .phone, tab: InspectorTab = .flow) -> UIState {
    var ui = UIState(colorMode: .full256)
    ui.mode = .main
    ui.focus = focus
    ui.tab = tab
    return ui
}

func render(_ session: Session, _ ui: UIState, _ size: (Int, Int)) -> Frame {
    MainView.render(session: session, ui: ui, transport: "embedded demo-actionflow", width: size.0, height: size.1)
}

/// Every row of a frame takes exactly the frame's width, and the outer frame lines stay put.
func expectIntact(_ frame: Frame, sourceLocation: SourceLocation = #_sourceLocation) {
    for line in frame.text.split(separator: "\n", omittingEmptySubsequences: false) {
        #expect(String(line).displayWidth == frame.width, "row \"\(line)\" is not \(frame.width) columns", sourceLocation: sourceLocation)
    }
    for cell in frame.cells {
        #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) },
                "a control character reached the frame", sourceLocation: sourceLocation)
    }
}

let small = (80, 24)
let large = (160, 48)

@Suite("Frames: golden files at 80x24 and 160x48")
struct FrameGoldenTests {
    @Test("Welcome screen")
    func welcome() async throws {
        let world = try await World.start()
        let session = await world.state()
        for (size, name) in [(small, "welcome-80x24"), (large, "welcome-160x48")] {
            let frame = render(session, UIState(colorMode: .full256), size)
            expectIntact(frame)
            GoldenFile.check(frame, name)
        }
    }

    @Test("Phone screens through story 1, in the app")
    func storyOneInApp() async throws {
        let world = try await World.start()
        let ui = mainUI()
        let signIn = await world.send(.draftEdited(field: "signIn.email", text: "alice@example.com"), .openRoute("/articles/42"), .signInSubmitted(email: "alice@example.com", password: "wrong"))
        let forgot = await world.send(.forgotPasswordTapped)
        let sent = await world.send(.passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        let message = await world.send(.messageOpened(id: sent.inbox.last?.id ?? ""))
        let tapped = await world.send(.linkTapped(messageID: sent.inbox.last?.id ?? ""))
        let landed = await world.send(.newPasswordSubmitted("correct-horse"))
        let screens: [(Session, String)] = [(signIn, "sign-in-error"), (forgot, "forgot-password"), (sent, "mailbox"), (message, "message"), (tapped, "new-password"), (landed, "article")]
        for (state, name) in screens {
            for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
                let frame = render(state, ui, size)
                expectIntact(frame)
                GoldenFile.check(frame, "phone-\(name)-\(suffix)")
            }
        }
        #expect(render(landed, ui, small).text.contains("How continue URLs carry state"))
        #expect(render(landed, ui, small).text.contains("alice@example.com ✓"))
    }

    @Test("Phone screens of the web widget, store and browser")
    func routedAway() async throws {
        let widget = try await World.start(inApp: false)
        await widget.send(.openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        let form = await widget.send(.linkTapped(messageID: await widget.state().inbox.last?.id ?? ""))
        let done = await widget.send(.newPasswordSubmitted("correct-horse"))
        let browser = await widget.send(.continueTapped)

        var old = Device.pixel
        old.installedVersion = 3
        let store = try await World.start(device: old)
        var settings = await store.state().app.settings
        settings.androidPackageName = "com.example.android"
        settings.androidInstallIfNotAvailable = false
        settings.androidMinimumVersion = "11"
        await store.send(.settingsEdited(settings), .openRoute("/articles/42"), .forgotPasswordTapped, .passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        let upgrade = await store.send(.linkTapped(messageID: await store.state().inbox.last?.id ?? ""))

        for (state, name) in [(form, "widget-form"), (done, "widget-done"), (browser, "after-continue"), (upgrade, "store-upgrade")] {
            for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
                let frame = render(state, mainUI(), size)
                expectIntact(frame)
                GoldenFile.check(frame, "phone-\(name)-\(suffix)")
            }
        }
    }

    @Test("Every inspector pane, mid-flow")
    func panes() async throws {
        let world = try await World.start()
        let session = await world.resetLinkTapped()
        for tab in InspectorTab.allCases {
            var ui = mainUI(focus: .inspector, tab: tab)
            ui.expandedExchange = session.exchanges.last?.id
            for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
                let frame = render(session, ui, size)
                expectIntact(frame)
                GoldenFile.check(frame, "pane-\(tab.title.lowercased())-\(suffix)")
            }
        }
    }

    @Test("Help and paste overlays, and a terminal that is too small")
    func overlays() async throws {
        let world = try await World.start()
        let session = await world.state()
        var ui = mainUI()
        ui.overlay = .help
        GoldenFile.check(render(session, ui, small), "help-80x24")
        ui.overlay = .pasteLink(TextEditor("https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword"))
        GoldenFile.check(render(session, ui, small), "paste-80x24")
        ui.overlay = .confirmReset
        GoldenFile.check(render(session, ui, small), "confirm-reset-80x24")
        let tooSmall = render(session, mainUI(), (60, 20))
        #expect(tooSmall.text.contains("needs at least 80×24"))
        GoldenFile.check(tooSmall, "too-small-60x20")
    }

    @Test("CJK and emoji are measured as two columns and keep the frame aligned")
    func wideCharacters() async throws {
        let world = try await World.start()
        let ui = mainUI()
        let email = "山田太郎👩‍💻@例え.jp"
        let session = await world.send(.draftEdited(field: "signIn.email", text: email), .openRoute("/articles/42"), .signInSubmitted(email: email, password: "パスワード"))
        for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
            let frame = render(session, ui, size)
            expectIntact(frame)
            #expect(frame.text.contains("山田太郎"))
            GoldenFile.check(frame, "wide-characters-\(suffix)")
        }
    }

    @Test("A hostile email address cannot move the cursor, recolour or reorder the screen")
    func hostileStrings() async throws {
        let world = try await World.start()
        let ui = mainUI()
        let hostile = "evil\u{1B}[2J\u{1B}[31m@x.com\r\n\u{202E}moc.elgoog\u{7}\u{9B}1;1H"
        let session = await world.send(.draftEdited(field: "signIn.email", text: hostile), .openRoute("/articles/42"), .signInSubmitted(email: hostile, password: "x"))
        for (size, suffix) in [(small, "80x24"), (large, "160x48")] {
            let frame = render(session, ui, size)
            expectIntact(frame)
            #expect(frame.text.contains("evil␛[2J␛[31m@x.com"))
            GoldenFile.check(frame, "hostile-\(suffix)")
        }
    }
}
