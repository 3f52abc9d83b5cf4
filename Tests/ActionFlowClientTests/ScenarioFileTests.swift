import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite("Scenario files: errors and failed expectations")
struct ScenarioFileTests {
    static let header = "name: t\ndevice: iPhone\nsteps:\n"

    func error(_ yaml: String) -> ScenarioFileError? {
        do {
            _ = try ScenarioParser.parse(yaml, source: "bad.yaml")
            return nil
        } catch {
            return error
        }
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var yaml: String
        var expected: String
        var testDescription: String { expected }
    }

    static let badFiles: [BadFile] = [
        BadFile(yaml: "name: [unclosed", expected: "bad.yaml: not valid YAML"),
        BadFile(yaml: "- just\n- a list\n", expected: "bad.yaml:1: expected a mapping with `name`, `steps`"),
        BadFile(yaml: "steps:\n  - forgotPassword\n", expected: "bad.yaml:1: `name`: every scenario needs a `name`"),
        BadFile(yaml: "name:\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:1: `name`: expected text, got nothing"),
        BadFile(yaml: "name: t\n", expected: "bad.yaml:1: `steps`: every scenario needs `steps`"),
        BadFile(yaml: "name: t\nsteps: []\n", expected: "bad.yaml:2: `steps`: expected a non-empty list of steps"),
        BadFile(yaml: "name: t\nstep:\n  - forgotPassword\n", expected: "bad.yaml:2: `step`: unknown key; expected one of name, description"),
        BadFile(yaml: header + "  - fly: /moon\n", expected: "bad.yaml:4: step 1: `fly`: unknown action; expected one of open, signIn"),
        BadFile(yaml: header + "  - forgotPassword\n  - advance: soon\n", expected: "bad.yaml:5: step 2: `advance`: expected a duration such as 1h, 30m, 3d or a number of seconds, got 'soon'"),
        BadFile(yaml: header + "  - {open: /, forgotPassword: ~}\n", expected: "bad.yaml:4: step 1: a step holds exactly one action; found 2 keys (open, forgotPassword)"),
        BadFile(yaml: header + "  - open\n", expected: "bad.yaml:4: step 1: `open`: needs a value, for example `open: /articles/42`"),
        BadFile(yaml: header + "  - forgotPassword: now\n", expected: "bad.yaml:4: step 1: `forgotPassword`: takes no value; write it as `- forgotPassword`"),
        BadFile(yaml: header + "  - signIn: {email: bob@example.com}\n", expected: "bad.yaml:4: step 1: `signIn`: needs `email` and `password`"),
        BadFile(yaml: header + "  - tapLink: 0\n", expected: "bad.yaml:4: step 1: `tapLink`: expected `latest` or a message number (1 is the oldest), got `0`"),
        BadFile(yaml: header + "  - expect: {landsAt: /admin}\n", expected: "bad.yaml:4: step 1: `landsAt`: expected an app route (/, /articles/ID, /subscribe, /account), got `/admin`"),
        BadFile(yaml: header + "  - expect: {fails: expired}\n", expected: "bad.yaml:4: step 1: `fails`: expected a server error code such as EXPIRED_OOB_CODE"),
        BadFile(yaml: header + "  - expect: {landAt: /}\n", expected: "bad.yaml:4: step 1: `landAt`: unknown key in `expect`; expected one of landsAt"),
        BadFile(yaml: header + "  - expect: {mailbox: many}\n", expected: "bad.yaml:4: step 1: `mailbox`: expected a whole number, got `many`"),
        BadFile(yaml: header + "  - expect: {screen: moon}\n", expected: "bad.yaml:4: step 1: `screen`: expected one of app, mailbox, webWidget"),
        BadFile(yaml: header + "  - settings: {handleCodeInApp: sometimes}\n", expected: "bad.yaml:4: step 1: `handleCodeInApp`: expected true or false, got `sometimes`"),
        BadFile(yaml: "name: t\ndevice: {mailClient: outlook}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `mailClient`: expected one of native, webmailInAppBrowser, got `outlook`"),
        BadFile(yaml: "name: t\ndevice: nokia\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `device`: expected one of iPhone, pixel, desktop, got `nokia`"),
        BadFile(yaml: "name: t\nproject: {mobileLinkStyle: SHORT}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `mobileLinkStyle`: expected one of HOSTING_DOMAIN, FIREBASE_DYNAMIC_LINK_DOMAIN, got `SHORT`"),
        BadFile(yaml: "name: t\nproject: {passwordResetLifetime: -1h}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `passwordResetLifetime`: expected a duration above 0, got '-1h'"),
        BadFile(yaml: "name: t\nproject:\n  authorizedDomains:\n    - localhost\n    - https://shop.example.com\nsteps:\n  - forgotPassword\n",
                expected: "bad.yaml:5: `authorizedDomains[1]`: expected a domain name, got 'https://shop.example.com' (write the host only, without scheme, port or path)"),
        BadFile(yaml: "name: t\nproject:\n  dynamicLinkDomains: []\n  mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN\nsteps:\n  - forgotPassword\n",
                expected: "bad.yaml:4: `mobileLinkStyle`: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains"),
        BadFile(yaml: "name: t\nproject: {actionHandlerURL: \"ftp://example.com/action\"}\nsteps:\n  - forgotPassword\n",
                expected: "bad.yaml:2: `actionHandlerURL`: expected an absolute http(s) URL, got 'ftp://example.com/action'"),
        BadFile(yaml: header + "  - draft: {field: signIn.phone, value: x}\n", expected: "bad.yaml:4: step 1: `field`: expected one of signIn.email, signIn.password, forgot.email"),
        BadFile(yaml: header + "  - draft: {field: signIn.email}\n", expected: "bad.yaml:4: step 1: `draft`: needs `field` and `value`, for example `draft: {field: signIn.email, value: $verified.email}`"),
        BadFile(yaml: header + "  - draft: {field: signIn.email, text: x}\n", expected: "bad.yaml:4: step 1: `text`: unknown key in `draft`; expected one of field, value"),
        BadFile(yaml: header + "  - draft\n", expected: "bad.yaml:4: step 1: `draft`: needs a value, for example `draft: {field: signIn.email, value: $verified.email}`"),
        BadFile(yaml: header + "  - signIn: {email: $verifed.email, password: x}\n",
                expected: "bad.yaml:4: step 1: `email`: unknown placeholder `$verifed.email`; expected one of $verified.email, $verified.password, $unverified.email, $unverified.password"),
        BadFile(yaml: header + "  - requestPasswordReset: $verified\n", expected: "bad.yaml:4: step 1: `requestPasswordReset`: unknown placeholder `$verified`"),
        BadFile(yaml: "name: \"\\e[31mred\"\nsteps: 5\n", expected: "bad.yaml:2: `steps`: expected a non-empty list of steps"),
        BadFile(yaml: "name: t\ndevices: [iphone, ipad]\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `devices`: unknown device `ipad`; expected one of iphone, android, laptop, desktop"),
        BadFile(yaml: "name: t\ndevices: [laptop, laptop]\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `devices`: `laptop` is named twice"),
        BadFile(yaml: "name: t\ndevices: [iphone, android, laptop]\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `devices`: expected one or two devices, got 3"),
        BadFile(yaml: "name: t\ndevices: laptop\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `devices`: expected a list of one or two devices"),
        BadFile(yaml: "name: t\ndevices:\n  - {installedVersion: 9}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:3: `devices`: a device with knobs needs its `name`"),
        BadFile(yaml: "name: t\ndevices:\n  - {name: android, colour: red}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:3: `colour`: unknown key in `devices`; expected one of name, platform"),
        BadFile(yaml: "name: t\ndevice: iPhone\ndevices: [iphone, laptop]\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:3: `devices`: give either `device` (one device) or `devices`"),
        BadFile(yaml: header + "  - focus: laptop\n", expected: "bad.yaml:4: step 1: `focus`: the scenario has no laptop: its devices are iphone (list them under `devices:`"),
        BadFile(yaml: "name: t\ndevices: [iphone, laptop]\nsteps:\n  - focus: tablet\n", expected: "bad.yaml:4: step 1: `focus`: unknown device `tablet`; expected one of iphone, android, laptop, desktop"),
        BadFile(yaml: "name: t\ndevices: [iphone, laptop]\nsteps:\n  - expect: {device: android, signedIn: false}\n", expected: "bad.yaml:4: step 1: `device`: the scenario has no android"),
        BadFile(yaml: "name: t\ndevices: [iphone, laptop]\nsteps:\n  - expect: {device: laptop}\n", expected: "bad.yaml:4: step 1: `expect`: `device` names the device the expectations are about; add at least one"),
        BadFile(yaml: "name: t\ndevice: {sdk: ios@9.0.0}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `sdk`: no profile covers \"ios@9.0.0\": the versions read start at ios@10.0.0"),
        BadFile(yaml: "name: t\ndevice: {preset: pixel, sdk: ios@11.15.0}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:2: `sdk`: ios@11.15.0 is for iOS apps, and this device is Android; profiles for it: android@..., flutterfire@..., rnfb@..."),
        BadFile(yaml: "name: t\ndevices:\n  - {name: laptop, sdk: android@23.2.0}\nsteps:\n  - forgotPassword\n", expected: "bad.yaml:3: `sdk`: android@23.2.0 is for Android apps, and this device is Desktop; profiles for it: js@..."),
        BadFile(yaml: header + "  - project: {mobileLinkStyle: PAGES}\n", expected: "bad.yaml:4: step 1: `mobileLinkStyle`: expected one of HOSTING_DOMAIN, FIREBASE_DYNAMIC_LINK_DOMAIN"),
        BadFile(yaml: header + "  - project: {projectId: other}\n", expected: "bad.yaml:4: step 1: `projectId`: unknown key in `project`"),
        BadFile(yaml: header + "  - device: {sdk: 12}\n", expected: "bad.yaml:4: step 1: `sdk`: unknown SDK profile \"12\": write PLATFORM@VERSION"),
    ]

