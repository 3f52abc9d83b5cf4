import Foundation

/// Hostile clients against a `serve --as emulator` on 127.0.0.1, all at once, beside one
/// well-behaved client whose every answer is checked and timed: idle connections held open,
/// clients sending their headers a byte a second, 10 MB bodies, chunked bodies that never end,
/// malformed HTTP, hostile JSON (invalid UTF-8, deep nesting, huge numbers) and a flood of
/// distinct sign-ups. Everything is bounded in count and time.
public enum HostileLoad {
    public struct Plan: Sendable {
        public var idleConnections = 1000
        public var slowClients = 20
        public var oversizedBodyBytes = 10 * 1024 * 1024
        public var oversizedBodies = 8
        public var endlessBodies = 2
        /// Bytes an endless body may send before the server is expected to have cut it off.
        public var endlessBodyCeiling = 64 * 1024 * 1024
        public var malformedRounds = 20
        public var deepNesting = 100_000
        public var signUps = 100_000
        public var signUpConnections = 4
        /// The well-behaved client goes on at least this long, and the idle connections are
        /// kept open (opened again when the server closes them) until it ends.
        public var minimumDuration: Duration = .seconds(8)
        /// The server's idle timeout: slow clients must be cut off within it (and a little more).
        public var idleTimeout: Duration = .seconds(4)

        public init() {}
    }

    public struct Report: Sendable, Codable {
        /// The well-behaved client's calls, sorted, in nanoseconds.
        public var latencies: [UInt64] = []
        /// Answers that were wrong, from any client, described (at most 20 kept).
        public var problems: [String] = []
        public var problemCount = 0
        public var idleOpened = 0
        public var idleClosedByServer = 0
        public var slowClientsCut = 0
        /// The longest a slow client kept its connection.
        public var slowClientLongest: Duration = .zero
        public var oversizedRefused = 0
        public var endlessCutOff = 0
        public var endlessLargestSent = 0
        public var malformedRefused = 0
        public var hostileJSONRefused = 0
        public var signUps = 0
        public var distinctUsers = 0
        /// The well-behaved client's own sign-ups answered 200.
        public var wellBehavedSignUps = 0
        public var elapsed: Duration = .zero

        public func percentileMilliseconds(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let index = min(latencies.count - 1, max(0, Int((Double(latencies.count) * fraction).rounded(.up)) - 1))
            return Double(latencies[index]) / 1e6
        }

        mutating func problem(_ description: String) {
            problemCount += 1
            if problems.count < 20 { problems.append(description) }
        }
    }

