import Foundation

/// The hosted email action handler as one state machine: the interface's web widget, the mail
/// scanner's browser and `serve`'s page all run it, and differ only in how they make its calls
/// and draw its steps. Rules, from firebase-tools `src/emulator/auth/handlers.ts` (the
/// emulator's handler, standing in for the hosted one):
/// - a link without `oobCode` is refused (lines 31-38);
/// - `resetPassword` checks the code is a PASSWORD_RESET one (lines 79-86), takes the new
///   password, saves it, then goes on to the continue URL (lines 107-113);
/// - `verifyEmail`, `verifyAndChangeEmail` and `recoverEmail` apply the code (lines 122, 148,
///   55), then go on to the continue URL (lines 123-124, 149-150);
/// - `signIn` does not touch the code: it requires `continueUrl` (lines 173-180) and redirects
///   there with every other parameter of the link set on it (lines 181-190), so the page at the
///   continue URL holds the link: firebase-js-sdk's `isSignInWithEmailLink`
///   (`packages/auth/src/core/strategies/email_link.ts` line 128) and `signInWithEmailLink`
///   (line 174, the current URL when no link is given, line 187) read `mode`, `oobCode` and
///   `apiKey` from it (`action_code_url.ts` lines 122-135).
public struct HostedActionHandler: Sendable, Hashable, Codable {
    public enum Step: Sendable, Hashable, Codable {
        /// The call made on load is on its way.
        case loading
        /// Password reset form for this account; `problem` says why the last password was refused.
        case resetForm(email: String, problem: String?)
        /// The new password for this account is on its way.
        case saving(email: String)
        /// Finished; Continue is offered when there is a continue URL.
        case done(Outcome)
        /// An email-link sign-in: the browser was sent on to this URL.
        case forwarded(to: String)
        case failed(Failure)

        public enum Kind: Sendable, Hashable {
            case loading, resetForm, saving, done, forwarded, failed
        }

        /// The step's kind, without its values.
        public var kind: Kind {
            switch self {
            case .loading: .loading
            case .resetForm: .resetForm
            case .saving: .saving
            case .done: .done
            case .forwarded: .forwarded
            case .failed: .failed
            }
        }
    }

    /// What the page says once the code is used.
    public struct Outcome: Sendable, Hashable, Codable {
        public var title: String
        public var detail: String
        /// The account's address, as the server answered it.
        public var email: String?

        public init(title: String, detail: String, email: String?) {
            self.title = title
            self.detail = detail
            self.email = email
        }

        /// Title and detail as one sentence.
        public var sentence: String { "\(title). \(detail)" }
    }

    public enum Failure: Sendable, Hashable, Codable {
        /// The link has no `oobCode`.
        case noCode(mode: String)
        /// A mode the page does not handle.
        case unsupportedMode(String)
        /// A sign-in link without `continueUrl`: nowhere to send the browser.
        case noContinueURL
        /// A sign-in link whose `continueUrl` is not an absolute URL.
        case continueURLNotAbsolute(String)
        /// The code checked is of another kind than the link's mode says.
        case codeOfWrongKind(OobRequestType)
        /// A call failed.
        case call(AuthFailure)

        /// The server's error code it amounts to, if any.
        public var code: AuthErrorCode? {
            switch self {
            case .noCode, .codeOfWrongKind: .invalidOobCode
            case .call(let failure): failure.serverCode
            case .unsupportedMode, .noContinueURL, .continueURLNotAbsolute: nil
            }
        }
    }

    /// The Identity Toolkit calls the page makes.
    public enum Call: Sendable, Hashable, Codable {
        /// `resetPassword` with `oobCode` only: checks, does not consume.
        case checkResetCode(ResetPasswordRequest)
        /// `resetPassword` with `newPassword`: consumes the code.
        case saveNewPassword(ResetPasswordRequest)
        /// `accounts:update` with `oobCode`: consumes the code.
        case applyCode(UpdateAccountRequest)
    }

