#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to a file descriptor with POSIX calls: the terminal, the log, session files and
/// `inspect --jsonl`'s output.
public enum DescriptorWrite {
    /// Writes every byte, again after a signal interrupts. Nil when all are written; otherwise
    /// the error number of the write that failed (`EIO` when a write took nothing).
    public static func all(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            guard written > 0 else { return EIO }
            offset += written
        }
        return nil
    }

    /// Replaces the file at `path` in one step: a temporary file beside it is written, synced
    /// and renamed over it, so that no reader sees it half written. It is created with `mode`
    /// (less the umask), so a private file is never readable by others, even for a moment. Nil
    /// when done; otherwise the error number.
    public static func replaceFile(at path: String, with bytes: UnsafeRawBufferPointer, mode: mode_t) -> Int32? {
        replaceFile(at: path, mode: mode) { all($0, bytes) }
    }

    /// `replaceFile` for content written in pieces: `writeContent` writes it to the descriptor
    /// and returns nil, or the error number that stopped it.
    public static func replaceFile(at path: String, mode: mode_t, writeContent: (Int32) -> Int32?) -> Int32? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (slash.map { String(path[...$0]) } ?? "") + ".\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return errno }
        let failure = writeContent(descriptor) ?? (fsync(descriptor) == 0 ? nil : errno)
        close(descriptor)
        if let failure {
            unlink(temporary)
            return failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            return failure
        }
        // The rename itself reaches the disk with the folder.
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        return nil
    }
}
