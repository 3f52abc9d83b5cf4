import ActionFlowModel
import Foundation

/// Where a captured answer departs from what Firebase documents: a send that the documented
/// server refuses (docs/file-formats.md, "How the simulated project answers"), answered 2xx or
/// with another error; an action code spent again after a call spent it (codes are single use:
/// firebase-tools `src/emulator/auth/operations.ts:844,1090,1475` at a786bda7 delete a code
/// as it is spent).
struct CaptureDepartures: Sendable {
    /// Codes spent by calls answered 2xx, and the operation that spent each: the latest only,
    /// so that live traffic stays in bounded memory.
    private var spent: [(code: String, call: String)] = []
    static let rememberedCodes = 1024

    static let code = "capture.departs-from-firebase"

    /// The departures of `operation` (`call` names it, `call 3`), given the settings checks' findings about it.
    mutating func check(_ operation: CapturedOperation, call: String, findings: [Finding]) -> [Finding] {
        var departures: [Finding] = []
        let answered = operation.status == 0 ? nil : operation.error.map { "\(operation.status) \($0)" } ?? "\(operation.status)"
        let answeredCode = operation.error.map { String($0.prefix { $0 != " " && $0 != ":" }) }
        if let answered, let refusal = findings.lazy.compactMap({ finding in SettingsFindings.serverErrors[finding.code].map { (finding, $0) } }).first,
           answeredCode != refusal.1 {
            var message = "Firebase answers \(refusal.1) to this \(operation.operation) (\(refusal.0.code); docs/file-formats.md, \"How the simulated project answers\"); the captured server answered \(answered)."
            if operation.toEmulator, (200..<300).contains(operation.status) {
                message += " The Auth Emulator checks none of the domain, link-domain and MISSING_* errors (firebase-tools src/emulator/auth/operations.ts, sendOobCode): production would refuse it"
                    + (SettingsFindings.dependOnTheProject.contains(refusal.0.code) ? " unless the project authorizes it." : ".")
            }
            departures.append(Finding(code: Self.code, severity: .warning, message: message))
        }
        if (200..<300).contains(operation.status), ["resetPassword", "update", "signInWithEmailLink"].contains(operation.operation),
           CapturedCall.spendsCode(operation.operation, setsPassword: operation.operation == "resetPassword" && operation.setsPassword), let code = operation.oobCode {
            if let earlier = spent.first(where: { $0.code == code }) {
                departures.append(Finding(code: Self.code, severity: .danger,
                                          message: "This \(operation.operation) spent an action code that \(earlier.call) had already spent, and the captured server accepted it: Firebase's codes are single use (firebase-tools src/emulator/auth/operations.ts:844,1090,1475 delete a code as it is spent) and it answers INVALID_OOB_CODE."))
            } else {
                spent.append((code, call))
                if spent.count > Self.rememberedCodes { spent.removeFirst(spent.count - Self.rememberedCodes) }
            }
        }
        return departures
    }
}
