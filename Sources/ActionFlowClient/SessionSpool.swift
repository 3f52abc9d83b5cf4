import ActionFlowModel
import Foundation

/// A session file written as the session goes (`serve --inspect --save`): each event goes to a
/// spool file beside it as it happens, and `finish` makes the session file from the spool, so
/// that a run of any length keeps every event without holding them in memory.
public final class SessionSpool {
    public let path: String
    private let spoolPath: String
    private let descriptor: Int32
    private var times: [Date] = []
    public private(set) var count = 0
    private var failure: String?

    /// Creates the spool beside `path`; refuses a path that cannot be written.
    public init(path: String) throws(SessionFileError) {
        try SessionFile.checkWritable(path)
        self.path = path
        let url = URL(fileURLWithPath: path)
        spoolPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).events").path
        descriptor = open(spoolPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SessionFileError(path: path, "cannot be written (\(String(cString: strerror(errno))))") }
    }

    deinit {
        close(descriptor)
        unlink(spoolPath)
    }

    /// Writes events reduced at `time`. A failed write is remembered and reported by `finish`.
    public func append(_ events: [AppEvent], at time: Date) {
        guard failure == nil, !events.isEmpty else { return }
        var bytes = Data()
        for event in events {
            if count > 0 || !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
            guard let encoded = try? JSONWriter.data(event, format: SessionFile.fileFormat) else { continue }
            bytes.append(encoded)
            times.append(time)
        }
        count = times.count
        if let error = bytes.withUnsafeBytes({ DescriptorWrite.all(descriptor, $0) }) { failure = String(cString: strerror(error)) }
    }

    /// Writes the session file: `start`, every event appended, their times and `current`, as
    /// `SessionFile` writes one (its keys in the same order). Replaces `path` in one step.
    public func finish(start: Session, current: Session) throws(SessionFileError) {
        if let failure { throw SessionFileError(path: path, "cannot be written (the events' spool: \(failure))") }
        let recording = SessionRecording(start: start, events: [], current: current)
        let head: Data
        let tail: Data
        do {
            head = try Data(#"{"current":"#.utf8) + JSONWriter.data(current, format: SessionFile.fileFormat) + Data(#","events":["#.utf8)
            tail = try Data(#"],"format":"\#(SessionFile.format)","start":"#.utf8) + JSONWriter.data(start, format: SessionFile.fileFormat)
                + Data(#","times":"#.utf8) + JSONWriter.data(times, format: SessionFile.fileFormat)
                + Data(#","transport":"\#(recording.transport)","version":\#(SessionFile.version(of: recording))}"#.utf8)
        } catch {
            throw SessionFileError(path: path, "cannot be encoded (\(error))")
        }
        let spool = descriptor
        let written = DescriptorWrite.replaceFile(at: path, mode: 0o644) { target in
            if let error = head.withUnsafeBytes({ DescriptorWrite.all(target, $0) }) { return error }
            guard lseek(spool, 0, SEEK_SET) == 0 else { return errno }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let read = buffer.withUnsafeMutableBytes { Foundation.read(spool, $0.baseAddress, $0.count) }
                if read < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if read == 0 { break }
                if let error = buffer.withUnsafeBytes({ DescriptorWrite.all(target, UnsafeRawBufferPointer(rebasing: $0[..<read])) }) { return error }
            }
            return tail.withUnsafeBytes { DescriptorWrite.all(target, $0) }
        }
        if let written { throw SessionFileError(path: path, "cannot be written (\(String(cString: strerror(written))))") }
        // Its events are in the session file now.
        unlink(spoolPath)
    }
}
