@testable import ActionFlowBackend
import Testing

@Suite("Email and domain syntax")
struct SyntaxTests {
    @Test("Addresses the server takes", arguments: [
        "a@example.com", "A.B+c_d~!#$%&'*/=?^`{|}-@Sub-domain.Example.COM", "x@localhost", "x@LocalHost", "1@2.3",
        String(repeating: "l", count: 64) + "@example.com",
    ])
    func valid(_ address: String) {
        #expect(EmailSyntax.isValid(address))
    }

    @Test("Addresses it refuses", arguments: [
        "", "a", "a@b", "a@@b.com", "@example.com", "a@", "a b@example.com", "a\"b@example.com", "a(b@example.com", "a;b@example.com",
        "é@example.com", "a@exämple.com", "a@-x.com", "a@x-.com", "a@x..com", "a@.x.com", "a@x.com.", "a@x_y.com",
        "a@example.com\u{301}", "a\u{301}@example.com", "a@\u{301}example.com", "a\r\n@example.com", "a@localhost.", "a@local-host",
        String(repeating: "l", count: 65) + "@example.com", "a@" + String(repeating: "d", count: 64) + ".com",
        "a@" + Array(repeating: "abc", count: 70).joined(separator: "."),
    ])
    func invalid(_ address: String) {
        #expect(!EmailSyntax.isValid(address))
    }

    @Test("Domains", arguments: [("example.com", true), ("localhost", true), ("LOCALHOST", true), ("localhost.", false), ("com", false), ("ex ample.com", false), ("xn--bcher-kva.example", true), ("bücher.example", false), ("", false)])
    func domains(_ domain: String, valid: Bool) {
        #expect(DomainName.isValid(domain) == valid)
    }
}
