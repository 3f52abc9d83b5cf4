import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowCommands
import ArgumentParser
import Foundation
import Testing

@Suite struct RunCommandTests {
    func command(_ arguments: [String]) throws -> RunCommand {
        try #require(try ActionFlowCommand.parseAsRoot(["run"] + arguments) as? RunCommand)
    }

    func temporaryScenario(_ yaml: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString).yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func shippedScenarioByNamePasses() async throws {
        try await command(["password-reset-in-app", "--quiet"]).run()
    }

    @Test("every welcome-screen story plays headless on the default project", arguments: ScenarioLibrary.storyFiles())
    func storyPasses(_ file: URL) async throws {
        try await command([file.path, "--quiet"]).run()
        try await command([file.deletingPathExtension().lastPathComponent, "--quiet"]).run()
    }

    @Test func unmetExpectationExitsWithOne() async throws {
        let file = try temporaryScenario("name: unmet\nsteps:\n  - open: /account\n  - expect: {landsAt: /account}\n")
        defer { try? FileManager.default.removeItem(at: file) }
        await #expect(throws: ExitCode.failure) { try await command([file.path]).run() }
    }

    @Test func badFileExitsWithTwo() async throws {
        let file = try temporaryScenario("name: bad\nsteps:\n  - advance: later\n")
        defer { try? FileManager.default.removeItem(at: file) }
        await #expect(throws: ExitCode(2)) { try await command([file.path]).run() }
        await #expect(throws: ExitCode(2)) { try await command(["no-such-scenario"]).run() }
    }

    @Test("a scenario's project overrides meet the project rules on the project it is played against")
    func projectOverridesAreCheckedOnTheProjectPlayed() async throws {
        let scenario = try temporaryScenario("name: legacy\nproject: {mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN}\nsteps:\n  - open: /\n")
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("run-project-\(UUID().uuidString).yaml")
        try "dynamicLinkDomains: []\n".write(to: project, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(at: scenario)
            try? FileManager.default.removeItem(at: project)
        }
        try await command([scenario.path, "--quiet"]).run()
        await #expect(throws: ExitCode(2)) { try await command([scenario.path, "--project", project.path]).run() }
    }

    @Test("--devices: a bad list is refused with the valid names; a scenario's devices are replaced, keeping their fields")
    func devicesOption() async throws {
        for (value, message) in [("ipad", "unknown device `ipad`; expected one of iphone, android, laptop, desktop"),
                                 ("iphone,laptop,android", "3 devices named (iphone, laptop, android); a session holds at most 2")] {
            do {
                _ = try ActionFlowCommand.parseAsRoot(["run", "password-reset-in-app", "--devices", value])
                Issue.record("--devices \(value) was accepted")
            } catch {
                #expect(ActionFlowCommand.message(for: error).contains("--devices: \(message)"))
            }
        }
        // A one-device story played with a laptop beside the phone: the laptop is never used.
        try await command(["password-reset-in-app", "--devices", "iphone,laptop", "--quiet"]).run()
        // The laptop the cross-device scenario switches to is not there.
        await #expect(throws: ExitCode.failure) { try await command(["cross-device-password-reset", "--devices", "iphone", "--quiet"]).run() }

        var scenario = try ScenarioParser.parse("name: t\ndevice: {preset: pixel, installedVersion: 9}\nsteps:\n  - open: /\n", source: "t.yaml")
        DeviceOptions.apply([.laptop, .android], to: &scenario)
        #expect(scenario.devices.map(\.name) == [.laptop, .android])
        #expect(scenario.devices[1].device.installedVersion == 9, "the android keeps the scenario's fields")
        #expect(scenario.devices[0].device == .laptop)
    }

    @Test("--sdk: the app on each device of the profile's platform reads links as that SDK; a profile with no such device, or unknown, is refused")
    func sdkOption() async throws {
        do {
            _ = try ActionFlowCommand.parseAsRoot(["run", "password-reset-in-app", "--sdk", "ios@9"])
            Issue.record("--sdk ios@9 was accepted")
        } catch {
            #expect(ActionFlowCommand.message(for: error).contains("--sdk: no profile covers \"ios@9\""))
        }
        var scenario = try ScenarioParser.parse("name: t\ndevices: [iphone, laptop]\nsteps:\n  - open: /\n", source: "t.yaml")
        try DeviceOptions.apply(SDKProfile.named("js@10.14.1"), to: &scenario)
        #expect(scenario.devices[0].device.sdk == nil)
        #expect(scenario.devices[1].device.sdk?.name == "js@10.14.1")
        #expect(throws: ValidationError.self) { try DeviceOptions.apply(SDKProfile.named("android@23.2.0"), to: &scenario) }
        // The in-app reset plays on iOS 11.12+, whose ActionCodeURL reads resetPassword links...
        try await command(["password-reset-in-app", "--sdk", "ios@11.15.0", "--quiet"]).run()
        // ...but not on 11.11, which maps the mode to unknown: the app stays on the sign-in screen.
        await #expect(throws: ExitCode.failure) { try await command(["password-reset-in-app", "--sdk", "ios@11.11.0", "--quiet"]).run() }
    }
}