    @Test("a malformed file gives a specific error with file, line, step and key", arguments: badFiles)
    func malformed(_ file: BadFile) throws {
        let problem = try #require(error(file.yaml), "parsed without error")
        #expect(problem.description.hasPrefix(file.expected), "got: \(problem.description)")
    }

    @Test("`devices` with knobs: each device starts as its preset with the fields given; `focus` and `expect` name them")
    func devicesWithKnobs() throws {
        let scenario = try ScenarioParser.parse("""
            name: t
            devices:
              - {name: Android, installedVersion: 9, mailScanner: true}
              - laptop
            steps:
              - focus: laptop
              - expect: {device: android, signedIn: false}
            """, source: "t.yaml")
        #expect(scenario.devices.map(\.name) == [.android, .laptop])
        var android = Device.pixel
        android.installedVersion = 9
        android.mailScanner = true
        #expect(scenario.devices[0].device == android)
        #expect(scenario.devices[1].device == .laptop)
        #expect(scenario.steps.map(\.action) == [.focus(.laptop), .expectOn(.android, [.signedIn(nil)])])
        #expect(scenario.steps.map(\.action.summary) == ["focus laptop", "expect on android: signedIn false"])
        let session = scenario.embeddedSession(baseProject: try ProjectConfigLoader.loadDefault())
        #expect(session.session.devices.map(\.name) == [.android, .laptop] && session.session.focus == 0)
    }

