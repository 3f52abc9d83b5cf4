import ActionFlowModel
import Foundation

/// The rule every command that writes a file follows: a user's file is never replaced without
/// `--force`, and a command's own input never, even with it. Checked before any work is done,
/// so that a refusal loses nothing; the writes themselves are atomic (`DescriptorWrite.replaceFile`).
public enum OutputFile {
    /// Why a path cannot be written to: said with the path, on one terminal-safe line.
    public struct Refused: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { UntrustedText.sanitize("\(path): \(reason)") }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Refuses `path` as where a command writes: when it is one of `inputs` (the same file,
    /// however named), when something is already there and `force` is not given, and when the
    /// file could not be written.
    public static func check(_ path: String, inputs: [String], force: Bool, option: String) throws(Refused) {
        for input in inputs where input != "-" && sameFile(path, input) {
            throw Refused(path: path, reason: "is the command's own input (\(input)): \(option) never replaces it; write somewhere else")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw Refused(path: path, reason: "is a folder; \(option) takes a file's path") }
            guard force else { throw Refused(path: path, reason: "already exists: add --force to replace it") }
        }
        do {
            try SessionFile.checkWritable(path)
        } catch {
            throw Refused(path: path, reason: error.reason)
        }
    }

    /// Whether two paths name one file: the same device and inode when both exist (links and
    /// other spellings included), else the same standardized path.
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
        return URL(fileURLWithPath: first).standardizedFileURL.path == URL(fileURLWithPath: second).standardizedFileURL.path
    }
}
