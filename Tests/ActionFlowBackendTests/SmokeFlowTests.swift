import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite struct SmokeFlowTests {
    @Test func passwordResetFlowThroughEmbeddedTransport() async throws {
        let transport = try embedded()
        #expect(await failureCode { try await transport.signIn((alice.email, "wrong-password")) } == .invalidPassword)
        let code = try await transport.mailedResetCode(alice.email)
        let checked = try await transport.resetPassword(ResetPasswordRequest(oobCode: code))
        #expect(checked.requestType == .passwordReset)
        _ = try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "brand-new-secret"))
        let session = try await transport.signIn((alice.email, "brand-new-secret"))
        #expect(session.email == alice.email)
    }
}
