import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program started with `posix_spawn`, its output on a pipe unless discarded (its errors too:
/// see `Errors`).
/// Not Foundation's `Process`: its `run()` finds the descriptors to close in the child by
/// reading `/proc/self/fd` and copying each entry's whole 256-byte name, which reads past
/// `readdir`'s buffer when an entry ends at the end of a page (swift-corelibs-foundation
/// swift-6.3.1-RELEASE, `Sources/Foundation/Process.swift:76-90`): a test process with many
/// sockets open crashed there.
public final class SpawnedChild: Sendable {
    /// Where the child's standard error goes.
    public enum Errors: Sendable {
        /// A pipe of its own, which `finish` reads.
        case own
        /// Where the output goes, interleaved with it as written.
        case intoOutput
        /// /dev/null.
        case discarded
    }

    public let pid: pid_t
    /// nil when discarded.
    private let output: Int32?
    private let errors: Int32?
    /// The exit status once the child has been waited for: a pid is waited for only once.
    private let exit = Mutex<Int32?>(nil)

    private init(pid: pid_t, output: Int32?, errors: Int32?) {
        self.pid = pid
        self.output = output
        self.errors = errors
    }

    /// Starts `path` (an absolute path) with `arguments` and `environment` (this process's when
    /// nil), its standard input read from the file `input`. It inherits the descriptors of this
    /// process that are not close-on-exec. `discardsOutput`: its output goes to /dev/null, for a
    /// program that starts a server which lives on and would hold a pipe open.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String]? = nil, input: String = "/dev/null",
                             discardsOutput: Bool = false, errors: Errors = .own) throws -> SpawnedChild {
        try locked { try startUnlocked(path, arguments, environment: environment, input: input, discardsOutput: discardsOutput, errors: errors) }
    }

    private static func startUnlocked(_ path: String, _ arguments: [String], environment: [String: String]?, input: String,
                                      discardsOutput: Bool, errors: Errors) throws -> SpawnedChild {
        var outputEnds: [Int32] = [-1, -1]
        var errorEnds: [Int32] = [-1, -1]
        if !discardsOutput, pipe(&outputEnds) != 0 { throw SpawnFailure(description: "pipe failed: error \(errno)") }
        if errors == .own, pipe(&errorEnds) != 0 {
            outputEnds.filter { $0 >= 0 }.forEach { close($0) }
            throw SpawnFailure(description: "pipe failed: error \(errno)")
        }
        let ends = (outputEnds + errorEnds).filter { $0 >= 0 }
        // Kept out of programs other tests start meanwhile, which would hold them open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        if discardsOutput {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outputEnds[1], 1)
        }
        switch errors {
        case .own: posix_spawn_file_actions_adddup2(&actions, errorEnds[1], 2)
        case .intoOutput: posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .discarded: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let (spawned, pid) = spawn(path, arguments, actions: &actions, environment: environment)
        for end in [outputEnds[1], errorEnds[1]] where end >= 0 { close(end) }
        guard spawned == 0 else {
            for end in [outputEnds[0], errorEnds[0]] where end >= 0 { close(end) }
            throw SpawnFailure(description: "cannot run \(path): error \(spawned)")
        }
        return SpawnedChild(pid: pid, output: outputEnds[0] >= 0 ? outputEnds[0] : nil, errors: errorEnds[0] >= 0 ? errorEnds[0] : nil)
    }

    private static let spawning = NSLock()

    /// Runs `body` while no other test spawns a program: a pipe made here is close-on-exec only
    /// once `fcntl` says so (this Glibc has no `pipe2`), and a program spawned in between, such
    /// as a tmux server that lives on, would hold its write end open.
    private static func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        spawning.lock()
        defer { spawning.unlock() }
        return try body()
    }

    /// Writes a program to run. Its descriptor is close-on-exec from the start: a program
    /// spawned meanwhile would hold it open for writing, and running this one would then fail
    /// with ETXTBSY (a shell falls back to the next program of that name on its PATH).
    public static func writeProgram(_ bytes: Data, to destination: URL) throws {
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw SpawnFailure(description: "cannot create \(destination.path): error \(errno)") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw SpawnFailure(description: "cannot write \(destination.path): error \(errno)") }
    }

    /// A child never waited for is stopped and waited for, so that none outlives its test.
    deinit {
        if exit.withLock({ $0 == nil }) {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    /// `posix_spawn` of `path` with `arguments`, the file `actions` and `environment` (this
    /// process's when nil), with no signal blocked: test threads block most signals and a
    /// child inherits the mask, so a server started from one would ignore SIGTERM.
    private static func spawn(_ path: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String]?) -> (error: Int32, pid: pid_t) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard let environment else { return (posix_spawn(&pid, path, &actions, &attributes, argv, environ), pid) }
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        return (posix_spawn(&pid, path, &actions, &attributes, argv, variables), pid)
    }

    /// SIGTERM, unless the child has already been waited for (its pid may be another's now).
    public func terminate() {
        signal(SIGTERM)
    }

    public func signal(_ number: Int32) {
        exit.withLock { if $0 == nil { kill(pid, number) } }
    }

    /// The next piece of the output, waiting for it; empty at its end.
    public func readOutput() -> Data { output.map(Self.readPiece) ?? Data() }

    /// Hands each piece of the output to `each` as it arrives, on a thread of its own, until
    /// the output ends. Nothing else reads the output after this. The thread does not hold the
    /// child, so that dropping it still stops the program.
    public func streamOutput(to each: @escaping @Sendable (Data) -> Void) {
        guard let output = self.output else { return }
        Thread.detachNewThread {
            defer { close(output) }
            while case let piece = Self.readPiece(output), !piece.isEmpty { each(piece) }
        }
    }

    private static func readPiece(_ descriptor: Int32) -> Data {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count <= 0 ? Data() : Data(buffer[0..<count])
        }
    }

    /// Reads the output and the errors to their end, each on a thread of its own (the
    /// concurrency pool's threads stay free for a server under test), then waits for the child:
    /// its exit status, or the signal that ended it.
    public func finish() async -> (status: Int32, output: Data, errors: Data) {
        async let output = Self.onThread { self.output.map(Self.readToEnd) ?? Data() }
        async let errors = Self.onThread { self.errors.map(Self.readToEnd) ?? Data() }
        let (out, err) = await (output, errors)
        let status = await Self.onThread { self.waitForExit() }
        return (status, out, err)
    }

    /// `finish` for a caller that is not async: the errors are read on a thread of their own
    /// while this one reads the output, so that neither pipe fills while the other is read.
    public func finishBlocking() -> (status: Int32, output: Data, errors: Data) {
        let errorsRead = DispatchSemaphore(value: 0)
        let errorsBox = DataBox()
        let errors = self.errors
        Thread.detachNewThread {
            errorsBox.data = errors.map(Self.readToEnd) ?? Data()
            errorsRead.signal()
        }
        let out = output.map(Self.readToEnd) ?? Data()
        errorsRead.wait()
        return (waitForExit(), out, errorsBox.data)
    }

    /// The exit status if the child ends within `seconds`, else nil; it is left running.
    public func exitStatus(within seconds: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let status = exit.withLock({ status -> Int32? in
                if status == nil { status = Self.reap(pid, options: WNOHANG) }
                return status
            }) { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the child: the exit status, or the number of the signal that ended it (as
    /// `Process` says).
    public func waitForExit() -> Int32 {
        if let status = exit.withLock({ $0 }) { return status }
        let status = Self.reap(pid, options: 0) ?? -1
        exit.withLock { $0 = $0 ?? status }
        return status
    }

    private static func reap(_ pid: pid_t, options: Int32) -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result == -1 && errno == EINTR
        guard result == pid else { return nil }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Handed from the reading thread to the waiting one, which reads it only after the signal.
    private final class DataBox: @unchecked Sendable {
        var data = Data()
    }

    private static func onThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    /// Reads a descriptor to its end and closes it.
    private static func readToEnd(_ descriptor: Int32) -> Data {
        defer { close(descriptor) }
        var data = Data()
        while case let piece = readPiece(descriptor), !piece.isEmpty { data.append(piece) }
        return data
    }
}

public struct SpawnFailure: Error, CustomStringConvertible {
    public var description: String
}
