import ActionFlowModel
import ActionFlowTransport
import Foundation

/// The web action handler (the "web widget") as plain HTML forms, served at the handler URL's
/// path. It runs the shared `HostedActionHandler`: reset the password, verify the email, then
/// Continue to the continue URL; a sign-in link is sent on (303) to the continue URL with the
/// link's parameters, where the web app finishes the sign-in. Every value from the link or the
/// server is HTML-escaped; the page's own URL holds `oobCode` and `apiKey`, so nothing it links
/// to receives a Referer.
struct ActionHandlerPage {
    let transport: any AuthTransport

    static let securityHeaders = [
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    ]

    func respond(to request: APIRequest) async -> APIResponse {
        let parameters: [QueryParameter]
        switch request.method {
        case "GET": parameters = QueryParameter.ordered(request.rawQuery)
        case "POST": parameters = QueryParameter.ordered(String(decoding: request.body, as: UTF8.self))
        default: return page(status: 405, title: "Method not allowed", body: "<p>Open the link from the email.</p>")
        }
        var (handler, call) = HostedActionHandler.open(parameters)
        if let call { handler.receive(await perform(call)) }
        if request.method == "POST", let newPassword = parameters.first(where: { $0.name == "newPassword" })?.value,
           let save = handler.submitNewPassword(newPassword) {
            handler.receive(await perform(save))
        }
        return render(handler)
    }

    private func perform(_ call: HostedActionHandler.Call) async -> HostedActionHandler.Reply {
        let call = AuthCall(call)
        do throws(AuthFailure) {
            let reply = try await transport.perform(call)
            return CallReply(call, reply).flatMap(HostedActionHandler.Reply.init)
                ?? .failed(.network(.malformedResponse("\(call.operation.rawValue) answered with another operation's reply")))
        } catch {
            return .failed(error)
        }
    }

    private func render(_ handler: HostedActionHandler) -> APIResponse {
        switch handler.step {
        case .resetForm(let email, let problem):
            return page(status: problem == nil ? 200 : 400, title: "Reset your password", body: resetForm(email: Markup.escaped(email.isEmpty ? "your account" : email), parameters: handler.parameters, problem: problem))
        case .done(let outcome):
            let email = outcome.email.map { "<p>\(Markup.escaped($0))</p>" } ?? ""
            return page(status: 200, title: outcome.title, body: email + "<p>\(Markup.escaped(outcome.detail))</p>" + continueButton(handler.continueURL))
        case .forwarded(let target) where !Self.isWebAddress(target):
            return page(status: 400, title: "Cannot finish signing in", body: "<p>The continue URL <code>\(Markup.escaped(handler.continueURL ?? target))</code> is not a web address, so this page does not send you there.</p>")
        case .forwarded(let target):
            var response = page(status: 303, title: "Finish signing in", body: "<p><a rel=\"noreferrer noopener\" href=\"\(Markup.escaped(target))\">Continue to finish signing in</a></p>")
            response.headers["Location"] = target
            return response
        case .failed(.noCode):
            return page(status: 400, title: "Invalid link", body: "<p>The link has no <code>oobCode</code>. Open the full link from the email.</p>")
        case .failed(.unsupportedMode(let mode)):
            return page(status: 400, title: "Unsupported action", body: "<p>This page does not handle mode <code>\(Markup.escaped(mode))</code>.</p>")
        case .failed(.noContinueURL):
            return page(status: 400, title: "Cannot finish signing in", body: "<p>The sign-in link has no <code>continueUrl</code>: there is no page to finish signing in on.</p>")
        case .failed(.continueURLNotAbsolute(let url)):
            return page(status: 400, title: "Cannot finish signing in", body: "<p>The continue URL <code>\(Markup.escaped(url))</code> is not an absolute URL.</p>")
        case .failed(.codeOfWrongKind):
            return failurePage(.server(.invalidOobCode, detail: nil), operation: handler.operation)
        case .failed(.call(let failure)):
            return failurePage(failure, operation: handler.operation)
        case .loading, .saving:
            // Every call has been answered by now.
            return page(status: 500, title: "The page did not finish", body: "<p>Reload the page.</p>")
        }
    }

    private func resetForm(email: String, parameters: [QueryParameter], problem: String?) -> String {
        let problemHTML = problem.map { "<p class=\"problem\">\(Markup.escaped($0))</p>" } ?? ""
        return """
        <p>for <strong>\(email)</strong></p>\(problemHTML)
        <form method="post">
        \(hiddenFields(parameters, keeping: ["mode", "oobCode", "apiKey", "continueUrl", "lang", "tenantId"]))
        <label>New password <input type="password" name="newPassword" minlength="6" required autocomplete="new-password"></label>
        <button type="submit">Save</button>
        </form>
        """
    }

