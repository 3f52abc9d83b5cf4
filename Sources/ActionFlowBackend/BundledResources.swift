import Foundation

/// The files shipped in the package's top-level `Resources/` folder.
public enum BundledResources {
    /// `Resources/` as bundled with the build.
    public static let directory: URL = {
        // The build copies the bundle beside the program; finding it there directly spares the
        // start a Bundle(path:) (about half a millisecond). Elsewhere, as SwiftPM finds it.
        let besideProgram = Bundle.main.bundleURL.appendingPathComponent("actionflow_ActionFlowBackend.resources/Resources", isDirectory: true)
        if FileManager.default.fileExists(atPath: besideProgram.appendingPathComponent("project.yaml").path) { return besideProgram }
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
