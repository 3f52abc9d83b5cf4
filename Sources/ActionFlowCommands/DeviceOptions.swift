import ActionFlowClient
import ActionFlowModel
import ArgumentParser

/// `--devices iphone,laptop`: the devices of a new session (shared by `tui` and `run`).
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The session's devices, one or two of \(DeviceName.names), separated by a comma (default: the phone alone, or the scenario's). Taps happen on the device in focus; the mailbox is shared.", valueName: "names"))
    var devices: String?

    @Option(help: ArgumentHelp("The SDK and version the app is built on (PLATFORM@VERSION: ios@11.15.0, js@10.14.1, android@23.2.0, flutterfire@4.6.0, rnfb@21.0.0): the app on each device of that platform reads links as that SDK does. Default: as Firebase documents them.", valueName: "profile"))
    var sdk: String?

    func validate() throws {
        _ = try names()
        _ = try profile()
    }

    /// The profile given, or nil when the option is not.
    func profile() throws -> SDKProfile? {
        guard let sdk else { return nil }
        do throws(SDKProfileError) {
            return try SDKProfile.named(sdk)
        } catch {
            throw ValidationError("--sdk: \(error.description)")
        }
    }

    /// Puts `profile` on the app of every device of its platform; refused when no device fits.
    static func apply(_ profile: SDKProfile?, to devices: inout [Device]) throws {
        guard let profile else { return }
        var fitted = false
        for index in devices.indices where devices[index].platform == profile.platform.device {
            devices[index].sdk = profile
            fitted = true
        }
        guard fitted else {
            throw ValidationError("--sdk \(profile.name): the app on it runs on \(profile.platform.device.title), and the session has no such device (its devices: \(devices.map(\.platform.title).joined(separator: ", ")); choose one with --devices)")
        }
    }

    /// The names given, or nil when the option is not.
    func names() throws -> [DeviceName]? {
        guard let devices else { return nil }
        do throws(DeviceListError) {
            return try DeviceName.parseList(devices)
        } catch {
            throw ValidationError("--devices: \(error.message)")
        }
    }

    /// The scenario's devices replaced by the names given: a device the scenario also names
    /// keeps its fields, another starts as its preset.
    static func apply(_ names: [DeviceName]?, to scenario: inout Scenario) {
        guard let names else { return }
        let given = scenario.devices
        scenario.devices = names.map { name in given.first { $0.name == name } ?? NamedDevice(name: name, device: name.preset) }
    }

    static func apply(_ profile: SDKProfile?, to scenario: inout Scenario) throws {
        var devices = scenario.devices.map(\.device)
        try apply(profile, to: &devices)
        for index in devices.indices { scenario.devices[index].device = devices[index] }
    }

    static func apply(_ profile: SDKProfile?, to sessionDevices: inout [SessionDevice]) throws {
        var devices = sessionDevices.map(\.app.device)
        try apply(profile, to: &devices)
        for index in devices.indices { sessionDevices[index].app.device = devices[index] }
    }
}
