import ActionFlowClient
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import ArgumentParser
import Foundation
import Logging

/// `actionflow serve`: the simulated project over HTTP with the Auth Emulator's API, so any
/// emulator client (the Firebase SDKs, firebase-admin, curl, a browser) can use it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the simulated project over HTTP with the Firebase Auth Emulator's API.",
        discussion: """
        Point clients at it with FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT. Beyond the emulator it \
        enforces authorized domains, code expiry on a simulated clock (advance it with \
        POST /emulator/v1/projects/PROJECT/clock {"advanceSeconds": N}), link styles and the \
        rate limit. Open http://HOST:PORT/ in a browser for the mailbox and the web action \
        handler. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
        """
    )

    @Option(help: "Address to listen on; the default keeps it to this machine.")
    var host = AuthEmulatorServer.defaultHost

    @Option(help: "TCP port (0 picks a free one).")
    var port = AuthEmulatorServer.defaultPort

    @OptionGroup var project: ProjectFileOption

    @Option(help: "Largest request body accepted, in bytes.")
    var maxBodyBytes = EmulatorAPI.defaultMaxBodyBytes

    @Flag(help: "Do not log one line per request.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--host is empty") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
    }

    func run() async throws {
        let configuration = try project.load()
        let served = ServedProject(configuration)
        let embedded = EmbeddedTransport(configuration: configuration)
        let api = EmulatorAPI(transport: embedded, project: served, maxBodyBytes: maxBodyBytes)
        var logger = Logger(label: "actionflow.serve") { StreamLogHandler.standardOutput(label: $0) }
        logger.logLevel = quiet ? .warning : .info
        let server = AuthEmulatorServer(api: api, host: host, port: port, logger: logger)
        let host = self.host
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            logger.warning("listening on \(host): other machines can reach the simulated project")
        }
        try await server.runUntilSignalled { boundPort in
            let address = EmulatorAddress(host: host, port: boundPort)
            FileHandle.standardOutput.write(Data("""
            actionflow serve: project \(served.projectId) on http://\(address)
              clients:   export \(RESTTransportConfiguration.emulatorHostVariable)=\(address)
              mailbox:   http://\(address)/  (sent email, each with a link to this server's action handler)
              handler:   http://\(address)\(served.actionHandlerPath)
              oobCodes:  http://\(address)\(EmulatorPaths.projectBase(served.projectId))/oobCodes
              clock:     POST http://\(address)\(EmulatorPaths.projectBase(served.projectId))/clock {"advanceSeconds": 3600}

            """.utf8))
        }
        logger.info("stopped")
    }
}
