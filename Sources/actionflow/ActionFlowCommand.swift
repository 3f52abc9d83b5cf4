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

    /// With no arguments, straight to the interface: parsing as the root would first build every
    /// command's arguments, which costs the first frame several milliseconds.
    static func main() async {
        if CommandLine.arguments.count == 1 {
            await TUICommand.main([])
        } else {
            await main(nil)
        }
    }
}
