import Foundation
import FuzzChecks
import Testing

/// Replays through each fuzz target's checks every seed of its corpus (`Fuzz/Corpus/TARGET`) and
/// every input a fuzzer once found breaking something (`Fuzz/Regressions/TARGET`, named after
/// what it broke). A crash here is a regression as much as a reported violation.
@Suite("Fuzz seeds and regressions hold every invariant")
struct FuzzRegressionTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, _ target: String) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("every target has seeds and a dictionary", arguments: FuzzTargets.all.map(\.name))
    func seeded(_ target: String) {
        #expect(!Self.inputs("Corpus", target).isEmpty)
        #expect(FileManager.default.fileExists(atPath: Self.fuzzFolder.appendingPathComponent("Dictionaries/\(target).dict").path))
    }

    @Test("seeds and found inputs hold", arguments: FuzzTargets.all.map(\.name))
    func replay(_ name: String) async throws {
        let target = try #require(FuzzTargets.named(name))
        for url in Self.inputs("Regressions", name) + Self.inputs("Corpus", name) {
            let violations = await target.check(try Data(contentsOf: url))
            #expect(violations.isEmpty, "\(url.lastPathComponent): \(violations.joined(separator: "; "))")
        }
    }
}
