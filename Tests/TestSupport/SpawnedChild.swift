import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program started with `posix_spawn`, its output and errors on pipes of their own. Foundation's
/// `Process.run()` finds the descriptors to close in the child by reading `/proc/self/fd` and
/// copying each entry's whole 256-byte name, which reads past `readdir`'s buffer when an entry
/// ends at the end of a page (swift-corelibs-foundation swift-6.3.1-RELEASE,
/// `Sources/Foundation/Process.swift:76-90`): a test process with many sockets open crashed there.
public struct SpawnedChild: Sendable {
    public let pid: pid_t
    private let output: Int32
    private let errors: Int32

    /// Starts `path` (an absolute path) with `arguments` and `environment` (this process's when
    /// nil), its standard input on /dev/null. Like the programs `Spawn` starts, it inherits the
    /// descriptors of this process that are not close-on-exec.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> SpawnedChild {
        var outputEnds: [Int32] = [-1, -1]
        var errorEnds: [Int32] = [-1, -1]
        guard pipe(&outputEnds) == 0 else { throw SpawnFailure(description: "pipe failed: error \(errno)") }
        guard pipe(&errorEnds) == 0 else {
            outputEnds.forEach { close($0) }
            throw SpawnFailure(description: "pipe failed: error \(errno)")
        }
        // Kept out of programs other tests start meanwhile, which would hold them open.
        for end in outputEnds + errorEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorEnds[1], 2)
        let (spawned, pid) = spawn(path, arguments, actions: &actions, environment: environment)
        close(outputEnds[1])
        close(errorEnds[1])
        guard spawned == 0 else {
            close(outputEnds[0])
            close(errorEnds[0])
            throw SpawnFailure(description: "cannot run \(path): error \(spawned)")
        }
        return SpawnedChild(pid: pid, output: outputEnds[0], errors: errorEnds[0])
    }

    /// `posix_spawn` of `path` with `arguments`, the file `actions` and `environment` (this
    /// process's when nil), with no signal blocked: test threads block most signals and a
    /// child inherits the mask, so a server started from one would ignore SIGTERM.
    public static func spawn(_ path: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String]?) -> (error: Int32, pid: pid_t) {
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

    public func terminate() {
        kill(pid, SIGTERM)
    }

    /// Reads the output and the errors to their end, each on a thread of its own (the
    /// concurrency pool's threads stay free for a server under test), then waits for the child:
    /// its exit status, or the signal that ended it.
    public func finish() async -> (status: Int32, output: Data, errors: Data) {
        async let output = Self.onThread { Self.readToEnd(self.output) }
        async let errors = Self.onThread { Self.readToEnd(self.errors) }
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
            errorsBox.data = Self.readToEnd(errors)
            errorsRead.signal()
        }
        let out = Self.readToEnd(output)
        errorsRead.wait()
        return (waitForExit(), out, errorsBox.data)
    }

    /// The exit status, or the number of the signal that ended the child (as `Process` says).
    private func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
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

    /// Reads a descriptor to its end and closes it; a read cut by a signal is read again.
    private static func readToEnd(_ descriptor: Int32) -> Data {
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}

public struct SpawnFailure: Error, CustomStringConvertible {
    public var description: String
}