    private func failurePage(_ failure: AuthFailure, operation: ActionCodeOperation) -> APIResponse {
        let retry = switch operation {
        case .passwordReset: "Try resetting your password again"
        case .verifyAndChangeEmail, .recoverEmail: "Try changing your email again"
        default: "Try verifying your email again"
        }
        let explanation = switch failure.serverCode {
        case .expiredOobCode?: "The link has expired."
        case .invalidOobCode?: "The link is malformed or has already been used."
        case .userDisabled?: "The account is disabled."
        case .userNotFound?, .emailNotFound?: "The account no longer exists."
        default: "The request failed."
        }
        return page(status: 400, title: retry, body: "<p>\(explanation)</p><p class=\"code\"><code>\(Markup.escaped(failure.wireMessage))</code></p>")
    }

    /// Continue goes to the continue URL only when it is a web address; anything else is shown, not followed.
    private func continueButton(_ continueURL: String?) -> String {
        guard let continueURL, !continueURL.isEmpty else { return "" }
        guard Self.isWebAddress(continueURL) else {
            return "<p>The continue URL <code>\(Markup.escaped(continueURL))</code> is not a web address, so there is no Continue button.</p>"
        }
        return "<p><a class=\"button\" rel=\"noreferrer noopener\" href=\"\(Markup.escaped(continueURL))\">Continue</a></p>"
    }

    /// An http or https URL with a host: the only kind this page links or redirects to.
    static func isWebAddress(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host else { return false }
        return !host.isEmpty
    }

    private func hiddenFields(_ parameters: [QueryParameter], keeping names: [String]) -> String {
        parameters.filter { names.contains($0.name) }.map {
            "<input type=\"hidden\" name=\"\($0.name)\" value=\"\(Markup.escaped($0.value))\">"
        }.joined(separator: "\n")
    }

    private func page(status: Int, title: String, body: String) -> APIResponse {
        APIResponse(status: status, contentType: "text/html; charset=utf-8", headers: Self.securityHeaders, body: Data(HTML.document(title: title, body: body).utf8))
    }
}

enum HTML {
    /// `title` is plain text; `body` is already-escaped HTML.
    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(Markup.escaped(title))</title>
        <style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
        .button,button{display:inline-block;padding:.5rem 1rem;background:#1a73e8;color:#fff;border:0;border-radius:4px;text-decoration:none}
        label{display:block;margin:1rem 0}.problem{color:#c5221f}.code{color:#5f6368;font-size:.85rem}
        table{border-collapse:collapse}td,th{padding:.25rem .5rem;text-align:left;vertical-align:top}</style>
        </head><body><h1>\(Markup.escaped(title))</h1>
        \(body)
        </body></html>
        """
    }
}

/// `GET /`: the sent emails, each with a link that opens this server's action handler page, so
/// the web widget flow works in a browser on this machine.
struct MailboxPage {
    let transport: any AuthTransport
    let project: ServedProject

    func respond() async -> APIResponse {
        let rows: String
        do throws(AuthFailure) {
            let messages = try await transport.mailbox()
            rows = messages.reversed().map(row).joined(separator: "\n")
        } catch {
            rows = "<tr><td colspan=\"4\">\(Markup.escaped(error.wireMessage))</td></tr>"
        }
        let body = """
        <p>Project <code>\(Markup.escaped(project.projectId))</code>. Newest first; reload to see new mail.</p>
        <table><tr><th>To</th><th>Subject</th><th>Sent</th><th></th></tr>
        \(rows.isEmpty ? "<tr><td colspan=\"4\">No email sent yet.</td></tr>" : rows)
        </table>
        """
        return APIResponse(status: 200, contentType: "text/html; charset=utf-8", headers: ActionHandlerPage.securityHeaders, body: Data(HTML.document(title: "actionflow serve: mailbox", body: body).utf8))
    }

    private func row(_ message: MailMessage) -> String {
        let open = localHandlerLink(message.link).map { "<a href=\"\(Markup.escaped($0))\">open here</a>" } ?? ""
        return "<tr><td>\(Markup.escaped(message.to))</td><td>\(Markup.escaped(message.subject))<br><code>\(Markup.escaped(message.link))</code></td><td>\(Markup.escaped(message.sentAt.iso8601Stamp))</td><td>\(open)</td></tr>"
    }

    /// The action URL inside the email's link (unwrapping `link=` layers), moved onto this server.
    func localHandlerLink(_ link: String) -> String? {
        var current = link
        for _ in 0..<4 {
            guard let components = URLComponents(string: current) else { return nil }
            if components.path == project.actionHandlerPath || components.path == "/emulator/action", let query = components.percentEncodedQuery {
                return "\(project.actionHandlerPath)?\(query)"
            }
            guard let inner = components.queryItems?.first(where: { $0.name == "link" })?.value else { return nil }
            current = inner
        }
        return nil
    }
}
