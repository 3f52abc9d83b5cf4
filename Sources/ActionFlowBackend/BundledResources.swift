import Foundation

/// The files shipped in the package's top-level `Resources/` folder.
public enum BundledResources {
    /// `Resources/` as bundled with the build.
    public static var directory: URL {
        // Not `resourceURL`: on Linux a bundle's inner `Resources` folder already is that URL.
        Bundle.module.bundleURL.appendingPathComponent("Resources", isDirectory: true)
    }

    /// The default simulated project.
    public static var defaultProjectFile: URL { directory.appendingPathComponent("project.yaml") }

    /// The shipped scenario files.
    public static var scenariosDirectory: URL { directory.appendingPathComponent("scenarios", isDirectory: true) }

    /// The user stories the welcome screen offers, as scenario files.
    public static var storiesDirectory: URL { directory.appendingPathComponent("stories", isDirectory: true) }
}
