import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import TestSupport
import Testing

/// Every scenario shipped in `Resources/scenarios/`, played against the embedded transport.
@Suite("Shipped scenarios")
struct ShippedScenarioTests {
    static let files: [URL] = ScenarioLibrary.shippedFiles()

    @Test("at least the required scenarios ship")
    func required() {
        let names = Set(Self.files.map { $0.deletingPathExtension().lastPathComponent })
        for name in requiredScenarioNames {
            #expect(names.contains(name), "missing scenario \(name)")
        }
    }

    @Test("passes against the embedded transport", arguments: files)
    func passes(_ file: URL) async throws {
        let scenario = try ScenarioParser.load(contentsOf: file)
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        #expect(transcript.passed, "\(transcript.text())")
    }
}

/// The welcome screen's user stories in `Resources/stories/`: each a scenario that sets a story up.
@Suite("Shipped stories")
struct ShippedStoryTests {
    static let files: [URL] = ScenarioLibrary.storyFiles()

    @Test("the five stories ship, each read by the library")
    func shipped() {
        #expect(Self.files.count == 5)
        #expect(ScenarioLibrary.stories.map(\.source) == Self.files.map(\.path))
    }

    @Test("parses and passes against the embedded transport on the default project", arguments: files)
    func passes(_ file: URL) async throws {
        let scenario = try ScenarioParser.load(contentsOf: file)
        #expect(!scenario.description.isEmpty, "the welcome screen shows the description under the name")
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        #expect(transcript.passed, "\(transcript.text())")
    }
}
