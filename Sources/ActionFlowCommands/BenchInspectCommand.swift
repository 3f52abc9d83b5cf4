import ActionFlowModel
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `actionflow bench inspect`: `inspect --jsonl -` against the plain Python urllib inspector of
/// `../shared/bench/`, both as whole processes on the same generated input, in the same run.
struct BenchInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Links per second of inspect --jsonl against the Python reference inspector, and its memory over a long stream."
    )

    @Option(help: "Links in the timed input.")
    var links = 100_000

    @Option(help: "Timed runs of each program (the median is reported).")
    var runs = 5

    @Option(name: .customLong("memory-lines"), help: "Lines streamed through one process to check that its memory stays flat.")
    var memoryLines = 1_000_000

    @Option(help: ArgumentHelp("The Python reference inspector.", valueName: "path"))
    var reference = "../shared/bench/python_inspect_reference.py"

    static let target = 10.0

    func validate() throws {
        guard (1...10_000_000).contains(links) else { throw ValidationError("--links must be between 1 and 10000000, not \(links)") }
        guard (1...99).contains(runs) else { throw ValidationError("--runs must be between 1 and 99, not \(runs)") }
        guard (0...100_000_000).contains(memoryLines) else { throw ValidationError("--memory-lines must be between 0 and 100000000, not \(memoryLines)") }
    }

    func run() throws {
        let executable = try ChildProcess.ownExecutable()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("links.txt").path
        try Data(Self.corpus(count: links).joined(separator: "\n").appending("\n").utf8).write(to: URL(fileURLWithPath: input))

        print("inspect (whole processes, \(links) links, median of \(runs), the two programs taking turns)")
        let hasReference = FileManager.default.fileExists(atPath: reference)
        // Alternating runs, so a machine that slows down part way slows both programs alike.
        var ownSeconds: [Double] = []
        var pythonSeconds: [Double] = []
        for _ in 0..<runs {
            ownSeconds.append(try ChildProcess.time(executable, ["inspect", "--jsonl", "-"], stdin: input))
            if hasReference { pythonSeconds.append(try ChildProcess.time("/usr/bin/env", ["python3", reference], stdin: input)) }
        }
        let ownMedian = BenchCoreCommand.median(ownSeconds)
        let ownRate = Double(links) / ownMedian
        var line = "  inspect --jsonl -: \(Int(ownRate.rounded())) links/s (\(String(format: "%.3f", ownMedian)) s)"
        if hasReference {
            let pythonRate = Double(links) / BenchCoreCommand.median(pythonSeconds)
            let ratio = ownRate / pythonRate
            line += "; Python reference: \(Int(pythonRate.rounded())) links/s; ratio \(String(format: "%.1f", ratio))x (target \(Int(Self.target))x: \(ratio >= Self.target ? "meets" : "below"))"
        } else {
            line += "; Python reference not found at \(reference) (--reference)"
        }
        print(line)
        var single: [Double] = []
        for _ in 0..<runs { single.append(try ChildProcess.time(executable, ["inspect", "--jsonl", "-", "--jobs", "1"], stdin: input)) }
        let singleMedian = BenchCoreCommand.median(single)
        print("  with --jobs 1 (one thread; the figure above uses \(InspectStream.defaultWorkers)): \(Int((Double(links) / singleMedian).rounded())) links/s (\(String(format: "%.3f", singleMedian)) s)")
        // Memory in a run of its own: sampling it takes CPU time from the timed runs.
        let sampled = try ChildProcess.run(executable, ["inspect", "--jsonl", "-"], stdin: input)
        print("  peak memory over \(links) links: \(String(format: "%.1f", sampled.peakMiB)) MiB")
        if memoryLines > 0 {
            let streamed = try ChildProcess.run(executable, ["inspect", "--jsonl", "-"], feeding: memoryLines, from: Self.corpus(count: min(memoryLines, 10_000)))
            print("  peak memory over \(memoryLines) streamed lines: \(String(format: "%.1f", streamed.peakMiB)) MiB (\(Int((Double(memoryLines) / streamed.seconds).rounded())) links/s)")
        }
    }

    /// A reproducible mix of what a mail log holds: action links, Hosting and Dynamic Links
    /// wrappers, continue URLs inside and outside the allow-list, and lines that are no link.
    static func corpus(count: Int) -> [String] {
        let modes = ["resetPassword", "verifyEmail", "signIn", "recoverEmail", "verifyAndChangeEmail"]
        let continueURLs = ["https://www.example.com/articles/", "https://evil.example.net/x?y=", "https://demo-actionflow.web.app/a?b="]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SplitMix64(seed: 1)
        return (0..<count).map { index in
            let code = String((0..<40).map { _ in alphabet.randomElement(using: &generator)! })
            let continueURL = (continueURLs.randomElement(using: &generator)! + String(index)).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let action = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=\(modes.randomElement(using: &generator)!)&oobCode=\(code)&apiKey=AIzaSyFakeKey123&continueUrl=\(continueURL)&lang=en"
            let wrapped = action.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            switch index % 4 {
            case 1: return "https://demo-actionflow.firebaseapp.com/__/auth/links?link=\(wrapped)"
            case 2: return "https://example.page.link/?link=\(wrapped)&apn=com.example.android&ibi=com.example.ios"
            case 3 where index % 40 == 3: return "not a link \(index)"
            default: return action
            }
        }
    }
}

