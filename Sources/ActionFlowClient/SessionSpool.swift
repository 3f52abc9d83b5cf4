import ActionFlowModel
import Foundation

/// A session file written as the session goes (`serve --inspect --save`): each event and its
/// time go to spool files beside it as they happen, and `finish` makes the session file from
/// them, so that a run of any length keeps every event without holding them in memory.
public final class SessionSpool {
    public let path: String
    /// The events, and their times, each a JSON array's elements with their commas.
    private let events: Spool
    private let times: Spool
    public private(set) var count = 0
    private var failure: String?

    /// One spool file: created beside the session file, gone with the spool.
    private final class Spool {
        let path: String
        let descriptor: Int32

        init(beside file: URL, named suffix: String) throws(SessionFileError) {
            path = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(suffix)").path
            descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw SessionFileError(path: file.path, "cannot be written (\(String(cString: strerror(errno))))") }
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        func write(_ bytes: Data) -> Int32? {
            bytes.withUnsafeBytes { DescriptorWrite.all(descriptor, $0) }
        }

        /// Copies the whole spool to `target`; nil, or the error number that stopped it.
        func copy(to target: Int32) -> Int32? {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { return errno }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
                if read < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if read == 0 { return nil }
                if let error = buffer.withUnsafeBytes({ DescriptorWrite.all(target, UnsafeRawBufferPointer(rebasing: $0[..<read])) }) { return error }
            }
        }
    }

    /// Creates the spools beside `path`; refuses a path that cannot be written.
    public init(path: String) throws(SessionFileError) {
        try SessionFile.checkWritable(path)
        self.path = path
        let url = URL(fileURLWithPath: path)
        events = try Spool(beside: url, named: "events")
        times = try Spool(beside: url, named: "times")
    }

    /// Writes events reduced at `time`. A failed write is remembered and reported by `finish`.
    public func append(_ newEvents: [AppEvent], at time: Date) {
        guard failure == nil, !newEvents.isEmpty, let stamp = try? JSONOutput.data(time, format: SessionFile.fileFormat) else { return }
        var eventBytes = Data()
        var timeBytes = Data()
        for event in newEvents {
            guard let encoded = try? JSONOutput.data(event, format: SessionFile.fileFormat) else { continue }
            if count > 0 {
                eventBytes.append(UInt8(ascii: ","))
                timeBytes.append(UInt8(ascii: ","))
            }
            eventBytes.append(encoded)
            timeBytes.append(stamp)
            count += 1
        }
        if let error = events.write(eventBytes) ?? times.write(timeBytes) { failure = String(cString: strerror(error)) }
    }

    /// Writes the session file: `start`, every event appended, their times and `current`, as
    /// `SessionFile` writes one (its keys in the same order). Replaces `path` in one step; the
    /// spools are removed once their events are in it.
    public func finish(start: Session, current: Session) throws(SessionFileError) {
        if let failure { throw SessionFileError(path: path, "cannot be written (the events' spool: \(failure))") }
        let pieces: [Data]
        do {
            pieces = [
                try Data(#"{"current":"#.utf8) + JSONOutput.data(current, format: SessionFile.fileFormat) + Data(#","events":["#.utf8),
                try Data(#"],"format":"\#(SessionFile.format)","start":"#.utf8) + JSONOutput.data(start, format: SessionFile.fileFormat) + Data(#","times":["#.utf8),
                Data(#"],"transport":"\#(current.transport)","version":\#(SessionFile.version)}"#.utf8),
            ]
        } catch {
            throw SessionFileError(path: path, "cannot be encoded (\(error))")
        }
        let (events, times) = (self.events, self.times)
        let written = DescriptorWrite.replaceFile(at: path, mode: 0o644) { target in
            pieces[0].withUnsafeBytes { DescriptorWrite.all(target, $0) } ?? events.copy(to: target)
                ?? pieces[1].withUnsafeBytes { DescriptorWrite.all(target, $0) } ?? times.copy(to: target)
                ?? pieces[2].withUnsafeBytes { DescriptorWrite.all(target, $0) }
        }
        if let written { throw SessionFileError(path: path, "cannot be written (\(String(cString: strerror(written))))") }
        // Their events are in the session file now.
        unlink(events.path)
        unlink(times.path)
    }
}
