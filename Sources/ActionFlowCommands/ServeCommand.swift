import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import ActionFlowTUI
import ArgumentParser

/// `actionflow serve`: the simulated project over HTTP with the Auth Emulator's API, so any
/// emulator client (the Firebase SDKs, firebase-admin, curl, a browser) can use it.
public struct ServeCommand: AsyncParsableCommand, Sendable {
    public static let configuration = CommandConfiguration(
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
    public var behaviour: ServeBehaviour = .production

    @Option(help: "Address to listen on; the default keeps it to this machine.")
    public var host = ServeDefaults.host

    @Option(help: "TCP port (0 picks a free one).")
    public var port = ServeDefaults.port

    @OptionGroup public var project: ProjectFileOption

    @Option(help: "Largest request body accepted, in bytes; a larger one gets 413 as soon as it is known.")
    public var maxBodyBytes = ServeDefaults.maxBodyBytes

    @Option(help: ArgumentHelp("Largest request line and headers together, in bytes (at most \(ServeDefaults.parserHeaderCeiling)); a larger head gets 431.", valueName: "bytes"))
    public var maxHeaderBytes = ServeDefaults.maxHeaderBytes

    @Option(help: ArgumentHelp("Connections open at once; more wait until one closes. Also bounded by the open-file limit.", valueName: "count"))
    public var maxConnections = ServeDefaults.maxConnections

    @Option(help: ArgumentHelp("Seconds a connection may send nothing (idle keep-alive, or headers trickling in) before it is closed.", valueName: "seconds"))
    public var idleTimeout: Double = Double(ServeDefaults.idleTimeout.components.seconds)

    @Option(help: ArgumentHelp("Forward every request unchanged to the Auth Emulator at HOST:PORT (firebase-tools' own) and answer with its replies, instead of the simulated project.", valueName: "host:port"))
    public var upstream: String?

    @Flag(help: "Do not log one line per request.")
    public var quiet = false

    @Flag(help: "Open the interface on the server's traffic: each call, action link and email shown as the server answers it. q stops the server.")
    public var inspect = false

    @Option(help: ArgumentHelp("With --inspect: when the server stops, write every exchange seen to this session file (replay and export read it).", valueName: "session"))
    public var save: String?

    @Flag(help: "With --save: replace a file that is already there (never the project file).")
    public var force = false

    @OptionGroup(title: "With --inspect") var interface: InterfaceOptions

    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard !host.trimmingWhitespace().isEmpty else { throw ValidationError("--host is empty") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        guard (1024...ServeDefaults.parserHeaderCeiling).contains(maxHeaderBytes) else {
            throw ValidationError("--max-header-bytes must be from 1024 to \(ServeDefaults.parserHeaderCeiling), not \(maxHeaderBytes)")
        }
        if let upstream {
            do throws(EmulatorAddress.ParseError) {
                _ = try EmulatorAddress(parsing: upstream)
            } catch {
                throw ValidationError("--upstream: \(error)")
            }
        }
        if save != nil, !inspect { throw ValidationError("--save writes what --inspect watched: add --inspect") }
        if let save {
            do throws(OutputFile.Refused) {
                try OutputFile.check(save, inputs: [project.projectFile].compactMap { $0 }, force: force, option: "--save")
            } catch {
                throw ValidationError("--save \(error)")
            }
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1, not \(maxConnections)") }
        guard idleTimeout.isFinite, idleTimeout >= 0.1, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be from 0.1 to 86400 seconds, not \(idleTimeout)")
        }
    }

    public init() {}

    /// In `actionflow-serve`, the server; elsewhere that program takes over this process.
    public func run() async throws {
        try await ServerProgram.run(self)
    }
}

extension ServeBehaviour: ExpressibleByArgument {}

extension ServeCommand {
    /// `--inspect`'s interface options, for the application it opens.
    public var interfaceOptions: TUIApplication.Options {
        TUIApplication.Options(monochrome: interface.monochrome, theme: interface.theme, logFile: interface.logFile)
    }

    /// `--inspect`: logs go to `--log-file` from here on, and the terminal is started (or the
    /// program stops, saying why).
    @MainActor
    public func startInspectorTerminal() throws -> CursesTerminal {
        interface.settings.startLogging()
        return try interface.settings.startTerminal()
    }
}
