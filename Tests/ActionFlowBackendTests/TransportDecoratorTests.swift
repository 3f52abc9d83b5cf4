import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing
import TestSupport

@Suite struct RecordingTransportTests {
    func recording() throws -> (RecordingTransport, EmbeddedTransport) {
        let base = try embedded()
        return (RecordingTransport(base, apiKey: base.configuration.apiKey), base)
    }

    @Test func recordsRequestsWithSecretsMasked() async throws {
        let (transport, _) = try recording()
        let session = try await transport.signInWithPassword(SignInWithPasswordRequest(email: alice.email, password: alice.password))
        let record = try #require(transport.records().first)
        #expect(record.id == 1)
        #expect(record.request == "POST /v1/accounts:signInWithPassword?key=fake-a…(masked)")
        #expect(record.status == 200)
        #expect(record.failure == nil)
        #expect(record.startedAt == Date(timeIntervalSince1970: 1_768_467_600))
        #expect(record.requestBody.contains("\"email\" : \"alice@example.com\"") || record.requestBody.contains("\"email\": \"alice@example.com\""))
        #expect(!record.requestBody.contains(alice.password))
        #expect(!record.requestBody.contains(alice.password.prefix(SecretMasking.visiblePrefix)), "no part of a password is shown")
        #expect(record.requestBody.contains("\"…(masked)\""))
        let response = try #require(record.responseBody)
        let idToken = try #require(session.idToken)
        let refreshToken = try #require(session.refreshToken)
        #expect(!response.contains(idToken))
        #expect(!response.contains(refreshToken))
        #expect(response.contains("eyJhbG…(masked)"))
        #expect(response.contains(session.localId))
    }

    @Test func recordsServerErrorsAsTheWireEnvelope() async throws {
        let (transport, _) = try recording()
        _ = await failureCode { try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com"), locale: "fr") }
        let record = try #require(transport.records().first)
        #expect(record.request == "POST /v1/accounts:sendOobCode?key=fake-a…(masked)")
        #expect(record.requestHeaders == ["X-Firebase-Locale": "fr"])
        #expect(record.status == 400)
        #expect(record.failure?.serverCode == .emailNotFound)
        let body = try #require(record.responseBody)
        let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(body.utf8))
        #expect(envelope.error.code == 400)
        #expect(envelope.error.message.hasPrefix("EMAIL_NOT_FOUND : "))
        // Each item carries the full message, as the Auth Emulator writes it.
        #expect(envelope.error.errors.first?.message == envelope.error.message)
    }

    @Test func masksCodesInResponsesAndLinks() async throws {
        let (transport, _) = try recording()
        let response = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email, continueUrl: articleURL, returnOobLink: true), locale: nil)
        let code = try #require(response.oobCode)
        _ = try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "alice-new-secret"))
        let records = transport.records()
        #expect(records.map(\.id) == [1, 2])
        for record in records {
            #expect(!record.requestBody.contains(code))
            #expect(record.responseBody?.contains(code) == false)
            #expect(!record.requestBody.contains("alice-new-secret"))
        }
        let sendResponse = try #require(records.first?.responseBody)
        #expect(sendResponse.contains("oobCode=\(code.prefix(6))…(masked)"))
        #expect(sendResponse.contains("apiKey=fake-a…(masked)"))
        #expect(sendResponse.contains("continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42&lang=en"))
    }

    @Test func recordsNetworkFailuresWithoutAStatus() async throws {
        let base = try embedded()
        let faulty = FaultInjectingTransport(base, plan: FaultPlan(faults: [.connectionLost(on: .lookup)]))
        let transport = RecordingTransport(faulty, apiKey: nil)
        #expect(await failure { try await transport.lookup(LookupRequest(idToken: "token")) } != nil)
        let record = try #require(transport.records().first)
        #expect(record.request == "POST /v1/accounts:lookup")
        #expect(record.status == nil)
        #expect(record.responseBody == nil)
        #expect(record.failure == .network(.connectionLost("connection lost (injected)")))
    }

    @Test func observersReceiveEachRecordAndCapacityDropsTheOldest() async throws {
        let base = try embedded()
        let transport = RecordingTransport(base, apiKey: base.configuration.apiKey, capacity: 2)
        let updates = transport.updates()
        for user in [alice, bob, alice] {
            _ = try await transport.signIn(user)
        }
        var iterator = updates.makeAsyncIterator()
        var seen: [Int] = []
        for _ in 0..<2 {
            if let record = await iterator.next() { seen.append(record.id) }
        }
        #expect(seen == [2, 3])
        #expect(transport.records().map(\.id) == [2, 3])
        transport.clear()
        #expect(transport.records().isEmpty)
        _ = try await transport.signIn(bob)
        #expect(transport.records().map(\.id) == [1], "numbering starts again after a clear")
        #expect(transport.summary == "embedded demo-actionflow")
    }
}

extension RecordingTransport {
    func signIn(_ user: (email: String, password: String)) async throws(AuthFailure) -> SignInResponse {
        try await signInWithPassword(SignInWithPasswordRequest(email: user.email, password: user.password))
    }
}

