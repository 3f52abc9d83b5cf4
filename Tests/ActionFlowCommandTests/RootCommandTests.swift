@testable import actionflow
import Testing

@Suite("The root command routes options without a command to the interface")
struct RootCommandTests {
    @Test("the interface's options open the interface; the root's own and any command do not", arguments: [
        (["--devices", "iphone,laptop"], true),
        (["--session", "demo.json"], true),
        (["--monochrome"], true),
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

    @Test("routed options parse as the interface's")
    func routedOptionsParse() throws {
        let arguments = ["--devices", "iphone,laptop", "--monochrome"]
        #expect(ActionFlowCommand.opensInterface(arguments))
        let command = try ActionFlowCommand.parseAsRoot(["tui"] + arguments)
        #expect(command is TUICommand)
    }
}
