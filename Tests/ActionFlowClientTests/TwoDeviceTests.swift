import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import TestSupport
import Testing

@Suite("Two devices: one world, an app on each, taps on the device in focus")
struct TwoDeviceTests {
    let settings = ActionCodeSettings(handleCodeInApp: false, iOSBundleID: "com.example.ios")

    func devices(_ names: [DeviceName] = [.iphone, .laptop]) -> [SessionDevice] {
        names.map { SessionDevice(name: $0, settings: settings) }
    }

    func twoDevices() throws -> EmbeddedSession {
        EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), devices: devices())
    }

    @Test("each device keeps its own screen, cached user and drafts; the mailbox is shared, listed by each mail app")
    func ownState() throws {
        var session = try twoDevices()
        _ = session.reduce(.openRoute("/account"))
        _ = session.reduce(.draftEdited(field: DraftField.signInEmail.rawValue, text: "bob@example.com"))
        _ = session.reduce(.forgotPasswordTapped)
        _ = session.reduce(.passwordResetRequested(email: "bob@example.com"))
        #expect(session.app.screen == .signIn && session.app.pendingDestination == .account)
        #expect(session.inbox.count == 1)

        _ = session.reduce(.deviceFocused(1))
        #expect(session.focus == 1 && session.app.device == .laptop)
        #expect(session.app.screen == .articles && session.app.pendingDestination == nil && session.app.flow == nil)
        #expect(session.drafts.isEmpty, "the laptop's forms are empty")
        #expect(session.inbox.isEmpty, "the laptop's mail app has not listed the mailbox yet")
        _ = session.reduce(.mailboxOpened)
        #expect(session.inbox.count == 1 && session.sentMail.count == 1)
        #expect(session.devices[0].drafts[DraftField.signInEmail.rawValue] == "bob@example.com")
    }

    @Test("a focus that names no device is ignored")
    func badFocus() throws {
        var session = try twoDevices()
        _ = session.reduce(.deviceFocused(2))
        _ = session.reduce(.deviceFocused(-1))
        #expect(session.focus == 0)
    }

    @Test("narration names the device with two, and not the shared world's clock; with one device nothing changes")
    func narrationNamesTheDevice() throws {
        var session = try twoDevices()
        _ = session.reduce(.openRoute("/account"))
        _ = session.reduce(.deviceFocused(1))
        _ = session.reduce(.openRoute("/subscribe"))
        _ = session.reduce(.clockAdvanceRequested(seconds: 3600))
        #expect(session.narration[0].hasPrefix("On the iPhone: open /account"))
        #expect(session.narration[1].hasPrefix("On the laptop: open /subscribe"))
        #expect(session.narration[2] == "advance the project clock by 1h")

        var single = EmbeddedSession(project: try ProjectConfigLoader.loadDefault(), app: AppState(device: .iPhone, settings: settings))
        _ = single.reduce(.openRoute("/account"))
        #expect(single.narration == ["open /account: members only: sign in first (pending destination /account)"])
        #expect(single.journal.allSatisfy { $0.device == nil })
    }

    @Test("over a remote world, a reply returns to the device that made the call, even when the focus moved meanwhile")
    func repliesReturnToTheirDevice() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let remote = RemoteEffects(transport: EmbeddedTransport(configuration: project), apiKey: project.apiKey)
        var session = Session.remote(project: project, devices: devices(), now: project.clockStart)
        var effects = session.reduce(.signInSubmitted(email: "alice@example.com", password: "alice-password-1"))
        #expect(effects.allSatisfy { if case .onDevice(0, _) = $0 { true } else { false } })
        _ = session.reduce(.deviceFocused(1))
        while !effects.isEmpty {
            for reply in await remote.run(effects.removeFirst()) {
                effects += session.reduce(reply)
            }
        }
        #expect(session.focus == 1, "the focus stays where the user put it")
        #expect(session.devices[0].app.session?.email == "alice@example.com")
        #expect(session.devices[0].app.busy.isEmpty)
        #expect(session.devices[1].app.session == nil)
        #expect(session.narration.contains("On the iPhone: accounts:lookup → signed in as alice@example.com, emailVerified true"))
    }

    @Test("presented, a step happens on the scenario's device even when the presenter looks at the other one")
    func presenterKeepsTheScenarioDevice() throws {
        let scenario = try ScenarioParser.parse("""
            name: t
            devices: [iphone, laptop]
            steps:
              - focus: laptop
              - openMailbox
              - expect: {screen: mailbox}
            """, source: "t.yaml")
        var session = EmbeddedSession(scenario.embeddedSession(baseProject: try ProjectConfigLoader.loadDefault()))
        let focusStep = ScenarioRunner.present(scenario, stepAt: 0, in: session.session)
        #expect(focusStep.event == .deviceFocused(1))
        _ = session.reduce(try #require(focusStep.event))
        // The presenter looks at the iPhone for a moment.
        _ = session.reduce(.deviceFocused(0))
        let mailboxStep = ScenarioRunner.present(scenario, stepAt: 1, in: session.session)
        #expect(mailboxStep.event == .onDevice(1, .mailboxOpened))
        _ = session.reduce(try #require(mailboxStep.event))
        #expect(session.focus == 0 && session.app.location == .app)
        #expect(session.devices[1].app.location == .mailbox(openMessageID: nil))
        #expect(ScenarioRunner.present(scenario, stepAt: 2, in: session.session).passed, "the expectation is about the laptop too")
    }

    @Test("resetting the world restarts the app on every device")
    func resetRestartsEveryApp() throws {
        var session = try twoDevices()
        _ = session.reduce(.signInSubmitted(email: "alice@example.com", password: "alice-password-1"))
        _ = session.reduce(.deviceFocused(1))
        _ = session.reduce(.signInSubmitted(email: "bob@example.com", password: "bob-password-1"))
        _ = session.reduce(.worldResetRequested)
        #expect(session.devices.allSatisfy { $0.app.session == nil && $0.app.screen == .articles })
        #expect(session.devices.map(\.app.device) == [.iPhone, .laptop])
        #expect(session.focus == 1)
    }

    @Test("a laptop's browser opens a continue URL of the app's origin as the web app at its path; another site stays a web page")
    func laptopBrowserIsTheWebApp() throws {
        var session = try twoDevices()
        _ = session.reduce(.deviceFocused(1))
        _ = session.reduce(.linkPasted("https://www.example.com/articles/42"))
        #expect(session.app.location == .app && session.app.screen == .signIn && session.app.pendingDestination == .article(id: "42"))
        // A link the laptop taps: the continue URL of another site.
        var route = TapRoute(destination: .browser(url: "https://elsewhere.example.org/x"), steps: ["a web page"], assumptions: [])
        _ = session.edit { $0.follow(route, link: "https://elsewhere.example.org/x") }
        #expect(session.app.location == .browser(url: "https://elsewhere.example.org/x"))
        route.destination = .browser(url: "https://www.example.com/subscribe")
        _ = session.edit { $0.follow(route, link: "https://www.example.com/subscribe") }
        #expect(session.app.location == .app && session.app.screen == .signIn && session.app.pendingDestination == .subscribe)
        #expect(session.narration.contains { $0.contains("the web app shows the continue URL's path (/subscribe)") })
    }
}

@Suite("Session files of two devices")
struct TwoDeviceSessionFileTests {
    func recording(_ names: [DeviceName]) throws -> SessionRecording {
        let settings = ActionCodeSettings(handleCodeInApp: false, iOSBundleID: "com.example.ios")
        var driver = SessionDriver.embedded(project: try ProjectConfigLoader.loadDefault(), devices: names.map { SessionDevice(name: $0, settings: settings) })
        _ = driver.sendNow(.openRoute("/account"))
        _ = driver.sendNow(.draftEdited(field: DraftField.forgotEmail.rawValue, text: "bob@example.com"))
        _ = driver.sendNow(.passwordResetRequested(email: "bob@example.com"))
        if names.count > 1 {
            _ = driver.sendNow(.deviceFocused(1))
            _ = driver.sendNow(.mailboxOpened)
        }
        return SessionRecording(driver)
    }

    func header(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("two devices are written as version 3 and load back equal, focus and drafts included")
    func twoDevicesRoundTrip() throws {
        let recording = try recording([.iphone, .laptop])
        let data = try SessionFile.encode(recording)
        let object = try header(data)
        #expect(object["version"] as? Int == 3)
        let current = try #require(object["current"] as? [String: Any])
        #expect(current["devices"] != nil && current["app"] == nil)
        let loaded = try SessionFile.decode(data, path: "two.json", transport: "embedded")
        #expect(loaded == recording)
        #expect(loaded.current.focus == 1 && loaded.current.devices[0].drafts[DraftField.forgotEmail.rawValue] == "bob@example.com")
    }

    @Test("one device is still written as version 1 wrote it, `app` at the top (a laptop alone keeps its name)")
    func oneDeviceStaysVersionOne() throws {
        for names in [[DeviceName.iphone], [.laptop]] {
            let recording = try recording(names)
            let data = try SessionFile.encode(recording)
            let object = try header(data)
            #expect(object["version"] as? Int == 3)
            let current = try #require(object["current"] as? [String: Any])
            #expect(current["app"] != nil && current["drafts"] != nil && current["devices"] == nil && current["focus"] == nil)
            #expect((current["deviceName"] as? String) == (names == [.laptop] ? "laptop" : nil))
            #expect(try SessionFile.decode(data, path: "one.json", transport: "embedded") == recording)
        }
    }

    @Test("a version 1 file without device names reads as one device named after its platform")
    func versionOneReads() throws {
        let data = try SessionFile.encode(try recording([.iphone]))
        var object = try header(data)
        var current = try #require(object["current"] as? [String: Any])
        var app = try #require(current["app"] as? [String: Any])
        var device = try #require(app["device"] as? [String: Any])
        device["platform"] = "android"
        app["device"] = device
        current["app"] = app
        object["current"] = current
        let loaded = try SessionFile.decode(try JSONSerialization.data(withJSONObject: object), path: "v1.json", transport: "embedded")
        #expect(loaded.current.devices.map(\.name) == [.android])
        #expect(loaded.current.focus == 0)
    }

    @Test("a focus naming no device, two devices of one name, or no device at all: refused with the reason")
    func badDeviceLists() throws {
        let data = try SessionFile.encode(try recording([.iphone, .laptop]))
        let object = try header(data)
        func refusal(_ edit: (inout [String: Any]) -> Void) throws -> String? {
            var current = try #require(object["current"] as? [String: Any])
            edit(&current)
            var edited = object
            edited["current"] = current
            let error = #expect(throws: SessionFileError.self) {
                try SessionFile.decode(try JSONSerialization.data(withJSONObject: edited), path: "bad.json", transport: "embedded")
            }
            return error?.reason
        }
        #expect(try refusal { $0["focus"] = 2 }?.contains("focus 2 names no device") == true)
        #expect(try refusal { $0["devices"] = [] }?.contains("at least one device") == true)
        #expect(try refusal { current in
            var devices = current["devices"] as? [[String: Any]] ?? []
            devices[1]["name"] = "iphone"
            current["devices"] = devices
        }?.contains("same name") == true)
    }
}

