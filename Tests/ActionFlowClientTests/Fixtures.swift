@testable import ActionFlowClient
import ActionFlowModel
import Foundation

/// A small project and world for reducer tests, independent of the shipped configuration.
enum Fixture {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static let project = ProjectConfiguration(
        projectId: "demo-actionflow", apiKey: "fake-api-key",
        authorizedDomains: ["localhost", "demo-actionflow.firebaseapp.com", "demo-actionflow.web.app", "www.example.com"],
        iOSApp: RegisteredIOSApp(bundleId: "com.example.ios", appStoreId: "123456789", teamId: "TEAMID1234"),
        androidApp: RegisteredAndroidApp(packageName: "com.example.android", latestVersion: 12),
        mobileLinkStyle: .hostingDomain, hostingDomains: ["demo-actionflow.firebaseapp.com"], dynamicLinkDomains: ["example.page.link"],
        actionHandlerURL: nil, emailEnumerationProtection: false, codeLifetimes: CodeLifetimes(), rateLimit: RateLimit(),
        defaultLocale: "en", clockStart: start, users: []
    )

    static let inAppSettings = ActionCodeSettings(handleCodeInApp: true, iOSBundleID: "com.example.ios")
    static let webWidgetSettings = ActionCodeSettings(handleCodeInApp: false, iOSBundleID: "com.example.ios")

    static func app(device: Device = .iPhone, settings: ActionCodeSettings = inAppSettings) -> AppState {
        AppState(device: device, settings: settings)
    }

    /// A session over a remote world on `project` whose clock has not been read: effects come
    /// back from `reduce` and their replies are fed as events.
    static func session(_ app: AppState = app(), project: ProjectConfiguration = project) -> Session {
        Session.remote(project: project, app: app, now: nil)
    }

    /// The message the project would send for `request`, with the link `ActionLinkBuilder` builds.
    static func message(id: String, for request: SendOobCodeRequest, to email: String, code: String) -> MailMessage {
        let link = ActionLinkBuilder.emailLink(for: request, oobCode: code, lang: "en", project: project, linkDomain: project.defaultHostingDomain)
        return MailMessage(id: id, to: email, subject: "Reset your password for demo-actionflow", body: "Follow this link", link: link, requestType: request.requestType, locale: "en", sentAt: start, oobCode: code)
    }

    /// The narration lines the app writes for a route: its steps, then its assumptions.
    static func narration(of route: TapRoute) -> [String] {
        (route.steps + route.assumptions).map { SecretMasking.maskLinks(in: $0) }
    }

    static func anatomy(_ link: String) -> LinkAnatomy? {
        try? LinkInspector.inspect(link, authorizedDomains: project.authorizedDomains)
    }

    static func signedIn(_ email: String, token: String = "token-1") -> SignInResponse {
        SignInResponse(localId: "uid-\(email)", email: email, idToken: token, refreshToken: "refresh", expiresIn: "3600")
    }

    static func user(_ email: String, verified: Bool) -> LookupResponse {
        LookupResponse(users: [UserRecord(localId: "uid-\(email)", email: email, emailVerified: verified)])
    }
}

extension Session {
    /// The mail app listed `messages` from the remote world.
    mutating func listMessages(_ messages: [MailMessage]) {
        world.inbox = messages
        app.listedMessages = messages.count
    }
}
