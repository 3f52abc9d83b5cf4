@testable import ActionFlowClient
import ActionFlowModel
import Foundation

/// Sessions whose emails, links, subjects, project and device names are text written to break
/// a Mermaid diagram or a Markdown report, and whose links carry real-looking secrets.
enum HostileSession {
    static let texts = [
        "a;b#c\"d'e<f>g&h`i %%{init: {\"theme\":\"dark\"}}%% 100%",
        "x\ny\r\nz\u{1B}[31m red \u{202E}evil\u{2066} \u{0}",
        "end\nparticipant Evil as Evil\nEvil->>User: pwned",
        "<script>alert(1)</script> [click](javascript:alert(1)) | cell | ```fence``` <br/>",
        "Note over User: fake; alt fake; %% comment #59; #quot;",
    ]

    static let oobCode = "SECRETCODE0123456789"
    static let apiKey = "SECRETAPIKEY0123456789"
    static let password = "hunter2-password"

    static func session(_ text: String) -> Session {
        let email = "\(text)@example.com"
        let continueURL = "https://www.example.com/articles/42?note=\(text)&oobCode=\(oobCode)"
        let encoded = continueURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=\(oobCode)&apiKey=\(apiKey)&continueUrl=\(encoded)&lang=en"
        var project = Fixture.project
        project.projectId = text
        var device = Device.pixel
        device.osName = text
        let message = MailMessage(id: "m1", to: email, subject: text, body: text, link: link, requestType: .passwordReset, locale: "en", sentAt: Fixture.start, oobCode: oobCode)
        var session = Session.remote(project: project, app: Fixture.app(device: device), now: Fixture.start)
        session.world = World(project: project, inbox: [message], now: Fixture.start, isSimulated: false)
        let request = SendOobCodeRequest(requestType: .passwordReset, email: email, continueUrl: continueURL, iOSBundleId: text, androidPackageName: text, canHandleCodeInApp: true)
        let route = TapRoute(destination: .webWidget(actionURL: link), steps: [text, link], assumptions: ["assumed: \(text)", "assumed: \(link)"])
        let facts: [JournalFact] = [
            .gated(.open(.account), target: .account, gate: .signIn),
            .request(.signInWithPassword(SignInWithPasswordRequest(email: email, password: password)), by: .app, purpose: .signInForm),
            .exchange(id: 1, .signInWithPassword, by: .app, status: 400, error: text),
            .forgotPassword(resumePath: "/account"),
            .request(.sendOobCode(request, locale: text), by: .app, purpose: .sendEmail(recipient: email)),
            .exchange(id: 2, .sendOobCode, by: .app, status: 200, error: nil),
            .reply(.oobCodeSent(.passwordReset, email: email, enumerationProtected: false)),
            .mailboxOpened,
            .mailboxListed(new: 1, total: 1),
            .messageOpened(subject: text, to: email),
            .routed(link: link, route),
            .webWidget(.forwarded(to: link)),
            .webWidget(.cannotForward(.continueURLNotAbsolute(text))),
            .request(.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: oobCode)), by: .app, purpose: .emailConfirmed),
            .exchange(id: 3, .signInWithEmailLink, by: .app, status: nil, error: text),
            .request(.resetPassword(ResetPasswordRequest(oobCode: oobCode)), by: .mailScanner, purpose: .scannerPreOpened(subject: text)),
            .scanner(.landedElsewhere(subject: text, url: continueURL)),
            .linkPasted(link),
            .storePage(StoreVisit(store: .playStore, purpose: .install, appID: text, thenAppReceives: link)),
            .browserOpened(continueURL),
            .refused(.unsupportedMode(text)),
            .arrived(.continueURL(continueURL), at: .account),
            .flowCompleted(.passwordReset, at: .account, continueURL: continueURL),
        ]
        session.journal = facts.map { JournalEntry(at: Fixture.start, $0) }
        session.exchanges = [
            ExchangeRecord(id: 2, request: "POST /v1/accounts:sendOobCode?key=\(apiKey)", requestBody: #"{"email": "\#(text)", "continueUrl": "\#(continueURL)"}"#,
                           requestHeaders: ["X-Firebase-Locale": text], status: 200, responseBody: #"{"email": "\#(text)", "oobLink": "\#(link)"}"#,
                           failure: nil, startedAt: Fixture.start, duration: 0.01),
        ]
        session.exchangeCount = 3
        return session
    }

    /// Every secret the session holds, none of which may appear in an export.
    static let secrets = [oobCode, apiKey, password]
}