@Suite("Device names for --devices and scenario files")
struct DeviceNameTests {
    @Test("one or two names, any case, spaces around commas")
    func parses() throws {
        #expect(try DeviceName.parseList("iphone,laptop") == [.iphone, .laptop])
        #expect(try DeviceName.parseList(" Android , desktop ") == [.android, .desktop])
        #expect(try DeviceName.parseList("iPhone") == [.iphone])
    }

    @Test("bad lists say what is wrong and list the valid names", arguments: [
        ("ipad", "unknown device `ipad`; expected one of iphone, android, laptop, desktop"),
        ("iphone,,laptop", "an empty device name"),
        ("", "no device named"),
        ("iphone,laptop,android", "3 devices named (iphone, laptop, android); a session holds at most 2"),
        ("laptop,LAPTOP", "`laptop` is named twice"),
    ])
    func refuses(_ text: String, _ message: String) {
        let error = #expect(throws: DeviceListError.self) { try DeviceName.parseList(text) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "parsed")")
    }
}

@Suite("Exports of two devices: the app on each device is a participant")
struct TwoDeviceExportTests {
    func crossDeviceReset() async throws -> Session {
        let file = try #require(ScenarioLibrary.shippedFiles().first { $0.lastPathComponent == "cross-device-password-reset.yaml" })
        let transcript = await ScenarioLibrary.runEmbedded(try ScenarioParser.load(contentsOf: file), baseProject: try ProjectConfigLoader.loadDefault())
        #expect(transcript.passed, "\(transcript.text())")
        return try #require(transcript.finalSession)
    }