    /// A call's answer, fed back in.
    public enum Reply: Sendable, Hashable {
        case resetCodeChecked(ResetPasswordResponse)
        case passwordSaved(ResetPasswordResponse)
        case codeApplied(UpdateAccountResponse)
        case failed(AuthFailure)
    }

    /// The link's parameters, in order.
    public let parameters: [QueryParameter]
    public let mode: String
    public let operation: ActionCodeOperation
    public let oobCode: String?
    /// The `continueUrl` parameter: where Continue goes, or where a sign-in is sent on to.
    public let continueURL: String?
    /// Where the page is. Change it through `open`, `submitNewPassword` and `receive`; it is
    /// settable so that a test can state the page it expects.
    public var step: Step

    /// The page opened with this link's parameters; the call it makes on load, if any.
    public static func open(_ parameters: [QueryParameter]) -> (HostedActionHandler, Call?) {
        var handler = HostedActionHandler(parameters: parameters)
        let call = handler.load()
        return (handler, call)
    }

    /// The page opened at this action URL.
    public static func open(actionURL: String) -> (HostedActionHandler, Call?) {
        open(QueryParameter.ordered(URLComponents(string: actionURL)?.percentEncodedQuery))
    }

    private init(parameters: [QueryParameter]) {
        self.parameters = parameters
        let value = { (name: String) in parameters.first { $0.name == name }?.value.nonEmpty }
        mode = value("mode") ?? ""
        operation = ActionCodeOperation(mode: mode)
        oobCode = value("oobCode")
        continueURL = value("continueUrl")
        step = .loading
    }

    /// What the page does on load, by mode: checks a reset code without consuming it, then asks
    /// for a new password; applies any other code (`accounts:update`), which consumes it; sends
    /// a sign-in link on to its continue URL, where the web app signs in with it (firebase-tools
    /// `src/emulator/auth/handlers.ts` lines 172-191).
    private mutating func load() -> Call? {
        guard operation != .unknown else {
            step = .failed(.unsupportedMode(mode))
            return nil
        }
        guard let oobCode else {
            step = .failed(.noCode(mode: mode))
            return nil
        }
        switch operation {
        case .passwordReset:
            return .checkResetCode(ResetPasswordRequest(oobCode: oobCode))
        // A revert removes the second factor on load: `accounts:update` applies a
        // REVERT_SECOND_FACTOR_ADDITION code (firebase-tools `src/emulator/auth/apiSpec.ts:5523`),
        // as the SDKs' `applyActionCode` sends it (firebase-js-sdk
        // `packages/auth/src/core/strategies/email_and_password.ts:169-174`). The emulator's own
        // page has no such mode (`handlers.ts:41-193`, "Invalid mode") and never issues the code
        // (`operations.ts:2141`), so this stands in for the hosted page.
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition:
            return .applyCode(UpdateAccountRequest(oobCode: oobCode))
        case .emailLink:
            step = Self.forward(parameters)
            return nil
        case .unknown:
            return nil
        }
    }

    /// Where a `signIn` link sends the browser: its continue URL with each other parameter set
    /// on it (replacing one of the same name), as `URL.searchParams.set` writes them.
    static func forward(_ parameters: [QueryParameter]) -> Step {
        guard let continueURL = parameters.first(where: { $0.name == "continueUrl" })?.value.nonEmpty else {
            return .failed(.noContinueURL)
        }
        guard let target = QueryParameter.setting(parameters.filter { $0.name != "continueUrl" }, on: continueURL) else {
            return .failed(.continueURLNotAbsolute(continueURL))
        }
        return .forwarded(to: target)
    }

    /// The reset form submitted; nil when the page shows no reset form.
    public mutating func submitNewPassword(_ password: String) -> Call? {
        guard case .resetForm(let email, _) = step, let oobCode else { return nil }
        step = .saving(email: email)
        return .saveNewPassword(ResetPasswordRequest(oobCode: oobCode, newPassword: password))
    }

