#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a start's time goes, for `actionflow-bench terminal`: with `ACTIONFLOW_STARTUP_TRACE=FILE`
/// each phase appends "microseconds-since-main phase" to FILE. Without it a mark costs a check.
public enum StartupTrace {
    public static let environmentKey = "ACTIONFLOW_STARTUP_TRACE"

    private static let file: Int32? = getenv(environmentKey).flatMap { path in
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? descriptor : nil
    }
    private static let origin = monotonicMicroseconds()

    /// Starts the clock; call first thing in `main`.
    public static func begin() {
        guard file != nil else { return }
        _ = origin
        mark("main")
    }

    public static func mark(_ phase: StaticString) {
        guard let file else { return }
        let line = "\(monotonicMicroseconds() - origin) \(phase)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
    }

    private static func monotonicMicroseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000 + now.tv_nsec / 1_000
    }
}
