import ActionFlowModel
import Foundation
import Testing

/// The apps in the field across the move from Dynamic Links to Hosting links.
@Suite struct LinkMigrationTests {
    let project: ProjectConfiguration = {
        var project = Fixtures.project()
        project.androidApp?.sha256 = ["FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"]
        project.fieldApps = [
            FieldApp(name: "iOS 3.1", platform: .iOS, sdk: try! SDKProfile.named("ios@11.7.0"), linkDomains: ["example.page.link", "demo-actionflow.firebaseapp.com"]),
            FieldApp(name: "iOS 4.0", platform: .iOS, sdk: try! SDKProfile.named("ios@12.18.0"), linkDomains: ["links.example.com"]),
            FieldApp(name: "Android 9", platform: .android, version: 9, sdk: try! SDKProfile.named("rnfb@21.0.0"), linkDomains: ["example.page.link"]),
        ]
        return project
    }()
    let settings = ActionCodeSettings(url: "https://www.example.com/articles/42", handleCodeInApp: true, iOSBundleID: "com.example.ios",
                                      androidPackageName: "com.example.android", dynamicLinkDomain: "example.page.link", linkDomain: "links.example.com")

    func row(_ name: String) throws -> LinkMigration.Row {
        try #require(LinkMigration.build(project: project, settings: settings, requestType: .passwordReset).rows.first { $0.app.name == name })
    }

    /// iOS 11.7 cannot send linkDomain (GetOOBConfirmationCodeRequest.swift:285@CocoaPods-11.8.0 is where it starts),
    /// so after the switch its email uses the default Hosting domain, which the build claims: it still opens.
    @Test func anOldBuildFollowsTheDefaultDomain() throws {
        let old = try row("iOS 3.1")
        #expect(old.before.linkDomain == "example.page.link" && old.before.opensApp)
        #expect(old.after.linkDomain == "demo-actionflow.firebaseapp.com" && old.after.opensApp)
        #expect(old.after.sendNotes.contains { $0.hasPrefix("ios@11.7.0 does not send linkDomain (links.example.com)") })
        // ...and its SDK maps resetPassword to unknown (ActionCodeInfo.swift:43-51@CocoaPods-11.11.0).
        #expect(old.after.appReads?.outcome == .ignores)
    }

    /// A build that claims only the Dynamic Links domain loses its links after the switch: the
    /// email's Hosting link goes to the hosted page, then the continue URL in the browser.
    @Test func aBuildThatClaimsOnlyTheOldDomainLosesItsLinks() throws {
        let android = try row("Android 9")
        #expect(android.before.opensApp)
        #expect(android.after.linkDomain == "demo-actionflow.firebaseapp.com")
        #expect(!android.after.opensApp)
        #expect(android.after.association == "Android 9 does not claim demo-actionflow.firebaseapp.com (its link domains: example.page.link), so the system does not hand it the link")
        guard case .webWidget = android.after.tap?.destination else {
            Issue.record("landed in \(String(describing: android.after.tap?.destination))")
            return
        }
        #expect(android.after.appReads == nil)
    }

    @Test func theNewBuildOpensOnTheCustomDomain() throws {
        let new = try row("iOS 4.0")
        #expect(new.after.linkDomain == "links.example.com" && new.after.opensApp)
        #expect(new.after.appReads?.outcome == .handles(.passwordReset, code: ActionLinkBuilder.sampleOobCode, continueURL: "https://www.example.com/articles/42"))
        #expect(!new.before.opensApp, "it never claimed the Dynamic Links domain")
    }

    /// Both files list the registered apps; one without a team id or SHA-256 is not listed, and
    /// a domain the project does not own serves nothing.
    @Test func associationFiles() throws {
        let apple = try #require(try JSONSerialization.jsonObject(with: Data(SiteAssociation.appleFile(for: project, domain: "links.example.com").utf8)) as? [String: Any])
        let details = try #require((apple["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(details.first?["appIDs"] as? [String] == ["ABCDE12345.com.example.ios"])
        #expect((details.first?["components"] as? [[String: String]])?.first?["/"] == "/__/auth/links")
        let android = try #require(try JSONSerialization.jsonObject(with: Data(SiteAssociation.androidFile(for: project).utf8)) as? [[String: Any]])
        #expect((android.first?["target"] as? [String: Any])?["package_name"] as? String == project.androidApp?.packageName)
        var noTeam = project
        noTeam.iOSApp?.teamId = nil
        #expect(!SiteAssociation.appleFile(for: noTeam, domain: "links.example.com").contains("appIDs"))
        let app = try #require(project.fieldApps?.first)
        #expect(SiteAssociation.check(app, domain: "demo-actionflow.firebaseapp.com", project: noTeam).reason.hasSuffix("lists no app: the iOS app has no team id registered"))
        #expect(SiteAssociation.check(app, domain: "links.evil.example", project: project).reason == "links.evil.example is not a domain of project demo-actionflow: it serves no association file")
    }
}
