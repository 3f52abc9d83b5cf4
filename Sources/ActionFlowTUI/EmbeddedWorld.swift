import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// The interface's default world: the simulated project in process, every exchange recorded
/// for the Network pane, and a project that can be swapped from the Project pane.
public enum EmbeddedWorld {
    /// The state the app starts in with no scenario: an iPhone with the app installed and the
    /// iOS SDK's default settings (its own bundle id).
    public static func defaultState(project: ProjectConfiguration) -> AppState {
        let settings = ActionCodeSettings.iOSDefault(bundleID: project.iOSApp?.bundleId ?? "com.example.ios")
        return AppState(device: .iPhone, settings: settings, project: project)
    }

    /// A runtime over another transport (REST to an emulator, `serve` or production): exchanges
    /// are recorded, but the project cannot be swapped from the interface.
    public static func runtime(over transport: any AuthTransport, project: ProjectConfiguration, state: AppState? = nil) async -> AppRuntime {
        let recording = RecordingTransport(transport, apiKey: project.apiKey)
        var initial = state ?? defaultState(project: project)
        initial.now = try? await recording.now()
        return AppRuntime(state: initial, transport: recording, exchanges: AppRuntime.exchanges(of: recording))
    }

    /// A runtime over a fresh embedded project. `state` nil starts from `defaultState`.
    public static func runtime(project: ProjectConfiguration, state: AppState? = nil) async -> AppRuntime {
        let embedded = EmbeddedTransport(configuration: project)
        let recording = RecordingTransport(embedded, apiKey: project.apiKey)
        var initial = state ?? defaultState(project: project)
        initial.now = try? await recording.now()
        return AppRuntime(
            state: initial,
            transport: recording,
            reconfigure: AppRuntime.reconfiguring(embedded, clearing: recording),
            exchanges: AppRuntime.exchanges(of: recording)
        )
    }
}
