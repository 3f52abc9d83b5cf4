import ActionFlowModel
import Foundation

/// A flow held against OWASP ASVS 5.0.0: for each requirement an email action touches, a
/// verdict and the evidence for it, read from the session's journal, mail and project. A
/// verdict is only as strong as the flow: what the flow never exercises is "not shown".
///
/// The requirements (ids as `v5.0.0-C.S.R`, the standard's own form, `0x03-What-is-the-ASVS.md:157`)
/// and the lines of OWASP/ASVS `5.0/en/` they come from are listed in docs/security-review.md.
public struct SecurityReview: Sendable {
    public enum Verdict: String, Sendable, CaseIterable {
        case met = "met"
        case notMet = "not met"
        case notApplicable = "not applicable"
        case notShown = "not shown by this flow"
    }

    public struct Check: Sendable, Equatable {
        /// The requirement's id, e.g. `6.5.5`.
        public var id: String
        public var level: Int
        /// What the requirement asks, in a few words.
        public var topic: String
        public var verdict: Verdict
        /// What in the flow decides the verdict (plain text, not yet escaped).
        public var evidence: String

        public var reference: String { "v5.0.0-\(id)" }
    }

    public let checks: [Check]

    public init(_ session: Session) {
        let flow = FlowEvidence(session)
        checks = [
            Self.codeLifetime(flow), Self.singleUse(flow), Self.codeEntropy(flow), Self.binding(flow),
            Self.secretsInURL(flow), Self.referrer(flow), Self.stateChangingGET(flow), Self.redirectAllowList(flow),
            Self.enumeration(flow), Self.notification(flow), Self.emailAsAuthenticator(flow),
        ]
    }

    /// V6.6's opening paragraph does not admit email as an out-of-band channel; the 6.5 and 6.6
    /// rules are applied to email action codes by analogy.
    public static let analogyNote = "ASVS 5.0 does not admit email as an out-of-band authenticator (V6.6); its rules for out-of-band codes (6.5.x, 6.6.x) are applied to email action codes by analogy."

    // MARK: The requirements

    /// 6.5.5 (L2): out-of-band codes live at most 10 minutes.
    static func codeLifetime(_ flow: FlowEvidence) -> Check {
        let limit: TimeInterval = 600
        var check = Check(id: "6.5.5", level: 2, topic: "an out-of-band code lives at most 10 minutes", verdict: .notShown, evidence: "No email action code was sent.")
        let types = flow.sentTypes
        guard !types.isEmpty else { return check }
        guard !flow.isCapture else {
            // The lifetimes are the captured project's settings, which its traffic does not carry.
            let expired = flow.uses.contains { $0.error == "EXPIRED_OOB_CODE" }
            check.evidence = "\(types.map(Self.title).joined(separator: ", ").capitalizedFirst) codes were sent; how long they live is the captured project's setting, which the capture does not show"
                + (expired ? " (one was refused as expired, EXPIRED_OOB_CODE)." : ".")
            return check
        }
        let lifetimes = types.map { ($0, flow.project.codeLifetimes.lifetime(for: $0)) }
        let described = lifetimes.map { "\(Self.title($0.0)) codes live \(Self.duration($0.1))" }.joined(separator: "; ").capitalizedFirst
        let expired = flow.uses.contains { $0.error == "EXPIRED_OOB_CODE" }
        let enforced = expired ? " A code past its lifetime was refused (EXPIRED_OOB_CODE)." : ""
        check.verdict = lifetimes.allSatisfy { $0.1 <= limit } ? .met : .notMet
        check.evidence = "\(described) (the project's lifetimes; Firebase does not publish them, so they are assumed).\(enforced)"
        return check
    }

