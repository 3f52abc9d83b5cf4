import ActionFlowClient
import ActionFlowModel

/// The interface's default world: the simulated project in process.
public enum EmbeddedWorld {
    /// The app the interface starts with when no scenario says otherwise: an iPhone with the app
    /// installed and the iOS SDK's default settings (its own bundle id), continuing on the
    /// project's own web origin.
    public static func defaultApp(project: ProjectConfiguration) -> AppState {
        let settings = ActionCodeSettings.iOSDefault(bundleID: project.iOSApp?.bundleId ?? "com.example.ios")
        return AppState(device: .iPhone, settings: settings, continueURLBase: project.appOrigin)
    }

    /// The devices the interface starts with, each as its preset with the default app settings.
    public static func defaultDevices(_ names: [DeviceName], project: ProjectConfiguration) -> [SessionDevice] {
        let settings = defaultApp(project: project).settings
        return names.map { SessionDevice(name: $0, settings: settings, continueURLBase: project.appOrigin) }
    }

    /// A fresh session on the embedded project. `app` nil starts from `defaultApp`.
    public static func driver(project: ProjectConfiguration, app: AppState? = nil) -> SessionDriver {
        SessionDriver.embedded(project: project, app: app ?? defaultApp(project: project))
    }
}
