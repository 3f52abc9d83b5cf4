import ActionFlowModel
import Foundation

/// A measurement that could not be made: said as it is, without the usage a wrong option gets.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

/// A program run to its end with its wall time and peak memory (`wait4`'s rusage), output
/// discarded.
enum ChildProcess {
    struct Result {
        var seconds: Double
        var peakMiB: Double
    }

    /// This benchmark program itself.
    static func ownExecutable() throws -> String {
        guard let executable = ProgramLocation.executable else { throw BenchFailure(description: "cannot find the actionflow-bench executable") }
        return executable.path
    }

    /// A program the build puts beside this one (`actionflow`, `actionflow-serve`).
    static func besideThis(_ name: String) throws -> String {
        guard let program = ProgramLocation.sibling(name) else { throw BenchFailure(description: "cannot find the folder of the actionflow-bench executable") }
        guard program.runnable else {
            throw BenchFailure(description: "\(name) is not beside this program at \(program.path): build the package with `swift build -c release`")
        }
        return program.path
    }

    /// Runs with standard input from a file.
    static func run(_ executable: String, _ arguments: [String], stdin path: String) throws -> Result {
        let input = open(path, O_RDONLY)
        guard input >= 0 else { throw BenchFailure(description: "cannot open \(path)") }
        defer { close(input) }
        let start = ContinuousClock.now
        let pid = try spawn(executable, arguments, stdin: input)
        return try wait(pid, executable, since: start)
    }

    /// Wall seconds of one run, standard input from a file (empty by default): a blocking wait,
    /// since the memory sampling of `run` would round the time up to its sampling period and
    /// take CPU time from the program.
    static func time(_ executable: String, _ arguments: [String], stdin path: String = "/dev/null") throws -> Double {
        let input = open(path, O_RDONLY)
        guard input >= 0 else { throw BenchFailure(description: "cannot open \(path)") }
        defer { close(input) }
        let start = ContinuousClock.now
        let status = try waitStatus(try spawn(executable, arguments, stdin: input), executable)
        let seconds = (ContinuousClock.now - start).seconds
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw BenchFailure(description: "\(executable) failed (wait status \(status))") }
        return seconds
    }

    /// Waits for the child to end; returns its wait status.
    private static func waitStatus(_ pid: pid_t, _ executable: String) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchFailure(description: "lost track of \(executable)") }
        }
        return status
    }

    /// Runs to the end and returns what it wrote on standard error (standard output discarded).
    static func standardError(_ executable: String, _ arguments: [String]) throws -> String {
        try collected(executable, arguments, from: 2)
    }

    /// Runs to the end and returns what it wrote on standard output (standard error discarded).
    static func standardOutput(_ executable: String, _ arguments: [String]) throws -> String {
        try collected(executable, arguments, from: 1)
    }

    private static func collected(_ executable: String, _ arguments: [String], from stream: Int32) throws -> String {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BenchFailure(description: "cannot create a pipe") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let input = open("/dev/null", O_RDONLY)
        defer { close(input) }
        let pid = try spawn(executable, arguments, stdin: input, stdout: stream == 1 ? pipeEnds[1] : nil, stderr: stream == 2 ? pipeEnds[1] : nil)
        close(pipeEnds[1])
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: chunk[..<count])
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw BenchFailure(description: "\(executable) failed (wait status \(status))") }
        return String(decoding: output, as: UTF8.self)
    }

    /// Runs with `lines` lines on standard input, cycling through `corpus`, written from here
    /// through a pipe (no file of that size is made).
    static func run(_ executable: String, _ arguments: [String], feeding lines: Int, from corpus: [String]) throws -> Result {
        var pipeEnds: [Int32] = [0, 0]
        // Close-on-exec: the inspector must not hold the write end, or it would never see the end of its input.
        guard pipe(&pipeEnds) == 0 else { throw BenchFailure(description: "cannot create a pipe") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let start = ContinuousClock.now
        let pid = try spawn(executable, arguments, stdin: pipeEnds[0])
        close(pipeEnds[0])
        var block: [UInt8] = []
        block.reserveCapacity(1 << 20)
        let encoded = corpus.map { Array(($0 + "\n").utf8) }
        for index in 0..<lines {
            block.append(contentsOf: encoded[index % encoded.count])
            if block.count >= 1 << 20 || index == lines - 1 {
                try writeAll(pipeEnds[1], block)
                block.removeAll(keepingCapacity: true)
            }
        }
        close(pipeEnds[1])
        return try wait(pid, executable, since: start)
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        if bytes.withUnsafeBytes({ DescriptorWrite.all(descriptor, $0) }) != nil {
            throw BenchFailure(description: "the inspector stopped reading its input")
        }
    }

    /// Starts `executable` with standard output and standard error discarded unless given.
    private static func spawn(_ executable: String, _ arguments: [String], stdin: Int32, stdout: Int32? = nil, stderr: Int32? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let stderr {
            posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        } else {
            // The reference prints its own figure on stderr; this command prints both.
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw BenchFailure(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits for the child, sampling its peak resident size (`VmHWM`) while it runs: `wait4`'s
    /// `ru_maxrss` would count this process's memory too, as `posix_spawn` starts the child
    /// sharing it until the exec.
    private static func wait(_ pid: pid_t, _ executable: String, since start: ContinuousClock.Instant) throws -> Result {
        var status: Int32 = 0
        var peakKiB = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0, errno != EINTR { throw BenchFailure(description: "lost track of \(executable)") }
            peakKiB = max(peakKiB, highWaterKiB(pid) ?? 0)
            usleep(2_000)
        }
        let seconds = (ContinuousClock.now - start).seconds
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw BenchFailure(description: "\(executable) failed (wait status \(status))") }
        return Result(seconds: seconds, peakMiB: Double(peakKiB) / 1024)
    }

    private static func highWaterKiB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