    @Test("the diagram has a lifeline for each device's app; each request comes from the app that made it")
    func diagram() async throws {
        let session = try await crossDeviceReset()
        let diagram = SequenceDiagram(session)
        #expect(diagram.lifelines.map(\.participant) == [.user, .app, .app2, .auth, .mailbox, .webWidget, .browser])
        #expect(diagram.lifelines[1].label == "App on the iPhone (iOS 18)")
        #expect(diagram.lifelines[2].label == "Web app on the laptop (Web browser)")
        let sends = diagram.messages.filter { $0.to == .auth && $0.text.hasPrefix("accounts:sendOobCode") }
        #expect(sends.map(\.from) == [.app])
        #expect(diagram.messages.contains { $0.from == .browser && $0.to == .app2 && $0.text == "open the web app at /account" })
        #expect(diagram.messages.contains { $0.from == .user && $0.to == .app && $0.text == "sign in as bob@example.com" })
        #expect(diagram.mermaid.contains("participant App2 as Web app on the laptop (Web browser)"))
        #expect(diagram.mermaid.contains("    alt on the laptop, the link opens in: web widget\n"))
        #expect(diagram.notes.contains { $0.lines == ["On the iPhone: forgot password: the app will send a reset email whose continue URL points back to /account"] })
    }

    @Test("the report's outcome gives each device's state under its name, and each route the device it was taken on")
    func report() async throws {
        let markdown = ReviewReport(title: "cross-device", session: try await crossDeviceReset()).markdown
        #expect(markdown.contains("- On the iPhone:\n    - Device: iOS 18, showing the app\n    - Screen: /account in the app\n    - Signed in: `bob@example.com`"))
        #expect(markdown.contains("- On the laptop:\n    - Device: Web browser, showing the web app\n    - Screen: the sign-in screen\n    - Signed in: no"))
        #expect(markdown.contains("1. On the laptop, opens in: **web widget**"))
    }
}