    @Test("an expectation about another device checks that device, and says so when it fails")
    func expectationOnAnotherDevice() async throws {
        let scenario = try ScenarioParser.parse("""
            name: t
            devices: [iphone, laptop]
            steps:
              - open: /account
              - focus: laptop
              - expect: {screen: app, landsAt: /}
              - expect: {device: iphone, screen: signIn}
              - expect: {device: iphone, landsAt: /account}
            """, source: "t.yaml")
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        let failure = try #require(transcript.failure)
        #expect(failure.step == 5)
        #expect(failure.message == "expected landsAt /account, but the app shows the sign-in screen")
    }

    @Test("hostile text in a scenario file is sanitized in errors")
    func hostileText() throws {
        let problem = try #require(error(Self.header + "  - \"fly\\e[2J\": x\n"))
        #expect(!problem.description.contains("\u{1B}"))
        #expect(problem.description.contains("fly␛[2J"))
    }

    @Test("advance takes the same durations as project files: seconds, or units largest first")
    func advanceDurations() throws {
        let scenario = try ScenarioParser.parse(Self.header + "  - advance: 1h30m\n  - advance: 90\n", source: "ok.yaml")
        let advances = scenario.steps.compactMap { step -> TimeInterval? in
            if case .event(.clockAdvanceRequested(let seconds)) = step.action { return seconds }
            return nil
        }
        #expect(advances == [5400, 90])
        let problem = try #require(error(Self.header + "  - advance: 30m1h\n"))
        #expect(problem.description.hasSuffix("got '30m1h': 'h' comes too late (units go d, h, m, s)"))
    }

    @Test("a draft step types into a phone field; user placeholders take the values of the project played")
    func draftsAndPlaceholders() async throws {
        let yaml = Self.header + """
          - draft: {field: signIn.email, value: $verified.email}
          - open: /subscribe
          - signIn: {email: $unverified.email, password: $unverified.password}
          - expect: {screen: verifyEmail}
        """
        let scenario = try ScenarioParser.parse(yaml, source: "p.yaml")
        var project = try ProjectConfigLoader.loadDefault()
        project.users = [
            PresetUser(email: "dora@example.com", password: "dora-password-1", displayName: "Dora", emailVerified: true, disabled: false),
            PresetUser(email: "erin@example.com", password: "erin-password-1", displayName: "Erin", emailVerified: false, disabled: false),
        ]
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: project)
        #expect(transcript.passed, "\(transcript.text())")
        #expect(transcript.finalSession?.drafts["signIn.email"] == "dora@example.com")
        #expect(transcript.finalSession?.app.session?.email == "erin@example.com")

