import ActionFlowModel
import Foundation

/// Wording shared by narration lines and error banners. Every untrusted string goes through
/// `safe` before it is interpolated.
public enum Narration {
    static func safe(_ text: String?) -> String {
        guard let text else { return "(none)" }
        return UntrustedText.sanitize(text)
    }

    /// What a server code means for the user, in one phrase.
    static func meaning(of code: AuthErrorCode) -> String {
        switch code {
        case .invalidPassword: "wrong password"
        case .invalidLoginCredentials: "wrong email or password (email enumeration protection hides which)"
        case .emailNotFound, .userNotFound: "no account with this email"
        case .userDisabled: "the account is disabled"
        case .unauthorizedDomain: "the continue URL's host is not on the project's authorized domains"
        case .invalidContinueURI: "the continue URL is not an absolute URL with a scheme and host"
        case .missingContinueURI: "a continue URL is required"
        case .missingAndroidPackageName: "Android install or minimum version given without a package name"
        case .missingIOSBundleID: "App Store id given without a bundle id"
        case .invalidDynamicLinkDomain: "the Dynamic Links domain is not configured for the project"
        case .invalidHostingLinkDomain: "the link domain is not a Hosting domain of the project"
        case .expiredOobCode: "the code is past its lifetime: request a new email"
        case .invalidOobCode: "the code is malformed, already used, or of another kind"
        case .weakPassword: "the new password is shorter than 6 characters"
        case .tooManyAttempts, .resetPasswordExceedLimit: "rate limit reached: try again later"
        case .invalidEmail: "not a valid email address, or not the one the code was sent to"
        case .missingEmail: "an email is required"
        case .invalidIDToken, .tokenExpired: "the session is no longer valid: sign in again"
        default: "the server refused the request"
        }
    }

    /// `CODE (meaning)` or the network failure, sanitized.
    public static func describe(_ failure: AuthFailure) -> String {
        switch failure {
        case .server(let code, let detail):
            // A detail that repeats the code or the code's meaning is said once.
            var detail = detail.map(safe) ?? ""
            if detail.hasPrefix(code.rawValue) {
                detail = String(detail.dropFirst(code.rawValue.count)).trimmingCharacters(in: CharacterSet(charactersIn: " :"))
            }
            let meaning = meaning(of: code)
            let suffix = detail.isEmpty ? "" : ": \(detail)"
            let name = safe(code.rawValue)
            return detail.localizedCaseInsensitiveContains(meaning) ? "\(name)\(suffix)" : "\(name)\(suffix) (\(meaning))"
        case .network(let network):
            return "network failure: \(safe(describe(network)))"
        }
    }

    static func describe(_ failure: NetworkFailure) -> String {
        switch failure {
        case .connectionRefused(let host): "connection refused by \(host)"
        case .timedOut(let seconds): "timed out after \(seconds) s"
        case .dnsFailure(let host): "cannot resolve \(host)"
        case .tlsFailure(let reason): "TLS failure: \(reason)"
        case .httpStatus(let status, _): "HTTP \(status)"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        case .connectionLost(let reason): "connection lost: \(reason)"
        case .unsupported(let reason): "not supported: \(reason)"
        }
    }

    /// The settings fields that decide the email link, as they go on the wire.
    static func describe(_ request: SendOobCodeRequest) -> String {
        var parts = ["continueUrl \(safe(request.continueUrl))", "canHandleCodeInApp \(request.canHandleCodeInApp ?? false)"]
        if let bundle = request.iOSBundleId { parts.append("iOSBundleId \(safe(bundle))") }
        if let package = request.androidPackageName { parts.append("androidPackageName \(safe(package))") }
        if request.androidInstallApp == true { parts.append("androidInstallApp true") }
        if let version = request.androidMinimumVersion { parts.append("androidMinimumVersion \(safe(version))") }
        if let domain = request.linkDomain { parts.append("linkDomain \(safe(domain))") }
        if let domain = request.dynamicLinkDomain { parts.append("dynamicLinkDomain \(safe(domain))") }
        return parts.joined(separator: ", ")
    }

    /// The fields that differ, as `name value` pairs; `unchanged` when none does.
    static func changes(from old: ActionCodeSettings, to new: ActionCodeSettings) -> String {
        func text(_ value: String?) -> String { value.map(safe) ?? "unset" }
        var parts: [String] = []
        if old.url != new.url { parts.append("url \(new.url.map(safe) ?? "unset (the screen being reached)")") }
        if old.handleCodeInApp != new.handleCodeInApp { parts.append("handleCodeInApp \(new.handleCodeInApp)") }
        if old.iOSBundleID != new.iOSBundleID { parts.append("iOSBundleID \(text(new.iOSBundleID))") }
        if old.androidPackageName != new.androidPackageName { parts.append("androidPackageName \(text(new.androidPackageName))") }
        if old.androidInstallIfNotAvailable != new.androidInstallIfNotAvailable { parts.append("androidInstallIfNotAvailable \(new.androidInstallIfNotAvailable)") }
        if old.androidMinimumVersion != new.androidMinimumVersion { parts.append("androidMinimumVersion \(text(new.androidMinimumVersion))") }
        if old.dynamicLinkDomain != new.dynamicLinkDomain { parts.append("dynamicLinkDomain \(text(new.dynamicLinkDomain))") }
        if old.linkDomain != new.linkDomain { parts.append("linkDomain \(text(new.linkDomain))") }
        return parts.isEmpty ? "unchanged" : parts.joined(separator: ", ")
    }
}

extension HostedActionHandler.Failure {
    /// What the hosted page shows when it stops, sanitized.
    public var explanation: String {
        switch self {
        case .noCode(let mode): "This link has no usable code (mode \(Narration.safe(mode.isEmpty ? "none" : mode)))"
        case .unsupportedMode(let mode): "This page does not handle mode \(Narration.safe(mode.isEmpty ? "none" : mode))"
        case .noContinueURL: "This sign-in link has no continue URL, so there is no page to finish signing in on"
        case .continueURLNotAbsolute(let url): "The continue URL \(Narration.safe(url)) is not an absolute URL"
        case .codeOfWrongKind(let type): "This is a \(type.rawValue) code, not a password reset code"
        case .call(let failure): Narration.describe(failure)
        }
    }
}
