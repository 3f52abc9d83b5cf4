import ActionFlowModel
import Foundation

// How `actionflow import` shows a captured flow: narrated lines, or the JSON of
// docs/file-formats.md. Codes, keys and tokens are masked (SecretMasking) and every string from
// the capture is made safe for a terminal (UntrustedText; the JSON writer's terminal-safe form).

extension CapturedFlow {
    public struct Report: Encodable {
        let flow: CapturedFlow
        /// With `--compare`: each request's captured and simulated answers.
        let comparison: CaptureComparison?

        public init(_ flow: CapturedFlow, comparison: CaptureComparison? = nil) {
            self.flow = flow
            self.comparison = comparison
        }

        private enum Keys: String, CodingKey { case operations, actionLinks, findings, comparison }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(flow.operations.map(OperationReport.init), forKey: .operations)
            try container.encode(flow.actionLinks.map(LinkReport.init), forKey: .actionLinks)
            try container.encode(flow.findings.map(FindingReport.init), forKey: .findings)
            if let comparison { try container.encode(comparison, forKey: .comparison) }
        }
    }

    struct OperationReport: Encodable {
        let operation: CapturedOperation

        private enum Keys: String, CodingKey {
            case operation, wireName, api, toEmulator, requestType, email, newEmail, continueUrl, actionCodeSettings, status, error, entry
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(operation.operation, forKey: .operation)
            try container.encode(operation.wireName, forKey: .wireName)
            try container.encode(operation.api.rawValue, forKey: .api)
            try container.encode(operation.toEmulator, forKey: .toEmulator)
            try container.encode(operation.requestType, forKey: .requestType)
            try container.encode(operation.email, forKey: .email)
            try container.encode(operation.newEmail, forKey: .newEmail)
            try container.encode(operation.continueUrl.map(SecretMasking.maskLinks), forKey: .continueUrl)
            try container.encode(Dictionary(uniqueKeysWithValues: operation.actionCodeSettings.map { ($0.name, FieldValue(field: $0)) }), forKey: .actionCodeSettings)
            try container.encode(operation.status, forKey: .status)
            try container.encode(operation.error, forKey: .error)
            try container.encode(operation.exchange.entry, forKey: .entry)
        }
    }

    struct FieldValue: Encodable {
        let field: ActionCodeField

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch field.value {
            case .flag(let flag): try container.encode(flag)
            case .text(let text): try container.encode(SecretMasking.maskLinks(in: text))
            }
        }
    }

    struct LinkReport: Encodable {
        let link: CapturedActionLink

        private enum Keys: String, CodingKey {
            case mode, operation, continueUrl, continueUrlAuthorized, lang, tenantId, oobCode, link, source, entry, visits
        }

        private struct VisitReport: Encodable {
            let entry: Int
            let method: String
            let status: Int
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            let anatomy = link.anatomy
            try container.encode(anatomy.mode, forKey: .mode)
            try container.encode(anatomy.operation.rawValue, forKey: .operation)
            try container.encode(anatomy.continueUrl.map(SecretMasking.maskLinks), forKey: .continueUrl)
            try container.encode(anatomy.continueUrlAuthorized, forKey: .continueUrlAuthorized)
            try container.encode(anatomy.lang, forKey: .lang)
            try container.encode(anatomy.tenantId, forKey: .tenantId)
            try container.encode(anatomy.oobCode.map(SecretMasking.mask), forKey: .oobCode)
            try container.encode(SecretMasking.maskLinks(in: anatomy.link), forKey: .link)
            try container.encode(link.source.rawValue, forKey: .source)
            try container.encode(link.entry, forKey: .entry)
            try container.encode(link.visits.map { VisitReport(entry: $0.entry, method: $0.method, status: $0.status) }, forKey: .visits)
        }
    }

    struct FindingReport: Encodable {
        let finding: CapturedFinding

        private enum Keys: String, CodingKey { case code, severity, message, subject }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(finding.finding.code, forKey: .code)
            try container.encode(finding.finding.severity.rawValue, forKey: .severity)
            try container.encode(SecretMasking.maskLinks(in: finding.finding.message), forKey: .message)
            try container.encode(finding.subject, forKey: .subject)
        }
    }

    /// The flow told in plain lines, as `run` tells a scenario.
    public func narration(source: String) -> String {
        let safe = { (text: String) in UntrustedText.sanitize(SecretMasking.maskLinks(in: text)) }
        let oversized = oversizedLinks.isEmpty ? "" : " (and \(Self.count(oversizedLinks.count, "action link")) too long to take apart)"
        var lines = ["capture \(UntrustedText.sanitize(source)): \(entries) entries, \(Self.count(operations.count, "Identity Toolkit call")), \(Self.count(actionLinks.count, "action link"))\(oversized)"]
        var keptOut: [String] = []
        if preflights > 0 { keptOut.append(Self.count(preflights, "CORS preflight")) }
        if unrelated > 0 { keptOut.append(Self.count(unrelated, "unrelated request")) }
        if !keptOut.isEmpty { lines.append("  kept out of the flow: \(keptOut.joined(separator: ", "))") }
        lines.append("  " + judgedAgainst)
        for (index, operation) in operations.enumerated() {
            let callLines = CapturedCall(operation).lines.map(safe)
            lines.append(String(format: "%4d  ", index + 1) + callLines[0])
            if let code = operation.oobCode { lines.append("        " + origin(of: code)) }
            lines += callLines.dropFirst().map { "    " + $0 }
        }
        if !actionLinks.isEmpty { lines.append("action links:") }
        for (index, link) in actionLinks.enumerated() {
            let anatomy = link.anatomy
            lines.append(String(format: "%4d  ", index + 1) + "\(anatomy.mode.map(safe) ?? "(no mode)") link, \(link.source.narration) (\(CaptureNumbering.entry(link.entry)))")
            var continueLine = "        continueUrl \(anatomy.continueUrl.map(safe) ?? "(none)")"
            if anatomy.continueUrlAuthorized == false { continueLine += "  [NOT authorized]" }
            lines.append(continueLine)
            if let lang = anatomy.lang { lines.append("        lang \(safe(lang))") }
            if let visits = visits(of: link) { lines.append("        " + visits) }
            lines.append("        " + codeUses(of: anatomy.oobCode, in: index))
        }
        if findings.isEmpty {
            lines.append("findings: none")
        } else {
            lines.append("findings:")
            for item in findings.sorted(by: { $0.finding.severity > $1.finding.severity }) {
                lines.append("  [\(item.finding.severity.rawValue)] \(item.finding.code) (\(CapturedSubject.spoken(path: item.subject))): \(safe(item.finding.message))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Which domains the findings hold continue URLs to, and where they come from.
    var judgedAgainst: String {
        let accepted = acceptedContinueHosts.map(UntrustedText.sanitize)
        let acceptedText = accepted.isEmpty ? "" : "continue URL hosts its server accepted in a send (\(accepted.joined(separator: ", ")))"
        if let captured = capturedAuthorizedDomains {
            return "judged against the captured project's authorized domains (its getProjectConfig answer, \(CaptureNumbering.entry(captured.entry))): "
                + captured.domains.map(UntrustedText.sanitize).joined(separator: ", ") + (accepted.isEmpty ? "" : "; and " + acceptedText)
        }
        let given = "project \(UntrustedText.sanitize(givenProjectId ?? "")) as given to this tool (--project FILE names yours)"
        if !accepted.isEmpty {
            return "judged against the \(acceptedText), and otherwise \(given): the capture holds no getProjectConfig answer naming the rest"
        }
        return "judged against \(given): the capture holds no getProjectConfig answer from production naming its authorized domains"
    }

    /// Where a call's action code came from: the link of this capture that holds it, if one does.
    func origin(of code: String) -> String {
        guard let index = actionLinks.firstIndex(where: { $0.anatomy.oobCode == code }) else {
            return "its code is in no link this capture holds (made up, or from mail the capture cannot show)"
        }
        let link = actionLinks[index]
        let recipient = link.email.map { " to \(UntrustedText.sanitize($0))" } ?? ""
        return "its code is link \(index + 1)'s (\(link.anatomy.mode.map(UntrustedText.sanitize) ?? "no mode")\(recipient))"
    }

    /// The captured requests to a link itself: who opened it, a form on its page sent.
    func visits(of link: CapturedActionLink) -> String? {
        guard !link.visits.isEmpty else { return nil }
        return "requested at " + link.visits.map { visit in
            "\(CaptureNumbering.entry(visit.entry)) (\(visit.method == "GET" ? "opened" : "\(visit.method) sent"), \(visit.status == 0 ? "no answer captured" : "answered \(visit.status)"))"
        }.joined(separator: ", then ")
    }

    /// What the captured calls did with a link's code, in order.
    func codeUses(of code: String?, in linkIndex: Int) -> String {
        guard let code else { return "it carries no code" }
        if let first = actionLinks.firstIndex(where: { $0.anatomy.oobCode == code }), first < linkIndex {
            return "its code is link \(first + 1)'s"
        }
        let uses = operations.enumerated().filter { $0.element.oobCode == code }.map { index, operation in
            let call = "call \(index + 1) (\(operation.operation)"
            guard (200..<300).contains(operation.status) else {
                let outcome = operation.status == 0 ? "no answer captured" : operation.error.map { "refused \(operation.status) \(CaptureComparison.errorCode(message: $0))" } ?? "refused \(operation.status)"
                return "tried by \(call), \(outcome))"
            }
            return "\(CapturedCall(operation).spendsCode ? "spent" : "checked") by \(call), \(operation.status))"
        }
        return uses.isEmpty ? "its code: carried by no captured call" : "its code: " + uses.joined(separator: ", then ")
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

extension CapturedActionLink.Source {
    public var narration: String {
        switch self {
        case .emulatorListing: "listed by the emulator"
        case .operationResponse: "in the answer to sendOobCode"
        case .opened: "opened"
        case .redirect: "redirected to"
        case .formSent: "its page's form sent"
        case .sentByServer: "in the email the server sent"
        }
    }
}

/// How text names a place in a capture: calls and links as listed, from 1, and HAR entries from 1
/// as a HAR viewer lists them (`entry 5` is `log.entries[4]`). JSON keeps the 0-based indices
/// docs/file-formats.md gives.
public enum CaptureNumbering {
    public static func entry(_ index: Int) -> String { "entry \(index + 1)" }
    public static func call(_ index: Int) -> String { "call \(index + 1)" }
}
