import Foundation
import Synchronization

/// Starts child processes one at a time across the whole test run: swift-corelibs-foundation's
/// `Process.run()` is not safe to call from several threads at once (a parallel run crashed in
/// a `memcpy` inside it while tests launched node, python and serve side by side).
public enum ProcessLaunch {
    private static let launching = Mutex(())

    public static func run(_ process: Process) throws {
        try launching.withLock { _ in try process.run() }
    }
}
