import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// Every project and tenant `serve` hosts. As the Auth Emulator does, any project id a request
/// names is created on demand, from the default project's configuration with the id replaced
/// (in `emulator` behaviour: no users, the wall clock); tenants named in a request are created
/// on demand with everything enabled.
final class ProjectRegistry: @unchecked Sendable {
    // `@unchecked`: the dictionaries are only touched under `lock`; each transport locks itself.
    private let lock = NSLock()
    let behaviour: ServeBehaviour
    let defaultProjectId: String
    private var template: ProjectConfiguration
    private var projects: [String: EmbeddedTransport]
    private var tenants: [String: [String: EmbeddedTransport]] = [:]

    init(defaultTransport: EmbeddedTransport, behaviour: ServeBehaviour) {
        let configuration = defaultTransport.configuration
        self.behaviour = behaviour
        defaultProjectId = configuration.projectId
        template = configuration
        projects = [configuration.projectId: defaultTransport]
    }

    var defaultProject: EmbeddedTransport { project(defaultProjectId) }

    /// Every project's mailbox as it is now, by project id (tenants' aside).
    func mailboxes() -> [String: [MailMessage]] {
        let all = lock.withLock { projects }
        return all.mapValues { $0.snapshot.mailbox }
    }

    func project(_ projectId: String) -> EmbeddedTransport {
        lock.withLock {
            if let existing = projects[projectId] { return existing }
            var configuration = template
            configuration.projectId = projectId
            if behaviour == .emulator { configuration.clockStart = Date() }
            let created = EmbeddedTransport(project: SimulatedProject(configuration: configuration, behaviour: behaviour))
            projects[projectId] = created
            return created
        }
    }

    /// The tenant's project, created with everything enabled when it does not exist.
    func tenant(_ tenantId: String, of projectId: String) -> EmbeddedTransport {
        if let existing = lock.withLock({ tenants[projectId]?[tenantId] }) { return existing }
        return createTenant(TenantSettings(tenantId: tenantId), of: projectId, replacing: false)
    }

    func existingTenant(_ tenantId: String, of projectId: String) -> EmbeddedTransport? {
        lock.withLock { tenants[projectId]?[tenantId] }
    }

    /// Creates (or, with `replacing`, recreates) a tenant; its users and codes start empty, its
    /// switches follow the parent project's.
    @discardableResult
    func createTenant(_ settings: TenantSettings, of projectId: String, replacing: Bool) -> EmbeddedTransport {
        let parent = project(projectId)
        let parentProject = parent.snapshot
        return lock.withLock {
            if !replacing, let existing = tenants[projectId]?[settings.tenantId] { return existing }
            var project = SimulatedProject(configuration: parentProject.configuration, behaviour: behaviour, tenant: settings)
            project.updateOptions(allowDuplicateEmails: parentProject.options.allowDuplicateEmails, enableImprovedEmailPrivacy: parentProject.options.enableImprovedEmailPrivacy)
            let created = EmbeddedTransport(project: project)
            tenants[projectId, default: [:]][settings.tenantId] = created
            return created
        }
    }

    /// A tenant id for `POST /v2/projects/P/tenants` (28 letters and digits, as the emulator makes them).
    func newTenantId() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<28).map { _ in alphabet.randomElement() ?? "A" })
    }

    func tenants(of projectId: String) -> [TenantSettings] {
        let transports = lock.withLock { Array((tenants[projectId] ?? [:]).values) }
        return transports.compactMap { $0.snapshot.tenant }.sorted { $0.tenantId < $1.tenantId }
    }

    func deleteTenant(_ tenantId: String, of projectId: String) -> Bool {
        lock.withLock { tenants[projectId]?.removeValue(forKey: tenantId) != nil }
    }

    /// The project's emulator switches change, and so do its tenants'.
    func updateOptions(of projectId: String, allowDuplicateEmails: Bool?, enableImprovedEmailPrivacy: Bool?) -> EmulatorOptions {
        let transports = lock.withLock { Array((tenants[projectId] ?? [:]).values) }
        for tenant in transports {
            try? tenant.withProject { (project) throws(AuthFailure) in
                project.updateOptions(allowDuplicateEmails: allowDuplicateEmails, enableImprovedEmailPrivacy: enableImprovedEmailPrivacy)
            }
        }
        return (try? project(projectId).withProject { (project) throws(AuthFailure) in
            project.updateOptions(allowDuplicateEmails: allowDuplicateEmails, enableImprovedEmailPrivacy: enableImprovedEmailPrivacy)
            return project.options
        }) ?? EmulatorOptions(allowDuplicateEmails: false, enableImprovedEmailPrivacy: false)
    }

    /// `PUT .../config`: the project restarts with `configuration` (same behaviour); its tenants
    /// go. The default project's configuration is also the template for projects created later.
    func apply(_ configuration: ProjectConfiguration) async throws(AuthFailure) -> Date {
        let transport = project(configuration.projectId)
        let now = try await transport.applyProject(configuration)
        lock.withLock {
            tenants[configuration.projectId] = nil
            if configuration.projectId == defaultProjectId { template = configuration }
        }
        return now
    }
}
