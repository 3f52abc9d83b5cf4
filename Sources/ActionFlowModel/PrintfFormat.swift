#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// printf-style formatting of numbers through the C library. `String(format:)` would do the
/// same through CoreFoundation, whose string machinery a session otherwise never loads
/// (docs/architecture.md, "Start-up, memory and speed").
public enum PrintfFormat {
    /// `format` with `arguments`, as C's `snprintf` writes it. Numbers only: `%@` and `%s` do not
    /// take Swift values.
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        var needed = 0
        let text = String(unsafeUninitializedCapacity: 64) { buffer in
            needed = write(format, arguments, into: buffer)
            return needed < buffer.count ? needed : 0
        }
        guard needed >= 64 else { return text }
        return String(unsafeUninitializedCapacity: needed + 1) { write(format, arguments, into: $0) }
    }

    /// The length of the whole text; the buffer holds as much of it as fits, and a NUL.
    private static func write(_ format: String, _ arguments: [any CVarArg], into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let length = withVaList(arguments) { list in
            buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, list) }
        }
        return max(0, Int(length))
    }
}
