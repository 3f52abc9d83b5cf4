import ActionFlowModel
import Foundation

/// One blocking HTTP/1.1 connection to a port on 127.0.0.1, over a plain socket, so that it can
/// send anything at all (bytes one at a time, malformed requests, bodies that never end) and
/// read exactly what comes back. Used by the hostile-load run; not `Sendable`: one thread each.
public final class LoopbackHTTPClient {
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        /// The body as a JSON object, when it is one.
        public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }

        /// `{"error":{"code":status,"message":...}}`, the emulator's error shape, with the code
        /// equal to the status.
        public var isEmulatorError: Bool {
            guard let error = json?["error"] as? [String: Any] else { return false }
            return (error["code"] as? Int) == status && !((error["message"] as? String) ?? "").isEmpty
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case send(Int32)
        case receive(Int32)
        case closed
        case malformedAnswer(String)

        public var description: String {
            switch self {
            case .connect(let code): "could not connect: \(String(cString: strerror(code)))"
            case .send(let code): "send failed: \(String(cString: strerror(code)))"
            case .receive(let code): "receive failed: \(String(cString: strerror(code)))"
            case .closed: "the server closed the connection"
            case .malformedAnswer(let what): "malformed answer: \(what)"
            }
        }
    }

    public let port: Int
    private let socket: Int32
    private var buffered: [UInt8] = []
    public private(set) var isClosed = false

    /// Connects, with `timeout` on every later send and receive.
    public init(port: Int, timeout: Duration = .seconds(10)) throws {
        self.port = port
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure.connect(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(socket)
            throw Failure.connect(code)
        }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var interval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(socket) }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        shutdown(socket, Int32(SHUT_RDWR))
    }

    public func send(_ bytes: some Collection<UInt8>) throws {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let sent = array.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, array.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw Failure.send(errno)
            }
            offset += sent
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// A request with a JSON (or any) body and its `Content-Length`.
    public func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: some Collection<UInt8> = [UInt8]()) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if !body.isEmpty || method == "POST" { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try send(Array((head + "\r\n").utf8) + Array(body))
    }

    /// Sends a request and reads its answer.
    public func exchange(_ method: String, _ target: String, headers: [(String, String)] = [], json: String = "") throws -> Answer {
        try request(method, target, headers: headers, body: Array(json.utf8))
        return try readAnswer()
    }

    /// Reads one whole answer (the server always sends `Content-Length`).
    public func readAnswer() throws -> Answer {
        let headEnd = try fill { buffered in buffered.firstRange(of: [13, 10, 13, 10])?.lowerBound }
        let headText = String(decoding: buffered[..<headEnd], as: UTF8.self)
        buffered.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let statusParts = statusLine.split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure.malformedAnswer("status line \(statusLine.prefix(80))")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformedAnswer("header line \(line.prefix(80))") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingWhitespace()
        }
        guard let length = headers["content-length"].flatMap({ Int($0) }) else { throw Failure.malformedAnswer("no Content-Length") }
        _ = try fill { $0.count >= length ? length : nil }
        let body = Data(buffered[..<length])
        buffered.removeFirst(length)
        return Answer(status: status, headers: headers, body: body)
    }

    /// Waits until the server closes the connection (true) or `timeout`'s receive timeout
    /// passes (false), dropping whatever arrives.
    public func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == ECONNRESET
            }
        }
    }

    /// Whether the server has closed the connection, without waiting: an orderly close or a
    /// reset has arrived (bytes still unread count as open).
    public var isClosedByServer: Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Reads until `found` returns a position in the bytes received so far.
    private func fill(until found: ([UInt8]) -> Int?) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let position = found(buffered) { return position }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { throw Failure.closed }
            if count < 0 {
                if errno == EINTR { continue }
                throw errno == ECONNRESET ? Failure.closed : Failure.receive(errno)
            }
            buffered.append(contentsOf: chunk[..<count])
        }
    }
}
