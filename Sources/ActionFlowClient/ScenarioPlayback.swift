import ActionFlowModel
import Foundation

/// Plays a scenario one step at a time against a live runtime, for a presenter who wants one
/// keypress per step. Steps and expectations mean exactly what they mean in `ScenarioRunner`.
public actor ScenarioPlayback {
    public nonisolated let scenario: Scenario
    /// Narration lines already behind the previous expectation (`narrates` looks after them).
    private var narratedBeforeExpectation = 0

    public init(_ scenario: Scenario) {
        self.scenario = scenario
    }

    /// The app state a scenario starts from (as `ScenarioRunner.run` builds it).
    public nonisolated static func initialState(for scenario: Scenario, project: ProjectConfiguration, now: Date?) -> AppState {
        var state = AppState(device: scenario.device, settings: scenario.settings, project: project, locale: scenario.locale)
        if let base = scenario.continueURLBase { state.continueURLBase = base }
        state.now = now
        return state
    }

    /// One line per step, for the presenter's outline.
    public nonisolated var stepSummaries: [String] {
        scenario.steps.map { $0.action.summary }
    }

    /// Plays step `index` (0-based): sends its event and waits for every effect, or checks its
    /// expectations. Returns whether it held and a one-line result.
    public func play(stepAt index: Int, on runtime: AppRuntime) async -> (passed: Bool, summary: String) {
        guard scenario.steps.indices.contains(index) else { return (false, "no step \(index + 1)") }
        let step = scenario.steps[index]
        let state = await runtime.state
        switch ScenarioRunner.resolve(step.action, in: state) {
        case .failure(let problem):
            return (false, "✗ step \(step.number): \(problem.message)")
        case .success(.expectations(let expectations)):
            let recent = Array(state.narration[min(narratedBeforeExpectation, state.narration.count)...])
            narratedBeforeExpectation = state.narration.count
            for expectation in expectations {
                let (met, detail) = ScenarioRunner.check(expectation, in: state, recent: recent)
                if !met {
                    return (false, "✗ expected \(UntrustedText.sanitize(expectation.description)), but \(detail)")
                }
            }
            return (true, "✓ " + expectations.map { UntrustedText.sanitize($0.description) }.joined(separator: ", "))
        case .success(.event(let event)):
            await runtime.process(event)
            return (true, "step \(step.number): \(UntrustedText.sanitize(step.action.summary))")
        }
    }
}
