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

    @Test("The one-pass decoder gives lenientBase64's bytes whenever lenientBase64 gives any")
    func onePassDecoderAgrees() {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=.\n %".utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = String(decoding: (0..<Int.random(in: 0...40, using: &generator)).map { _ in letters.randomElement(using: &generator)! }, as: UTF8.self)
            guard let expected = SimulatedProject.lenientBase64(text) else { continue }
            var copy = text
            let decoded = copy.withUTF8 { SimulatedProject.decodeBase64Leniently($0) }
            #expect(decoded == Array(expected), "\(text)")
        }
    }
}
