import ActionFlowModel
import Foundation
import Logging
import Synchronization

/// Writes log lines to a file, never to the terminal the interface draws on.
public struct FileLogHandler: LogHandler {
    private final class Sink: Sendable {
        let handle: Mutex<FileHandle>
        init(_ handle: FileHandle) { self.handle = Mutex(handle) }
        func write(_ line: String) {
            handle.withLock { $0.write(Data(line.utf8)) }
        }
    }

    private let sink: Sink
    private let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Opens (appending) or creates the file; nil when it cannot be written.
    public init?(label: String, path: String) {
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else { return nil }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        handle.seekToEndOfFile()
        sink = Sink(handle)
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
        sink.write("\(stamp) \(event.level) \(label): \(event.message)\(fields)\n")
    }
}