    /// 6.5.1 (L2): a code is usable once.
    static func singleUse(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "6.5.1", level: 2, topic: "a code is usable only once", verdict: .notShown, evidence: "No code was used twice in this flow.")
        for (index, use) in flow.uses.enumerated() where use.consumes && use.succeeded {
            guard let again = flow.uses[(index + 1)...].first(where: { $0.code == use.code && $0.consumes }) else { continue }
            if again.succeeded {
                check.verdict = .notMet
                check.evidence = "The same code was accepted twice: by \(use.who), then by \(again.who)."
                return check
            }
            check.verdict = .met
            check.evidence = "A code used by \(use.who) was refused when \(again.who) used it again (\(again.error ?? "HTTP \(again.status.map(String.init) ?? "error")"))."
        }
        return check
    }

    /// 6.5.4 (L2): at least 20 bits of entropy.
    static func codeEntropy(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "6.5.4", level: 2, topic: "a code has at least 20 bits of entropy", verdict: .notShown, evidence: "No code was seen.")
        let codes = flow.codesSeen
        guard let shortest = codes.min(by: { $0.count < $1.count }) else { return check }
        let alphabet = Self.alphabet(of: codes.joined())
        let bits = Int(log2(Double(alphabet.size)) * Double(shortest.count))
        check.verdict = bits >= 20 ? .met : .notMet
        let origin = flow.isSimulated ? "the simulated project's codes" : "the codes seen"
        check.evidence = "The shortest code has \(shortest.count) characters of \(alphabet.name) (\(origin)): at most \(bits) bits, if random."
        return check
    }

    /// 6.6.2 (L2): a code is bound to the request that made it.
    static func binding(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "6.6.2", level: 2, topic: "a code is bound to the request it was made for", verdict: .notShown,
                          evidence: "Every code was used where it was asked for; nothing in this flow shows whether the code is bound to that request.")
        guard !flow.sentTypes.isEmpty || !flow.codesSeen.isEmpty else {
            check.evidence = "No email action code was sent."
            return check
        }
        for use in flow.uses where use.consumes && use.succeeded {
            guard let asked = flow.requesters[use.code] else { continue }
            if use.caller == .mailScanner || use.device != asked {
                check.verdict = .notMet
                check.evidence = "A code asked for by \(asked.map { "the \($0.title)" } ?? "the app") was used by \(use.who): it is not bound to the request, the device or the session that asked."
                return check
            }
        }
        return check
    }

    /// 14.2.1 (L1): no sensitive data in URLs.
    static func secretsInURL(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "14.2.1", level: 1, topic: "no secret in a URL or its query", verdict: .notApplicable, evidence: "No email link was sent.")
        guard let link = flow.links.last else { return check }
        // The code may sit in a link wrapped in another (a Hosting or Dynamic Link's `link=`).
        let anatomy = try? LinkInspector.inspect(link, authorizedDomains: flow.project.authorizedDomains)
        var secrets: [String] = []
        if anatomy?.oobCode != nil { secrets.append("oobCode") }
        if anatomy?.apiKey != nil { secrets.append("apiKey") }
        guard !secrets.isEmpty else {
            check.verdict = .met
            check.evidence = "The email action link carries no code or key in its query."
            return check
        }
        check.verdict = .notMet
        check.evidence = "The email action link carries \(secrets.joined(separator: " and ")) in its query: mail servers, browser history, proxies and logs keep them."
        return check
    }

    /// 3.4.5 (L2): a referrer policy keeps the URL's secrets from third parties.
    static func referrer(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "3.4.5", level: 2, topic: "a referrer policy keeps secrets in URLs from third parties", verdict: .notApplicable, evidence: "No page held a link's code.")
        if let forwarded = flow.forwardedSignInLinks.first {
            check.verdict = .notShown
            check.evidence = "The hosted page sent the browser on to \(forwarded) with the link's code in its query: the app's continue page must set a Referrer-Policy, which this flow cannot show."
        } else if flow.openedInWebWidget || flow.openedActionPage {
            check.verdict = .notShown
            check.evidence = "The hosted action page's URL holds the code; whether Firebase's page sets a Referrer-Policy before its Continue button leaves for the continue URL is not shown here."
        }
        return check
    }

    /// 3.5.3 (L1): sensitive functions are not reachable with safe methods such as GET.
    static func stateChangingGET(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "3.5.3", level: 1, topic: "a GET does not change state", verdict: .notShown, evidence: "No link was opened in this flow.")
        if let scanned = flow.uses.first(where: { $0.caller == .mailScanner && $0.consumes && $0.succeeded }) {
            check.verdict = .notMet
            check.evidence = "The mail scanner's GET of the link used the code (\(scanned.operation.rawValue)) before the user opened it."
            return check
        }
        if let applied = flow.uses.first(where: { $0.caller == .webWidget && $0.consumes && $0.succeeded && !$0.needsForm }) {
            check.verdict = .notMet
            check.evidence = "Opening the link in the hosted page applied the code (\(applied.operation.rawValue)) with no further step: anything that loads the page changes the account."
            return check
        }
        if let applied = flow.appliedByGET {
            check.verdict = .notMet
            check.evidence = applied
            return check
        }
        if flow.uses.contains(where: { $0.consumes && $0.succeeded }) {
            check.verdict = .met
            check.evidence = "Each code was used by a POST that needed the user: the new-password form, or the app's own call after the link opened it."
        } else if let form = flow.formsSent.first(where: { flow.openedCodes.contains($0.code) }) {
            check.verdict = .met
            check.evidence = "The \(form.mode ?? "action") link was opened by GET, and only the form its page sent (a POST the user made) carried the code on."
        }
        if let opened = flow.openedWithoutPOST, check.verdict != .notMet {
            check.verdict = .notShown
            check.evidence = opened
        } else if check.verdict == .notShown, !flow.openedCodes.isEmpty {
            check.evidence = "A link was opened by GET, and nothing the capture holds after it shows whether loading it changed the account."
        }
        return check
    }

    /// 3.7.2 (L2): redirects leave only for allow-listed hosts.
    static func redirectAllowList(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "3.7.2", level: 2, topic: "a redirect leaves only for an allow-listed host", verdict: .notApplicable, evidence: "No continue URL was sent.")
        if let refused = flow.uses.first(where: { $0.operation == .sendOobCode && ($0.error ?? "").hasPrefix("UNAUTHORIZED_DOMAIN") }) {
            check.verdict = .met
            check.evidence = "A continue URL outside the authorized domains was refused (\(refused.error ?? "UNAUTHORIZED_DOMAIN"))."
            return check
        }
        let continueURLs = flow.sentContinueURLs
        guard let url = continueURLs.first else { return check }
        guard !flow.isCapture else {
            // The captured project's authorized domains are its own, which its traffic does not carry.
            check.verdict = .notShown
            let sent = "The captured sends carried continue URLs (\(url)\(continueURLs.count > 1 ? " and \(continueURLs.count - 1) more" : ""))"
            check.evidence = flow.capturedFromEmulator
                ? "\(sent), and the Auth Emulator sent them all: it checks no authorized domain (firebase-tools src/emulator/auth/operations.ts, sendOobCode), so production's check is not exercised by this capture."
                : "\(sent); the captured project's authorized domains are not in its traffic, so whether each host is on them is not shown. A refusal (UNAUTHORIZED_DOMAIN) would show the check."
            return check
        }
        let outside = continueURLs.filter { url in
            if case .authorized = ContinueURLPolicy.check(url, authorizedDomains: flow.project.authorizedDomains) { false } else { true }
        }
        if let stray = outside.first {
            check.verdict = .notMet
            check.evidence = "\(stray) is not on the project's authorized domains, yet the email was sent with it."
        } else {
            check.verdict = .met
            check.evidence = "\(url) is on the project's authorized domains (\(flow.project.authorizedDomains.joined(separator: ", "))), which Firebase checks before it sends."
        }
        return check
    }

    /// 6.3.8 (L3): no account enumeration, forgotten-password included.
    static func enumeration(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "6.3.8", level: 3, topic: "the email actions do not reveal which accounts exist", verdict: .notShown, evidence: "No email was asked for.")
        if let found = flow.uses.first(where: { ($0.error ?? "").hasPrefix("EMAIL_NOT_FOUND") }) {
            check.verdict = .notMet
            let asked = found.operation == .sendOobCode ? "Asking for an email to an unknown address" : "\(found.operation.rawValue) with an unknown address"
            check.evidence = "\(asked) answered \(found.error ?? "EMAIL_NOT_FOUND"): the answer tells who has an account."
            return check
        }
        guard flow.uses.contains(where: { $0.operation == .sendOobCode }) else { return check }
        // A capture's project settings are not known: only its answers count.
        guard !flow.isCapture else {
            check.evidence = "Emails were asked for, each for a known address: this flow does not show what an unknown one gets."
            return check
        }
        if flow.project.emailEnumerationProtection {
            check.verdict = .met
            check.evidence = "Email enumeration protection is on: an unknown address gets the same answer as a known one, and no email."
        } else {
            check.verdict = .notMet
            check.evidence = "Email enumeration protection is off: the project answers EMAIL_NOT_FOUND for an unknown address."
        }
        return check
    }

    /// 6.3.7 (L3): the user is told after a change of their authentication details: a password
    /// reset, a change of email address, a second factor added (`0x15-V6-Authentication.md:66`
    /// at `v5.0.0_release`).
    static func notification(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "6.3.7", level: 3, topic: "the user is told after a credential or their email address changes", verdict: .notApplicable,
                          evidence: "Neither the password, the email address nor a second factor changed in this flow.")
        // Each change, and the email that tells the owner of it: the recovery email of an address
        // change and the revert email of a second factor exist only because of it (sent by the
        // call that made it); after a reset, any email that comes later.
        let changes: [(position: Int, what: String, notice: OobRequestType?)] = [
            flow.passwordChangedAt.map { ($0, "The password was reset", nil) },
            flow.emailChangedAt.map { ($0, "The email address was changed", .recoverEmail) },
            flow.secondFactorAddedAt.map { ($0, "A second factor was added", .revertSecondFactorAddition) },
        ].compactMap { $0 }
        guard let first = changes.min(by: { $0.position < $1.position }) else {
            if flow.formsSent.contains(where: { $0.mode == "resetPassword" }) {
                check.verdict = .notShown
                check.evidence = "The reset page's form was sent with a new password; whether an email told the account's owner afterwards is not shown by a capture of the app's traffic."
            }
            return check
        }
        let what = first.what
        let later = flow.mail.filter { mail in
            changes.contains { change in
                change.notice.map { mail.requestType == $0 } ?? ((flow.mailPositions[mail.link] ?? 0) > change.position)
            }
        }
        guard !flow.isCapture || !later.isEmpty else {
            // Mail leaves the project by SMTP, not through the app's traffic, unless the capture
            // holds an emulator's listing of it.
            check.verdict = .notShown
            check.evidence = "\(what); whether an email told the account's owner afterwards is not shown by a capture of the app's traffic."
            return check
        }
        if later.isEmpty {
            check.verdict = .notMet
            check.evidence = "\(what); no email told the account's owner afterwards."
        } else {
            check.verdict = .met
            let listed = flow.isCapture ? " (the emulator's listing in the capture shows \(later.map(\.requestType.rawValue).joined(separator: ", ")))" : ""
            check.evidence = "\(what); afterwards \(later.count == 1 ? "an email" : "\(later.count) emails") went to the account's owner\(listed)."
        }
        return check
    }

    /// 6.3.6 (L3): email is not an authentication factor.
    static func emailAsAuthenticator(_ flow: FlowEvidence) -> Check {
        var check = Check(id: "6.3.6", level: 3, topic: "email is not used to authenticate", verdict: .notApplicable, evidence: "No sign-in by email link in this flow.")
        if flow.signedInWithEmailLink {
            check.verdict = .notMet
            check.evidence = "The user signed in with an email link: the email is the only factor."
        } else if flow.sentTypes.contains(.emailSignIn) {
            check.verdict = .notMet
            check.evidence = "A sign-in link was sent: whoever opens it signs in with the email alone."
        }
        return check
    }

    // MARK: Wording

    /// The smallest usual alphabet the characters fit in.
    static func alphabet(of characters: String) -> (name: String, size: Int) {
        let scalars = characters.unicodeScalars
        if scalars.allSatisfy({ ("0"..."9").contains($0) }) { return ("digits", 10) }
        if scalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }) { return ("lowercase hex", 16) }
        if scalars.allSatisfy({ $0.properties.isASCIIHexDigit || ("g"..."z").contains($0) || ("G"..."Z").contains($0) || $0 == "-" || $0 == "_" }) {
            return ("base64url", 64)
        }
        return ("\(Set(scalars).count) different symbols", max(Set(scalars).count, 2))
    }

    static func title(_ type: OobRequestType) -> String {
        switch type {
        case .passwordReset: "password reset"
        case .verifyEmail: "email verification"
        case .emailSignIn: "email-link sign-in"
        case .verifyAndChangeEmail: "email change"
        case .recoverEmail: "email recovery"
        case .revertSecondFactorAddition: "second-factor revert"
        }
    }

    /// "10 minutes", "1 hour", "3 days".
    static func duration(_ seconds: TimeInterval) -> String {
        // A session file's lifetimes are untrusted: one no whole count can hold is shown as it is.
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "\(seconds) seconds" }
        let units: [(String, TimeInterval)] = [("day", 86400), ("hour", 3600), ("minute", 60)]
        for (name, size) in units where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            let count = Int(seconds / size)
            return "\(count) \(name)\(count == 1 ? "" : "s")"
        }
        let count = Int(seconds)
        return "\(count) second\(count == 1 ? "" : "s")"
    }
}

