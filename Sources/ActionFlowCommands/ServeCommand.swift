import ActionFlowBackend
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
        Point clients at it with FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT. --as emulator answers \
        exactly as the Firebase Auth Emulator does (no preset users, any project id, the wall \
        clock, links to http://HOST:PORT/emulator/action, no domain, expiry or rate-limit \
        checks). --as production (the default) keeps the richer simulation: Hosting and Dynamic \
        Links links, authorized domains, code expiry on a simulated clock (advance it with \
        POST /emulator/v1/projects/PROJECT/clock {"advanceSeconds": N}) and the rate limit. \
        Open http://HOST:PORT/mailbox in a browser for the sent mail and the web action \
        handler. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
        """
    )

    @Option(name: .customLong("as"), help: ArgumentHelp("How to answer: emulator (exactly the Firebase Auth Emulator) or production (the richer simulation).", valueName: "behaviour"))
    var behaviour: ServeBehaviour = .production

    @Option(help: "Address to listen on; the default keeps it to this machine.")
    var host = AuthEmulatorServer.defaultHost

    @Option(help: "TCP port (0 picks a free one).")
    var port = AuthEmulatorServer.defaultPort

    @OptionGroup var project: ProjectFileOption

    @Option(help: "Largest request body accepted, in bytes; a larger one gets 413 as soon as it is known.")
    var maxBodyBytes = EmulatorAPI.defaultMaxBodyBytes

    @Option(help: ArgumentHelp("Largest request line and headers together, in bytes (at most \(ServerLimits.parserHeaderCeiling)); a larger head gets 431.", valueName: "bytes"))
    var maxHeaderBytes = ServerLimits.defaultMaxHeaderBytes

    @Option(help: ArgumentHelp("Connections open at once; more wait until one closes. Also bounded by the open-file limit.", valueName: "count"))
    var maxConnections = ServerLimits.defaultMaxConnections

    @Option(help: ArgumentHelp("Seconds a connection may send nothing (idle keep-alive, or headers trickling in) before it is closed.", valueName: "seconds"))
    var idleTimeout: Double = Double(ServerLimits.defaultIdleTimeout.components.seconds)

    @Flag(help: "Do not log one line per request.")
    var quiet = false

    /// For `bench serve` only: the framework's floor to compare the emulator's routes with.
    @Flag(help: ArgumentHelp("Also answer GET \(AuthEmulatorServer.benchmarkStaticPath) with fixed JSON.", visibility: .hidden))
    var benchStaticRoute = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard !host.trimmingWhitespace().isEmpty else { throw ValidationError("--host is empty") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        guard (1024...ServerLimits.parserHeaderCeiling).contains(maxHeaderBytes) else {
            throw ValidationError("--max-header-bytes must be from 1024 to \(ServerLimits.parserHeaderCeiling), not \(maxHeaderBytes)")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1, not \(maxConnections)") }
        guard idleTimeout.isFinite, idleTimeout >= 0.1, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be from 0.1 to 86400 seconds, not \(idleTimeout)")
        }
    }

    func run() async throws {
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
        let server = AuthEmulatorServer(api: api, host: host, port: port, limits: limits, logger: logger, servesBenchmarkRoute: benchStaticRoute)
        let host = self.host
        let behaviour = self.behaviour
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            logger.warning("listening on \(host): other machines can reach the simulated project")
        }
        try await server.runUntilSignalled { boundPort in
            let address = EmulatorAddress(host: host, port: boundPort)
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

    static func describe(_ behaviour: ServeBehaviour) -> String {
        switch behaviour {
        case .emulator: "exactly the Firebase Auth Emulator"
        case .production: "the production-like simulation"
        }
    }
}

extension ServeBehaviour: ExpressibleByArgument {}
