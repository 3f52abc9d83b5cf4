/// `actionflow serve`'s defaults, here so that the program that parses `serve`'s options and
/// the one that runs the server (`actionflow-serve`, which alone links the HTTP frameworks)
/// read the same values.
public enum ServeDefaults {
    public static let host = "127.0.0.1"
    /// The Firebase Auth Emulator's own port.
    public static let port = 9099
    /// Largest request body, in bytes.
    public static let maxBodyBytes = 64 * 1024
    /// Largest request head (request line and header fields together), in bytes.
    public static let maxHeaderBytes = 16 * 1024
    /// The HTTP parser's own ceiling on a request head.
    public static let parserHeaderCeiling = 80 * 1024
    public static let maxConnections = 4096
    public static let idleTimeout = Duration.seconds(30)
}
