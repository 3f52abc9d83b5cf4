@testable import ActionFlowCommands
import ActionFlowClient
import TestSupport
import Testing

@Suite("The root command routes options without a command to the interface")
struct RootCommandTests {
    @Test("the interface's options open the interface; the root's own and any command do not", arguments: [
        (["--devices", "iphone,laptop"], true),
        (["--session", "demo.json"], true),
        (["--monochrome"], true),
        (["--theme", "light"], true),
        (["--help"], false),
        (["-h"], false),
        (["--generate-completion-script", "bash"], false),
        (["--generate-completion-script=zsh"], false),
        (["run", "password-reset-in-app"], false),
        (["tui", "--monochrome"], false),
        (["help", "run"], false),
        ([], false),
    ])
    func routing(arguments: [String], opensInterface: Bool) {
        #expect(ActionFlowCommand.opensInterface(arguments) == opensInterface)
    }

    @Test("the interface runs with no arguments, `tui` or its options first, and no other command does", arguments: [
        ([], true),
        (["tui", "--monochrome"], true),
        (["--devices", "iphone,laptop"], true),
        (["--help"], false),
        (["serve"], false),
        (["inspect", "--jsonl", "-"], false),
        (["run", "password-reset-in-app", "--quiet"], false),
    ])
    func runsInterface(arguments: [String], runsInterface: Bool) {
        #expect(ActionFlowCommand.runsInterface(arguments) == runsInterface)
    }

    @Test("--theme takes dark or light; without it the terminal is asked; any other value is refused by name")
    func theme() throws {
        #expect(try #require(ActionFlowCommand.parseAsRoot(["tui", "--theme", "light"]) as? TUICommand).interface.settings.theme == .light)
        #expect(try #require(ActionFlowCommand.parseAsRoot(["replay", "password-reset-in-app", "--theme", "dark"]) as? ReplayCommand).interface.settings.theme == .dark)
        #expect(try #require(ActionFlowCommand.parseAsRoot(["tui"]) as? TUICommand).interface.settings.theme == nil)
        do {
            _ = try ActionFlowCommand.parseAsRoot(["tui", "--theme", "sepia"])
            Issue.record("--theme sepia was accepted")
        } catch {
            let message = ActionFlowCommand.message(for: error)
            #expect(message.contains("sepia") && message.contains("dark") && message.contains("light"), "\(message)")
        }
    }

    @Test("routed options parse as the interface's")
    func routedOptionsParse() throws {
        let arguments = ["--devices", "iphone,laptop", "--monochrome"]
        #expect(ActionFlowCommand.opensInterface(arguments))
        let command = try ActionFlowCommand.parseAsRoot(["tui"] + arguments)
        #expect(command is TUICommand)
    }
}

@Suite("`run SCENARIO [--quiet]` skips the parser")
struct RunLaunchTests {
    @Test("the plain form is read as the parser reads it", arguments: [
        ["run", "password-reset-in-app"],
        ["run", "password-reset-in-app", "--quiet"],
        ["run", "--quiet", "scenarios/demo.yaml"],
    ])
    func plainForm(arguments: [String]) throws {
        let launch = try #require(RunLaunch(plainArguments: arguments))
        let parsed = try #require(try ActionFlowCommand.parseAsRoot(arguments) as? RunCommand)
        #expect(launch.scenario == parsed.scenario)
        #expect(launch.quiet == parsed.quiet)
        #expect(launch.transport == nil && launch.devices == nil && launch.save == nil)
    }

    @Test("any other form goes through the parser, with its errors and help", arguments: [
        ["run"],
        ["run", "--quiet"],
        ["run", "-q", "x"],
        ["run", "x", "--transport", "rest"],
        ["run", "x", "--save", "s.json"],
        ["run", "x", "y"],
        ["run", "help"],
        ["run", "--help"],
        ["run", "-"],
        ["inspect", "x"],
        ["run", "x", "--quiet", "--quiet"],
    ])
    func otherForms(arguments: [String]) {
        #expect(RunLaunch(plainArguments: arguments) == nil)
    }
}

@Suite("What a newcomer finds")
struct NewcomerTests {
    @Test("every command's help reads as plain text: no stray backslash, no empty discussion")
    func helpTexts() {
        for command in ActionFlowCommand.configuration.subcommands + [ActionFlowCommand.self] {
            let help = ActionFlowCommand.helpMessage(for: command, columns: 100)
            #expect(!help.contains("\\\n") && !help.contains(" \\ "), "\(command): \(help)")
        }
    }

    @Test("the root help names the interface's options and where the scenarios are listed")
    func rootHelp() {
        let help = ActionFlowCommand.helpMessage(columns: 100)
        for option in ["--scenario", "--theme", "--devices", "--session", "actionflow scenarios", "--version"] {
            #expect(help.contains(option), "\(option) is not in the root help")
        }
    }

    @Test("--version is the root's own option, not the interface's")
    func version() {
        #expect(!ActionFlowCommand.opensInterface(["--version"]))
        #expect(ActionFlowCommand.configuration.version == ActionFlowCommand.version)
    }

    @Test("scenarios lists every shipped scenario and story, with a description")
    func scenarios() throws {
        let (entries, unreadable) = ScenariosCommand.entries()
        #expect(unreadable.isEmpty)
        #expect(entries.count == ScenarioLibrary.shippedFiles().count + ScenarioLibrary.storyFiles().count)
        for name in requiredScenarioNames {
            let entry = entries.first { $0.name == name }
            #expect(entry?.kind == "scenario" && entry?.description.isEmpty == false && (entry?.steps ?? 0) > 0, "\(name)")
        }
        #expect(entries.filter { $0.kind == "story" }.count == ScenarioLibrary.stories.count)
    }
}

extension ActionFlowCommand {
    /// Whether these arguments (the program's name left out) run the interface: none at all,
    /// `tui`, or the interface's options without a command, as `main()` routes them.
    static func runsInterface(_ arguments: [String]) -> Bool {
        arguments.isEmpty || arguments.first == TUICommand.configuration.commandName || opensInterface(arguments)
    }
}
