import Foundation

/// Where the running program is. Files shipped beside it (the resource bundle, the other
/// programs of the package) are found from here.
public enum ProgramLocation {
    /// The running executable (a test runner's, under `swift test`), symbolic links resolved.
    /// Read from `/proc/self/exe` where there is one: `Bundle.main` would load CoreFoundation's
    /// bundle and URL machinery into every start (docs/architecture.md, "Start-up, memory and speed").
    public static let executable: URL? = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }()

    /// The folder holding the running executable.
    public static var folder: URL? { executable?.deletingLastPathComponent() }

    /// The path of the program `name` beside the running one, and whether it can be run there;
    /// nil when the running program's folder is unknown.
    public static func sibling(_ name: String) -> (path: String, runnable: Bool)? {
        guard let path = folder?.appendingPathComponent(name).path else { return nil }
        return (path, access(path, X_OK) == 0)
    }
}
