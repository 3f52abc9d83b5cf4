import ActionFlowBackend
import ActionFlowModel
import Foundation

/// A session and the events that led to it from its starting point: what a session file holds,
/// so that it can be reopened where it was, and later replayed.
public struct SessionRecording: Sendable, Equatable, Codable {
    public var start: Session
    public var events: [AppEvent]
    /// When each event was reduced (wall clock), for a replay at the recorded pace; nil when
    /// not known for every event.
    public var times: [Date]?
    public var current: Session
    /// The simulated project at `start` and now, for a session of the embedded world: the
    /// world behind its transport, which a reopened session goes on with.
    public var worlds: SimulatedWorlds?

    public init(start: Session, events: [AppEvent], times: [Date]? = nil, current: Session, worlds: SimulatedWorlds? = nil) {
        self.start = start
        self.events = events
        self.times = times
        self.current = current
        self.worlds = worlds
    }

    public init(_ driver: SessionDriver) {
        let worlds = driver.startWorld.flatMap { start in driver.runner?.simulated.map { SimulatedWorlds(start: start, current: $0) } }
        self.init(start: driver.start, events: driver.events, times: driver.times, current: driver.session, worlds: worlds)
    }

    /// `embedded` or `rest`: which world the session talks to.
    public var transport: String { current.transport }
}

/// The embedded world beside a session: the simulated project when the session started and now.
public struct SimulatedWorlds: Sendable, Equatable, Codable {
    public var start: SimulatedProject
    public var current: SimulatedProject
}

/// Why a session file cannot be used. Each names the file; a file that failed to load is never
/// written over.
public struct SessionFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// Reasons quote the file (a bad value, a path): kept terminal-safe on one line.
    public var description: String { UntrustedText.sanitize("session file \(path): \(reason)") }
}

/// The session file format (docs/file-formats.md, "Session files"): one JSON object with a format name and
/// version, the transport, the starting session, the events since, and the current session.
/// Dates are seconds since 1970 (UTC).
public enum SessionFile {
    public static let format = "actionflow-session"
    /// The format version this actionflow writes, and the newest it reads. Version 2 added
    /// sessions of two devices; version 3 keeps the simulated project beside the sessions
    /// (`worlds`) and the world's replies among the events, in both worlds.
    public static let version = 3

    struct Envelope: Codable {
        var format: String
        var version: Int
        var transport: String
        var start: Session
        var events: [AppEvent]
        var times: [Date]?
        var current: Session
        var worlds: SimulatedWorlds?
    }

    /// What versions 1 and 2 wrote of an embedded session: the simulated project inside each
    /// session's `world`.
    private struct LegacyEmbeddedWorlds: Decodable {
        struct Embedded: Decodable { var _0: SimulatedProject }
        struct WorldCase: Decodable { var embedded: Embedded? }
        struct SessionWorld: Decodable { var world: WorldCase }
        var start: SessionWorld
        var current: SessionWorld
    }

    private struct Header: Decodable {
        var format: String?
        var version: Int?
        var transport: String?
    }

    /// `JSONEncoder` with `.sortedKeys` (slashes escaped) and `.secondsSince1970` dates.
    static let fileFormat = JSONOutput.Format(sortedKeys: true, escapesSlashes: true, dates: .secondsSince1970)

    static func envelope(_ recording: SessionRecording) -> Envelope {
        Envelope(format: format, version: version, transport: recording.transport, start: recording.start, events: recording.events, times: recording.times, current: recording.current, worlds: recording.worlds)
    }

    public static func encode(_ recording: SessionRecording) throws -> Data {
        try JSONOutput.data(envelope(recording), format: fileFormat)
    }

