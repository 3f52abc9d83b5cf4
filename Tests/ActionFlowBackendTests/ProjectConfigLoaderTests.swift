import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

@Suite struct ProjectConfigLoaderTests {
    @Test("clockStart reads as Foundation's RFC 3339 formatter reads it, out-of-range fields and all, and refuses what it refuses")
    func clockStartTimes() throws {
        let base = try ProjectConfigLoader.loadDefault()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for text in ["2026-01-15T09:00:00Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "2100-03-01T00:00:00Z",
                     "2024-12-31T12:34:56Z", "2026-01-15T09:00:00+02:00", "9999-12-31T23:59:59Z",
                     // Out of range: the formatter rolls them over, and so does the loader.
                     "2026-02-30T00:00:00Z", "2026-01-15T24:00:00Z"] {
            let project = try ProjectConfigLoader.parse("clockStart: \"\(text)\"\n", fileName: "mine.yaml", base: base)
            #expect(project.clockStart == formatter.date(from: text), "\(text)")
        }
        for text in ["2026-13-01T00:00:00Z", "2026-01-15 09:00:00Z", "2026-01-15T09:00:00"] {
            #expect(throws: ProjectConfigError.self, "\(text)") {
                try ProjectConfigLoader.parse("clockStart: \"\(text)\"\n", fileName: "mine.yaml", base: base)
            }
        }
    }

    @Test("clockStart is a time the clock can show, from 1970 to the end of 9999")
    func clockStartWithinTheClocksRange() throws {
        let base = try ProjectConfigLoader.loadDefault()
        for text in ["1969-12-31T23:59:59Z", "0001-01-01T00:00:00Z"] {
            let error = try #require(throws: ProjectConfigError.self) {
                try ProjectConfigLoader.parse("clockStart: \"\(text)\"\n", fileName: "mine.yaml", base: base)
            }
            #expect(error.description == "mine.yaml line 1: clockStart: expected a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, got \(text)")
        }
    }

    @Test func defaultProjectMirrorsTheGuide() throws {
        let project = try ProjectConfigLoader.loadDefault()
        #expect(project.projectId == "demo-actionflow")
        #expect(project.apiKey == "fake-api-key-demo-actionflow")
        #expect(project.authorizedDomains == ["localhost", "demo-actionflow.firebaseapp.com", "demo-actionflow.web.app", "www.example.com"])
        #expect(project.iOSApp == RegisteredIOSApp(bundleId: "com.example.ios", appStoreId: "123456789", teamId: "ABCDE12345"))
        #expect(project.androidApp?.packageName == "com.example.android")
        #expect(project.androidApp?.latestVersion == 12)
        #expect(project.androidApp?.sha1.count == 1)
        #expect(project.androidApp?.sha256.count == 1)
        #expect(project.mobileLinkStyle == .hostingDomain)
        #expect(project.hostingDomains == ["demo-actionflow.firebaseapp.com", "demo-actionflow.web.app", "links.example.com"])
        #expect(project.dynamicLinkDomains == ["example.page.link"])
        #expect(project.actionHandlerURL == nil)
        #expect(project.effectiveActionHandlerURL == "https://demo-actionflow.firebaseapp.com/__/auth/action")
        #expect(project.emailEnumerationProtection == false)
        #expect(project.codeLifetimes == CodeLifetimes(passwordReset: 3600, verifyEmail: 3 * 86400, emailSignIn: 6 * 3600))
        #expect(project.rateLimit == RateLimit(maxEmails: 5, windowSeconds: 3600))
        #expect(project.defaultLocale == "en")
        #expect(project.clockStart == Date(timeIntervalSince1970: 1_768_467_600)) // 2026-01-15T09:00:00Z
        #expect(project.users.map(\.email) == [alice.email, bob.email, carol.email])
        #expect(project.users.map(\.emailVerified) == [true, false, true])
        #expect(project.users.map(\.disabled) == [false, false, true])
        #expect(project.users.map(\.password) == [alice.password, bob.password, carol.password])
    }

    @Test func overridesChangeOnlyTheKeysTheyName() throws {
        let base = try ProjectConfigLoader.loadDefault()
        let yaml = """
        emailEnumerationProtection: true
        codeLifetimes:
          passwordReset: 10m
        iosApp:
          appStoreId: 987654321
        rateLimit:
          window: 1h30m
        """
        let merged = try ProjectConfigLoader.parse(yaml, fileName: "mine.yaml", base: base)
        #expect(merged.emailEnumerationProtection)
        #expect(merged.codeLifetimes.passwordReset == 600)
        #expect(merged.codeLifetimes.verifyEmail == base.codeLifetimes.verifyEmail)
        #expect(merged.iOSApp == RegisteredIOSApp(bundleId: "com.example.ios", appStoreId: "987654321", teamId: "ABCDE12345"))
        #expect(merged.rateLimit == RateLimit(maxEmails: 5, windowSeconds: 5400))
        #expect(merged.projectId == base.projectId)
        #expect(merged.users == base.users)
        #expect(merged.authorizedDomains == base.authorizedDomains)
    }

    @Test func overridesCanRemoveAnAppAndReplaceLists() throws {
        let base = try ProjectConfigLoader.loadDefault()
        let yaml = """
        iosApp: null
        mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN
        authorizedDomains: [localhost]
        users:
          - email: dave@example.com
            password: dave-password
        """
        let merged = try ProjectConfigLoader.parse(yaml, fileName: "mine.yaml", base: base)
        #expect(merged.iOSApp == nil)
        #expect(merged.androidApp == base.androidApp)
        #expect(merged.mobileLinkStyle == .firebaseDynamicLinkDomain)
        #expect(merged.authorizedDomains == ["localhost"])
        #expect(merged.users == [PresetUser(email: "dave@example.com", password: "dave-password", emailVerified: false)])
    }

    @Test func emptyOverrideFileKeepsTheBase() throws {
        let base = try ProjectConfigLoader.loadDefault()
        #expect(try ProjectConfigLoader.parse("# nothing to change\n", fileName: "mine.yaml", base: base) == base)
    }

    @Test func loadsAndOverridesFromFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let override = folder.appendingPathComponent("override.yaml")
        try "defaultLocale: fr-FR\n".write(to: override, atomically: true, encoding: .utf8)
        let full = folder.appendingPathComponent("full.yaml")
        try String(contentsOf: BundledResources.defaultProjectFile, encoding: .utf8).write(to: full, atomically: true, encoding: .utf8)

        let base = try ProjectConfigLoader.load(from: full)
        #expect(base == (try ProjectConfigLoader.loadDefault()))
        let merged = try ProjectConfigLoader.load(overridesFrom: override, base: base)
        #expect(merged.defaultLocale == "fr")

        let missing = folder.appendingPathComponent("absent.yaml")
        #expect(throws: ProjectConfigError.self) { try ProjectConfigLoader.load(from: missing) }
        do {
            _ = try ProjectConfigLoader.load(from: missing)
        } catch {
            #expect(error.description.contains("absent.yaml"))
            #expect(error.description.contains("cannot read the file"))
        }
    }

    /// Each bad override gives the exact message, naming the file, the line and the setting.
    @Test(arguments: [
        ("authorizedDomains:\n  - localhost\n  - www.example.com\n  - https://x\n",
         "project.yaml line 4: authorizedDomains[2]: expected a domain name, got 'https://x' (write the host only, without scheme, port or path)"),
        ("apiKey: k\nprojectid: demo\n",
         "project.yaml line 2: projectid: unknown key 'projectid' (did you mean 'projectId'?)"),
        ("iosApp:\n  bundleId: com.example.ios\n  storeId: 1\n",
         "project.yaml line 3: iosApp.storeId: unknown key 'storeId' (known keys: bundleId, appStoreId, teamId)"),
        ("emailEnumerationProtection: \"yes\"\n",
         "project.yaml line 1: emailEnumerationProtection: expected true or false, got 'yes'"),
        ("rateLimit:\n  maxEmails: 0\n",
         "project.yaml line 2: rateLimit.maxEmails: expected a number above 0, got 0"),
        ("rateLimit:\n  maxEmails: many\n",
         "project.yaml line 2: rateLimit.maxEmails: expected a whole number, got 'many'"),
        ("codeLifetimes:\n  passwordReset: soon\n",
         "project.yaml line 2: codeLifetimes.passwordReset: expected a duration such as 1h, 30m, 3d or a number of seconds, got 'soon'"),
        ("codeLifetimes:\n  verifyEmail: 2h 30m\n",
         "project.yaml line 2: codeLifetimes.verifyEmail: expected a duration such as 1h, 30m, 3d or a number of seconds, got '2h 30m': no spaces inside a duration"),
        ("rateLimit:\n  window: 0\n",
         "project.yaml line 2: rateLimit.window: expected a duration above 0, got 0"),
        ("codeLifetimes: 3600\n",
         "project.yaml line 1: codeLifetimes: expected a mapping of settings, got 3600 (a number)"),
        ("authorizedDomains: localhost\n",
         "project.yaml line 1: authorizedDomains: expected a list, got 'localhost'"),
        ("projectId: 12345\n",
         "project.yaml line 1: projectId: expected a string, got 12345 (a number) (quote it to use it as text)"),
        ("projectId: Demo Project\n",
         "project.yaml line 1: projectId: expected a project id (4 to 30 lowercase letters, digits and hyphens, starting with a letter), got 'Demo Project'"),
        ("mobileLinkStyle: DYNAMIC\n",
         "project.yaml line 1: mobileLinkStyle: expected HOSTING_DOMAIN or FIREBASE_DYNAMIC_LINK_DOMAIN, got 'DYNAMIC'"),
        ("mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN\ndynamicLinkDomains: []\n",
         "project.yaml line 1: mobileLinkStyle: FIREBASE_DYNAMIC_LINK_DOMAIN needs at least one entry in dynamicLinkDomains"),
        ("defaultLocale: xx\n",
         "project.yaml line 1: defaultLocale: no email templates for 'xx' (available: de, en, es, fr, he, ja, vi)"),
        ("clockStart: tomorrow\n",
         "project.yaml line 1: clockStart: expected a time such as 2026-01-15T09:00:00Z, got 'tomorrow'"),
        ("actionHandlerUrl: ftp://example.com/action\n",
         "project.yaml line 1: actionHandlerUrl: expected an absolute http(s) URL, got 'ftp://example.com/action'"),
        ("users:\n  - email: a@example.com\n    password: secret1\n  - email: A@example.com\n    password: secret2\n",
         "project.yaml line 4: users[1].email: 'A@example.com' is already used by users[0]"),
        ("users:\n  - email: a@example.com\n    password: short\n",
         "project.yaml line 3: users[0].password: passwords need at least 6 characters (the server's WEAK_PASSWORD rule), got 5"),
        ("users:\n  - email: not-an-email\n    password: secret1\n",
         "project.yaml line 2: users[0].email: expected an email address, got 'not-an-email'"),
        ("users:\n  - password: secret1\n",
         "project.yaml line 2: users[0]: missing required key 'email'"),
        ("androidApp:\n  sha1: [\"AB:CD\"]\n",
         "project.yaml line 2: androidApp.sha1[0]: expected 20 colon-separated hex bytes (AB:CD:...), got 'AB:CD'"),
        ("androidApp:\n  packageName: android\n",
         "project.yaml line 2: androidApp.packageName: expected an app id such as com.example.app, got 'android'"),
        ("iosApp:\n  teamId: abc\n",
         "project.yaml line 2: iosApp.teamId: expected a 10-character Apple team id (A-Z, 0-9), got 'abc'"),
        ("- projectId: demo\n",
         "project.yaml line 1: expected a mapping of settings, got a list"),
        ("projectId: [unclosed\n",
         "project.yaml line 2: not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 1)"),
        ("apiKey: a\napiKey: b\n",
         "project.yaml line 2: duplicate key 'apiKey'"),
        ("fieldApps:\n  - {name: iOS 1, platform: iOS, sdk: ios@9.0.0}\n",
         "project.yaml line 2: fieldApps[0].sdk: no profile covers \"ios@9.0.0\""),
        ("fieldApps:\n  - {name: iOS 1, platform: iOS, sdk: android@23.2.0}\n",
         "project.yaml line 2: fieldApps[0].sdk: android@23.2.0 is for Android apps, and 'iOS 1' is an iOS app"),
        ("fieldApps:\n  - {name: Web, platform: desktop, sdk: js@12.0.0}\n",
         "project.yaml line 2: fieldApps[0].platform: expected iOS or android, got 'desktop'"),
        ("fieldApps:\n  - {name: A, platform: android, sdk: android@23.2.0}\n  - {name: A, platform: android, sdk: android@24.0.0}\n",
         "project.yaml line 3: fieldApps[1].name: \"A\" names two field apps; each needs its own name"),
        ("fieldApps:\n  - {name: A, platform: android, sdk: android@23.2.0, linkDomains: [\"not a domain\"]}\n",
         "project.yaml line 2: fieldApps[0].linkDomains[0]"),
    ])
    func badOverrideGivesSpecificError(yaml: String, expected: String) throws {
        let base = try ProjectConfigLoader.loadDefault()
        #expect(throws: ProjectConfigError.self) { try ProjectConfigLoader.parse(yaml, fileName: "project.yaml", base: base) }
        do {
            _ = try ProjectConfigLoader.parse(yaml, fileName: "project.yaml", base: base)
        } catch {
            #expect(error.description.hasPrefix(expected), "got: \(error.description)")
        }
    }

    @Test("the bundled project's apps in the field load with their SDK releases and claimed domains")
    func fieldApps() throws {
        let apps = try ProjectConfigLoader.loadDefault().apps
        #expect(apps.map(\.name) == ["iOS 2.4", "iOS 3.1", "iOS 4.0", "Android 9", "Android 12"])
        #expect(apps[1].sdk.name == "ios@11.7.0" && apps[1].claims("Demo-ActionFlow.firebaseapp.com"))
        #expect(apps[3].version == 9 && apps[3].platform == .android)
    }

    @Test func completeFileNeedsTheRequiredKeys() throws {
        let yaml = "projectId: demo-project\napiKey: key\nauthorizedDomains: [localhost]\n"
        do {
            _ = try ProjectConfigLoader.parse(yaml, fileName: "p.yaml", base: nil)
            Issue.record("a file without clockStart loaded")
        } catch {
            #expect(error.description == "p.yaml line 1: missing required key 'clockStart'")
        }
        do {
            _ = try ProjectConfigLoader.parse("", fileName: "p.yaml", base: nil)
            Issue.record("an empty project file loaded")
        } catch {
            #expect(error.description == "p.yaml: the file is empty; expected a mapping of project settings (see 'Project configuration' in docs/file-formats.md)")
        }
    }

    @Test func minimalCompleteFileGetsDefaults() throws {
        let yaml = "projectId: demo-mini\napiKey: key-1\nauthorizedDomains: [localhost]\nclockStart: 2026-02-01T00:00:00Z\n"
        let project = try ProjectConfigLoader.parse(yaml, fileName: "p.yaml", base: nil)
        #expect(project.projectId == "demo-mini")
        #expect(project.clockStart == Date(timeIntervalSince1970: 1_769_904_000))
        #expect(project.mobileLinkStyle == .hostingDomain)
        #expect(project.defaultHostingDomain == "demo-mini.firebaseapp.com")
        #expect(project.codeLifetimes == CodeLifetimes())
        #expect(project.users.isEmpty)
    }

    @Test func hostileTextInErrorsIsSanitized() throws {
        let base = try ProjectConfigLoader.loadDefault()
        do {
            _ = try ProjectConfigLoader.parse("authorizedDomains: [\"evil\\u001b[2J.com\"]\n", fileName: "project.yaml", base: base)
            Issue.record("a domain with an escape sequence loaded")
        } catch {
            #expect(!error.description.contains("\u{1B}"))
            #expect(error.description.contains("␛"))
        }
    }
}
