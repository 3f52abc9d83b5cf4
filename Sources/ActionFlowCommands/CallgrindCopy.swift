import Foundation

/// A copy of this program that callgrind can run. Valgrind 3.19 reads neither Swift's DWARF 5
/// nor the mask libdispatch passes to `sigsuspend` on the main thread of an async program, so
/// the copy has no debug information, and runs with `sigsuspend` replaced by `pause` (the main
/// thread only waits there).
struct CallgrindCopy {
    let folder: String
    let executable: String
    private let valgrind: String
    private let shim: String

    /// Nil without valgrind, a C compiler and objcopy on `PATH`.
    init?() throws {
        guard let valgrind = SwiftFloor.onPath("valgrind"), let compiler = SwiftFloor.onPath("cc") ?? SwiftFloor.onPath("clang"),
              let objcopy = SwiftFloor.onPath("objcopy") else { return nil }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-callgrind-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        executable = folder + "/actionflow"
        shim = folder + "/pause-instead-of-sigsuspend.so"
        self.valgrind = valgrind
        do {
            try Data("#include <signal.h>\n#include <unistd.h>\nint sigsuspend(const sigset_t *mask) { (void)mask; for (;;) pause(); }\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/shim.c"))
            _ = try ChildProcess.time(compiler, ["-shared", "-fPIC", "-O2", folder + "/shim.c", "-o", shim])
            _ = try ChildProcess.time(objcopy, ["--strip-debug", try ChildProcess.ownExecutable(), executable])
        } catch {
            // Nothing is left behind when the copy cannot be made.
            remove()
            throw error
        }
    }

    /// The command (for `/usr/bin/env`) that runs the copy with `arguments` under callgrind,
    /// writing its counts to `output`; `extra` are more callgrind options.
    func command(_ arguments: [String], output: String, extra: [String] = []) -> [String] {
        ["LD_PRELOAD=" + shim, valgrind, "--tool=callgrind", "--callgrind-out-file=" + output] + extra + [executable] + arguments
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
