import ActionFlowModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// Writes log lines to a file, never to the terminal the interface draws on.
public struct FileLogHandler: LogHandler {
    /// The open file. Plain POSIX calls: Foundation's FileHandle would bring its own locks and
    /// CoreFoundation's into the interface's memory for a few lines of log.
    private final class Sink: Sendable {
        private let descriptor: Mutex<Int32>
        init(_ descriptor: Int32) { self.descriptor = Mutex(descriptor) }
        deinit { descriptor.withLock { _ = close($0) } }
        func append(_ line: String) {
            var line = line
            descriptor.withLock { descriptor in
                // A log line that cannot be written is dropped: nothing else may show it.
                _ = line.withUTF8 { DescriptorWrite.all(descriptor, UnsafeRawBufferPointer($0)) }
            }
        }
    }

    private let sink: Sink
    private let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Opens (appending) or creates the file; nil when it cannot be written.
    public init?(label: String, path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        sink = Sink(descriptor)
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = Date().iso8601Stamp
        sink.append("\(stamp) \(event.level) \(label): \(event.message)\(fields)\n")
    }
}
