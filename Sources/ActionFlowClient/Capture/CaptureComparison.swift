import ActionFlowBackend
import ActionFlowModel
import Foundation

/// `import --compare`: each captured Identity Toolkit and securetoken request sent again, in
/// capture order, to the simulated project (answered in process by serve's own API, as `serve`
/// answers), and the two answers set side by side. Tokens and action codes the capture's server
/// issued are replaced by the ones the simulated project issued in their place.
public struct CaptureComparison: Sendable, Encodable {
    public struct Row: Sendable, Encodable {
        public var entry: Int
        public var operation: String
        public var captured: Answer
        public var simulated: Answer
        public var differs: Bool
        /// Why they differ, where it can be told.
        public var note: String?

        public init(entry: Int, operation: String, captured: Answer, simulated: Answer, differs: Bool, note: String?) {
            self.entry = entry
            self.operation = operation
            self.captured = captured
            self.simulated = simulated
            self.differs = differs
            self.note = note
        }

        private enum CodingKeys: String, CodingKey { case entry, operation, captured, simulated, differs, note }

        /// Every key always, `note` as null where nothing explains a difference (docs/file-formats.md).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entry, forKey: .entry)
            try container.encode(operation, forKey: .operation)
            try container.encode(captured, forKey: .captured)
            try container.encode(simulated, forKey: .simulated)
            try container.encode(differs, forKey: .differs)
            try container.encode(note, forKey: .note)
        }
    }

    public struct Answer: Sendable, Encodable, Equatable {
        /// HTTP status; 0 when the capture holds no answer.
        public var status: Int
        /// The error's code (`EMAIL_NOT_FOUND`), or nil.
        public var error: String?

        public init(status: Int, error: String?) {
            self.status = status
            self.error = error
        }

        private enum CodingKeys: String, CodingKey { case status, error }

        /// `error` as null when the answer was no error, as docs/file-formats.md documents it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(error, forKey: .error)
        }

        var text: String {
            status == 0 ? "no answer captured" : "\(status)\(error.map { " \($0)" } ?? "")"
        }
    }

    /// A request to the emulator's own API that changes its state, sent again before the calls
    /// after it: its HTTP status then and now.
    public struct EmulatorRequest: Sendable, Encodable, Equatable {
        public var entry: Int
        /// `PUT /emulator/v1/projects/P/config`.
        public var request: String
        public var captured: Int
        public var simulated: Int

        public init(entry: Int, request: String, captured: Int, simulated: Int) {
            self.entry = entry
            self.request = request
            self.captured = captured
            self.simulated = simulated
        }
    }

    /// How the simulated project answered: `production`, or `emulator` for an emulator's capture.
    public var behaviour: String
    public var rows: [Row]
    public var emulatorRequests: [EmulatorRequest]

    public init(behaviour: String, rows: [Row], emulatorRequests: [EmulatorRequest] = []) {
        self.behaviour = behaviour
        self.rows = rows
        self.emulatorRequests = emulatorRequests
    }

    /// The `oobCode` a request carries (JSON or form body).
    public static func actionCode(in exchange: CapturedExchange) -> String? {
        if let object = try? JSONSerialization.jsonObject(with: exchange.requestBody) as? [String: Any] {
            return (object["oobCode"] ?? object["oob_code"]) as? String
        }
        let form = URLComponents(string: "?" + String(decoding: exchange.requestBody, as: UTF8.self))?.queryItems
        return form?.first { $0.name == "oobCode" || $0.name == "oob_code" }?.value
    }

    /// Whether an issued code is the kind the operation spends.
    public static func fits(_ code: IssuedOobCode, _ operation: String) -> Bool {
        switch operation {
        case "resetPassword": code.requestType == .passwordReset
        case "signInWithEmailLink": code.requestType == .emailSignIn
        case "update": code.requestType != .passwordReset && code.requestType != .emailSignIn
        default: false
        }
    }

    /// Tokens the capture's server answered, mapped to the simulated project's in their place.
    public static func mapTokens(captured: Data, simulated: Data, into replacements: inout [String: String]) {
        guard let old = try? JSONSerialization.jsonObject(with: captured) as? [String: Any],
              let new = try? JSONSerialization.jsonObject(with: simulated) as? [String: Any] else { return }
        for key in ["idToken", "refreshToken", "id_token", "refresh_token", "access_token"] {
            if let from = old[key] as? String, let to = new[key] as? String, !from.isEmpty, from != to {
                replacements[from] = to
            }
        }
    }

    public static func errorCode(_ body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let message = (object["error"] as? [String: Any])?["message"] as? String else { return nil }
        return errorCode(message: message)
    }

    /// `EMAIL_NOT_FOUND : detail` is `EMAIL_NOT_FOUND`.
    public static func errorCode(message: String) -> String {
        String(message.split(separator: " : ", maxSplits: 1, omittingEmptySubsequences: false).first ?? Substring(message))
            .trimmingCharacters(in: .whitespaces)
    }

    /// What explains a difference, when it can be told.
    /// `codeShownIssued`: whether the capture shows its server issued the action code the call
    /// carried (nil when it carried none).
    public static func note(_ operation: CapturedOperation, captured: Answer, simulated: Answer, project: ProjectConfiguration, codeShownIssued: Bool? = nil) -> String? {
        switch simulated.error {
        case "EMAIL_NOT_FOUND", "USER_NOT_FOUND":
            return "the simulated project has no account for \(operation.email ?? "that address"): add it to the project's users (--project FILE)"
        case "UNAUTHORIZED_DOMAIN":
            return "the continue URL's host is not an authorized domain of project \(project.projectId) (--project FILE, authorizedDomains)"
        case "INVALID_HOSTING_LINK_DOMAIN":
            return "the link domain sent is not one of project \(project.projectId)'s Hosting domains (--project FILE, hostingDomains)"
        case "INVALID_DYNAMIC_LINK_DOMAIN":
            return "the Dynamic Links domain sent is not one of project \(project.projectId)'s (--project FILE, dynamicLinkDomains)"
        case "INVALID_OOB_CODE", "EXPIRED_OOB_CODE":
            return codeShownIssued == false
                ? "the capture never shows its server issuing this code: it is sent as it is, and the simulated project never issued it either"
                : "the simulated code standing for the captured one was refused (\(simulated.error ?? "")): an earlier call spent it, or the simulated clock had passed its lifetime"
        case "INVALID_ID_TOKEN", "MISSING_ID_TOKEN", "INVALID_REFRESH_TOKEN", "TOKEN_EXPIRED":
            return "the token came from a sign-in the capture does not hold"
        case "INVALID_PASSWORD" where captured.error == "EMAIL_NOT_FOUND":
            return "the simulated project has a preset account for \(operation.email ?? "that address"), which the captured server did not"
        case let code? where captured.error == nil && ["INVALID_REQ_TYPE", "INVALID_ARGUMENT", "MISSING_REQ_TYPE"].contains(code):
            return "the simulated project does not read this request as the captured server did (its spelling: \(operation.api.rawValue) \(operation.wireName))"
        default:
            return nil
        }
    }

    /// As `import` prints it after the narration.
    public var text: String {
        let differing = rows.filter(\.differs).count
        let answering = behaviour == "emulator" ? "as the Auth Emulator answers (serve --as emulator)" : "as production answers (serve --as production)"
        var lines = ["Compared with the simulated project \(answering), each request sent again in order: \(differing) of \(rows.count) answer\(rows.count == 1 ? "" : "s") differ"]
        if !emulatorRequests.isEmpty {
            lines.append("  with the capture's other requests that can change the server's state (the emulator's own API, the links opened and their pages' forms), sent again in their place:")
            for request in emulatorRequests {
                lines.append("    \(CaptureNumbering.entry(request.entry)) \(request.request): captured \(request.captured), simulated \(request.simulated)")
            }
        }
        for (index, row) in rows.enumerated() {
            let mark = row.captured.status == 0 ? "?" : row.differs ? "≠" : "="
            lines.append("  \(mark) \(CaptureNumbering.call(index)) \(row.operation): captured \(row.captured.text), simulated \(row.simulated.text)")
            if let note = row.note { lines.append("      \(note)") }
        }
        return lines.map(UntrustedText.sanitize).joined(separator: "\n")
    }
}
