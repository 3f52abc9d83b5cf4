import Foundation

/// Where the running program is. Files shipped beside it (the resource bundle, the HTTP engine
/// library) are found from here.
public enum ProgramLocation {
    /// The folder holding the running executable (a test runner's, under `swift test`). Read
    /// from `/proc/self/exe` where there is one: `Bundle.main` would load CoreFoundation's bundle
    /// and URL machinery into every start (README, "Benchmark": peak memory).
    public static let folder: URL? = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return Bundle.main.executableURL?.deletingLastPathComponent()
    }()
}
