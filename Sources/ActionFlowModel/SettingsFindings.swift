/// What a developer should know about action code settings before sending them to a project:
/// server rejections to expect, privacy risks and routing surprises.
public enum SettingsFindings {
    /// Finding codes that mean the server refuses to send the email at all, with the error it
    /// answers (docs/file-formats.md, "How the simulated project answers").
    public static let serverErrors: [String: String] = [
        "continue-url.invalid": "INVALID_CONTINUE_URI", "continue-url.unauthorized": "UNAUTHORIZED_DOMAIN",
        "settings.install-without-package": "MISSING_ANDROID_PACKAGE_NAME", "settings.link-domain-unknown": "INVALID_HOSTING_LINK_DOMAIN",
        "settings.link-domain-default": "INVALID_HOSTING_LINK_DOMAIN", "settings.dynamic-link-domain-unknown": "INVALID_DYNAMIC_LINK_DOMAIN",
    ]

    /// Refusals that depend on the project's own configuration (its authorized and link
    /// domains), not on the settings alone: a capture of another project cannot be judged by them.
    public static let dependOnTheProject: Set<String> = ["continue-url.unauthorized", "settings.link-domain-unknown", "settings.dynamic-link-domain-unknown"]

    /// Finding codes that mean the server refuses to send the email at all.
    public static var rejectedByServer: Set<String> { Set(serverErrors.keys) }

    public static func findings(for settings: ActionCodeSettings, requestType: OobRequestType, project: ProjectConfiguration) -> [Finding] {
        var findings: [Finding] = []
        if let url = settings.url, !url.isEmpty {
            findings.append(contentsOf: ContinueURLFindings.check(url, authorizedDomains: project.authorizedDomains).findings)
        } else if settings.url == nil, requestType != .emailSignIn {
            findings.append(Finding(code: "settings.no-continue-url", severity: .info,
                                    message: "No continue URL: after the action the user stays on the hosted page, and nothing brings them back to where they started."))
        }
        if requestType == .emailSignIn && !settings.handleCodeInApp {
            findings.append(Finding(code: "settings.sign-in-not-in-app", severity: .danger,
                                    message: "Email-link sign-in with handleCodeInApp = false: every SDK refuses to send it. The app must receive the link to finish signing in."))
        }
        if settings.androidPackageName == nil, settings.androidInstallIfNotAvailable || settings.androidMinimumVersion != nil {
            findings.append(Finding(code: "settings.install-without-package", severity: .danger,
                                    message: "Install-if-not-available or a minimum version is set without an Android package name: the server answers MISSING_ANDROID_PACKAGE_NAME."))
        }
        findings.append(contentsOf: linkDomainFindings(settings, project: project))
        findings.append(contentsOf: appFindings(settings, project: project))
        return findings
    }

    private static func linkDomainFindings(_ settings: ActionCodeSettings, project: ProjectConfiguration) -> [Finding] {
        var findings: [Finding] = []
        if let domain = settings.dynamicLinkDomain, !domain.isEmpty {
            findings.append(.legacyDynamicLinks("dynamicLinkDomain \(domain)"))
            if !project.ownsDynamicLinkDomain(domain) {
                findings.append(Finding(code: "settings.dynamic-link-domain-unknown", severity: .danger,
                                        message: "\(domain) is not a Dynamic Links domain of project \(project.projectId): the server answers INVALID_DYNAMIC_LINK_DOMAIN."))
            }
        } else if project.mobileLinkStyle == .firebaseDynamicLinkDomain {
            findings.append(.legacyDynamicLinks("Project \(project.projectId) (mobile link style FIREBASE_DYNAMIC_LINK_DOMAIN)"))
        }
        if let domain = settings.linkDomain, ProjectConfiguration.isDefaultHostingDomain(domain) {
            findings.append(Finding(code: "settings.link-domain-default", severity: .danger,
                                    message: "\(domain) is a default Hosting domain: mobile links use it when no linkDomain is set, but naming it is refused with INVALID_HOSTING_LINK_DOMAIN; leave linkDomain unset or name a custom domain."))
        } else if let domain = settings.linkDomain, !domain.isEmpty, !project.ownsHostingDomain(domain) {
            findings.append(Finding(code: "settings.link-domain-unknown", severity: .danger,
                                    message: "\(domain) is not a Hosting domain of project \(project.projectId): the server answers INVALID_HOSTING_LINK_DOMAIN."))
        }
        return findings
    }

    private static func appFindings(_ settings: ActionCodeSettings, project: ProjectConfiguration) -> [Finding] {
        var findings: [Finding] = []
        if let bundle = settings.iOSBundleID, !bundle.isEmpty, bundle != project.iOSApp?.bundleId {
            findings.append(Finding(code: "settings.ios-app-not-registered", severity: .warning,
                                    message: "iOS bundle id \(bundle) is not registered in project \(project.projectId): universal links cannot open it, so iOS users get the web page."))
        }
        if let package = settings.androidPackageName, !package.isEmpty {
            if package != project.androidApp?.packageName {
                findings.append(Finding(code: "settings.android-app-not-registered", severity: .warning,
                                        message: "Android package \(package) is not registered in project \(project.projectId) (with its SHA fingerprints): app links cannot open it, so Android users get the web page."))
            } else if let minimum = settings.androidMinimumVersion, let latest = project.androidApp?.latestVersion {
                if let code = Int(minimum) {
                    if code > latest {
                        findings.append(Finding(code: "settings.minimum-version-unavailable", severity: .warning,
                                                message: "Minimum version \(code) is newer than the latest version on the Play Store (\(latest)): users are sent to upgrade to a version that does not exist."))
                    }
                } else {
                    findings.append(Finding(code: "settings.minimum-version-not-a-number", severity: .warning,
                                            message: "Android minimumVersion \"\(minimum)\" is not a version code (a whole number such as 12), so it cannot be compared with the installed app."))
                }
            }
        }
        let namesApp = settings.iOSBundleID?.isEmpty == false || settings.androidPackageName?.isEmpty == false
        if settings.handleCodeInApp && !namesApp {
            findings.append(Finding(code: "settings.no-app", severity: .info,
                                    message: "handleCodeInApp is true but no iOS bundle id or Android package name is given: no app is named to receive the link."))
        }
        return findings
    }
}
