import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing
import TestSupport

@Suite("A phone second factor through the REST transport against serve")
struct SecondFactorOverRESTTests {
    let alice = SignInWithPasswordRequest(email: "alice@example.com", password: "alice-password-1")
    let phone = "+15555550100"

    @Test("enrolled over v2 with the SMS code serve lists, recorded for the Network pane and curl; the revert email's code removes it, and the password alone signs in again")
    func enrollAndRevert() async throws {
        let serve = try await ServeFixture.start()
        defer { Task { await serve.stop() } }
        let recorder = RecordingTransport(serve.rest, apiKey: serve.configuration.apiKey)
        let token = try #require(try await recorder.signInWithPassword(alice).idToken)

        let started = try await recorder.startMfaEnrollment(StartMfaEnrollmentRequest(idToken: token, phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: phone)))
        let sessionInfo = try #require(started.phoneSessionInfo?.sessionInfo)
        let sms = try #require(try await recorder.textMessages().first { $0.sessionInfo == sessionInfo })
        #expect(sms.phoneNumber == phone && sms.code.count == 6)
        let wrongCode = String(sms.code.reversed()) == sms.code ? "000000" : String(sms.code.reversed())
        let refused = await #expect(throws: AuthFailure.self) {
            try await recorder.finalizeMfaEnrollment(FinalizeMfaEnrollmentRequest(idToken: token, phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: wrongCode)))
        }
        #expect(refused?.serverCode == AuthErrorCode("INVALID_CODE"))
        let enrolled = try await recorder.finalizeMfaEnrollment(FinalizeMfaEnrollmentRequest(idToken: token, phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: sms.code)))
        #expect(!enrolled.idToken.isEmpty && enrolled.idToken != token)
        #expect(try await recorder.textMessages().isEmpty, "the code is used up")

        // The Network pane's request lines and the curl script name the v2 paths.
        let records = recorder.records()
        #expect(records.map(\.request) == [IdentityToolkitOperation.signInWithPassword, .startMfaEnrollment, .finalizeMfaEnrollment, .finalizeMfaEnrollment]
            .map { ExchangeRecord.requestLine($0, apiKey: serve.configuration.apiKey) })
        #expect(records[1].request.hasPrefix("POST /v2/accounts/mfaEnrollment:start?key="))
        #expect(records.map(\.operation) == [.signInWithPassword, .startMfaEnrollment, .finalizeMfaEnrollment, .finalizeMfaEnrollment])
        #expect(records.map(\.status) == [200, 200, 400, 200])
        let script = CurlScript(title: "second factor", exchanges: records, exchangeCount: records.count, revealsSecrets: false).script
        #expect(script.contains("/v2/accounts/mfaEnrollment:start"))
        #expect(script.contains("/v2/accounts/mfaEnrollment:finalize"))

        let mail = try #require(try await recorder.mailbox().last)
        #expect(mail.requestType == .revertSecondFactorAddition && mail.to == "alice@example.com")
        #expect(mail.link.contains("mode=revertSecondFactorAddition"))
        let waiting = try await recorder.signInWithPassword(alice)
        #expect(waiting.idToken == nil && waiting.mfaPendingCredential != nil)

        // What the web widget does on load.
        _ = try await recorder.update(UpdateAccountRequest(oobCode: mail.oobCode))
        let again = try await recorder.signInWithPassword(alice)
        #expect(again.idToken != nil && again.mfaPendingCredential == nil)
    }
}
