import ActionFlowModel
import Foundation

/// The default project of the issue ("Passing State in Email Actions" example), built here so the
/// model's tests need no configuration file.
enum Fixtures {
    static let apiKey = "AIzaSyDemoActionflowKey0000000000000000"
    /// 54 URL-safe base64 characters, as Firebase and the Auth Emulator make them.
    static let oobCode = "qX3vJ8kLm2Pz9RtYwB7nC4dF6gH1jK5sT0uV2xA8eQ_-Lr3Mo9Np1Z"
    static let domains = ["localhost", "demo-actionflow.firebaseapp.com", "demo-actionflow.web.app", "www.example.com"]

    static func project(style: MobileLinkStyle = .hostingDomain, fingerprints: Bool = true, handler: String? = nil) -> ProjectConfiguration {
        ProjectConfiguration(
            projectId: "demo-actionflow",
            apiKey: apiKey,
            authorizedDomains: domains,
            iOSApp: RegisteredIOSApp(bundleId: "com.example.ios", appStoreId: "1234567890", teamId: "ABCDE12345"),
            androidApp: RegisteredAndroidApp(packageName: "com.example.android",
                                             sha1: fingerprints ? ["AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01"] : [],
                                             latestVersion: 12),
            mobileLinkStyle: style,
            hostingDomains: ["demo-actionflow.firebaseapp.com", "demo-actionflow.web.app", "links.example.com"],
            dynamicLinkDomains: ["example.page.link"],
            actionHandlerURL: handler,
            emailEnumerationProtection: false,
            codeLifetimes: CodeLifetimes(),
            rateLimit: RateLimit(),
            defaultLocale: "en",
            clockStart: Date(timeIntervalSince1970: 1_767_225_600),
            users: [])
    }

    /// The email link the project sends for these settings.
    static func emailLink(_ settings: ActionCodeSettings, requestType: OobRequestType = .passwordReset, project: ProjectConfiguration = project(), oobCode: String = oobCode, tenantId: String? = nil) -> String {
        var request = SendOobCodeRequest(requestType: requestType, email: "ada@example.com", settings: settings, clientType: .iOS)
        request.tenantId = tenantId
        let domain = project.mobileLinkStyle == .hostingDomain
            ? (settings.linkDomain ?? project.defaultHostingDomain)
            : (settings.dynamicLinkDomain ?? project.dynamicLinkDomains.first ?? "example.page.link")
        return ActionLinkBuilder.emailLink(for: request, oobCode: oobCode, lang: "en", project: project, linkDomain: domain)
    }

    static let articleSettings = ActionCodeSettings(
        url: "https://www.example.com/articles/42", handleCodeInApp: true, iOSBundleID: "com.example.ios",
        androidPackageName: "com.example.android", androidInstallIfNotAvailable: true, androidMinimumVersion: "10")
}

extension LinkAnatomy {
    func has(_ code: String) -> Bool { findings.contains { $0.code == code } }
    var kinds: [LinkLayer.Kind] { layers.map(\.kind) }
}
