import ActionFlowCommands

/// What makes `actionflow-serve` run `serve` and `bench serve` itself (ServerProgram).
public enum ServerCommands {
    @MainActor
    public static func install() {
        ServerProgram.runsHere = { command in
            switch command {
            case .serve(let serve): try await serve.runServer()
            case .benchServe(let bench): try await bench.runBenchmark()
            }
        }
    }
}