/// A small seeded generator, so every run inspects the same input.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A program run to its end with its wall time and peak memory (`wait4`'s rusage), output
/// discarded.
public enum ChildProcess {
    struct Result {
        var seconds: Double
        var peakMiB: Double
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static func ownExecutable() throws -> String {
        guard let executable = ProgramLocation.executable else { throw Failure(description: "cannot find the actionflow executable") }
        return executable.path
    }

    /// Runs with standard input from a file.
    static func run(_ executable: String, _ arguments: [String], stdin path: String) throws -> Result {
        let input = open(path, O_RDONLY)
        guard input >= 0 else { throw Failure(description: "cannot open \(path)") }
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
        guard input >= 0 else { throw Failure(description: "cannot open \(path)") }
        defer { close(input) }
        let start = ContinuousClock.now
        let status = try waitStatus(try spawn(executable, arguments, stdin: input), executable)
        let seconds = (ContinuousClock.now - start).seconds
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw Failure(description: "\(executable) failed (wait status \(status))") }
        return seconds
    }

    /// Runs to the end on this process's standard input, output and error; returns its exit
    /// status (128 plus the signal's number when a signal ended it).
    static func passingThrough(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let status = try waitStatus(try spawn(executable, arguments, stdin: 0, stdout: 1, stderr: 2), executable)
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Waits for the child to end; returns its wait status.
    private static func waitStatus(_ pid: pid_t, _ executable: String) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "lost track of \(executable)") }
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
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "cannot create a pipe") }
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
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw Failure(description: "\(executable) failed (wait status \(status))") }
        return String(decoding: output, as: UTF8.self)
    }

    /// Runs with `lines` lines on standard input, cycling through `corpus`, written from here
    /// through a pipe (no file of that size is made).
    static func run(_ executable: String, _ arguments: [String], feeding lines: Int, from corpus: [String]) throws -> Result {
        var pipeEnds: [Int32] = [0, 0]
        // Close-on-exec: the inspector must not hold the write end, or it would never see the end of its input.
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "cannot create a pipe") }
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
            throw Failure(description: "the inspector stopped reading its input")
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
        guard status == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
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
            if done < 0, errno != EINTR { throw Failure(description: "lost track of \(executable)") }
            peakKiB = max(peakKiB, highWaterKiB(pid) ?? 0)
            usleep(2_000)
        }
        let seconds = (ContinuousClock.now - start).seconds
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw Failure(description: "\(executable) failed (wait status \(status))") }
        return Result(seconds: seconds, peakMiB: Double(peakKiB) / 1024)
    }

    private static func highWaterKiB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
