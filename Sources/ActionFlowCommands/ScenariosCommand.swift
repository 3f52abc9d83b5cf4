import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow scenarios`: every shipped scenario and welcome-screen story, with what it shows.
struct ScenariosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "List the shipped scenarios and stories, each with what it shows.",
        discussion: """
        Each name works with `actionflow --scenario NAME`, `actionflow run NAME` and `actionflow \
        export NAME`. Stories are the welcome screen's; scenarios are presented step by step.
        """
    )

    @Flag(name: .long, help: "One JSON object: {scenarios: [{name, kind, description, steps}]}.")
    var json = false

    struct Entry: Encodable {
        var name: String
        var kind: String
        var description: String
        var steps: Int
    }

    /// Every shipped scenario and story, and the files that could not be read (with why).
    static func entries() -> (entries: [Entry], unreadable: [String]) {
        var entries: [Entry] = []
        var unreadable: [String] = []
        for (kind, files) in [("scenario", ScenarioLibrary.shippedFiles()), ("story", ScenarioLibrary.storyFiles())] {
            for file in files {
                let name = file.deletingPathExtension().lastPathComponent
                do {
                    let scenario = try ScenarioParser.load(contentsOf: file)
                    let description = scenario.description.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    entries.append(Entry(name: name, kind: kind, description: description, steps: scenario.steps.count))
                } catch {
                    unreadable.append("\(name): \(error)")
                }
            }
        }
        return (entries, unreadable)
    }

    func run() throws {
        let (entries, unreadable) = Self.entries()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            let data = try encoder.encode(["scenarios": entries])
            print(String(decoding: data, as: UTF8.self))
        } else {
            let width = entries.map(\.name.count).max() ?? 0
            for kind in ["scenario", "story"] {
                print(kind == "scenario" ? "Scenarios (actionflow --scenario NAME presents one step by step):" : "\nStories (the welcome screen's, also by name):")
                for entry in entries where entry.kind == kind {
                    print("  " + entry.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + UntrustedText.sanitize(entry.description))
                }
            }
        }
        if !unreadable.isEmpty {
            throw failing("cannot read: " + unreadable.joined(separator: "; "))
        }
    }
}
