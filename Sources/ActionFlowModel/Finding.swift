/// Something worth knowing about a link or about action code settings: a pitfall, a risk or a
/// protocol fact the user may not expect. `code` is stable (scripts and tests match on it);
/// `message` is for people.
public struct Finding: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case info, warning, danger

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .danger: 2
            }
        }
    }

    public var code: String
    public var severity: Severity
    public var message: String

    public init(code: String, severity: Severity, message: String) {
        self.code = code
        self.severity = severity
        self.message = message
    }
}

extension Finding {
    /// Firebase Dynamic Links stopped serving links on this day (docs/sdk-profiles.md).
    static let dynamicLinksShutdown = "2025-08-25"

    static func legacyDynamicLinks(_ subject: String) -> Finding {
        Finding(code: "legacy-dynamic-links", severity: .danger,
                message: "\(subject) uses Firebase Dynamic Links, shut down on \(dynamicLinksShutdown): such links no longer open anything. Use a Hosting link domain (linkDomain) instead.")
    }
}
