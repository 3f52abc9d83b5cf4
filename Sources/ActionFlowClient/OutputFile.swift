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

/// The same rule for a folder a command fills (pictures of steps): an existing folder is
/// replaced only with `--force`, and only when it holds nothing but what such a command
/// writes, so a user's other files are never deleted; one that holds the command's input never.
/// The new folder is filled beside it and renamed into place, so no reader sees it half written.
public enum OutputFolder {
    /// `ownsEntry` tells a file name the command writes there.
    public static func check(_ path: String, inputs: [String], force: Bool, option: String, ownsEntry: (String) -> Bool) throws(OutputFile.Refused) {
        let folder = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        for input in inputs where input != "-" {
            let inputPath = URL(fileURLWithPath: input).standardizedFileURL.resolvingSymlinksInPath().path
            if inputPath == folder || inputPath.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") {
                throw OutputFile.Refused(path: path, reason: "holds the command's own input (\(input)): \(option) never replaces it; write somewhere else")
            }
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw OutputFile.Refused(path: path, reason: "is a file; \(option) takes a folder's path") }
            guard force else { throw OutputFile.Refused(path: path, reason: "already exists: add --force to replace it") }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if let foreign = entries.sorted().first(where: { !ownsEntry($0) }) {
                throw OutputFile.Refused(path: path, reason: "holds \(foreign), which this export did not write: --force replaces a folder of pictures only; write somewhere else")
            }
        }
        do {
            try SessionFile.checkWritable(path)
        } catch {
            throw OutputFile.Refused(path: path, reason: error.reason)
        }
    }

    /// Fills a new folder with `fill` (given its path), then puts it at `path`, in place of
    /// what was there. Nothing is left behind when `fill` throws.
    public static func replace(_ path: String, fill: (String) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let temporary = (parent as NSString).appendingPathComponent(".\(name).\(getpid()).tmp")
        let previous = (parent as NSString).appendingPathComponent(".\(name).\(getpid()).old")
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        do {
            try fill(temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        let existed = FileManager.default.fileExists(atPath: path)
        if existed, rename(path, previous) != 0 {
            let failure = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw OutputFile.Refused(path: path, reason: "cannot be replaced (\(failure))")
        }
        guard rename(temporary, path) == 0 else {
            let failure = String(cString: strerror(errno))
            if existed { rename(previous, path) }
            try? FileManager.default.removeItem(atPath: temporary)
            throw OutputFile.Refused(path: path, reason: "cannot be written (\(failure))")
        }
        if existed { try? FileManager.default.removeItem(atPath: previous) }
    }
}
