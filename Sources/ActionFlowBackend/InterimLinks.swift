import ActionFlowModel
import Foundation

// Minimal continue-URL check and email-link building, used until the model's
// `ContinueURLPolicy` and `ActionLinkBuilder` are available; then this file goes.

enum InterimContinueURLCheck {
    static func check(_ continueURL: String, authorizedDomains: [String]) -> AuthFailure? {
        guard let components = URLComponents(string: continueURL), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty else {
            return .server(.invalidContinueURI, detail: nil)
        }
        let authorized = authorizedDomains.contains { domain in
            let domain = domain.lowercased()
            return host == domain || (domain != "localhost" && host.hasSuffix("." + domain))
        }
        return authorized ? nil : .server(.unauthorizedDomain, detail: "Domain not allowlisted by project")
    }
}

enum InterimEmailLink {
    private static let componentAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        set.insert(charactersIn: "-._~")
        return set
    }()

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: componentAllowed) ?? text
    }

    static func mobileLink(_ payload: String, style: MobileLinkStyle, domain: String, request: SendOobCodeRequest) -> String {
        switch style {
        case .hostingDomain:
            return "https://\(domain)/__/auth/links?link=\(encode(payload))"
        case .firebaseDynamicLinkDomain:
            var link = "https://\(domain)/?link=\(encode(payload))"
            if let package = request.androidPackageName {
                link += "&apn=\(encode(package))"
                if let minimum = request.androidMinimumVersion { link += "&amv=\(encode(minimum))" }
                if request.androidInstallApp != true { link += "&afl=\(encode(payload))" }
            }
            if let bundle = request.iOSBundleId {
                link += "&ibi=\(encode(bundle))&ifl=\(encode(payload))"
                if let store = request.iOSAppStoreId { link += "&isi=\(encode(store))" }
            }
            return link
        }
    }

    static func emailLink(for request: SendOobCodeRequest, oobCode: String, lang: String, project: ProjectConfiguration, linkDomain: String) -> String {
        let hasApp = request.iOSBundleId != nil || request.androidPackageName != nil
        let continueURL: String?
        if request.canHandleCodeInApp != true, let url = request.continueUrl, hasApp {
            continueURL = mobileLink(url, style: project.mobileLinkStyle, domain: linkDomain, request: request)
        } else {
            continueURL = request.continueUrl
        }
        var action = project.effectiveActionHandlerURL
        action += "?mode=\(ActionCodeOperation(requestType: request.requestType).mode ?? "")&oobCode=\(oobCode)&apiKey=\(encode(project.apiKey))"
        if let continueURL { action += "&continueUrl=\(encode(continueURL))" }
        action += "&lang=\(encode(lang))"
        if let tenant = request.tenantId { action += "&tenantId=\(encode(tenant))" }
        guard request.canHandleCodeInApp == true else { return action }
        return mobileLink(action, style: project.mobileLinkStyle, domain: linkDomain, request: request)
    }
}
