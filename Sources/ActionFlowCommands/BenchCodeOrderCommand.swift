import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow bench code-order` (hidden): writes the functions that both user stories and a
/// headless run execute, as the release link's symbol ordering file (Package.swift), so that
/// the code a session runs sits together in the program instead of across its whole text. The
/// kernel maps 64 KiB around each page a program first touches, so scattered code costs
/// resident memory far beyond its size (README, "Benchmark": peak memory).
struct BenchCodeOrderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code-order",
        abstract: "Write the release link's symbol ordering file from callgrind runs of both user stories and a headless run.",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("Where to write the ordering file.", valueName: "path"))
    var output = "Linker/actionflow.order"

    /// Waits for the screen this many times longer than `bench terminal` does.
    static let patience = 40.0

    func run() throws {
        guard let callgrind = try CallgrindCopy(), let nm = SwiftFloor.onPath("nm") else {
            throw ValidationError("code-order needs valgrind, objcopy and nm on PATH")
        }
        defer { callgrind.remove() }
        let stories = callgrind.folder + "/stories.callgrind", headless = callgrind.folder + "/headless.callgrind"
        let played = try StoryKeys.play(["/usr/bin/env"] + callgrind.command([], output: stories, extra: ["--demangle=no"]),
                                        keys: StoryKeys.script.count + StoryKeys.filler.count, patience: Self.patience)
        _ = try ChildProcess.standardError("/usr/bin/env", callgrind.command(["run", BenchCoreCommand.headlessScenario, "--quiet"], output: headless, extra: ["--demangle=no"]))
        var executed = Set<String>()
        for file in [stories, headless] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("callgrind wrote no counts to \(file)")
            }
            executed.formUnion(Self.functionNames(callgrindOutput: text))
        }
        let ownObjects = ProgramLocation.folder.map(Self.projectObjects(in:)) ?? []
        let defined = Self.orderable(nmOutput: try ChildProcess.standardOutput(nm, ["--defined-only", callgrind.executable]),
                                     projectNMOutput: try ChildProcess.standardOutput(nm, ["--defined-only"] + ownObjects))
        let timingDependent = Self.timingDependentRuntime(in: defined)
        let order = executed.filter { defined.contains($0) }.union(timingDependent).sorted()
        try Data(order.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: output))
        print("\(order.count) functions written to \(output) (\(executed.count) executed, \(timingDependent.count) of the runtime's timing-dependent paths, \(played.latencies.count) keys drawn)")
    }

    /// Parts of the runtime's C++ names whose functions a session runs only when timing says
    /// so, which valgrind's one-thread-at-a-time run may never take: two threads instantiating
    /// the same metadata wait for each other; a task that awaits one not yet finished suspends
    /// and raises that one's priority; a task resumed on another thread restores its voucher.
    /// Each of them left in the cold code cost 64 KiB.
    static let timingDependentNameParts = ["AtomicWaitQueue", "awaitSatisfyingState", "flagAsSuspended", "scalat", "Voucher"]

    /// The runtime's (not Swift's) functions among `defined` named by `timingDependentNameParts`.
    static func timingDependentRuntime(in defined: Set<String>) -> Set<String> {
        defined.filter { name in
            !name.hasPrefix("$s") && timingDependentNameParts.contains { name.contains($0) }
        }
    }

    /// Every function named in a callgrind output file (`fn=(id) name` and `cfn=(id) name`;
    /// later mentions give the id alone).
    static func functionNames(callgrindOutput text: String) -> Set<String> {
        var names = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("fn=(") || line.hasPrefix("cfn=(") {
            guard let close = line.firstIndex(of: ")") else { continue }
            let name = line[line.index(after: close)...].drop { $0 == " " }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    /// The project's Swift modules in the program: each function in a section of its own
    /// (Package.swift), so the linker can move any one of them alone.
    static let projectModules = [
        "ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport", "ActionFlowClient",
        "ActionFlowTUI", "ActionFlowServer", "ActionFlowCommands", "actionflow",
    ]

    /// The object files of `projectModules` in the build folder (the program's). A module not
    /// built there adds none, which only leaves its helpers out of the order.
    static func projectObjects(in buildFolder: URL) -> [String] {
        projectModules.flatMap { module -> [String] in
            let folder = buildFolder.appendingPathComponent(module + ".build").path
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return files.filter { $0.hasSuffix(".o") }.sorted().map { folder + "/" + $0 }
        }
    }

    /// Code symbols the linker can place one by one: those defined once in the program, and
    /// local helpers (an outlined copy, a merged destroy) whose every definition is in the
    /// project's own objects (`projectNMOutput`). A helper that a library object defines too is
    /// left out: such objects keep all their code in one section, which would come along whole.
    static func orderable(nmOutput text: String, projectNMOutput project: String) -> Set<String> {
        func codeDefinitions(_ text: String) -> (counts: [Substring: Int], data: Set<Substring>) {
            var counts: [Substring: Int] = [:]
            var data = Set<Substring>()
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 2)
                guard fields.count == 3 else { continue }
                counts[fields[2], default: 0] += 1
                if !"tTwW".contains(fields[1]) { data.insert(fields[2]) }
            }
            return (counts, data)
        }
        let program = codeDefinitions(text), own = codeDefinitions(project).counts
        return Set(program.counts.compactMap { name, count in
            guard !program.data.contains(name), count == 1 || own[name] == count else { return nil }
            return String(name)
        })
    }
}
