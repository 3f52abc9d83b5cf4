import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port that refuses connections for as long as this value lives: the socket is
/// bound, so no other test can take the port, but never listens.
public final class RefusingPort: @unchecked Sendable {
    public let port: Int
    let descriptor: Int32

    public init() throws {
        (descriptor, port) = try Self.boundLoopbackSocket()
    }

    /// A TCP socket bound to a free loopback port, not yet listening.
    public static func boundLoopbackSocket() throws -> (Int32, Int) {
        #if canImport(Glibc)
        let streamType = Int32(SOCK_STREAM.rawValue)
        #else
        let streamType = SOCK_STREAM
        #endif
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    deinit { close(descriptor) }
}
