import ActionFlowModel
import Foundation

/// The files shipped in the package's top-level `Resources/` folder.
public enum BundledResources {
    /// The resource bundle SwiftPM builds beside the program.
    public static let bundleName = "actionflow_ActionFlowBackend.resources"

    /// `Resources/` as bundled with the build.
    public static let directory: URL = {
        // The build copies the bundle beside the program; finding it there directly spares the
        // start Foundation's Bundle (half a millisecond, and CoreFoundation's bundle code in
        // memory). Elsewhere, as SwiftPM finds it.
        if let besideProgram = ProgramLocation.folder?.appendingPathComponent(bundleName + "/Resources", isDirectory: true),
           FileManager.default.fileExists(atPath: besideProgram.appendingPathComponent("project.yaml").path) {
            return besideProgram
        }
        // Not `resourceURL`: on Linux a bundle's inner `Resources` folder already is that URL.
        return Bundle.module.bundleURL.appendingPathComponent("Resources", isDirectory: true)
    }()

    /// The default simulated project.
    public static var defaultProjectFile: URL { directory.appendingPathComponent("project.yaml") }

    /// The shipped scenario files.
    public static var scenariosDirectory: URL { directory.appendingPathComponent("scenarios", isDirectory: true) }

    /// The user stories the welcome screen offers, as scenario files.
    public static var storiesDirectory: URL { directory.appendingPathComponent("stories", isDirectory: true) }
}