    /// A call answered.
    public mutating func receive(_ reply: Reply) {
        switch (step, reply) {
        case (.loading, .resetCodeChecked(let response)):
            if let type = response.requestType, type != .passwordReset {
                step = .failed(.codeOfWrongKind(type))
            } else {
                step = .resetForm(email: response.email ?? "", problem: nil)
            }
        case (.saving, .passwordSaved(let response)):
            step = .done(Outcome(title: "Password changed", detail: "You can now sign in with your new password.", email: response.email))
        case (.loading, .codeApplied(let response)):
            step = .done(appliedOutcome(email: operation == .verifyAndChangeEmail ? response.newEmail ?? response.email : response.email))
        case (.saving(let email), .failed(.server(.weakPassword, _))):
            // The form stays, saying why; the code is not used.
            step = .resetForm(email: email, problem: "The password must be at least 6 characters long.")
        case (.loading, .failed(let failure)), (.saving, .failed(let failure)):
            step = .failed(.call(failure))
        default:
            // An answer the page no longer waits for changes nothing.
            break
        }
    }

    private func appliedOutcome(email: String?) -> Outcome {
        switch operation {
        case .recoverEmail:
            Outcome(title: "Your sign-in email has been restored", detail: "You can sign in with it again.", email: email)
        case .verifyAndChangeEmail:
            Outcome(title: "Your email has been changed and verified", detail: "You can now sign in with your new email.", email: email)
        case .revertSecondFactorAddition:
            Outcome(title: "The second sign-in step was removed", detail: "If you did not add it, change your password now.", email: email)
        default:
            Outcome(title: "Your email has been verified", detail: "You can now sign in with your new account.", email: email)
        }
    }
}

/// One `name=value` of a URL query, decoded.
public struct QueryParameter: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// A query's parameters in order, decoded (`+` is a space, as Express and forms read it);
    /// a repeated name keeps its first value.
    public static func ordered(_ rawQuery: String?) -> [QueryParameter] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        var seen = Set<String>()
        var result: [QueryParameter] = []
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in PercentEncoding.decode(text, plusAsSpace: true) ?? String(text) }
            let name = decode(parts[0])
            guard !name.isEmpty, seen.insert(name).inserted else { continue }
            result.append(QueryParameter(name, parts.count > 1 ? decode(parts[1]) : ""))
        }
        return result
    }

    /// `url` with each parameter set (replacing the first of the same name and dropping the
    /// others), serialised as `URLSearchParams` does; nil when `url` is not absolute.
    public static func setting(_ parameters: [QueryParameter], on url: String) -> String? {
        guard var components = URLComponents(string: url), components.scheme != nil else { return nil }
        var items = (components.queryItems ?? []).map { QueryParameter($0.name, $0.value ?? "") }
        for parameter in parameters {
            if let index = items.firstIndex(where: { $0.name == parameter.name }) {
                items[index].value = parameter.value
                items = items.enumerated().filter { $0.offset <= index || $0.element.name != parameter.name }.map(\.element)
            } else {
                items.append(parameter)
            }
        }
        components.percentEncodedQuery = items.map { "\(PercentEncoding.formEncode($0.name))=\(PercentEncoding.formEncode($0.value))" }.joined(separator: "&")
        return components.string
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension AuthCall {
    /// The hosted page's call as the page makes it.
    public init(_ call: HostedActionHandler.Call) {
        switch call {
        case .checkResetCode(let request), .saveNewPassword(let request): self = .resetPassword(request)
        case .applyCode(let request): self = .update(request)
        }
    }
}

extension HostedActionHandler.Reply {
    /// The answer to one of the page's calls; nil for a call the page never makes.
    public init?(_ reply: CallReply) {
        switch reply {
        case .resetPassword(let request, let response):
            self = request.newPassword == nil ? .resetCodeChecked(response) : .passwordSaved(response)
        case .update(_, let response):
            self = .codeApplied(response)
        case .signUp, .signInWithPassword, .signInWithEmailLink, .sendOobCode, .lookup, .startMfaEnrollment, .finalizeMfaEnrollment:
            return nil
        }
    }
}