        project.users.removeAll { !$0.emailVerified }
        let missing = await ScenarioLibrary.runEmbedded(scenario, baseProject: project)
        #expect(missing.failure?.description == "p.yaml:6: step 3: $unverified.email: the project has no unverified user who is not disabled")
    }

    @Test("a wrong expectation stops the run with a message naming the step and what the app shows")
    func wrongExpectation() async throws {
        let yaml = """
        name: wrong
        steps:
          - open: /articles/42
          - expect: {screen: signIn}
          - expect: {landsAt: /articles/42}
          - open: /
        """
        let scenario = try ScenarioParser.parse(yaml, source: "wrong.yaml")
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        let failure = try #require(transcript.failure)
        #expect(failure.description == "wrong.yaml:5: step 3: expected landsAt /articles/42, but the app shows the sign-in screen")
        #expect(transcript.text().hasSuffix("FAILED: wrong.yaml:5: step 3: expected landsAt /articles/42, but the app shows the sign-in screen"))
        #expect(transcript.text().contains("✓ expect screen signIn"))
        #expect(!transcript.lines.contains(.step(number: 4, summary: "open /")), "the run stops at the first unmet expectation")
    }

    @Test("a step that names a message the inbox does not have fails clearly")
    func missingMessage() async throws {
        let scenario = try ScenarioParser.parse(Self.header + "  - tapLink: 3\n", source: "m.yaml")
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        #expect(transcript.failure?.description == "m.yaml:4: step 1: there is no message 3: the inbox holds 0")
    }

    @Test("a transport that cannot start is a setup failure, reported without a step")
    func transportDoesNotStart() async throws {
        let scenario = try ScenarioParser.parse(Self.header + "  - forgotPassword\n", source: "s.yaml")
        let transcript = await ScenarioLibrary.run(scenario, baseProject: try ProjectConfigLoader.loadDefault(), over: RefusedTransport())
        let failure = try #require(transcript.failure)
        #expect(failure.isSetup)
        #expect(failure.description == "s.yaml: cannot start the transport: network failure: connection refused by 127.0.0.1:9099")
    }

    @Test("shipped scenarios are found by name, with or without .yaml; unknown names list the shipped ones")
    func locate() throws {
        #expect(try ScenarioLibrary.locate("expired-link").lastPathComponent == "expired-link.yaml")
        #expect(try ScenarioLibrary.locate("expired-link.yaml").lastPathComponent == "expired-link.yaml")
        #expect(throws: ScenarioFileError.self) { try ScenarioLibrary.locate("no-such-scenario") }
        do {
            _ = try ScenarioLibrary.locate("no-such-scenario")
        } catch {
            #expect(error.description.contains("shipped: android-app-missing-install"))
        }
    }
}

/// A server that is not there: every call is refused.
struct RefusedTransport: AuthTransport {
    var summary: String { "rest http://127.0.0.1:9099" }
    var capabilities: TransportCapabilities { TransportCapabilities(listsMailbox: true, controlsClock: true, resetsWorld: true) }
    var refused: AuthFailure { .network(.connectionRefused(host: "127.0.0.1:9099")) }
    func perform(_ call: AuthCall) async throws(AuthFailure) -> AuthReply { throw refused }
    func mailbox() async throws(AuthFailure) -> [MailMessage] { throw refused }
    func textMessages() async throws(AuthFailure) -> [PhoneVerificationCode] { throw refused }
    func now() async throws(AuthFailure) -> Date { throw refused }
    func advanceClock(by seconds: TimeInterval) async throws(AuthFailure) -> Date { throw refused }
    func resetWorld() async throws(AuthFailure) { throw refused }
    func applyProject(_ project: ProjectConfiguration) async throws(AuthFailure) -> Date { throw refused }
}

@Suite("Step captions")
struct StepCaptionTests {
    @Test("caption: beside an action is kept for the presenter; without one each action has a plain-language default")
    func captions() throws {
        let scenario = try ScenarioParser.parse("""
        name: captions
        steps:
          - open: /articles/42
            caption: Bob opens the article his friend sent
          - forgotPassword
          - tapLink: latest
        """, source: "captions.yaml")
        #expect(scenario.steps[0].caption == "Bob opens the article his friend sent")
        #expect(scenario.steps[1].caption == nil)
        #expect(scenario.steps[1].action.caption == "Taps “Forgot password?”")
        #expect(scenario.steps[2].action.caption == "Taps the link in the latest email")
    }

    @Test("A caption needs words, and a step still holds one action beside it")
    func badCaptions() throws {
        #expect(throws: ScenarioFileError.self) {
            try ScenarioParser.parse("name: x\nsteps:\n  - open: /\n    caption: \"  \"\n", source: "x.yaml")
        }
        #expect(throws: ScenarioFileError.self) {
            try ScenarioParser.parse("name: x\nsteps:\n  - open: /\n    forgotPassword: true\n    caption: two actions\n", source: "x.yaml")
        }
    }
}
