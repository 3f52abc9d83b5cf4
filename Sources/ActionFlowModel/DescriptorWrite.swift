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
}
