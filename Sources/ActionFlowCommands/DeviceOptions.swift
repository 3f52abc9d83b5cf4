import ActionFlowClient
import ActionFlowModel
import ArgumentParser

/// `--devices iphone,laptop`: the devices of a new session (shared by `tui` and `run`).
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The session's devices, one or two of \(DeviceName.names), separated by a comma (default: the phone alone, or the scenario's). Taps happen on the device in focus; the mailbox is shared.", valueName: "names"))
    var devices: String?

    func validate() throws {
        _ = try names()
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
}
