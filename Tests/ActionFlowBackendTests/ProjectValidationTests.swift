import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

@Suite struct ProjectValidationTests {
    @Test func theBundledProjectMeetsEveryRule() throws {
        #expect(try ProjectConfigLoader.loadDefault().validate().isEmpty)
    }

    @Test("every broken rule is listed, named as a project file names the setting")
    func listsEveryProblem() throws {
        var project = try ProjectConfigLoader.loadDefault()
        project.projectId = ""
        project.authorizedDomains.append("https://x")
        project.iOSApp?.teamId = "abc"
        project.androidApp?.sha256 = ["AB:CD"]
        project.mobileLinkStyle = .firebaseDynamicLinkDomain
        project.dynamicLinkDomains = []
        project.actionHandlerURL = "mailto:a@example.com"
        project.codeLifetimes.verifyEmail = 1.5
        project.codeLifetimes.emailSignIn = 1e300
        project.rateLimit.windowSeconds = -60
        project.defaultLocale = "xx"
        project.clockStart = Date(timeIntervalSince1970: 1e300)
        project.users.append(PresetUser(email: "ALICE@example.com", password: "short", emailVerified: false))
        #expect(project.validate().map(\.description) == [
            "projectId: expected a project id, got an empty string",
            "authorizedDomains[4]: expected a domain name, got 'https://x' (write the host only, without scheme, port or path)",
            "iosApp.teamId: expected a 10-character Apple team id (A-Z, 0-9), got 'abc'",
            "androidApp.sha256[0]: expected 32 colon-separated hex bytes (AB:CD:...), got 'AB:CD'",
            "mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains",
            "actionHandlerUrl: expected an absolute http(s) URL, got 'mailto:a@example.com'",
            "codeLifetimes.verifyEmail: expected a whole number of seconds, got 1.5",
            "codeLifetimes.emailSignIn: expected at most 36525d (100 years, 3155760000 seconds), got 1e+300",
            "rateLimit.window: expected a duration above 0, got -60",
            "defaultLocale: no email templates for 'xx' (available: de, en, es, fr, he, ja, vi)",
            "clockStart: expected a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, got 1e+300 seconds from 1970",
            "users[3].password: passwords need at least 6 characters (the server's WEAK_PASSWORD rule), got 5",
            "users[3].email: 'ALICE@example.com' is already used by users[0]",
        ])
    }

    @Test("a rule that involves two settings points at the one the file writes")
    func crossSettingRuleFindsItsLine() throws {
        var base = try ProjectConfigLoader.loadDefault()
        base.mobileLinkStyle = .firebaseDynamicLinkDomain
        do {
            _ = try ProjectConfigLoader.parse("emailEnumerationProtection: true\ndynamicLinkDomains: []\n", fileName: "mine.yaml", base: base)
            Issue.record("a Dynamic Links project without a Dynamic Links domain loaded")
        } catch {
            #expect(error.description == "mine.yaml line 2: mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains")
        }
    }

    @Test func normalizedProjectsCompareDomainsInLowercase() throws {
        var project = try ProjectConfigLoader.loadDefault()
        project.hostingDomains = ["Shop.Example.COM"]
        project.defaultLocale = "fr_CA"
        let normalized = project.normalized()
        #expect(normalized.hostingDomains == ["shop.example.com"])
        #expect(normalized.defaultLocale == "fr")
        #expect(normalized.ownsHostingDomain("SHOP.example.com"))
    }
}
