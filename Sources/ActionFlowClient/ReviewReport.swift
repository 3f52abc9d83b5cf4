import ActionFlowModel
import Foundation

/// A Markdown report of a session for a design review: the settings sent, the email, the link
/// taken apart, the route with its assumptions, findings, every exchange, the sequence diagram
/// and the outcome. Every value from the session is sanitized, masked and escaped.
public struct ReviewReport: Sendable {
    public var title: String
    public var session: Session
    /// Each step with its picture, shown after the outcome (`export --format markdown --pictures`).
    public var steps: [PictureStep]

    /// A step as the report shows it beside its picture.
    public struct PictureStep: Sendable {
        public var title: String
        /// The picture's path, relative to the report.
        public var picture: String
        public var narration: [String]
        public var calls: [String]

        public init(title: String, picture: String, narration: [String], calls: [String]) {
            self.title = title
            self.picture = picture
            self.narration = narration
            self.calls = calls
        }
    }

    public init(title: String, session: Session, steps: [PictureStep] = []) {
        self.title = title
        self.session = session
        self.steps = steps
    }

    /// The section headings, in order.
    public static let sections = [
        "Outcome", "Settings sent", "The email", "Link anatomy", "Route taken", "Findings", "Security review (OWASP ASVS 5.0)",
        "Exchanges", "Sequence diagram",
    ]

    public var markdown: String {
        let bodies = [outcome, settingsSent, email, linkAnatomy, routeTaken, findings, securityReview, exchanges, diagram]
        var out = ["# Review: \(MarkdownText.inline(title))", ""]
        for (heading, body) in zip(Self.sections, bodies) {
            out += ["## \(heading)", ""] + body + [""]
            if heading == "Outcome", !steps.isEmpty { out += ["## Steps", ""] + stepsShown + [""] }
        }
        return out.joined(separator: "\n")
    }

    // MARK: Sections

    var outcome: [String] {
        // With two devices, each device's state under its name.
        let states = session.hasSeveralDevices
            ? session.devices.flatMap { device in ["- On the \(device.name.title):"] + Self.outcome(of: device.app).map { "    " + $0 } }
            : Self.outcome(of: session.app)
        let completions = session.journal.compactMap { entry -> String? in
            guard case .flowCompleted = entry.fact else { return nil }
            return entry.lines.first.map { "- \(MarkdownText.inline($0))" }
        }
        return states + completions
    }

