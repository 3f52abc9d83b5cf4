import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// The project configuration loader (a whole file, and overrides of the bundled project), and
/// the simulated project built from what it accepts. Invariants:
/// - a refused file gets one terminal-safe line naming a line of the file (when it names one);
/// - an accepted project passes its own validation and survives a JSON round trip (`PUT config`);
/// - it works: a user signs up, asks for a password reset to an authorized domain, and the
///   emailed link inspects to the mailed code with an authorized continue URL.
enum ProjectChecks {
    static let baseProject = try? ProjectConfigLoader.loadDefault()

    static func check(_ data: Data) async -> [String] {
        guard let yaml = String(data: data, encoding: .utf8) else { return [] }  // The loader reads UTF-8 only.
        var violations = Violations()
        for base in [nil, baseProject] {
            let project: ProjectConfiguration
            do {
                project = try ProjectConfigLoader.parse(yaml, fileName: "fuzz.yaml", base: base)
            } catch {
                ScenarioChecks.checkError(error.description, line: error.line, yaml: yaml, into: &violations)
                continue
            }
            let problems = project.validate()
            violations.expect(problems.isEmpty, "an accepted project has problems: \(problems.map(\.description))")
            do {
                let again = try JSONDecoder().decode(ProjectConfiguration.self, from: JSONEncoder().encode(project))
                violations.expect(again == project, "the project changes through JSON")
            } catch {
                violations.fail("the project does not go through JSON: \(error)")
            }
            await exercise(project, into: &violations)
        }
        return violations.list
    }

    static func exercise(_ project: ProjectConfiguration, into violations: inout Violations) async {
        let transport = EmbeddedTransport(configuration: project)
        let email = "fuzz-user@example.com"
        _ = try? await transport.perform(.signUp(SignUpRequest(email: email, password: "fuzz-password-1")))
        let continueURL = project.authorizedDomains.first.map { "https://\($0)/fuzz?from=reset" }
        do {
            _ = try await transport.perform(.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: email, continueUrl: continueURL), locale: nil))
        } catch {
            return  // Refusing (enumeration protection, rate limits, a domain the server refuses) is allowed.
        }
        guard let message = try? await transport.mailbox().last else {
            violations.fail("a password reset was accepted but no email was sent")
            return
        }
        do {
            let anatomy = try LinkInspector.inspect(message.link, authorizedDomains: project.authorizedDomains)
            violations.expect(anatomy.oobCode == message.oobCode, "the emailed link carries code \(anatomy.oobCode ?? "nil"), the email says \(message.oobCode ?? "nil")")
            violations.expect(anatomy.operation == .passwordReset, "the emailed link is a \(anatomy.operation), not a password reset")
            if continueURL != nil {
                violations.expect(anatomy.continueUrlAuthorized == true, "the emailed link's continue URL \(anatomy.continueUrl ?? "nil") is not authorized")
            }
        } catch {
            violations.fail("the emailed link \(ScreenSafety.describe(message.link)) does not inspect: \(error.description)")
        }
    }
}
