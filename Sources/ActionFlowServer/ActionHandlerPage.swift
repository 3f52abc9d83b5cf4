import ActionFlowModel
import ActionFlowTransport
import Foundation

/// The web action handler (the "web widget") as plain HTML forms, served at the handler URL's
/// path: reset the password, verify the email, finish an email-link sign-in, then Continue to the
/// continue URL. Every value from the link or the server is HTML-escaped; the page's own URL holds
/// `oobCode` and `apiKey`, so nothing it links to receives a Referer.
struct ActionHandlerPage {
    let transport: any AuthTransport

    static let securityHeaders = [
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    ]

    func respond(to request: APIRequest) async -> APIResponse {
        let parameters: [String: String]
        switch request.method {
        case "GET": parameters = request.query
        case "POST": parameters = HTMLForm.decode(request.body)
        default: return page(status: 405, title: "Method not allowed", body: "<p>Open the link from the email.</p>")
        }
        guard let code = parameters["oobCode"], !code.isEmpty else {
            return page(status: 400, title: "Invalid link", body: "<p>The link has no <code>oobCode</code>. Open the full link from the email.</p>")
        }
        let continueURL = parameters["continueUrl"]
        let mode = parameters["mode"] ?? ""
        switch HostedPageAction(ActionCodeOperation(mode: mode)) {
        case .checkResetCode:
            return await resetPassword(code: code, newPassword: request.method == "POST" ? parameters["newPassword"] : nil, parameters: parameters)
        case .applyCode:
            return await applyCode(code: code, mode: mode, continueURL: continueURL)
        case .askEmailThenSignIn:
            return await emailLinkSignIn(code: code, email: request.method == "POST" ? parameters["email"] : nil, parameters: parameters)
        case .unsupported:
            return page(status: 400, title: "Unsupported action", body: "<p>This page does not handle mode <code>\(HTML.escape(mode))</code>.</p>")
        }
    }

    private func resetPassword(code: String, newPassword: String?, parameters: [String: String]) async -> APIResponse {
        do throws(AuthFailure) {
            let checked = try await transport.resetPassword(ResetPasswordRequest(oobCode: code))
            guard checked.requestType == nil || checked.requestType == .passwordReset else {
                throw .server(.invalidOobCode, detail: nil)
            }
            let email = HTML.escape(checked.email ?? "your account")
            guard let newPassword else {
                return page(status: 200, title: "Reset your password", body: resetForm(email: email, parameters: parameters, problem: nil))
            }
            do throws(AuthFailure) {
                _ = try await transport.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: newPassword))
            } catch .server(.weakPassword, _) {
                return page(status: 400, title: "Reset your password", body: resetForm(email: email, parameters: parameters, problem: "The password must be at least 6 characters long."))
            }
            return page(status: 200, title: "Password changed", body: "<p>You can now sign in with your new password.</p>" + continueButton(parameters["continueUrl"]))
        } catch {
            return failurePage(error, retry: "Try resetting your password again")
        }
    }

    private func resetForm(email: String, parameters: [String: String], problem: String?) -> String {
        let problemHTML = problem.map { "<p class=\"problem\">\(HTML.escape($0))</p>" } ?? ""
        return """
        <p>for <strong>\(email)</strong></p>\(problemHTML)
        <form method="post">
        \(hiddenFields(parameters, keeping: ["mode", "oobCode", "apiKey", "continueUrl", "lang", "tenantId"]))
        <label>New password <input type="password" name="newPassword" minlength="6" required autocomplete="new-password"></label>
        <button type="submit">Save</button>
        </form>
        """
    }

    private func applyCode(code: String, mode: String, continueURL: String?) async -> APIResponse {
        do throws(AuthFailure) {
            let applied = try await transport.update(UpdateAccountRequest(oobCode: code))
            let email = applied.email.map { "<p>\(HTML.escape($0))</p>" } ?? ""
            switch mode {
            case "revertSecondFactorAddition":
                return page(status: 200, title: "The second sign-in step was removed", body: email + "<p>If you did not add it, change your password now.</p>" + continueButton(continueURL))
            case "recoverEmail":
                return page(status: 200, title: "Your sign-in email has been restored", body: email + "<p>You can now sign in with your new account.</p>" + continueButton(continueURL))
            default:
                return page(status: 200, title: "Your email has been verified", body: email + "<p>You can now sign in with your new account.</p>" + continueButton(continueURL))
            }
        } catch {
            return failurePage(error, retry: "Try verifying your email again")
        }
    }

    private func emailLinkSignIn(code: String, email: String?, parameters: [String: String]) async -> APIResponse {
        guard let email, !email.isEmpty else {
            return page(status: 200, title: "Finish signing in", body: """
            <p>Confirm the email address this link was sent to.</p>
            <form method="post">
            \(hiddenFields(parameters, keeping: ["mode", "oobCode", "apiKey", "continueUrl", "lang", "tenantId"]))
            <label>Email <input type="email" name="email" required autocomplete="email"></label>
            <button type="submit">Sign in</button>
            </form>
            """)
        }
        do throws(AuthFailure) {
            let signedIn = try await transport.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code))
            return page(status: 200, title: "You are signed in", body: "<p>as <strong>\(HTML.escape(signedIn.email ?? email))</strong></p>" + continueButton(parameters["continueUrl"]))
        } catch {
            return failurePage(error, retry: "Request a new sign-in link")
        }
    }

    private func failurePage(_ failure: AuthFailure, retry: String) -> APIResponse {
        let explanation = switch failure.serverCode {
        case .expiredOobCode?: "The link has expired."
        case .invalidOobCode?: "The link is malformed or has already been used."
        case .userDisabled?: "The account is disabled."
        case .userNotFound?, .emailNotFound?: "The account no longer exists."
        default: "The request failed."
        }
        return page(status: 400, title: retry, body: "<p>\(explanation)</p><p class=\"code\"><code>\(HTML.escape(failure.wireMessage))</code></p>")
    }

    /// Continue goes to the continue URL only when it is a web address; anything else is shown, not followed.
    private func continueButton(_ continueURL: String?) -> String {
        guard let continueURL, !continueURL.isEmpty else { return "" }
        guard let components = URLComponents(string: continueURL),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else {
            return "<p>The continue URL <code>\(HTML.escape(continueURL))</code> is not a web address, so there is no Continue button.</p>"
        }
        return "<p><a class=\"button\" rel=\"noreferrer noopener\" href=\"\(HTML.escape(continueURL))\">Continue</a></p>"
    }

    private func hiddenFields(_ parameters: [String: String], keeping names: [String]) -> String {
        names.compactMap { name in
            parameters[name].map { "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTML.escape($0))\">" }
        }.joined(separator: "\n")
    }

    private func page(status: Int, title: String, body: String) -> APIResponse {
        APIResponse(status: status, contentType: "text/html; charset=utf-8", headers: Self.securityHeaders, body: Data(HTML.document(title: title, body: body).utf8))
    }
}

enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in UntrustedText.sanitize(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `title` is plain text; `body` is already-escaped HTML.
    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(escape(title))</title>
        <style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
        .button,button{display:inline-block;padding:.5rem 1rem;background:#1a73e8;color:#fff;border:0;border-radius:4px;text-decoration:none}
        label{display:block;margin:1rem 0}.problem{color:#c5221f}.code{color:#5f6368;font-size:.85rem}
        table{border-collapse:collapse}td,th{padding:.25rem .5rem;text-align:left;vertical-align:top}</style>
        </head><body><h1>\(escape(title))</h1>
        \(body)
        </body></html>
        """
    }
}

/// `application/x-www-form-urlencoded` bodies.
enum HTMLForm {
    static func decode(_ body: Data) -> [String: String] {
        var result: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(parts[0])
            let value = parts.count > 1 ? unescape(parts[1]) : ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    private static func unescape(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
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
            rows = "<tr><td colspan=\"4\">\(HTML.escape(error.wireMessage))</td></tr>"
        }
        let body = """
        <p>Project <code>\(HTML.escape(project.projectId))</code>. Newest first; reload to see new mail.</p>
        <table><tr><th>To</th><th>Subject</th><th>Sent</th><th></th></tr>
        \(rows.isEmpty ? "<tr><td colspan=\"4\">No email sent yet.</td></tr>" : rows)
        </table>
        """
        return APIResponse(status: 200, contentType: "text/html; charset=utf-8", headers: ActionHandlerPage.securityHeaders, body: Data(HTML.document(title: "actionflow serve: mailbox", body: body).utf8))
    }

    private func row(_ message: MailMessage) -> String {
        let open = localHandlerLink(message.link).map { "<a href=\"\(HTML.escape($0))\">open here</a>" } ?? ""
        return "<tr><td>\(HTML.escape(message.to))</td><td>\(HTML.escape(message.subject))<br><code>\(HTML.escape(message.link))</code></td><td>\(HTML.escape(message.sentAt.iso8601Stamp))</td><td>\(open)</td></tr>"
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
