import ActionFlowModel
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `actionflow-bench inspect`: `inspect --jsonl -` against the plain Python urllib inspector of
/// `../shared/bench/`, both as whole processes on the same generated input, in the same run.
struct BenchInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Links per second of inspect --jsonl against the Python reference inspector, and its memory over a long stream."
    )

    @Option(help: "Links in the timed input.")
    var links = 100_000

    @Option(help: "Timed runs of each program (the median is reported).")
    var runs = 5

    @Option(name: .customLong("memory-lines"), help: "Lines streamed through one process to check that its memory stays flat.")
    var memoryLines = 1_000_000

    @Option(help: ArgumentHelp("The Python reference inspector.", valueName: "path"))
    var reference = "../shared/bench/python_inspect_reference.py"

    /// The floor: twice the Python reference's links per second.
    static let target = 2.0

    func validate() throws {
        guard (1...10_000_000).contains(links) else { throw ValidationError("--links must be between 1 and 10000000, not \(links)") }
        guard (1...99).contains(runs) else { throw ValidationError("--runs must be between 1 and 99, not \(runs)") }
        guard (0...100_000_000).contains(memoryLines) else { throw ValidationError("--memory-lines must be between 0 and 100000000, not \(memoryLines)") }
    }

    func run() throws {
        let executable = try ChildProcess.besideThis("actionflow")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("links.txt").path
        try Data(Self.corpus(count: links).joined(separator: "\n").appending("\n").utf8).write(to: URL(fileURLWithPath: input))

        print("inspect (whole processes, \(links) links, median of \(runs), the two programs taking turns)")
        let hasReference = FileManager.default.fileExists(atPath: reference)
        // Alternating runs, so a machine that slows down part way slows both programs alike.
        var ownSeconds: [Double] = []
        var pythonSeconds: [Double] = []
        for _ in 0..<runs {
            ownSeconds.append(try ChildProcess.time(executable, ["inspect", "--jsonl", "-"], stdin: input))
            if hasReference { pythonSeconds.append(try ChildProcess.time("/usr/bin/env", ["python3", reference], stdin: input)) }
        }
        let ownMedian = BenchCoreCommand.median(ownSeconds)
        let ownRate = Double(links) / ownMedian
        var line = "  inspect --jsonl -: \(Int(ownRate.rounded())) links/s (\(String(format: "%.3f", ownMedian)) s)"
        if hasReference {
            let pythonRate = Double(links) / BenchCoreCommand.median(pythonSeconds)
            let ratio = ownRate / pythonRate
            line += "; Python reference: \(Int(pythonRate.rounded())) links/s; ratio \(String(format: "%.1f", ratio))x (target \(Int(Self.target))x: \(ratio >= Self.target ? "meets" : "below"))"
        } else {
            line += "; Python reference not found at \(reference) (--reference)"
        }
        print(line)
        var single: [Double] = []
        for _ in 0..<runs { single.append(try ChildProcess.time(executable, ["inspect", "--jsonl", "-", "--jobs", "1"], stdin: input)) }
        let singleMedian = BenchCoreCommand.median(single)
        print("  with --jobs 1 (one thread; the figure above uses the default, a worker per core up to four): \(Int((Double(links) / singleMedian).rounded())) links/s (\(String(format: "%.3f", singleMedian)) s)")
        // Memory in a run of its own: sampling it takes CPU time from the timed runs.
        let sampled = try ChildProcess.run(executable, ["inspect", "--jsonl", "-"], stdin: input)
        print("  peak memory over \(links) links: \(String(format: "%.1f", sampled.peakMiB)) MiB")
        if memoryLines > 0 {
            let streamed = try ChildProcess.run(executable, ["inspect", "--jsonl", "-"], feeding: memoryLines, from: Self.corpus(count: min(memoryLines, 10_000)))
            print("  peak memory over \(memoryLines) streamed lines: \(String(format: "%.1f", streamed.peakMiB)) MiB (\(Int((Double(memoryLines) / streamed.seconds).rounded())) links/s)")
        }
    }

    /// A reproducible mix of what a mail log holds: action links, Hosting and Dynamic Links
    /// wrappers, continue URLs inside and outside the allow-list, and lines that are no link.
    static func corpus(count: Int) -> [String] {
        let modes = ["resetPassword", "verifyEmail", "signIn", "recoverEmail", "verifyAndChangeEmail"]
        let continueURLs = ["https://www.example.com/articles/", "https://evil.example.net/x?y=", "https://demo-actionflow.web.app/a?b="]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SplitMix64(seed: 1)
        return (0..<count).map { index in
            let code = String((0..<40).map { _ in alphabet.randomElement(using: &generator)! })
            let continueURL = (continueURLs.randomElement(using: &generator)! + String(index)).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let action = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=\(modes.randomElement(using: &generator)!)&oobCode=\(code)&apiKey=AIzaSyFakeKey123&continueUrl=\(continueURL)&lang=en"
            let wrapped = action.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            switch index % 4 {
            case 1: return "https://demo-actionflow.firebaseapp.com/__/auth/links?link=\(wrapped)"
            case 2: return "https://example.page.link/?link=\(wrapped)&apn=com.example.android&ibi=com.example.ios"
            case 3 where index % 40 == 3: return "not a link \(index)"
            default: return action
            }
        }
    }
}

/// A small seeded generator, so every run inspects the same input.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
