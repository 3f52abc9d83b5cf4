import ActionFlowModel
import PropertyBased
import Testing

/// The allow-list matches the host a browser would visit, whatever surrounds it.
@Suite struct ContinueURLPolicyPropertyTests {
    static let domains = ["www.example.com", "demo-actionflow.firebaseapp.com", "demo-actionflow.web.app"]
    static let label = Gen<Character?>.element(of: Array("abcdefghijklmnopqrstuvwxyz0123456789-")).map { $0! }.string(of: 1...12)
    static let pathText = Gen<Character?>.element(of: Array("abcXYZ019-._~/!$&'()*+,;=%@:?é")).map { $0! }.string(of: 0...30)

    /// Random case, optional port, trailing dot, path, query and fragment.
    static let authorizedURL = zip(Gen<String?>.element(of: domains).map { $0! }, Gen.bool, Gen.int(in: 1...65535).optional, Gen.bool, pathText, pathText)
        .map { domain, upper, port, trailingDot, path, query in
            let host = upper ? domain.uppercased() : domain
            return "https://" + host + (trailingDot ? "." : "") + (port.map { ":\($0)" } ?? "") + "/" + path.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "#", with: "") + "?" + query + "#frag"
        }

    @Test func authorizedHostsPassWhateverFollows() async {
        await propertyCheck(count: 500, input: Self.authorizedURL) { url in
            let verdict = ContinueURLPolicy.check(url, authorizedDomains: Self.domains)
            #expect(verdict.isAuthorized, "\(url): \(verdict)")
            #expect(LinkInspectorHelpers.authorized(url) == true)
        }
    }

    /// Subdomains of an authorized domain are refused (Firebase lists each host), with a reason that says so.
    @Test func subdomainsNeedTheirOwnEntry() async {
        await propertyCheck(count: 200, input: Self.label, Gen<String?>.element(of: Self.domains).map { $0! }) { sub, domain in
            let verdict = ContinueURLPolicy.check("https://\(sub).\(domain)/x", authorizedDomains: Self.domains)
            #expect(verdict.errorCode == .unauthorizedDomain)
            #expect(verdict.explanation.contains("subdomains are not covered"))
        }
    }

    static let tricks: [@Sendable (String, String) -> String] = [
        { domain, evil in "https://\(domain)@\(evil).com/" },
        { domain, evil in "https://\(domain):443@\(evil).com/" },
        { domain, evil in "https://\(evil).com\\@\(domain)/" },
        { domain, evil in "https:\\\\\(evil).com/\(domain)" },
        { domain, evil in "https:/\\\(evil).com/\(domain)" },
        { domain, evil in "//\(evil).com/\(domain)" },
        { domain, evil in "%2F%2F\(evil).com/\(domain)" },
        { domain, evil in "https://\(domain)%2F%2F\(evil).com" },
        { domain, evil in "http:\(evil).com/\(domain)" },
        { domain, evil in "https://\(domain).\(evil).com/" },
        { domain, evil in "https://\(evil)\(domain)/" },
        { domain, evil in "javascript:alert(1)//\(domain)" },
        { domain, evil in "data:text/html,\(evil)<a href=https://\(domain)>" },
        { domain, evil in "ftp://\(domain)/\(evil)" },
        { domain, evil in "https://\(domain.replacingOccurrences(of: "e", with: "е"))/\(evil)" },
    ]

    @Test func lookAlikeTricksNeverPass() async {
        await propertyCheck(count: 600, input: Gen.int(in: 0...(Self.tricks.count - 1)), Gen<String?>.element(of: Self.domains).map { $0! }, Self.label) { trick, domain, evil in
            let url = Self.tricks[trick](domain, evil)
            let verdict = ContinueURLPolicy.check(url, authorizedDomains: Self.domains)
            #expect(!verdict.isAuthorized, "\(url) passed")
            #expect(LinkInspectorHelpers.authorized(url) == false)
        }
    }
}

/// The inspector reports the same verdict as the policy for a link carrying the URL.
enum LinkInspectorHelpers {
    static func authorized(_ continueURL: String) -> Bool? {
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=C&continueUrl=" + PercentEncoding.encodeComponent(continueURL)
        return (try? LinkInspector.inspect(link, authorizedDomains: ContinueURLPolicyPropertyTests.domains))?.continueUrlAuthorized
    }
}