/// What a session's journal shows about its codes: who asked for each, who used it and how it
/// was answered.
struct FlowEvidence {
    /// One call that carried an action code, and its answer.
    struct CodeUse {
        var code: String
        var operation: IdentityToolkitOperation
        /// It spends the code (a reset, an apply, a sign-in), rather than only checking it.
        var consumes: Bool
        /// A reset needs its form's new password; an apply or a sign-in needs nothing more.
        var needsForm: Bool
        var caller: Caller
        var device: DeviceName?
        var status: Int?
        var error: String?

        var succeeded: Bool { status == 200 }

        var who: String {
            switch caller {
            case .mailScanner: "the mail scanner"
            case .webWidget: device.map { "the hosted page on the \($0.title)" } ?? "the hosted page"
            case .app: device.map { "the app on the \($0.title)" } ?? "the app"
            }
        }
    }

    let project: ProjectConfiguration
    let mail: [MailMessage]
    let isSimulated: Bool
    /// An imported capture: the project's settings are this tool's, not the captured project's.
    let isCapture: Bool
    /// A capture whose calls went to an Auth Emulator.
    private(set) var capturedFromEmulator = false
    /// Calls that carried a code, and the sends (code "" for those), in journal order.
    private(set) var uses: [CodeUse] = []
    /// Continue URLs as sent (checked against the domains before they are shown).
    private(set) var sentContinueURLs: [String] = []
    private(set) var forwardedSignInLinks: [String] = []
    private(set) var openedInWebWidget = false
    private(set) var signedInWithEmailLink = false
    /// Where in the journal the password was set anew (its entry's position, from 1).
    private(set) var passwordChangedAt: Int?
    /// When a change of email address was applied (an `update` with a `VERIFY_AND_CHANGE_EMAIL` code).
    private(set) var emailChangedAt: Int?
    /// When a second factor was added to the account (`mfaEnrollment:finalize` answered 200).
    private(set) var secondFactorAddedAt: Int?
    /// Where in the journal each email first shows (sent, or listed in a capture), by its link.
    private(set) var mailPositions: [String: Int] = [:]
    /// Request types of the sends a captured server accepted (2xx), in order.
    private(set) var acceptedSendTypes: [OobRequestType] = []
    /// Every action link the flow holds: its emails' and a capture's (listed, answered, opened).
    private(set) var links: [String] = []
    /// A captured request opened the hosted action page (`/__/auth/action`).
    private(set) var openedActionPage = false
    /// What a capture shows of a hosted page's GET that spent a code, if it shows one.
    private(set) var appliedByGET: String?
    /// What a capture cannot show of a link opened with no request after it carrying its code.
    private(set) var openedWithoutPOST: String?
    /// A capture's forms sent to a link's own page (the hosted reset page's new password), by code fingerprint.
    private(set) var formsSent: [(code: String, mode: String?)] = []
    /// Codes of the links a capture shows opened by GET, by fingerprint.
    private(set) var openedCodes: Set<String> = []
    /// Each sent code's requesting device (nil in a one-device session; no entry when unknown).
    private(set) var requesters: [String: DeviceName?] = [:]

