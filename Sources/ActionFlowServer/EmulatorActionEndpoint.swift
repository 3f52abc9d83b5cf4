import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// `GET /emulator/action`: where the Auth Emulator's links point, answered as firebase-tools'
/// `handlers.ts` does: JSON, `apiKey` and `oobCode` required; `resetPassword` applies
/// `&newPassword=`, `verifyEmail` and `verifyAndChangeEmail` apply the code, `recoverEmail`
/// restores the address, each then 303 to `continueUrl` when there is one; `signIn` does not use
/// the code but 303s to `continueUrl` with the link's parameters appended, so the app finishes
/// the sign-in. (serve's HTML pages stay at the action handler path, `/__/auth/action`.)
struct EmulatorActionEndpoint {
    let api: EmulatorAPI

    func respond(to request: APIRequest) async -> APIResponse {
        let query = request.query
        guard let apiKey = query["apiKey"], !apiKey.isEmpty else {
            return Self.answer(400, ["error": "missing apiKey query parameter", "instructions": "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY"])
        }
        guard let oobCode = query["oobCode"], !oobCode.isEmpty else {
            return Self.answer(400, ["error": "missing oobCode query parameter", "instructions": "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE"])
        }
        let continueUrl = query["continueUrl"].flatMap { $0.isEmpty ? nil : $0 }
        let tenantId = query["tenantId"].flatMap { $0.isEmpty ? nil : $0 }
        let transport = tenantId.map { api.projects.tenant($0, of: api.projects.defaultProjectId) } ?? api.projects.defaultProject
        func onProject<Result>(_ work: (inout SimulatedProject) throws(AuthFailure) -> Result) throws(AuthFailure) -> Result {
            try api.onProject(transport, for: request, work)
        }
        let pending = try? onProject { (project) throws(AuthFailure) in
            project.issuedCode(oobCode).flatMap { $0.consumedAt == nil ? $0 : nil }
        }
        let code = pending ?? nil
        /// `INVALID_OOB_CODE` (or the emulator's 501 for a code of another kind) becomes the mode's
        /// "expired or already used" answer; other errors answer as the API does. A continue URL,
        /// where the mode follows one, is where it then sends the browser.
        func applying(expired: [String: String], redirecting: Bool = true, success: (UpdateAccountResponse) -> [String: String]) -> APIResponse {
            do throws(AuthFailure) {
                let applied = try onProject { (project) throws(AuthFailure) in
                    try project.update(UpdateAccountRequest(oobCode: oobCode), caller: .client)
                }
                if redirecting, let continueUrl { return Self.redirect(continueUrl) }
                return Self.answer(200, success(applied))
            } catch .server(.invalidOobCode, _), .server(.notImplemented, _) {
                return Self.answer(400, expired)
            } catch {
                return api.response(for: error)
            }
        }
        switch query["mode"] {
        case "recoverEmail":
            let retry = "If you're trying to test the reverting email flow, try changing the email again to generate a new link."
            guard code?.requestType == .recoverEmail else {
                return Self.answer(400, ["error": "Requested mode does not match the OOB code provided.", "instructions": retry])
            }
            let expired = ["error": "Your request to revert your email has expired or the link has already been used.", "instructions": retry]
            return applying(expired: expired, redirecting: false) { ["success": "The email has been successfully reset.", "email": $0.email ?? ""] }
        case "resetPassword":
            guard let code, code.requestType == .passwordReset else {
                return Self.answer(400, ["error": "Your request to reset your password has expired or the link has already been used.", "instructions": "Try resetting your password again."])
            }
            let template = "\(code.link)&newPassword=NEW_PASSWORD_HERE"
            guard let newPassword = query["newPassword"], !newPassword.isEmpty else {
                return Self.answer(400, [
                    "error": "missing newPassword query parameter",
                    "instructions": "To reset the password for \(code.email), send an HTTP GET request to the following URL.",
                    "instructions2": "You may use a web browser or any HTTP client, such as curl.",
                    "urlTemplate": template,
                ])
            }
            guard newPassword != "NEW_PASSWORD_HERE" else {
                return Self.answer(400, [
                    "error": "newPassword must be something other than 'NEW_PASSWORD_HERE'",
                    "instructions": "The string 'NEW_PASSWORD_HERE' is just a placeholder.",
                    "instructions2": "Please change the URL to specify a new password instead.",
                    "urlTemplate": template,
                ])
            }
            do throws(AuthFailure) {
                let reset = try onProject { (project) throws(AuthFailure) in
                    try project.resetPassword(ResetPasswordRequest(oobCode: oobCode, newPassword: newPassword))
                }
                if let continueUrl { return Self.redirect(continueUrl) }
                return Self.answer(200, ["success": "The password has been successfully updated.", "email": reset.email ?? ""])
            } catch {
                return api.response(for: error)
            }
        case "verifyEmail":
            return applying(expired: ["error": "Your request to verify your email has expired or the link has already been used.", "instructions": "Try verifying your email again."],
                            success: { ["success": "The email has been successfully verified.", "email": $0.email ?? ""] })
        case "verifyAndChangeEmail":
            return applying(expired: ["error": "Your request to change your email has expired or the link has already been used.", "instructions": "Try changing your email again."],
                            success: { ["success": "The email has been successfully changed.", "newEmail": $0.newEmail ?? $0.email ?? ""] })
        case "signIn":
            switch HostedActionHandler.open(QueryParameter.ordered(request.rawQuery)).0.step {
            case .forwarded(let target):
                return Self.redirect(target)
            case .failed(.noContinueURL):
                return Self.answer(400, ["error": "Missing continueUrl query parameter", "instructions": "To sign in, append &continueUrl=YOUR_APP_URL to the link."])
            default:
                return Self.answer(400, ["error": "Invalid continueUrl query parameter", "instructions": "The continueUrl must be an absolute URL."])
            }
        default:
            return Self.answer(400, ["error": "Invalid mode"])
        }
    }

    static func answer(_ status: Int, _ fields: [String: String]) -> APIResponse {
        .jsonObject(["authEmulator": fields], status: status)
    }

    /// Express's `res.redirect(303, url)` (express 4.21.2 `lib/response.js:946-985`): the address
    /// goes through `encodeURL`, then into both `Location` and the plain-text body.
    static func redirect(_ location: String) -> APIResponse {
        let address = encodeURL(location)
        return APIResponse(status: 303, contentType: "text/plain; charset=utf-8", headers: ["Location": address], body: Data("See Other. Redirecting to \(address)".utf8))
    }

    /// What Express's `res.location` does to an address (encodeurl 2.0.0 `index.js:22,56-60`):
    /// every byte outside `!`, `#`-`;`, `=`, `?`-`_`, `a`-`z`, `|`, `~` percent-encoded as
    /// UTF-8, escapes already there kept, and a `%` that starts none encoded as `%25`.
    static func encodeURL(_ url: String) -> String {
        let bytes = Array(url.utf8)
        func isHex(_ index: Int) -> Bool { index < bytes.count && bytes[index].isHexDigit }
        var encoded = ""
        encoded.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "%") where isHex(index + 1) && isHex(index + 2):
                encoded.append("%")
            case UInt8(ascii: "%"):
                encoded += "%25"
            case 0x21, 0x23...0x3B, 0x3D, 0x3F...0x5F, 0x61...0x7A, 0x7C, 0x7E:
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
