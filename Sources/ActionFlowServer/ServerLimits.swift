import ActionFlowBackend
import Foundation

/// The connection-level limits of `serve` (the body limit is the API's, `EmulatorAPI.maxBodyBytes`,
/// because it also applies to requests handled in process). Defaults keep a laptop's server
/// responsive under hostile clients while staying out of the way of any SDK or browser.
public struct ServerLimits: Sendable, Equatable {
    /// Largest request head (request line and header fields together); larger heads get 431.
    public var maxHeaderBytes: Int
    /// Connections open at once; past it, new connections wait in the listen backlog.
    public var maxConnections: Int
    /// A connection that sends no request part for this long is closed: idle keep-alive
    /// connections, and clients sending their headers a byte at a time.
    public var idleTimeout: Duration
    /// After a refused body, how much more of it is read and discarded so that the client, still
    /// sending, reads the refusal; past it (or `lingerTime`) the connection closes.
    public var lingerBytes: Int
    public var lingerTime: Duration

    public init(
        maxHeaderBytes: Int = ServeDefaults.maxHeaderBytes,
        maxConnections: Int = ServeDefaults.maxConnections,
        idleTimeout: Duration = ServeDefaults.idleTimeout,
        lingerBytes: Int = 16 * 1024 * 1024,
        lingerTime: Duration = .seconds(5)
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.lingerBytes = lingerBytes
        self.lingerTime = lingerTime
    }

    /// The head size the parser enforces: `maxHeaderBytes`, within the parser's own ceiling.
    var enforcedHeaderBytes: Int { min(maxHeaderBytes, ServeDefaults.parserHeaderCeiling) }

    /// Raises this process's open-file limit to its hard limit (servers need one descriptor per
    /// connection; many systems start with 1024) and returns how many connections it allows,
    /// keeping some descriptors for everything else.
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 - reservedDescriptors }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur) - reservedDescriptors
    }

    static let reservedDescriptors = 64

    /// glibc keeps freed memory in its arenas; `malloc_trim` returns what it can to the system.
    /// (Looked up at run time: Swift's Glibc module leaves out `malloc.h`.)
    public static func returnFreedMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
