import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import ArgumentParser
import Foundation
import Logging

/// `actionflow` (or `actionflow tui`): the full-screen interface over the embedded project.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the full-screen interface (the default when no command is given).",
        discussion: """
        Keys: Tab switches between the phone and the inspector, arrows or h/j/k/l move, Enter \
        presses, 1-8 pick an inspector pane (8: the sequence diagram), e exports the session into --export-dir, ? shows every key, q quits. With --scenario FILE \
        the scenario is played one step per press of n, with narration, for a presenter.
        """
    )

    @Option(help: ArgumentHelp("Present a scenario (a file, or the name of a shipped scenario) one step per key press.", valueName: "file"))
    var scenario: String?

    @OptionGroup var transportOptions: TransportOptions

    @OptionGroup var interface: InterfaceOptions

    @OptionGroup var deviceOptions: DeviceOptions

    @Option(help: ArgumentHelp("Where e writes the session as a diagram, a report, a cast and a deck.", valueName: "folder"))
    var exportDir: String = InterfaceLaunch.defaultExportDirectory

    @Option(help: ArgumentHelp("Open this session file, or create it: the whole session is restored, and saved after every event.", valueName: "file"))
    var session: String?

    func run() async throws {
        try await InterfaceLaunch(
            scenario: scenario, transport: transportOptions, interface: interface.settings,
            devices: try deviceOptions.names(), sdk: try deviceOptions.profile(), exportDirectory: exportDir, session: session
        ).open()
    }
}

/// What the interface opens with, as plain values: `actionflow tui`'s parsed options, or the
/// defaults when `actionflow` runs with no argument at all. That path parses nothing, since
/// ArgumentParser's reflection over these options costs the first frame about 10 ms.
struct InterfaceLaunch {
    static let defaultExportDirectory = "."

    var scenario: String?
    /// nil: the embedded transport over the bundled project.
    var transport: TransportOptions?
    var interface = InterfaceSettings()
    var devices: [DeviceName]?
    var sdk: SDKProfile?
    var exportDirectory = InterfaceLaunch.defaultExportDirectory
    var session: String?

    @MainActor
    func open() async throws {
        // The project loads on the other core while this one starts the terminal.
        let transport = transport
        let projectLoad = Task.detached(priority: TUIApplication.backgroundPriority) {
            try transport.loadProject()
        }
        interface.startLogging()
        let terminal = try interface.startTerminal()
        if scenario == nil, session == nil {
            // The welcome screen lists the shipped stories: this thread reads them while the
            // project loads (a thread of their own cost more memory than it saved time).
            _ = ScenarioLibrary.stories.count
        }
        // A value assigned on both paths, never a `let` left unassigned where the catch throws
        // (see `ExportCommand.prepare`).
        let prepared: Result<TUIApplication, any Error>
        do {
            prepared = .success(try await prepare(project: projectLoad))
        } catch {
            prepared = .failure(error)
        }
        switch prepared {
        case .success(let application):
            try await interface.run(application, on: terminal)
        case .failure(let error):
            // What stops the launch is said on the restored screen, never under the interface.
            terminal.stop()
            if let refusal = error as? LaunchRefusal {
                throw failing("actionflow: \(refusal.message)")
            }
            throw error
        }
    }

    /// Why the interface cannot open with these options (a project, a scenario or a session file).
    private struct LaunchRefusal: Error {
        var message: String
    }

    /// The session to open, and the application over it.
    @MainActor
    private func prepare(project projectLoad: Task<ProjectConfiguration, any Error>) async throws -> TUIApplication {
        let base: ProjectConfiguration
        var presented: Scenario?
        var project: ProjectConfiguration
        var saved: SessionRecording?
        let rest = transport.restOptions
        let deviceNames = devices
        do {
            base = try await projectLoad.value
            project = base
            if let scenario {
                var parsed = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(scenario))
                DeviceOptions.apply(deviceNames, to: &parsed)
                try DeviceOptions.apply(sdk, to: &parsed)
                project = try parsed.project.validated(appliedTo: base, source: parsed.source)
                presented = parsed
            }
            if let session {
                saved = try SessionFile.load(session, transport: transport.kind.rawValue)
                try SessionFile.checkWritable(session)
                if let sdk, saved != nil {
                    throw ValidationError("--sdk \(sdk.name): the session file \(session) already holds its devices and their apps; leave --sdk out to reopen it, and change the app's SDK in the Device pane")
                }
                if let deviceNames, let saved, saved.current.devices.map(\.name) != deviceNames {
                    let held = saved.current.devices.map(\.name.rawValue).joined(separator: ",")
                    throw ValidationError("--devices \(deviceNames.map(\.rawValue).joined(separator: ",")): the session file \(session) already holds \(held); leave --devices out to reopen it")
                }
            }
        } catch {
            throw LaunchRefusal(message: "\(error)")
        }

        let logger = Logger(label: "actionflow.tui")
        var devices = presented?.initialDevices ?? EmbeddedWorld.defaultDevices(deviceNames ?? [.iphone], project: project)
        if presented == nil {
            do { try DeviceOptions.apply(sdk, to: &devices) } catch { throw LaunchRefusal(message: "\(error)") }
        }
        let driver: SessionDriver
        let summary: String
        var notice: String?
        if let rest {
            let transport = try await rest.makeTransport()
            summary = transport.summary
            let remote = RemoteEffects(transport: transport, apiKey: project.apiKey)
            if let saved {
                driver = SessionDriver(saved, remote: remote)
                notice = "session reopened over rest: the app side only; the server keeps its own world"
            } else {
                let now: Date?
                do throws(AuthFailure) {
                    // A presented scenario starts on its own project, as `run` does.
                    now = presented == nil ? try? await transport.now()
                        : try await ScenarioLibrary.prepareRemoteWorld(transport, project: project, overridesProject: presented?.project.isEmpty == false)
                } catch {
                    throw LaunchRefusal(message: "cannot start the scenario on \(transport.summary): \(error)")
                }
                driver = SessionDriver(session: .remote(project: project, devices: devices, now: now), runner: .remote(remote))
            }
        } else {
            driver = saved.map { SessionDriver($0, remote: nil) } ?? .embedded(project: project, devices: devices)
            summary = "embedded"
        }
        let options = TUIApplication.Options(monochrome: interface.monochrome, theme: interface.theme, logFile: interface.logFile, sessionFile: session, notice: notice, exportDirectory: exportDirectory,
                                               doctor: DoctorCommand.forInterface)
        return TUIApplication(driver: driver, transportSummary: summary, options: options, scenario: presented, logger: logger)
    }
}
