@testable import ActionFlowBackend
import Foundation
import Testing

/// ID tokens as clients send them back: base64url without padding, sometimes with stray bytes.
@Suite struct TokenDecodingTests {
    @Test func base64URLWithoutPaddingDecodes() {
        let bytes = Data([0xFB, 0xFF, 0xBF, 0x01])
        #expect(SimulatedProject.lenientBase64(SimulatedProject.base64URL(bytes)) == bytes)
        #expect(SimulatedProject.lenientBase64(SimulatedProject.base64URL("{\"sub\":\"alice\"}")) == Data(#"{"sub":"alice"}"#.utf8))
    }

    @Test func strayBytesAreSkippedAndLettersBeyondASCIIRefused() {
        #expect(SimulatedProject.lenientBase64("eyJh=Ig\n") == Data(#"{"a""#.utf8))
        #expect(SimulatedProject.lenientBase64("eyJh€Ig") == Data(#"{"a""#.utf8))
        #expect(SimulatedProject.lenientBase64("eyJhéIg") == nil)
        #expect(SimulatedProject.lenientBase64("==") == nil)
    }

    @Test func aSignedInUsersTokenReadsBack() throws {
        let header = SimulatedProject.base64URL(#"{"alg":"none","typ":"JWT"}"#)
        let payload = SimulatedProject.base64URL(#"{"user_id":"u1","email":"a@example.com"}"#)
        let claims = try #require(SimulatedProject.decodeJWTPayload("\(header).\(payload)."))
        #expect(claims["user_id"] as? String == "u1")
        #expect(SimulatedProject.decodeJWTPayload("\(header).\(payload)") == nil)
    }
}