    /// Starts a client on a thread of its own (blocking sockets, one per thread), counted in
    /// `group` until it returns.
    static func spawnClient(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    static let clientPath = "/identitytoolkit.googleapis.com/v1/accounts"
    /// Every run signs up addresses of its own, so that runs against one server never collide.
    static func runTag() -> String { String(UInt32.random(in: 0...UInt32.max), radix: 36) }
    static let apiKey = "key=fake-api-key"

    /// Runs every client on its own thread and returns once all have finished.
    public static func run(port: Int, plan: Plan) -> Report {
        let tally = Tally()
        let tag = runTag()
        let started = ContinuousClock.now
        let done = ContinuousClock.now + plan.minimumDuration
        let group = DispatchGroup()
        func spawn(_ body: @escaping @Sendable () -> Void) { spawnClient(in: group, body) }

        // Idle connections first, so that everything else happens while they are open.
        var idle = (0..<plan.idleConnections).compactMap { _ in try? LoopbackHTTPClient(port: port) }
        tally.update { $0.idleOpened = idle.count }
        let signUpsLeft = Countdown(plan.signUps)

        spawn { slowClients(port: port, count: plan.slowClients, cutOffWithin: plan.idleTimeout + .seconds(3), tally: tally) }
        spawn { oversizedBodies(port: port, plan: plan, tally: tally) }
        for _ in 0..<plan.endlessBodies { spawn { endlessBody(port: port, plan: plan, tally: tally) } }
        spawn { malformed(port: port, rounds: plan.malformedRounds, tally: tally) }
        spawn { hostileJSON(port: port, nesting: plan.deepNesting, tally: tally) }
        for _ in 0..<plan.signUpConnections { spawn { signUps(port: port, tag: tag, left: signUpsLeft, tally: tally) } }
        let wellBehavedDone = DispatchSemaphore(value: 0)
        spawn {
            wellBehaved(port: port, tag: tag, until: done, whileRunning: signUpsLeft, tally: tally)
            wellBehavedDone.signal()
        }
        // Keep the idle connections open: those the idle timeout closes are opened again.
        var closedByServer = 0
        while wellBehavedDone.wait(timeout: .now() + 0.25) == .timedOut {
            for index in idle.indices where idle[index].isClosedByServer {
                closedByServer += 1
                if let again = try? LoopbackHTTPClient(port: port) { idle[index] = again }
            }
        }
        group.wait()
        for client in idle { client.close() }
        return tally.update {
            $0.idleClosedByServer = closedByServer
            $0.latencies.sort()
            $0.elapsed = ContinuousClock.now - started
            return $0
        }
    }

    /// The well-behaved client: sign up a new user, look it up, ask for its password-reset email;
    /// checks every answer; goes on until `until` and the sign-up flood has ended.
    static func wellBehaved(port: Int, tag: String, until: ContinuousClock.Instant, whileRunning flood: Countdown, tally: Tally) {
        var round = 0
        var client: LoopbackHTTPClient?
        while ContinuousClock.now < until || !flood.isFinished {
            round += 1
            let email = "well-behaved-\(tag)-\(round)@example.com"
            do {
                let connection = try client ?? LoopbackHTTPClient(port: port)
                client = connection
                func timed(_ method: String, _ target: String, _ json: String) throws -> LoopbackHTTPClient.Answer {
                    let sent = ContinuousClock.now
                    let answer = try connection.exchange(method, target, json: json)
                    let took = ContinuousClock.now - sent
                    tally.update { $0.latencies.append(UInt64(took.components.seconds) * 1_000_000_000 + UInt64(took.components.attoseconds / 1_000_000_000)) }
                    return answer
                }
                let signedUp = try timed("POST", "\(clientPath):signUp?\(apiKey)", #"{"email":"\#(email)","password":"secret-\#(round)","returnSecureToken":true}"#)
                guard signedUp.status == 200, let idToken = signedUp.json?["idToken"] as? String, let localId = signedUp.json?["localId"] as? String else {
                    tally.update { $0.problem("well-behaved signUp answered \(signedUp.status)") }
                    continue
                }
                tally.update { $0.wellBehavedSignUps += 1 }
                let looked = try timed("POST", "\(clientPath):lookup?\(apiKey)", #"{"idToken":"\#(idToken)"}"#)
                let user = (looked.json?["users"] as? [[String: Any]])?.first
                if looked.status != 200 || user?["localId"] as? String != localId || user?["email"] as? String != email {
                    tally.update { $0.problem("well-behaved lookup answered \(looked.status) without the user just signed up") }
                }
                let sent = try timed("POST", "\(clientPath):sendOobCode?\(apiKey)", #"{"requestType":"PASSWORD_RESET","email":"\#(email)"}"#)
                if sent.status != 200 || sent.json?["email"] as? String != email {
                    tally.update { $0.problem("well-behaved sendOobCode answered \(sent.status)") }
                }
            } catch {
                tally.update { $0.problem("well-behaved client: \(error)") }
                client = nil
            }
        }
    }

    /// Each sends a request one byte a second until the server closes it; the server's idle
    /// timeout must cut them off.
    static func slowClients(port: Int, count: Int, cutOffWithin: Duration, tally: Tally) {
        let request = Array("POST \(clientPath):signUp?\(apiKey) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: \(String(repeating: "s", count: 4000))\r\n\r\n".utf8)
        let opened = ContinuousClock.now
        var clients = (0..<count).compactMap { _ in try? LoopbackHTTPClient(port: port, timeout: .milliseconds(200)) }
        var sentBytes = 0
        while !clients.isEmpty && ContinuousClock.now < opened + cutOffWithin {
            clients.removeAll { client in
                if !client.isClosedByServer, (try? client.send([request[sentBytes % request.count]])) != nil { return false }
                let lasted = ContinuousClock.now - opened
                tally.update {
                    $0.slowClientsCut += 1
                    $0.slowClientLongest = max($0.slowClientLongest, lasted)
                }
                return true
            }
            sentBytes += 1
            Thread.sleep(forTimeInterval: 1)
        }
        if !clients.isEmpty {
            tally.update { $0.problem("\(clients.count) slow clients still connected after \(cutOffWithin)") }
        }
        for client in clients { client.close() }
    }

    /// 10 MB bodies with their length declared: refused with 413 in the emulator's shape,
    /// before the server reads them (the answer arrives while the body is still being sent).
    static func oversizedBodies(port: Int, plan: Plan, tally: Tally) {
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: plan.oversizedBodyBytes)
        for _ in 0..<plan.oversizedBodies {
            do {
                let client = try LoopbackHTTPClient(port: port)
                // The server may close while the body is still going out; the answer is what counts.
                try? client.request("POST", "\(clientPath):signUp?\(apiKey)", body: body)
                let answer = try client.readAnswer()
                if answer.status == 413 && answer.isEmulatorError {
                    tally.update { $0.oversizedRefused += 1 }
                } else {
                    tally.update { $0.problem("a 10 MB body answered \(answer.status)") }
                }
                client.close()
            } catch {
                tally.update { $0.problem("a 10 MB body: \(error)") }
            }
        }
    }

    /// A chunked body that never ends: refused with 413, then cut off.
    static func endlessBody(port: Int, plan: Plan, tally: Tally) {
        let client: LoopbackHTTPClient
        do {
            client = try LoopbackHTTPClient(port: port, timeout: .seconds(10))
            try client.send("POST \(clientPath):signUp?\(apiKey) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        } catch {
            tally.update { $0.problem("an endless body: \(error)") }
            return
        }
        let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 0x4000) + Array("\r\n".utf8)
        var sent = 0
        while sent < plan.endlessBodyCeiling {
            do {
                try client.send(chunk)
            } catch LoopbackHTTPClient.Failure.send(let code) where code == EAGAIN || code == EWOULDBLOCK {
                tally.update { $0.problem("the server stopped reading an endless body but kept its connection open") }
                return
            } catch {
                break
            }
            sent += chunk.count
        }
        tally.update { $0.endlessLargestSent = max($0.endlessLargestSent, sent) }
        guard sent < plan.endlessBodyCeiling else {
            tally.update { $0.problem("an endless body was still being read after \(sent) bytes") }
            return
        }
        tally.update { $0.endlessCutOff += 1 }
        // A reset can drop the refusal the server sent first; when it arrived, it is a 413.
        if let answer = try? client.readAnswer(), !(answer.status == 413 && answer.isEmulatorError) {
            tally.update { $0.problem("an endless body answered \(answer.status)") }
        }
    }

    /// Requests the HTTP parser refuses: each gets 400 (431 for a head too large) in the
    /// emulator's error shape and the connection closes.
    public static let malformedRequests: [[UInt8]] = [
        Array("GARBAGE\u{1} / HTTP/1.1\r\n\r\n".utf8),
        Array("GET / HTTP/9.9\r\nHost: x\r\n\r\n".utf8),
        Array("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n".utf8),
        Array("GET / HTTP/1.1\r\nHost: x\r\nX: a\u{0}b\r\n\r\n".utf8),
        Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n".utf8),
        Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8),
        Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n".utf8),
        [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + Array("\r\n\r\n".utf8),
    ]

    static func malformed(port: Int, rounds: Int, tally: Tally) {
        for _ in 0..<rounds {
            for request in malformedRequests {
                do {
                    let client = try LoopbackHTTPClient(port: port)
                    try? client.send(request)
                    let answer = try client.readAnswer()
                    if [400, 431].contains(answer.status) && answer.isEmulatorError && client.waitForClose() {
                        tally.update { $0.malformedRefused += 1 }
                    } else {
                        tally.update { $0.problem("a malformed request answered \(answer.status)") }
                    }
                } catch {
                    tally.update { $0.problem("a malformed request: \(error)") }
                }
            }
        }
    }

    /// Bodies that are no JSON the API takes: each gets 400 in the emulator's shape (or 413
    /// when over the body limit), and the connection goes on serving.
    static func hostileJSON(port: Int, nesting: Int, tally: Tally) {
        guard nesting > 0 else { return }
        do {
            var client = try LoopbackHTTPClient(port: port)
            for body in hostileJSONBodies(nesting: nesting) {
                try client.request("POST", "\(clientPath):signUp?\(apiKey)", body: body)
                let answer = try client.readAnswer()
                if [400, 413].contains(answer.status) && answer.isEmulatorError {
                    tally.update { $0.hostileJSONRefused += 1 }
                } else {
                    tally.update { $0.problem("a hostile JSON body answered \(answer.status)") }
                }
                if answer.headers["connection"] == "close" { client = try LoopbackHTTPClient(port: port) }
            }
        } catch {
            tally.update { $0.problem("hostile JSON: \(error)") }
        }
    }

    /// Invalid UTF-8, arrays and objects nested `nesting` deep, numbers out of any range.
    public static func hostileJSONBodies(nesting: Int) -> [[UInt8]] {
        [
            Array(#"{"email":""#.utf8) + [0xFF, 0xFE, 0xC0] + Array(#"@example.com","password":"secret-1"}"#.utf8),
            Array(repeating: UInt8(ascii: "["), count: nesting) + Array(repeating: UInt8(ascii: "]"), count: nesting),
            Array(String(repeating: #"{"a":"#, count: nesting / 10).utf8) + [UInt8(ascii: "1")] + Array(repeating: UInt8(ascii: "}"), count: nesting / 10),
            Array(#"{"email":"n@example.com","password":"secret-1","returnSecureToken":1e999999999}"#.utf8),
            Array(#"{"email":"n@example.com","password":"secret-1","x":"#.utf8) + Array(repeating: UInt8(ascii: "9"), count: 50_000) + [UInt8(ascii: "}")],
            Array(#"{"email":"n@example.com","password":"#.utf8) + Array("-0.\(String(repeating: "0", count: 10_000))1e-99999}".utf8),
        ]
    }

    /// Distinct users, as fast as each connection gets answers.
    static func signUps(port: Int, tag: String, left: Countdown, tally: Tally) {
        var localIds: [String] = []
        defer { tally.addUsers(localIds) }
        do {
            let client = try LoopbackHTTPClient(port: port)
            while let number = left.take() {
                let answer = try client.exchange("POST", "\(clientPath):signUp?\(apiKey)", json: #"{"email":"user-\#(tag)-\#(number)@example.com","password":"secret-\#(number)"}"#)
                if answer.status == 200, let localId = answer.json?["localId"] as? String {
                    localIds.append(localId)
                } else {
                    tally.update { $0.problem("sign-up \(number) answered \(answer.status)") }
                }
            }
        } catch {
            tally.update { $0.problem("sign-ups: \(error)") }
            left.finish()
        }
    }

    /// The report under a lock, shared by the clients' threads.
    final class Tally: @unchecked Sendable {
        // `@unchecked`: `report` and `users` are only touched under `lock`.
        private let lock = NSLock()
        private var report = Report()
        private var users = Set<String>()

        @discardableResult
        func update<Result>(_ change: (inout Report) -> Result) -> Result {
            lock.withLock { change(&report) }
        }

        func addUsers(_ localIds: [String]) {
            lock.withLock {
                users.formUnion(localIds)
                report.signUps += localIds.count
                report.distinctUsers = users.count
            }
        }
    }

    /// Hands out the numbers n-1 down to 0 to whichever thread asks.
    final class Countdown: @unchecked Sendable {
        // `@unchecked`: `left` is only touched under `lock`.
        private let lock = NSLock()
        private var left: Int

        init(_ count: Int) { left = count }

        func take() -> Int? {
            lock.withLock {
                guard left > 0 else { return nil }
                left -= 1
                return left
            }
        }

        func finish() { lock.withLock { left = 0 } }
        var isFinished: Bool { lock.withLock { left == 0 } }
    }
}
