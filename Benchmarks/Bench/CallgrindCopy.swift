import ActionFlowBackend
import ActionFlowModel
import Foundation

/// A copy of this program that callgrind can run: valgrind 3.19 cannot read Swift's DWARF 5, so
/// the copy has no debug information.
struct CallgrindCopy {
    let folder: String
    let executable: String
    private let valgrind: String

    /// Nil without valgrind and objcopy on `PATH`.
    init?() throws {
        guard let valgrind = SwiftFloor.onPath("valgrind"), let objcopy = SwiftFloor.onPath("objcopy") else { return nil }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-callgrind-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        executable = folder + "/actionflow-bench"
        self.valgrind = valgrind
        do {
            _ = try ChildProcess.time(objcopy, ["--strip-debug", try ChildProcess.ownExecutable(), executable])
            // The resources beside the copy too, so that it finds them as the program does (the
            // fallback through Foundation's Bundle would be counted and ordered instead).
            if let beside = ProgramLocation.folder?.appendingPathComponent(BundledResources.bundleName).path,
               FileManager.default.fileExists(atPath: beside) {
                try FileManager.default.createSymbolicLink(atPath: folder + "/" + BundledResources.bundleName, withDestinationPath: beside)
            }
        } catch {
            // Nothing is left behind when the copy cannot be made.
            remove()
            throw error
        }
    }

    /// The command (for `/usr/bin/env`) that runs the copy with `arguments` under callgrind,
    /// writing its counts to `output`; `extra` are more callgrind options.
    func command(_ arguments: [String], output: String, extra: [String] = []) -> [String] {
        [valgrind, "--tool=callgrind", "--callgrind-out-file=" + output] + extra + [executable] + arguments
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
