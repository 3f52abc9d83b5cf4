/// Takes any real-world email action link apart (docs/sdk-profiles.md): plain or custom-handler
/// action URLs, Hosting `/__/auth/links?link=` and Dynamic Links wrappers (`link`,
/// `deep_link_id`, double wrapping, any domain), Auth Emulator links, any parameter order,
/// single or double percent-encoding, and the whitespace, brackets or quotes of a pasted link.
/// The SDKs' parsing pitfalls are reported as findings, not reproduced.
public enum LinkInspector {
    /// Longer input is rejected rather than parsed.
    public static let maximumLinkBytes = 16 * 1024
    /// How many wrappers may sit around the action URL (or around the continue URL).
    public static let maximumWrappers = 4

    /// A typical current-style link (Hosting wrapper around an action URL whose continue URL is
    /// an article on an authorized domain), for benchmarks and examples.
    public static let representativeLink =
        "https://demo-actionflow.firebaseapp.com/__/auth/links?link=https%3A%2F%2Fdemo-actionflow.firebaseapp.com%2F__%2Fauth%2Faction%3Fmode%3DresetPassword%26oobCode%3DqX3vJ8kLm2Pz9RtYwB7nC4dF6gH1jK5sT0uV2xA8eQ_-Lr3Mo9Np1Z%26apiKey%3DAIzaSyDemoActionflowKey0000000000000000%26continueUrl%3Dhttps%253A%252F%252Fwww.example.com%252Farticles%252F42%26lang%3Den"

    public static func inspect(_ text: String, authorizedDomains: [String]? = nil) throws(LinkParseError) -> LinkAnatomy {
        let (link, cleanedNote) = try clean(text)
        var findings: [Finding] = []
        if let cleanedNote {
            findings.append(Finding(code: "link.cleaned", severity: .info, message: "Ignored \(cleanedNote) around or inside the pasted link."))
        }

        let chain = try unwrap(link, findings: &findings)
        guard let action = chain.last, action.isAction || chain.hasStrayActionParameters else {
            throw .noActionParameters(excerpt: link)
        }
        var layers = chain.layers
        func actionValue(_ name: String) -> String? {
            action.split.value(name) ?? chain.strayActionParameters.last { $0.isNamed(name) }?.value
        }
        let mode = actionValue("mode")
        let oobCode = actionValue("oobCode")
        var continueURL = actionValue("continueUrl")
        if let encoded = continueURL, case let (decoded, true) = DoubleEncoding.decodeAgainIfNeeded(encoded) {
            continueURL = decoded
            findings.append(Finding(code: "link.double-encoded", severity: .info,
                                    message: "The continueUrl value was percent-encoded twice; decoded twice to read it."))
        }
        actionLayerFindings(chain: chain, action: action, mode: mode, oobCode: oobCode, apiKey: actionValue("apiKey"), into: &findings)

        var continueLink: ContinueLinkAnatomy?
        var authorized: Bool?
        if let continueURL {
            let (continueChain, destination) = continueLinkChain(continueURL, findings: &findings)
            layers.append(contentsOf: continueChain.layers)
            continueLink = continueChain
            let result = ContinueURLFindings.check(continueChain.destination, split: destination, authorizedDomains: authorizedDomains)
            authorized = result.authorized
            findings.append(contentsOf: result.findings)
        }
        return LinkAnatomy(
            link: link, layers: layers, actionURL: action.layer.url, mode: mode, oobCode: oobCode,
            apiKey: actionValue("apiKey"), continueUrl: continueURL, lang: actionValue("lang"),
            tenantId: actionValue("tenantId"), continueUrlAuthorized: authorized,
            continueLink: continueLink, findings: findings)
    }

    // MARK: - Cleaning pasted text

