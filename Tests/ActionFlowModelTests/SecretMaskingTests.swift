import ActionFlowModel
import Foundation
import PropertyBased
import Testing

@Suite struct SecretMaskingTests {
    @Test func masksKeepingAShortPrefix() {
        #expect(SecretMasking.mask("fake-api-key-demo-actionflow") == "fake-a…(masked)")
        #expect(SecretMasking.mask("short-pass") == "…(masked)")
        #expect(SecretMasking.mask("") == "")
    }

    @Test func masksSecretParametersInLinksAtEveryEncodingDepth() {
        let plain = "https://x.firebaseapp.com/__/auth/action?mode=signIn&oobCode=ABCDEFGHIJKLMNOP&apiKey=fake-api-key-demo&lang=en"
        #expect(SecretMasking.maskLinks(in: plain) == "https://x.firebaseapp.com/__/auth/action?mode=signIn&oobCode=ABCDEF…(masked)&apiKey=fake-a…(masked)&lang=en")
        let wrapped = "https://x.web.app/__/auth/links?link=https%3A%2F%2Fx%2Faction%3FoobCode%3DABCDEFGHIJKLMNOP%26apiKey%3Dfake-api-key-demo"
        #expect(SecretMasking.maskLinks(in: wrapped) == "https://x.web.app/__/auth/links?link=https%3A%2F%2Fx%2Faction%3FoobCode%3DABCDEF…(masked)%26apiKey%3Dfake-a…(masked)")
        let doubled = "https://example.page.link/?link=a%253FoobCode%253DABCDEFGHIJKLMNOP%2526lang%253Den"
        #expect(SecretMasking.maskLinks(in: doubled) == "https://example.page.link/?link=a%253FoobCode%253DABCDEF…(masked)%2526lang%253Den")
        #expect(SecretMasking.maskLinks(in: "no secrets here") == "no secrets here")
        for text in [plain, wrapped, doubled, "a?oobCode=SHORT&key=k"] {
            let once = SecretMasking.maskLinks(in: text)
            #expect(SecretMasking.maskLinks(in: once) == once, "masking twice changes nothing")
        }
    }

    /// Issue 37, item 8: a code's escapes are part of it, and a password in a link is a password.
    @Test("a percent-encoded code is masked whole, and a link's newPassword shows nothing")
    func escapedValuesAndPasswordsInLinks() {
        let escaped = "https://h/__/auth/action?mode=resetPassword&oobCode=ABCDEF%2Bsecret%2Fmoresecret&lang=en"
        #expect(SecretMasking.maskLinks(in: escaped) == "https://h/__/auth/action?mode=resetPassword&oobCode=ABCDEF…(masked)&lang=en")
        let wrapped = "https://x.web.app/__/auth/links?link=https%3A%2F%2Fx%2Faction%3FoobCode%3DABCDEF%252Bsecret%252Fmore%26lang%3Den"
        #expect(SecretMasking.maskLinks(in: wrapped) == "https://x.web.app/__/auth/links?link=https%3A%2F%2Fx%2Faction%3FoobCode%3DABCDEF…(masked)%26lang%3Den")
        let emulator = "http://127.0.0.1:9099/emulator/action?mode=resetPassword&oobCode=ABCDEFGHIJKLMNOP&newPassword=hunter2%21long&apiKey=fake-api-key"
        let masked = SecretMasking.maskLinks(in: emulator)
        #expect(masked == "http://127.0.0.1:9099/emulator/action?mode=resetPassword&oobCode=ABCDEF…(masked)&newPassword=…(masked)&apiKey=…(masked)")
        #expect(!masked.contains("hunter2"))
        #expect(SecretMasking.maskLinks(in: masked) == masked, "masking twice changes nothing")
    }

