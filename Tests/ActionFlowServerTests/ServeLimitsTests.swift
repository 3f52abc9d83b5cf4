import ActionFlowLoad
import ActionFlowServer
import Foundation
import TestSupport
import Testing

/// `serve`'s limits as a client meets them on a real loopback socket: what is refused, in which
/// shape, when, and that the connection then closes.
// On a thread of its own: the idle-timeout test paces its bytes with sleeps, which the pool,
// busy with the rest of the suite, would stretch.
@Suite("serve's limits on heads, bodies and idle connections", .onDedicatedThread)
struct ServeLimitsTests {
    static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"

    @Test("a head over --max-header-bytes gets 431 in the emulator's error shape, and the connection closes")
    func headTooLarge() async throws {
        let serve = try await ServeFixture.start(as: .emulator, limits: ServerLimits(maxHeaderBytes: 2048))
        defer { Task { await serve.stop() } }
        let port = serve.server.port
        let (answer, closed) = try await DedicatedThread.run {
            let client = try LoopbackHTTPClient(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "p", count: 3000))\r\n\r\n")
            return (try client.readAnswer(), client.waitForClose())
        }
        #expect(answer.status == 431)
        #expect(answer.isEmulatorError)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("exceed 2048 bytes"))
        #expect(closed)

        // Just under the limit is served.
        let fine = try await DedicatedThread.run {
            try LoopbackHTTPClient(port: port).exchange("GET", "/", headers: [("X-Padding", String(repeating: "p", count: 1500))])
        }
        #expect(fine.status == 200)
    }

    @Test("malformed HTTP gets 400 in the emulator's error shape naming what is wrong", arguments: [
        ("GARBAGE\u{1} / HTTP/1.1\r\n\r\n", "invalid HTTP method"),
        ("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n", "invalid character in header"),
        ("POST \(ServeLimitsTests.signUp) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n", "invalid character in chunk size"),
    ])
    func malformed(request: String, reason: String) async throws {
        let serve = try await ServeFixture.start(as: .emulator)
        defer { Task { await serve.stop() } }
        let port = serve.server.port
        let (answer, closed) = try await DedicatedThread.run {
            let client = try LoopbackHTTPClient(port: port)
            try client.send(request)
            return (try client.readAnswer(), client.waitForClose())
        }
        #expect(answer.status == 400)
        #expect(answer.isEmulatorError)
        let message = String(decoding: answer.body, as: UTF8.self)
        #expect(message.contains("MALFORMED_HTTP_REQUEST"), "\(message)")
        #expect(message.contains(reason), "\(message)")
        #expect(closed)
    }

    @Test("a declared body over the limit is refused before any of it is sent")
    func declaredBodyRefusedEarly() async throws {
        let serve = try await ServeFixture.start(as: .emulator)
        defer { Task { await serve.stop() } }
        let port = serve.server.port
        let answer = try await DedicatedThread.run {
            let client = try LoopbackHTTPClient(port: port, timeout: .seconds(5))
            try client.send("POST \(Self.signUp) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n")
            return try client.readAnswer()
        }
        #expect(answer.status == 413)
        #expect(answer.isEmulatorError)
        #expect(answer.headers["connection"] == "close")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("exceeds \(EmulatorAPI.defaultMaxBodyBytes) bytes"))
    }

    @Test("a chunked body that never ends is refused with 413 and cut off")
    func endlessBodyCutOff() async throws {
        let limits = ServerLimits(lingerBytes: 1 << 20, lingerTime: .seconds(2))
        let serve = try await ServeFixture.start(as: .emulator, limits: limits)
        defer { Task { await serve.stop() } }
        let port = serve.server.port
        let (answer, sent) = try await DedicatedThread.run {
            let client = try LoopbackHTTPClient(port: port, timeout: .seconds(5))
            try client.send("POST \(Self.signUp) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("400\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 0x400) + Array("\r\n".utf8)
            // Past the body limit, so that the refusal is on its way; then wait for it.
            for _ in 0..<(EmulatorAPI.defaultMaxBodyBytes / 0x400 + 2) { try client.send(chunk) }
            let answer = try client.readAnswer()
            var sent = 0
            while sent < 64 << 20, (try? client.send(chunk)) != nil { sent += chunk.count }
            return (answer, sent)
        }
        #expect(answer.status == 413)
        #expect(answer.isEmulatorError)
        // What the client manages to write once refused: what the server lingers over, plus
        // what the two kernels' socket buffers hold (they grow up to tcp_rmem's and tcp_wmem's
        // largest sizes under load), never the whole endless body.
        let buffers = Self.largestSocketBuffer("tcp_rmem") + Self.largestSocketBuffer("tcp_wmem")
        #expect(sent < limits.lingerBytes + buffers + (1 << 20), "the server read \(sent) bytes of a refused body")
    }

    /// The largest size the kernel lets a TCP socket buffer grow to (the third number of
    /// `/proc/sys/net/ipv4/NAME`), 6 MiB when it cannot be read.
    static func largestSocketBuffer(_ name: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/\(name)", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }.last ?? 6 << 20
    }

    @Test("a connection that sends nothing, or its head a byte at a time, is closed after --idle-timeout")
    func idleAndSlowConnectionsClosed() async throws {
        let serve = try await ServeFixture.start(as: .emulator, limits: ServerLimits(idleTimeout: .milliseconds(600)))
        defer { Task { await serve.stop() } }
        let idle = try LoopbackHTTPClient(port: serve.server.port)
        let slow = try LoopbackHTTPClient(port: serve.server.port)
        let opened = ContinuousClock.now
        var slowCut: Duration?
        for byte in "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ssssssssssssssssssssssssss".utf8 {
            if slow.isClosedByServer || (try? slow.send([byte])) == nil {
                slowCut = ContinuousClock.now - opened
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let cut = try #require(slowCut, "a client sending a byte every 200 ms was never cut off")
        // Not before the timeout; the upper bound leaves room for a busy machine.
        #expect(cut >= .milliseconds(500) && cut < .seconds(10))
        // Its timer runs beside the slow one's and may fire a moment later on a busy machine.
        while !idle.isClosedByServer, ContinuousClock.now - opened < .seconds(10) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(idle.isClosedByServer)

        // A keep-alive connection in use stays open across requests spaced within the timeout.
        let port = serve.server.port
        let statuses = try await DedicatedThread.run {
            let busy = try LoopbackHTTPClient(port: port)
            return try (0..<4).map { _ in
                defer { Thread.sleep(forTimeInterval: 0.3) }
                return try busy.exchange("GET", "/").status
            }
        }
        #expect(statuses == [200, 200, 200, 200])
    }
}