    init(_ session: Session) {
        project = session.project
        mail = session.sentMail
        isSimulated = session.isEmbedded
        isCapture = session.journal.contains { if case .captured = $0.fact { true } else { false } }
        var pending: [Int: CodeUse] = [:]
        var lastSendDevice: DeviceName?
        // Email-change codes, as the simulated app's calls carry them and by fingerprint, as a capture's do.
        let changeMail = session.sentMail.filter { $0.requestType == .verifyAndChangeEmail }.compactMap(\.oobCode)
        var changeCodes: Set<String> = Set(changeMail + changeMail.map(SecretMasking.fingerprint))
        links = session.sentMail.map(\.link)
        // A capture's opened links by code, and the codes its calls carried, to tell what a GET did.
        var openedLinks: [(code: String, mode: String, at: Int)] = []
        var carriedCodes: Set<String> = []
        var lookups: [(at: Int, emailVerified: Bool)] = []
        var position = 0
        for entry in session.journal {
            position += 1
            switch entry.fact {
            case .request(let call, let caller, _):
                if case .sendOobCode(let request, _) = call {
                    lastSendDevice = entry.device
                    if let url = request.continueUrl, !url.isEmpty { sentContinueURLs.append(url) }
                }
                if let use = Self.use(of: call, by: caller, on: entry.device) {
                    pending[uses.count] = use
                    uses.append(use)
                }
            case .exchange(_, let operation, let caller, let status, let error):
                // The answer belongs to the oldest call of that kind by that caller still waiting.
                if let index = pending.keys.sorted().first(where: { pending[$0]?.operation == operation && pending[$0]?.caller == caller && pending[$0]?.device == entry.device }) {
                    uses[index].status = status
                    uses[index].error = error.map(Self.errorCode)
                    pending[index] = nil
                }
            case .mailSent(let id, _, _):
                if let mail = session.sentMail.first(where: { $0.id == id }) {
                    if let code = mail.oobCode { requesters[code] = lastSendDevice }
                    mailPositions[mail.link] = mailPositions[mail.link] ?? position
                }
            case .captured(.actionLink(let link)):
                links.append(link.link)
                mailPositions[link.link] = mailPositions[link.link] ?? position
                let anatomy = try? LinkInspector.inspect(link.link, authorizedDomains: project.authorizedDomains)
                if let code = anatomy?.oobCode {
                    capturedCodes.append(code)
                    let fingerprint = SecretMasking.fingerprint(code)
                    // Applying a recovery code changes the address back: a change too.
                    if link.mode == "verifyAndChangeEmail" || link.mode == "recoverEmail" { changeCodes.insert(fingerprint) }
                    if link.source == .opened, let mode = link.mode { openedLinks.append((fingerprint, mode, position)) }
                    if link.source == .opened { openedCodes.insert(fingerprint) }
                    if link.source == .formSent {
                        carriedCodes.insert(fingerprint)
                        formsSent.append((fingerprint, link.mode))
                    }
                }
                if link.source == .opened, anatomy?.actionURL.contains("/__/auth/action") == true || anatomy?.actionURL.contains("/emulator/action") == true {
                    openedActionPage = true
                }
            case .captured(.call(let call)):
                if call.toEmulator { capturedFromEmulator = true }
                if call.operation == "sendOobCode", let url = call.continueUrl, !url.isEmpty { sentContinueURLs.append(url) }
                if call.operation == "sendOobCode", (200..<300).contains(call.status), let type = call.requestType.flatMap(OobRequestType.init(rawValue:)) {
                    acceptedSendTypes.append(type)
                }
                if let code = call.oobCodeFingerprint { carriedCodes.insert(code) }
                if call.operation == "lookup", let verified = call.emailVerified { lookups.append((position, verified)) }
                if call.operation == "update", call.status == 200, let code = call.oobCodeFingerprint, changeCodes.contains(code) {
                    emailChangedAt = emailChangedAt ?? position
                }
                let operation = IdentityToolkitOperation(rawValue: "accounts:\(call.operation)")
                if let operation, call.oobCode != nil || operation == .sendOobCode || call.error != nil {
                    uses.append(CodeUse(code: call.oobCode ?? "", operation: operation, consumes: call.spendsCode, needsForm: operation == .resetPassword,
                                        caller: .app, device: nil, status: call.status, error: call.error.map(Self.errorCode)))
                }
                if call.operation == "resetPassword", call.setsPassword, call.status == 200 { passwordChangedAt = passwordChangedAt ?? position }
                if call.operation == "signInWithEmailLink", call.status == 200 { signedInWithEmailLink = true }
                if call.operation == "mfaEnrollment:finalize", call.status == 200 { secondFactorAddedAt = secondFactorAddedAt ?? position }
            case .reply(.passwordChanged):
                passwordChangedAt = passwordChangedAt ?? position
            case .reply(.secondFactorEnrolled):
                secondFactorAddedAt = secondFactorAddedAt ?? position
            case .exchange(_, .update, _, 200, _):
                // The simulated app's update answered: an email change when its code was one.
                if let use = uses.last(where: { $0.operation == .update && $0.succeeded }), changeCodes.contains(use.code) {
                    emailChangedAt = emailChangedAt ?? position
                }
            case .reply(.signedInWithEmailLink):
                signedInWithEmailLink = true
            case .webWidget(let fact):
                openedInWebWidget = true
                if case .passwordChanged = fact { passwordChangedAt = passwordChangedAt ?? position }
                if case .forwarded(let url) = fact { forwardedSignInLinks.append(UntrustedText.sanitize(url)) }
            default:
                break
            }
        }
        // A link opened by GET whose code no captured request carried: what the lookups around
        // it show of the account decides whether the GET itself applied it.
        for opened in openedLinks where !carriedCodes.contains(opened.code) && ["verifyEmail", "recoverEmail", "verifyAndChangeEmail", "revertSecondFactorAddition"].contains(opened.mode) {
            let before = lookups.last { $0.at < opened.at }
            let after = lookups.first { $0.at > opened.at }
            if opened.mode == "verifyEmail", before?.emailVerified != true, after?.emailVerified == true {
                appliedByGET = "The GET of the \(opened.mode) link was the only request that carried its code, and the lookup after it shows emailVerified true: loading the page applied the code, with no POST the user made."
            } else if openedWithoutPOST == nil {
                openedWithoutPOST = "A \(opened.mode) link was opened by GET and no captured request carried its code afterwards: whether loading the page applied it is not shown by this capture."
            }
        }
    }

