import ArgumentParser
import CTerminalSupport
import Foundation

/// `actionflow bench terminal`: the interface in a pseudo-terminal, measured from outside: cold
/// start to first complete frame, key-to-frame latency, and bytes written per focus move.
struct BenchTerminalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Cold start to first frame, key-to-frame latency (median, p99) and bytes per focus move, in a pseudo-terminal."
    )

    @Option(help: "Cold starts to measure.")
    var starts = 10

    @Option(help: "Key presses to measure.")
    var keys = 300

    func validate() throws {
        guard (1...200).contains(starts) else { throw ValidationError("--starts must be between 1 and 200, not \(starts)") }
        guard (10...10_000).contains(keys) else { throw ValidationError("--keys must be between 10 and 10000, not \(keys)") }
    }

    func run() async throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var startTimes: [Double] = []
        for _ in 0..<starts {
            let session = try PseudoTerminalSession(binary: binary)
            startTimes.append(try session.waitForText("quit", timeout: 10) * 1000)
            session.finish()
        }

        let session = try PseudoTerminalSession(binary: binary)
        _ = try session.waitForText("quit", timeout: 10)
        // Story 1 opens the sign-in form: j/k (↓/↑) then move focus between its two text fields.
        session.write("1")
        _ = try session.waitForText("Password", timeout: 10)
        session.drain(quiet: 0.2)
        var latencies: [Double] = []
        var bytes: [Int] = []
        for index in 0..<keys {
            let sent = Date()
            session.write(index % 2 == 0 ? "j" : "k")
            let (count, last) = session.drain(quiet: 0.03)
            guard count > 0, let last else { throw ValidationError("no frame after key \(index + 1)") }
            latencies.append(last.timeIntervalSince(sent) * 1000)
            bytes.append(count)
        }
        session.finish()

        print("terminal (pseudo-terminal 100x30, TERM=xterm-256color)")
        print(String(format: "  cold start to first frame   median %.1f ms  (min %.1f, max %.1f, %d starts; target < 100 ms)",
                     percentile(startTimes, 0.5), startTimes.min() ?? 0, startTimes.max() ?? 0, starts))
        print(String(format: "  key to frame                median %.2f ms  p99 %.2f ms  (%d keys; target p99 < 5 ms)",
                     percentile(latencies, 0.5), percentile(latencies, 0.99), keys))
        print(String(format: "  bytes per focus move        median %.0f  max %d  (two text fields; target < 400)",
                     percentile(bytes.map(Double.init), 0.5), bytes.max() ?? 0))
    }

    private func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

/// The interface running on a new pseudo-terminal, read and written from this process.
final class PseudoTerminalSession {
    private let pid: pid_t
    private let master: Int32
    private let logFile: String
    private var output = [UInt8]()
    private let started = Date()

    init(binary: String, width: Int = 100, height: Int = 30) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-\(getpid()).log").path
        let arguments = [binary, "tui", "--log-file", logFile]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LC_ALL"] = "C.UTF-8"
        environment["NO_COLOR"] = nil
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var master: Int32 = -1
        pid = ts_spawn_in_pty(binary, argv, envp, Int32(height), Int32(width), &master)
        guard pid > 0, master >= 0 else { throw ValidationError("cannot start \(binary) on a pseudo-terminal") }
        self.master = master
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Foundation.write(master, &bytes, bytes.count)
    }

    /// Reads until `text` has appeared; returns seconds since the start.
    func waitForText(_ text: String, timeout: Double) throws -> Double {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if read(timeout: 0.05) > 0, output.count >= needle.count,
               String(decoding: output.suffix(4096), as: UTF8.self).contains(text) {
                return Date().timeIntervalSince(started)
            }
        }
        throw ValidationError("'\(text)' did not appear within \(timeout) s")
    }

    /// Reads until nothing arrives for `quiet` seconds; returns the bytes read and when the last came.
    @discardableResult
    func drain(quiet: Double) -> (count: Int, last: Date?) {
        var total = 0
        var last: Date?
        while true {
            let count = read(timeout: quiet)
            if count <= 0 { return (total, last) }
            total += count
            last = Date()
        }
    }

    private func read(timeout: Double) -> Int {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return 0 }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = Foundation.read(master, &buffer, buffer.count)
        if count > 0 {
            output += buffer[0..<count]
            if output.count > 1 << 20 { output.removeFirst(output.count - 65536) }
        }
        return max(0, count)
    }

    func finish() {
        write("q")
        var status: Int32 = 0
        for _ in 0..<100 {
            drain(quiet: 0.01)
            if waitpid(pid, &status, WNOHANG) == pid { break }
        }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(master)
        try? FileManager.default.removeItem(atPath: logFile)
    }
}