    /// Reads a session file made for `transport` (`embedded` or `rest`; nil takes either). Nil
    /// when the file does not exist (a new session); every other problem is an error.
    public static func load(_ path: String, transport: String?) throws(SessionFileError) -> SessionRecording? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SessionFileError(path: path, "the folder \(folder) does not exist")
        }
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { throw SessionFileError(path: path, "is a folder, not a file") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SessionFileError(path: path, "cannot be read (\(describe(error)))")
        }
        return try decode(data, path: path, transport: transport)
    }

    public static func decode(_ data: Data, path: String, transport: String?) throws(SessionFileError) -> SessionRecording {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw SessionFileError(path: path, "is empty")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw SessionFileError(path: path, "is not JSON, or is cut short (\(describe(error)))")
        }
        guard header.format == format else {
            throw SessionFileError(path: path, "is not an actionflow session (its \"format\" is \(header.format.map { "'\($0)'" } ?? "missing"), expected '\(format)')")
        }
        guard let fileVersion = header.version else {
            throw SessionFileError(path: path, "has no \"version\"")
        }
        guard fileVersion <= version else {
            throw SessionFileError(path: path, "was written by a newer actionflow (format version \(fileVersion); this one reads up to \(version))")
        }
        if let transport, header.transport != transport {
            throw SessionFileError(path: path, "is a session of the \(header.transport ?? "unknown") transport; this run uses \(transport) (open it with --transport \(header.transport ?? "embedded"))")
        }
        let envelope: Envelope
        do {
            envelope = try decoder.decode(Envelope.self, from: data)
        } catch {
            throw SessionFileError(path: path, "does not hold a valid session (\(describe(error)))")
        }
        guard envelope.times == nil || envelope.times?.count == envelope.events.count else {
            throw SessionFileError(path: path, "has \(envelope.times?.count ?? 0) event times for \(envelope.events.count) events")
        }
        guard envelope.start.transport == envelope.current.transport, envelope.transport == envelope.current.transport else {
            throw SessionFileError(path: path, "says it is a session of the \(envelope.transport) transport, but its sessions' worlds disagree")
        }
        if envelope.worlds != nil, !envelope.start.isEmbedded {
            throw SessionFileError(path: path, "is a session of the rest transport, yet holds a simulated project (\"worlds\")")
        }
        if envelope.start.isEmbedded, envelope.worlds == nil {
            guard fileVersion < 3, let legacy = try? decoder.decode(LegacyEmbeddedWorlds.self, from: data),
                  let start = legacy.start.world.embedded?._0, let current = legacy.current.world.embedded?._0 else {
                throw SessionFileError(path: path, "is a session of the embedded world without its simulated project (\"worlds\")")
            }
            return migrated(envelope, start: start, current: current)
        }
        return SessionRecording(start: envelope.start, events: envelope.events, times: envelope.times, current: envelope.current, worlds: envelope.worlds)
    }

    /// A session of the embedded world as versions 1 and 2 kept it: its events are the user's
    /// alone, the world's replies having been reduced in place. They are played again on the
    /// starting world to put the replies among them; the session and world stay the file's.
    private static func migrated(_ envelope: Envelope, start: SimulatedProject, current: SimulatedProject) -> SessionRecording {
        var driver = SessionDriver(session: envelope.start, runner: .embedded(start))
        var times: [Date]? = envelope.times == nil ? nil : []
        for (index, event) in envelope.events.enumerated() {
            let before = driver.events.count
            _ = driver.sendNow(event)
            if let time = envelope.times?[index] {
                times?.append(contentsOf: repeatElement(time, count: driver.events.count - before))
            }
        }
        return SessionRecording(start: envelope.start, events: driver.events, times: times, current: envelope.current,
                                worlds: SimulatedWorlds(start: start, current: current))
    }

    /// Checks that a new file can be created next to `path`, before anything is shown.
    public static func checkWritable(_ path: String) throws(SessionFileError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SessionFileError(path: path, "cannot be written: the folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw SessionFileError(path: path, "cannot be written: the folder \(folder) is not writable")
        }
        if FileManager.default.fileExists(atPath: path), access(path, W_OK) != 0 {
            throw SessionFileError(path: path, "cannot be written (no write permission)")
        }
    }

    /// Writes atomically: a temporary file in the same folder, flushed to disk, then renamed
    /// over `path`, so a kill at any moment leaves the previous file or the new one.
    public static func save(_ recording: SessionRecording, to path: String) throws(SessionFileError) {
        let data: Data
        do {
            data = try encode(recording)
        } catch {
            throw SessionFileError(path: path, "cannot be encoded (\(describe(error)))")
        }
        if let failure = data.withUnsafeBytes({ DescriptorWrite.replaceFile(at: path, with: $0, mode: 0o644) }) {
            throw SessionFileError(path: path, "cannot be written (\(String(cString: strerror(failure))))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, let context): "missing \(path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(path(context.codingPath)): \(context.debugDescription)"
        default: (error as NSError).localizedDescription
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}
