import ArgumentParser

@main
struct ActionFlowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actionflow",
        abstract: "Explore how Firebase Authentication email actions carry state through a continue URL.",
        subcommands: [
            InspectCommand.self,
            MatrixCommand.self,
            RunCommand.self,
            ReplayCommand.self,
            ExportCommand.self,
            BenchCommand.self,
            ServeCommand.self,
            TUICommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )
}