    /// Trims whitespace, one or more pairs of `<>` or quotes, and the tabs and line breaks that
    /// mail clients insert into long links (browsers drop them too).
    public static func clean(_ text: String) throws(LinkParseError) -> (link: String, note: String?) {
        let byteCount = text.utf8.count
        guard byteCount <= maximumLinkBytes else { throw .tooLong(bytes: byteCount, limit: maximumLinkBytes) }
        if let first = text.utf8.first, let last = text.utf8.last,
           !isTrimmable(first), !isTrimmable(last), !hasLineBreakOrTab(text) {
            return (text, nil)
        }
        var notes: [String] = []
        var current = Substring(text)
        for _ in 0..<4 {
            let trimmed = current.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }
            let trimmedText = Substring(String(trimmed.reversed()))
            if trimmedText.count != current.count { appendOnce("whitespace", to: &notes) }
            current = trimmedText
            guard let first = current.first, let last = current.last, current.count >= 2,
                  let closing = closingBracket[first], closing == last else { break }
            appendOnce(first == "<" ? "angle brackets" : "quotes", to: &notes)
            current = current.dropFirst().dropLast()
        }
        var link = String(current)
        if hasLineBreakOrTab(link) {
            link.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            appendOnce("line breaks", to: &notes)
        }
        guard !link.isEmpty else { throw .empty }
        return (link, notes.isEmpty ? nil : notes.joined(separator: " and "))
    }

    private static let closingBracket: [Character: Character] = ["<": ">", "\"": "\"", "'": "'", "“": "”", "‘": "’", "«": "»"]

    private static func isTrimmable(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x80 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func hasLineBreakOrTab(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
    }

    private static func appendOnce(_ note: String, to notes: inout [String]) {
        if !notes.contains(note) { notes.append(note) }
    }

    // MARK: - Unwrapping

    /// A class: links are passed around a lot while findings are made, and one reference
    /// is cheaper to copy than a dozen strings.
    final class ChainLink {
        let layer: LinkLayer
        let split: SplitURL
        let isAction: Bool

        init(layer: LinkLayer, split: SplitURL, isAction: Bool) {
            self.layer = layer
            self.split = split
            self.isAction = isAction
        }
    }

    struct Chain {
        var links: [ChainLink] = []
        /// Action parameters (`mode`, `oobCode`...) found on a wrapper: its payload was not encoded.
        var strayActionParameters: [LinkParameter] = []
        var layers: [LinkLayer] { links.map(\.layer) }
        var last: ChainLink? { links.last }
        var hasStrayActionParameters: Bool {
            strayActionParameters.contains { $0.isNamed("mode") || $0.isNamed("oobCode") }
        }
    }

    /// The parameters of an action URL (a switch: cheaper than hashing on the hot path).
    static func isActionParameter(_ name: String) -> Bool {
        actionParameterBit(name) != nil
    }

    /// A bit of its own for each action parameter, chosen by length first.
    private static func actionParameterBit(_ name: String) -> UInt8? {
        switch name.utf8.count {
        case 4: name == "mode" ? 1 : name == "lang" ? 2 : nil
        case 6: name == "apiKey" ? 4 : nil
        case 7: name == "oobCode" ? 8 : nil
        case 8: name == "tenantId" ? 16 : nil
        case 11: name == "continueUrl" ? 32 : nil
        default: nil
        }
    }

    /// Follows `deep_link_id` / `link` payloads (the JS SDK's order) down to the first URL that is
    /// not a wrapper. `lenient`: a `link` value that is no URL is an ordinary parameter unless the
    /// URL is shaped like a wrapper (used for continue URLs, which may carry any parameters).
    static func unwrap(_ link: String, lenient: Bool = false, findings: inout [Finding]) throws(LinkParseError) -> Chain {
        var chain = Chain()
        var current = link
        guard var split = URLSplitter.split(link) else { throw .notAURL(excerpt: link) }
        while true {
            if split.host.isEmpty && (split.isHTTP || split.userinfo != nil) {
                throw .missingHost(excerpt: current)
            }
            let parameters = split.parameters ?? []
            let isAction = split.value("mode") != nil || split.value("oobCode") != nil
            let wrapperShaped = isWrapperShaped(split)
            if let payload = wrapperParameter(split) {
                // A payload that is no URL makes a wrapper-shaped link (or one with nothing else) unusable.
                let mustUnwrap = wrapperShaped || !(isAction || lenient)
                var inner = payload.parameter.value
                var innerSplit: SplitURL?
                if !payload.malformed {
                    let (decoded, wasDoubleEncoded) = DoubleEncoding.decodeAgainIfNeeded(inner)
                    if wasDoubleEncoded {
                        inner = decoded
                        findings.append(Finding(code: "link.double-encoded", severity: .info,
                                                message: "The \(payload.parameter.name)= payload of the mobile link on \(split.host) was percent-encoded twice; decoded twice to read it."))
                    }
                    innerSplit = URLSplitter.split(inner)
                } else if mustUnwrap {
                    throw .undecodableWrappedLink(host: split.host, parameter: payload.parameter.name)
                }
                if let innerSplit {
                    let kind: LinkLayer.Kind = split.path == hostingLinkPath ? .hostingWrapper : .dynamicLinkWrapper
                    chain.links.append(ChainLink(layer: LinkLayer(kind: kind, url: current, host: split.host, parameters: parameters), split: split, isAction: false))
                    chain.strayActionParameters.append(contentsOf: parameters.filter { isActionParameter($0.name) })
                    guard chain.links.count <= maximumWrappers else { throw .tooDeeplyWrapped(limit: maximumWrappers) }
                    current = inner
                    split = innerSplit
                    continue
                }
                if mustUnwrap {
                    throw .wrappedLinkNotAURL(host: split.host, parameter: payload.parameter.name, excerpt: inner)
                }
            } else if wrapperShaped {
                if split.path.utf8.count > 1, split.path != hostingLinkPath, split.parameters == nil {
                    throw .shortDynamicLink(host: split.host, path: split.path)
                }
                throw .wrapperWithoutLink(host: split.host)
            }
            let kind: LinkLayer.Kind = !(isAction || chain.hasStrayActionParameters) ? .continueURL
                : split.path.hasSuffix("/emulator/action") ? .emulatorActionURL : .actionURL
            chain.links.append(ChainLink(layer: LinkLayer(kind: kind, url: current, host: split.host, parameters: parameters), split: split, isAction: isAction))
            return chain
        }
    }

    static let hostingLinkPath = "/__/auth/links"

    /// The payload parameter of a wrapper, when there is one.
    private static func wrapperParameter(_ split: SplitURL) -> (parameter: LinkParameter, malformed: Bool)? {
        guard let parameters = split.parameters,
              let index = parameters.lastIndex(where: { $0.isNamed("deep_link_id") }) ?? parameters.lastIndex(where: { $0.isNamed("link") })
        else { return nil }
        return (parameters[index], split.malformedParameters.contains(index))
    }

    /// Hosting link paths and Dynamic Links domains, which only make sense with a payload.
    private static func isWrapperShaped(_ split: SplitURL) -> Bool {
        split.path == hostingLinkPath || split.host.hasSuffix(".page.link") || split.host.hasSuffix(".app.goo.gl")
    }

    /// The continue URL's own layers; never throws: a broken continue URL is a finding.
    static func continueLinkChain(_ continueURL: String, findings: inout [Finding]) -> (anatomy: ContinueLinkAnatomy, destination: SplitURL?) {
        let chain: Chain
        do {
            chain = try unwrap(continueURL, lenient: true, findings: &findings)
        } catch {
            findings.append(Finding(code: "continue-url.unreadable", severity: .warning,
                                    message: "The continue URL cannot be taken apart: \(error.description)."))
            let host = URLSplitter.split(continueURL)?.host ?? ""
            return (ContinueLinkAnatomy(layers: [LinkLayer(kind: .continueURL, url: continueURL, host: host, parameters: [])], destination: continueURL), nil)
        }
        var layers = chain.layers
        if let last = layers.indices.last { layers[last].kind = .continueURL }
        if let wrapper = layers.first, wrapper.kind.isWrapper, let destination = layers.last {
            findings.append(Finding(code: "continue-url.mobile-link", severity: .info,
                                    message: "The continue URL is a mobile link on \(wrapper.host) around \(destination.url) (the handleCodeInApp=false form): the web widget's Continue button opens the app if it is installed, otherwise that page."))
            if layers.contains(where: { $0.kind == .dynamicLinkWrapper }) {
                findings.append(.legacyDynamicLinks("The continue URL"))
            }
        }
        return (ContinueLinkAnatomy(layers: layers, destination: layers.last?.url ?? continueURL), chain.last?.split)
    }

    // MARK: - Findings about the action link

    private static func actionLayerFindings(chain: Chain, action: ChainLink, mode: String?, oobCode: String?, apiKey: String?, into findings: inout [Finding]) {
        let wrappers = chain.links.dropLast()
        if let outer = wrappers.first {
            findings.append(Finding(code: "ios.no-unwrap", severity: .warning,
                                    message: "iOS ActionCodeURL(link:) does not unwrap link= wrappers: it reads the payload's parameters as the link's own, and the payload's first one (apiKey on real links) is taken for link= and lost (AuthWebUtils.swift:190-207). Pass it the action URL (the payload); the JS SDK unwraps link, deep_link_id and double wrapping."))
            if wrappers.contains(where: { $0.layer.kind == .dynamicLinkWrapper }) {
                findings.append(.legacyDynamicLinks("The link on \(outer.split.host)"))
            }
            for wrapper in wrappers where wrapper.layer.kind == .dynamicLinkWrapper && wrapper.split.value("apn") == nil && wrapper.split.value("amv") != nil {
                findings.append(Finding(code: "link.minimum-version-without-package", severity: .warning,
                                        message: "The Dynamic Link on \(wrapper.split.host) has amv (minimum version) but no apn (package name): no Android app is named, so the minimum version does nothing."))
            }
        } else if ActionCodeOperation(mode: mode ?? "") == .emailLink, action.layer.kind == .actionURL {
            findings.append(Finding(code: "link.sign-in-not-in-app", severity: .info,
                                    message: "An email sign-in link that is not a mobile link: no app can receive it. Either this is the payload of the email's link, or it was sent with handleCodeInApp = false, which the SDKs refuse for sign-in."))
        }
        if !action.split.isHTTP {
            findings.append(Finding(code: "link.not-web", severity: .danger,
                                    message: "The action URL uses the \(action.split.scheme): scheme: a real action handler is an http(s) page, so this link is not what Firebase sends."))
        }
        if !chain.strayActionParameters.isEmpty {
            let names = chain.strayActionParameters.map(\.name).joined(separator: ", ")
            findings.append(Finding(code: "link.unencoded-payload", severity: .danger,
                                    message: "The wrapper's link= value was not percent-encoded: \(names) ended up on the wrapper instead of the action URL. SDKs read only the payload and lose them."))
        }
        for link in chain.links {
            if let fragment = link.split.fragment, !fragment.isEmpty {
                findings.append(Finding(code: "link.fragment", severity: .warning,
                                        message: "The \(link.layer.kind.title) ends in #\(fragment): a fragment is not part of the query, never reaches the server or the payload, and is lost if it belonged to an inner URL that was not encoded."))
            }
            if !link.split.malformedParameters.isEmpty {
                findings.append(Finding(code: "link.malformed-encoding", severity: .warning,
                                        message: "The \(link.layer.kind.title) has a value with a broken percent escape or invalid UTF-8: SDKs may reject or misread it."))
            }
        }
        duplicateParameterFindings(action.split, into: &findings)
        truncationFindings(action.split, into: &findings)

        if oobCode == nil {
            findings.append(Finding(code: "link.missing-oob-code", severity: .danger,
                                    message: "The link has a mode but no oobCode: it looks like the resolved deep link or the continue URL rather than the link from the email, so the code cannot be applied."))
        } else if let oobCode, !isURLSafeBase64(oobCode) {
            findings.append(Finding(code: "link.oob-code-shape", severity: .warning,
                                    message: "The oobCode contains characters outside URL-safe base64 (A-Z a-z 0-9 - _): it was probably damaged on the way."))
        }
        if let mode {
            if ActionCodeOperation(mode: mode) == .unknown {
                findings.append(Finding(code: "link.unknown-mode", severity: .warning,
                                        message: "The mode \"\(mode)\" is none of resetPassword, verifyEmail, recoverEmail, signIn, verifyAndChangeEmail, revertSecondFactorAddition: SDKs report the operation as unknown."))
            }
        } else {
            findings.append(Finding(code: "link.missing-mode", severity: .warning,
                                    message: "The link has no mode: SDKs cannot tell which action the code is for."))
        }
        if apiKey == nil {
            findings.append(Finding(code: "link.missing-api-key", severity: .warning,
                                    message: "The link has no apiKey: the hosted action handler cannot call the project."))
        }
        if action.layer.kind == .emulatorActionURL {
            findings.append(Finding(code: "link.emulator", severity: .info,
                                    message: "An Auth Emulator link: never wrapped in a mobile link, its code exists only in that emulator (listed at /emulator/v1/projects/PROJECT_ID/oobCodes)."))
        } else {
            if action.split.path != "/__/auth/action" {
                findings.append(Finding(code: "link.custom-handler", severity: .info,
                                        message: "The action URL uses a custom email action handler (\(action.split.host)\(action.split.path)) rather than the default /__/auth/action."))
            }
            if action.split.scheme == "http", !ContinueURLFindings.isLoopback(action.split.host) {
                findings.append(Finding(code: "link.plain-http", severity: .warning,
                                        message: "The action URL uses plain http: the oobCode can be read on the way."))
            }
        }
    }

    private static func isURLSafeBase64(_ text: String) -> Bool {
        func check(_ byte: UInt8) -> Bool { byte.isASCIILetter || byte.isASCIIDigit || byte == .minus || byte == .underscore }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(check) } ?? text.utf8.allSatisfy(check)
    }

    private static func duplicateParameterFindings(_ split: SplitURL, into findings: inout [Finding]) {
        guard let parameters = split.parameters else { return }
        // One bit per action parameter: no set or array to build for every link.
        var seen: UInt8 = 0
        var reported: UInt8 = 0
        for parameter in parameters {
            guard let bit = actionParameterBit(parameter.name) else { continue }
            if seen & bit == 0 {
                seen |= bit
            } else if reported & bit == 0 {
                reported |= bit
                findings.append(Finding(code: "link.duplicate-parameter", severity: .warning,
                                        message: "\(parameter.name) appears more than once: the SDKs keep the last value, other parsers the first."))
            }
        }
    }

    /// iOS `ActionCodeURL` splits each pair at every `=` and keeps only the text between the first
    /// and the second one.
    private static func truncationFindings(_ split: SplitURL, into findings: inout [Finding]) {
        guard let parameters = split.parameters else { return }
        for rawValue in split.rawValuesWithEquals where isActionParameter(parameters[rawValue.parameterIndex].name) {
            let parameter = parameters[rawValue.parameterIndex]
            let kept = rawValue.raw.prefix { $0 != "=" }
            let iOSReading = PercentEncoding.decode(kept) ?? String(kept)
            findings.append(Finding(code: "ios.value-truncated", severity: .warning,
                                    message: "The \(parameter.name) value contains an unencoded =: iOS ActionCodeURL keeps only the text before it and reads \"\(iOSReading)\" instead of \"\(parameter.value)\"."))
        }
    }
}
