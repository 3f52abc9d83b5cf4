import ActionFlowModel
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

    /// With no arguments, straight to the interface on its defaults, without parsing: ArgumentParser
    /// builds every option of a command by reflection, which costs the first frame about 10 ms.
    static func main() async {
        StartupTrace.begin()
        guard CommandLine.arguments.count > 1 else {
            do {
                try await InterfaceLaunch().open()
            } catch {
                TUICommand.exit(withError: error)
            }
            return
        }
        await main(nil)
    }
}
