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
            // The checks never suspend: yield between inputs, or these tests hold the whole
            // cooperative pool for a minute and the tests beside them cannot start.
            await Task.yield()
            let violations = await target.check(try Data(contentsOf: url))
            #expect(violations.isEmpty, "\(url.lastPathComponent): \(violations.joined(separator: "; "))")
        }
    }

    /// The number at each place a JSON seed holds one (list items past the first left alone).
    static func numberPaths(_ value: Any, _ path: [Any] = []) -> [[Any]] {
        if let number = value as? NSNumber {
            // JSON's true and false are NSNumbers of type `c`.
            return String(cString: number.objCType) == "c" ? [] : [path]
        }
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { numberPaths(object[$0]!, path + [$0]) }
        }
        if let list = value as? [Any] {
            return list.prefix(1).enumerated().flatMap { numberPaths($1, path + [$0]) }
        }
        return []
    }

    static func replacing(_ path: ArraySlice<Any>, in value: Any, with number: Any) -> Any {
        guard let step = path.first else { return number }
        if let key = step as? String, var object = value as? [String: Any], let inner = object[key] {
            object[key] = replacing(path.dropFirst(), in: inner, with: number)
            return object
        }
        if let index = step as? Int, var list = value as? [Any] {
            list[index] = replacing(path.dropFirst(), in: list[index], with: number)
            return list
        }
        return value
    }

    /// Files a user opens hold numbers the program counts, indexes and converts with. Each one
    /// at the ends of its range must be refused or read, never trapped on.
    /// (One session seed, the one with codes, mail and exchanges: a session's checks are slow.)
    @Test("every number of a session file and of the capture seeds at the ends of its range", arguments: [
        ("session", "error-paths.json"), ("capture", nil),
    ])
    func numbersAtTheirEnds(_ name: String, _ seedName: String?) async throws {
        let target = try #require(FuzzTargets.named(name))
        let extremes: [Any] = [-1, Int.max, Int.min, 1e300]
        for url in Self.inputs("Corpus", name) where seedName == nil || url.lastPathComponent == seedName {
            guard let seed = try? JSONSerialization.jsonObject(with: Data(contentsOf: url)) else { continue }
            var places = Set<String>()
            for path in Self.numberPaths(seed) {
                // Once per place, not per account, code or token a map holds (keys of 20 characters or more).
                guard places.insert(path.map { step in (step as? String).map { $0.count < 20 ? $0 : "*" } ?? "#" }.joined(separator: ".")).inserted else { continue }
                for number in extremes {
                    await Task.yield()
                    let variant = try JSONSerialization.data(withJSONObject: Self.replacing(path[...], in: seed, with: number))
                    let violations = await target.check(variant)
                    #expect(violations.isEmpty, "\(url.lastPathComponent), \(path.map { "\($0)" }.joined(separator: ".")) = \(number): \(violations.joined(separator: "; "))")
                }
            }
        }
    }
}