/// Collects requested latencies instead of sleeping.
final class LatencyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Duration] = []
    func append(_ duration: Duration) {
        lock.lock()
        stored.append(duration)
        lock.unlock()
    }
    var values: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

@Suite struct FaultInjectingTransportTests {
    @Test func failsTheNextCallsOfOneOperationThenRecovers() async throws {
        let base = try embedded()
        let transport = FaultInjectingTransport(base)
        transport.schedule(.serverError(.tooManyAttempts, on: .sendOobCode, count: 2))
        let reset = SendOobCodeRequest(requestType: .passwordReset, email: alice.email)
        #expect(await failureCode { try await transport.signInWithPassword(SignInWithPasswordRequest(email: alice.email, password: alice.password)) } == nil)
        #expect(await failureCode { try await transport.sendOobCode(reset, locale: nil) } == .tooManyAttempts)
        #expect(await failureCode { try await transport.sendOobCode(reset, locale: nil) } == .tooManyAttempts)
        #expect(try await base.mailbox().isEmpty)
        #expect(await failureCode { try await transport.sendOobCode(reset, locale: nil) } == nil)
        #expect(try await base.mailbox().count == 1)
        #expect(transport.plan.faults.isEmpty)
    }

    @Test func faultsWithoutOperationHitAnyCallInOrder() async throws {
        let transport = FaultInjectingTransport(try embedded(), plan: FaultPlan(faults: [
            .timeout(on: nil, seconds: 12),
            .connectionLost(on: nil),
        ]))
        let lookup = LookupRequest(email: [alice.email])
        do {
            _ = try await transport.lookup(lookup)
            Issue.record("the planned timeout did not happen")
        } catch {
            #expect(error == .network(.timedOut(seconds: 12)))
        }
        do {
            _ = try await transport.resetPassword(ResetPasswordRequest(oobCode: "x"))
            Issue.record("the planned connection loss did not happen")
        } catch {
            #expect(error == .network(.connectionLost("connection lost (injected)")))
        }
        #expect(await failureCode { try await transport.lookup(lookup) } == nil)
    }

    @Test func lostAnswersStillChangeTheServer() async throws {
        let base = try embedded()
        let code = try await base.mailedResetCode(alice.email)
        let transport = FaultInjectingTransport(base)
        transport.schedule(.connectionLost(on: .resetPassword, timing: .afterResponse))
        let confirm = ResetPasswordRequest(oobCode: code, newPassword: "alice-new-secret")
        #expect(await failure { try await transport.resetPassword(confirm) } == .network(.connectionLost("connection lost (injected)")))
        // The code was consumed although the client saw an error: a retry says INVALID_OOB_CODE.
        #expect(await failureCode { try await transport.resetPassword(confirm) } == .invalidOobCode)
        #expect(await failureCode { try await transport.signInWithPassword(SignInWithPasswordRequest(email: alice.email, password: "alice-new-secret")) } == nil)
    }

    @Test func injectsFixedAndPerOperationLatency() async throws {
        let log = LatencyLog()
        let transport = FaultInjectingTransport(try embedded(), plan: FaultPlan(latency: .milliseconds(80), latencyByOperation: [.lookup: .milliseconds(5)])) { duration in
            log.append(duration)
        }
        _ = try await transport.signInWithPassword(SignInWithPasswordRequest(email: alice.email, password: alice.password))
        _ = try await transport.lookup(LookupRequest(email: [alice.email]))
        transport.setLatency(.zero)
        _ = try await transport.signInWithPassword(SignInWithPasswordRequest(email: alice.email, password: alice.password))
        transport.setLatency(.seconds(1), for: .sendOobCode)
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email), locale: nil)
        _ = try await transport.mailbox()
        #expect(log.values == [.milliseconds(80), .milliseconds(5), .seconds(1)])
    }

    @Test func realSleepDelaysTheCall() async throws {
        let transport = FaultInjectingTransport(try embedded(), plan: FaultPlan(latency: .milliseconds(30)))
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await transport.lookup(LookupRequest(email: [alice.email]))
        #expect(clock.now - started >= .milliseconds(30))
    }
}

@Suite struct DecoratorPassThroughTests {
    @Test func decoratorsShareTheBaseWorldAndDescription() async throws {
        let base = try embedded()
        let transport = RecordingTransport(FaultInjectingTransport(base), apiKey: base.configuration.apiKey)
        #expect(transport.summary == "embedded demo-actionflow")
        #expect(transport.capabilities == base.capabilities)
        let moved = try await transport.advanceClock(by: 120)
        #expect(try await base.now() == moved)
        _ = try await transport.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: alice.email), locale: nil)
        #expect(try await transport.mailbox() == base.mailbox())
        #expect(transport.records().first?.startedAt == moved)
        try await transport.resetWorld()
        #expect(try await base.mailbox().isEmpty)
        #expect(try await transport.now() == Date(timeIntervalSince1970: 1_768_467_600))
        // Only protocol calls are recorded.
        #expect(transport.records().count == 1)
    }
}