    /// Codes a capture's links carried, in clear (for their length and alphabet only; never shown).
    private(set) var capturedCodes: [String] = []

    /// Every code the flow shows: its emails' and its captured links'.
    var codesSeen: [String] { mail.compactMap(\.oobCode) + capturedCodes }

    /// The kinds of email the flow shows were sent: its emails', and the sends a captured server accepted.
    var sentTypes: [OobRequestType] {
        var seen: Set<OobRequestType> = []
        return (mail.map(\.requestType) + acceptedSendTypes).filter { seen.insert($0).inserted }
    }

    static func use(of call: AuthCall, by caller: Caller, on device: DeviceName?) -> CodeUse? {
        switch call {
        case .sendOobCode:
            CodeUse(code: "", operation: .sendOobCode, consumes: false, needsForm: false, caller: caller, device: device)
        case .resetPassword(let request):
            CodeUse(code: request.oobCode, operation: .resetPassword, consumes: request.newPassword != nil, needsForm: true, caller: caller, device: device)
        case .update(let request):
            request.oobCode.map { CodeUse(code: $0, operation: .update, consumes: true, needsForm: false, caller: caller, device: device) }
        case .signInWithEmailLink(let request):
            CodeUse(code: request.oobCode, operation: .signInWithEmailLink, consumes: true, needsForm: false, caller: caller, device: device)
        case .signUp, .signInWithPassword, .lookup, .startMfaEnrollment, .finalizeMfaEnrollment:
            nil
        }
    }

    /// `CODE : detail` → `CODE`.
    static func errorCode(_ message: String) -> String {
        String(message.prefix { $0 != " " && $0 != ":" })
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
