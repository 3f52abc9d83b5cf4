import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

/// Every scenario shipped in `Resources/scenarios/`, played against the embedded transport.
@Suite("Shipped scenarios")
struct ShippedScenarioTests {
    static let files: [URL] = ScenarioLibrary.shippedFiles()

    @Test("at least the required scenarios ship")
    func required() {
        let names = Set(Self.files.map { $0.deletingPathExtension().lastPathComponent })
        for name in ScenarioLibrary.requiredNames {
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