    var stepsShown: [String] {
        let lines = steps.flatMap { step in
            // A path from a user's file name: percent-encoded, so that no character ends the link.
            let picture = step.picture.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "()"))) ?? "picture.svg"
            return ["### \(MarkdownText.inline(step.title))", "", "![\(MarkdownText.inline(step.title))](\(picture))", ""]
                + Self.narrationItems(step.narration).map { item in
                    (["- \(MarkdownText.inline(item[0]))"] + item.dropFirst().map { "  \(MarkdownText.inline($0))" }).joined(separator: "\n")
                }
                + step.calls.map { "- Call: \(MarkdownText.code($0))" }
                + (step.narration.isEmpty && step.calls.isEmpty ? [] : [""])
        }
        return Array(lines.dropLast())
    }

    /// Narration lines as items: an indented line goes on with the line before it, as the
    /// Narration pane shows it.
    public static func narrationItems(_ lines: [String]) -> [[String]] {
        var items: [[String]] = []
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.first?.isWhitespace == true, !items.isEmpty {
                items[items.count - 1].append(trimmed)
            } else {
                items.append([trimmed])
            }
        }
        return items
    }

    /// Where the app on a device ended: its device, screen, user and flow.
    static func outcome(of app: AppState) -> [String] {
        var lines = [
            // In words, as the audience of a review reads them: "the sign-in screen", not `signIn`.
            "- Device: \(MarkdownText.inline(app.device.osName)), showing \(Vocabulary.said(Vocabulary.place(app.location.name), on: app.device))",
            "- Screen: \(MarkdownText.inline(Vocabulary.said(app.screen.spoken, on: app.device)))",
        ]
        if let user = app.session {
            lines.append("- Signed in: \(MarkdownText.code(user.email ?? user.localId)) (email verified, as cached: \(user.emailVerified))")
        } else {
            lines.append("- Signed in: no")
        }
        if let flow = app.flow {
            lines.append("- Flow: \(SecurityReview.title(flow.kind.requestType)), step: \(flow.step.spoken)")
            lines.append("- Continue URL sent: \(flow.continueURL.map(MarkdownText.code) ?? "none")")
        } else {
            lines.append("- Flow: none")
        }
        return lines
    }

    var settingsSent: [String] {
        let requests = sendOobCodeRequests
        let captured = capturedSends
        guard requests.isEmpty, !captured.isEmpty else { return settingsSent(requests) }
        var lines: [String] = []
        for (number, call) in captured.enumerated() {
            if captured.count > 1 { lines += ["Call \(number + 1) (HAR \(CaptureNumbering.entry(call.entry))):", ""] }
            lines += ["| field | value |", "|---|---|"]
            let fields = [("requestType", call.requestType), ("email", call.email)].compactMap { name, value in value.map { (name, $0) } }
                + call.actionCodeSettings.map { field in
                    switch field.value {
                    case .text(let text): (field.name, text)
                    case .flag(let flag): (field.name, String(flag))
                    }
                }
            lines += fields.map { "| \($0.0) | \(MarkdownText.code(SecretMasking.maskLinks(in: $0.1))) |" }
            lines.append("")
        }
        return Array(lines.dropLast())
    }

    private func settingsSent(_ requests: [(request: SendOobCodeRequest, locale: String?)]) -> [String] {
        guard !requests.isEmpty else { return ["No email was requested."] }
        var lines: [String] = []
        for (number, (request, locale)) in requests.enumerated() {
            if requests.count > 1 { lines += ["Request \(number + 1):", ""] }
            lines += ["| field | value |", "|---|---|"]
            for (name, value) in Self.fields(of: request, locale: locale) {
                lines.append("| \(name) | \(MarkdownText.code(value)) |")
            }
            lines.append("")
        }
        return Array(lines.dropLast())
    }

    var email: [String] {
        guard !session.sentMail.isEmpty else {
            // A capture of production traffic holds the requests for email, never the mail itself.
            let accepted = FlowEvidence(session).acceptedSendTypes
            guard !accepted.isEmpty else { return ["No email was sent."] }
            let kinds = Array(Set(accepted.map(SecurityReview.title))).sorted().joined(separator: ", ")
            return ["The captured server accepted \(accepted.count == 1 ? "a request" : "\(accepted.count) requests") for an email (\(kinds)); "
                + "the capture holds the app's traffic, not the mail: what each email said and whom it reached is not shown."]
        }
        return session.sentMail.flatMap { message in
            [
                "- Subject: \(MarkdownText.inline(message.subject))",
                "- To: \(MarkdownText.code(message.to))",
                "- Type: \(message.requestType.rawValue), language \(MarkdownText.code(message.locale)), sent \(message.sentAt.iso8601Stamp)",
                "- Link: \(MarkdownText.code(message.link))",
                "",
            ]
        }.dropLast()
    }

    var linkAnatomy: [String] {
        guard let anatomy else { return ["No link was opened or sent."] }
        var lines = [
            "Mode \(MarkdownText.code(anatomy.mode ?? "(none)")) (\(anatomy.operation.rawValue)); continue URL \(anatomy.continueUrl.map(MarkdownText.code) ?? "none")"
                + (anatomy.continueUrlAuthorized.map { $0 ? ", on the authorized domains" : ", **not** on the authorized domains" } ?? "") + ".",
            "",
        ]
        let continueLayers = anatomy.continueLink?.layers ?? []
        for (number, layer) in (anatomy.layers + continueLayers.filter { !anatomy.layers.contains($0) }).enumerated() {
            lines.append("\(number + 1). \(layer.kind.title) on \(MarkdownText.code(layer.host.isEmpty ? "(no host)" : layer.host))")
            for parameter in layer.parameters {
                lines.append("    - \(MarkdownText.code(parameter.name)): \(MarkdownText.code(SecretMasking.mask(parameter.value, named: parameter.name)))")
            }
        }
        return lines
    }

    var routeTaken: [String] {
        let routes = session.journal.compactMap { entry -> (device: DeviceName?, route: TapRoute)? in
            if case .routed(_, let route) = entry.fact { (entry.device, route) } else { nil }
        }
        guard !routes.isEmpty else { return ["No link was tapped."] }
        return routes.enumerated().flatMap { number, tap in
            let route = tap.route
            let place = tap.device.map { "On the \($0.title), opens" } ?? "Opens"
            return ["\(number + 1). \(place) in: **\(MarkdownText.inline(route.destination.summary))**"]
                + route.steps.map { "    - \(MarkdownText.inline($0))" }
                + route.assumptions.map { "    - *\(MarkdownText.inline($0))*" }
        }
    }

    var findings: [String] {
        let unique = uniqueFindings
        guard !unique.isEmpty else { return ["None."] }
        return unique.map { "- **\($0.severity.rawValue)** \(MarkdownText.code($0.code)): \(MarkdownText.inline($0.message))" }
    }

    /// The settings' and the link's findings and a capture's, each code once.
    public var uniqueFindings: [Finding] {
        var all: [Finding] = []
        if let request = sendOobCodeRequests.last?.request {
            all += SettingsFindings.findings(for: session.app.sentSettings ?? session.app.settings, requestType: request.requestType, project: session.project)
        }
        all += anatomy?.findings ?? []
        all += session.journal.compactMap { entry in
            if case .captured(.finding(let finding, _)) = entry.fact { finding } else { nil }
        }
        var seen: Set<String> = []
        return all.filter { seen.insert($0.code).inserted }
    }

    /// Each ASVS requirement the email actions touch, with its verdict and the flow's evidence.
    var securityReview: [String] {
        let rows = SecurityReview(session).checks.map { check in
            "| \(check.reference) | L\(check.level) | \(MarkdownText.inline(check.topic)) | **\(check.verdict.rawValue)** | \(MarkdownText.inline(check.evidence)) |"
        }
        return ["| requirement | level | asks | verdict | evidence |", "|---|---|---|---|---|"] + rows
            + ["", "*\(MarkdownText.inline(SecurityReview.analogyNote)) Levels are where a requirement starts to apply; the requirements are listed in docs/security-review.md.*"]
    }

    var exchanges: [String] {
        guard !session.exchanges.isEmpty else { return ["No backend call was made."] }
        var lines: [String] = []
        if session.exchangeCount > session.exchanges.count {
            lines += ["The latest \(session.exchanges.count) of \(session.exchangeCount) calls.", ""]
        }
        for exchange in session.exchanges {
            let outcome = exchange.status.map { "HTTP \($0)" } ?? "no response"
            lines += ["### \(exchange.id). \(MarkdownText.inline(exchange.request)): \(outcome)", ""]
            for (name, value) in exchange.requestHeaders.sorted(by: { $0.key < $1.key }) {
                lines += ["Header \(MarkdownText.code(name)): \(MarkdownText.code(value))", ""]
            }
            lines += ["Request:", "", MarkdownText.fenced(exchange.requestBody, language: "json"), ""]
            if let failure = exchange.failure {
                lines += ["Failure: \(MarkdownText.inline(Narration.describe(failure)))", ""]
            }
            if let body = exchange.responseBody {
                lines += ["Response:", "", MarkdownText.fenced(body, language: "json"), ""]
            }
        }
        return Array(lines.dropLast())
    }

    var diagram: [String] {
        [MarkdownText.fenced(SequenceDiagram(session).mermaid.trimmingCharacters(in: .newlines), language: "mermaid")]
    }

    // MARK: Sources

    private var sendOobCodeRequests: [(request: SendOobCodeRequest, locale: String?)] {
        session.journal.compactMap { entry in
            if case .request(.sendOobCode(let request, let locale), _, _) = entry.fact { (request, locale) } else { nil }
        }
    }


    private var capturedSends: [CapturedCall] {
        session.journal.compactMap { entry in
            if case .captured(.call(let call)) = entry.fact, call.operation == "sendOobCode" { call } else { nil }
        }
    }

    /// The link last tapped or pasted, or else the latest email's.
    private var anatomy: LinkAnatomy? {
        if let anatomy = session.app.lastLink?.anatomy { return anatomy }
        return session.sentMail.last.flatMap { try? LinkInspector.inspect($0.link, authorizedDomains: session.project.authorizedDomains) }
    }

    /// A `sendOobCode` request's fields as they go on the wire, with the locale header.
    static func fields(of request: SendOobCodeRequest, locale: String?) -> [(String, String)] {
        let fields: [(String, String?)] = [
            ("requestType", request.requestType.rawValue),
            ("email", request.email),
            ("continueUrl", request.continueUrl),
            // Sent only when true: absent means false.
            ("canHandleCodeInApp", String(request.canHandleCodeInApp ?? false)),
            ("iOSBundleId", request.iOSBundleId),
            ("iOSAppStoreId", request.iOSAppStoreId),
            ("androidPackageName", request.androidPackageName),
            ("androidInstallApp", request.androidInstallApp.map(String.init)),
            ("androidMinimumVersion", request.androidMinimumVersion),
            ("linkDomain", request.linkDomain),
            ("dynamicLinkDomain", request.dynamicLinkDomain),
            ("X-Firebase-Locale (header)", locale),
        ]
        return fields.compactMap { name, value in value.map { (name, $0) } }
    }
}
