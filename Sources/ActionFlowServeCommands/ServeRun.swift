import ActionFlowBackend
import ActionFlowCommands
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Logging

/// `actionflow serve`'s server, run by `actionflow-serve` (ServerProgram).
extension ServeCommand {
    /// The server itself, until SIGINT or SIGTERM.
    func runServer() async throws {
        let configuration = try project.load()
        let api = EmulatorAPI(configuration: configuration, behaviour: behaviour, maxBodyBytes: maxBodyBytes)
        let served = api.project
        var logger = Logger(label: "actionflow.serve") { StreamLogHandler.standardOutput(label: $0) }
        logger.logLevel = quiet ? .warning : .info
        let descriptors = ServerLimits.raiseOpenFileLimit()
        if maxConnections > descriptors {
            logger.warning("--max-connections \(maxConnections) is above what the open-file limit allows; at most \(descriptors) connections")
        }
        let limits = ServerLimits(maxHeaderBytes: maxHeaderBytes, maxConnections: min(maxConnections, max(1, descriptors)), idleTimeout: .milliseconds(Int64(idleTimeout * 1000)))
        // `validate()` has refused an --upstream that does not parse.
        let forwarder = upstream.flatMap { try? EmulatorAddress(parsing: $0) }.map { UpstreamForwarder(address: $0) }
        if inspect {
            try await runInspecting(api: api, limits: limits, forwarder: forwarder, project: configuration)
            return
        }
        let server = AuthEmulatorServer(api: api, host: host, port: port, limits: limits, logger: logger, upstream: forwarder)
        let host = self.host
        let behaviour = self.behaviour
        if !listensOnLoopbackOnly {
            logger.warning("listening on \(host): other machines can reach the simulated project")
        }
        try await server.runUntilSignalled { boundPort in
            let address = EmulatorAddress(host: host, port: boundPort)
            if let forwarder {
                FileHandle.standardOutput.write(Data("""
                actionflow serve --upstream: every request to http://\(address) goes on unchanged to the Auth Emulator at http://\(forwarder.address), whose answers the clients get
                  clients:   export \(RESTTransportConfiguration.emulatorHostVariable)=\(address)

                """.utf8))
                return
            }
            let base = EmulatorPaths.projectBase(served.projectId)
            let extras = behaviour == .production ? """
              handler:   http://\(address)\(served.actionHandlerPath)
              clock:     POST http://\(address)\(base)/clock {"advanceSeconds": 3600}

            """ : """
              links:     http://\(address)/emulator/action?mode=...&oobCode=...&apiKey=fake-api-key
              handler:   http://\(address)\(served.actionHandlerPath)  (the same codes as web pages)

            """
            FileHandle.standardOutput.write(Data("""
            actionflow serve --as \(behaviour.rawValue): \(Self.describe(behaviour)), default project \(served.projectId) on http://\(address)
              clients:   export \(RESTTransportConfiguration.emulatorHostVariable)=\(address)
              mailbox:   http://\(address)\(EmulatorAPI.mailboxPath)  (sent email, each with a link to this server's action handler)
              oobCodes:  http://\(address)\(base)/oobCodes
            \(extras)
            """.utf8))
        }
        logger.info("stopped")
    }

    /// Whether only this machine can reach the server.
    var listensOnLoopbackOnly: Bool { ["127.0.0.1", "::1", "localhost"].contains(host) }

    static func describe(_ behaviour: ServeBehaviour) -> String {
        switch behaviour {
        case .emulator: "exactly the Firebase Auth Emulator"
        case .production: "the production-like simulation"
        }
    }
}