    @Test func masksSecretJSONValuesAndLinksInside() throws {
        let json = #"{"email":"a@example.com","password":"hunter22-secret","nested":{"idToken":"eyJhbGciOiJub25lIn0.payload."},"oobLink":"https://h/a?oobCode=ABCDEFGHIJKLMNOP","list":[{"refreshToken":"RRRRRRRRRRRRRRRR"}],"count":3}"#
        let masked = SecretMasking.maskJSON(Data(json.utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(masked.utf8)) as? [String: Any])
        #expect(object["email"] as? String == "a@example.com")
        #expect(object["password"] as? String == "…(masked)")
        #expect((object["nested"] as? [String: Any])?["idToken"] as? String == "eyJhbG…(masked)")
        #expect(object["oobLink"] as? String == "https://h/a?oobCode=ABCDEF…(masked)")
        #expect(((object["list"] as? [[String: Any]])?.first)?["refreshToken"] as? String == "RRRRRR…(masked)")
        #expect(object["count"] as? Int == 3)
        #expect(masked.contains("\n"))
    }

    @Test("one rule for named values: passwords show nothing, other secrets a prefix, links their secrets masked")
    func namedValues() {
        #expect(SecretMasking.mask("correct-horse-battery", named: "newPassword") == "…(masked)")
        #expect(SecretMasking.mask("", named: "password") == "")
        #expect(SecretMasking.mask("5reQMBsvZD_1hph66mqD1Avca", named: "oobCode") == "5reQMB…(masked)")
        #expect(SecretMasking.mask("fake-api-key-demo-actionflow", named: "apiKey") == "fake-a…(masked)")
        #expect(SecretMasking.mask("https://h/a?oobCode=ABCDEFGHIJKLMNOP&lang=en", named: "link") == "https://h/a?oobCode=ABCDEF…(masked)&lang=en")
        #expect(SecretMasking.mask("resetPassword", named: "mode") == "resetPassword")
        #expect(SecretMasking.maskTyped("hunter2") == "•••••••")
    }

    @Test func textThatIsNotJSONIsMaskedAsLinks() {
        #expect(SecretMasking.maskJSON(Data("oops oobCode=ABCDEFGHIJKLMNOP".utf8)) == "oops oobCode=ABCDEF…(masked)")
    }
}

@Suite struct SecretMaskingPropertyTests {
    static let secret = Gen.letterOrNumber.string(of: 13...60)
    static let words = Gen.letterOrNumber.string(of: 1...12)

    @Test func noSecretParameterSurvivesInAnyEncoding() async {
        await propertyCheck(input: Self.secret, Self.words, Gen.int(in: 0...2)) { secret, other, depth in
            let layers = ["", "%3D", "%253D"]
            let separator = ["&", "%26", "%2526"][depth]
            let text = "https://h/p?x=\(other)\(separator)oobCode\(layers[depth] == "" ? "=" : layers[depth])\(secret)\(separator)lang=en"
            let masked = SecretMasking.maskLinks(in: text)
            #expect(!masked.contains(secret))
            #expect(masked.contains(String(secret.prefix(6)) + SecretMasking.marker))
        }
    }

    @Test func noEscapedSecretSurvivesInAnyEncoding() async {
        await propertyCheck(input: Self.secret, Self.secret, Gen.int(in: 0...1)) { first, second, depth in
            // A code with an escaped `+` or `/` in it, once or twice encoded.
            let escape = ["%2B", "%252B"][depth]
            let text = depth == 0 ? "https://h/p?oobCode=\(first)\(escape)\(second)&lang=en" : "https://h/l?link=a%3FoobCode%3D\(first)\(escape)\(second)%26lang%3Den"
            let masked = SecretMasking.maskLinks(in: text)
            #expect(!masked.contains(second), "\(masked)")
            #expect(masked.hasSuffix(depth == 0 ? "&lang=en" : "%26lang%3Den"))
        }
    }

    @Test func noSecretJSONValueSurvives() async {
        await propertyCheck(input: Self.secret, Gen.int(in: 0..<SecretMasking.secretKeys.count)) { secret, keyIndex in
            let key = SecretMasking.secretKeys.sorted()[keyIndex]
            let json = "{\"\(key)\":\"\(secret)\",\"other\":{\"\(key)\":[\"\(secret)\"]}}"
            #expect(!SecretMasking.maskJSON(Data(json.utf8)).contains(secret))
        }
    }
}
