import ActionFlowClient
import ActionFlowCommands

/// What makes `actionflow-serve` run `serve` itself (ServerProgram).
public enum ServerCommands {
    @MainActor
    public static func install() {
        ServerProgram.runsHere = { serve in try await serve.runServer() }
        ServerProgram.comparesCaptures = { flow, project in await CaptureComparison.compare(flow, project: project) }
    }
}
