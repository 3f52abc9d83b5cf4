import Foundation

/// One fuzz target: what libFuzzer calls with each input, and the invariants checked on it. The
/// same checks replay the seed corpus and every kept regression input in `swift test`
/// (`FuzzRegressionTests`), so an input that once broke an invariant keeps being checked.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the corpus, dictionary and regression folders use.
    public let name: String
    /// Invariants broken by this input; empty when all hold. A crash, a hang, a leak or a
    /// sanitizer report is a finding too (libFuzzer reports those itself).
    public let check: @Sendable (Data) async -> [String]
    /// The same, for targets with nothing asynchronous: called directly, without a task.
    public let synchronousCheck: (@Sendable (Data) -> [String])?

    init(name: String, check: @escaping @Sendable (Data) async -> [String]) {
        self.name = name
        self.check = check
        synchronousCheck = nil
    }

    init(name: String, synchronous: @escaping @Sendable (Data) -> [String]) {
        self.name = name
        check = { synchronous($0) }
        synchronousCheck = synchronous
    }

    /// Runs the check to completion, from a synchronous caller (libFuzzer's callback).
    public func checkBlocking(_ data: Data) -> [String] {
        if let synchronousCheck { return synchronousCheck(data) }
        return Blocking.run { await check(data) }
    }
}

public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        FuzzTarget(name: "links", synchronous: LinkChecks.check),
        FuzzTarget(name: "text", synchronous: TextChecks.check),
        FuzzTarget(name: "scenario", check: { await ScenarioChecks.check($0) }),
        FuzzTarget(name: "project", check: { await ProjectChecks.check($0) }),
        FuzzTarget(name: "session", check: { await SessionChecks.check($0) }),
        FuzzTarget(name: "serve", check: { await ServeChecks.check($0) }),
        FuzzTarget(name: "capture", synchronous: CaptureChecks.check),
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Collects broken invariants.
struct Violations {
    private(set) var list: [String] = []

    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { list.append(message()) }
    }

    mutating func fail(_ message: String) {
        list.append(message)
    }

    /// Every line of a written text holds nothing a terminal obeys.
    mutating func expectSafeLines(_ text: String, of name: String) {
        for line in text.split(separator: "\n") {
            if let bad = ScreenSafety.firstForbidden(in: String(line)) {
                fail("\(name)'s line \(ScreenSafety.describe(String(line))) holds \(bad)")
            }
        }
    }
}

/// Characters that must never reach the terminal (issue 12): C0/C1 controls and DEL, bidi
/// controls (embeddings, overrides, isolates, marks), and invisible format characters (zero
/// width space, word joiner, soft hyphen, BOM, tags...). ZWJ and ZWNJ stay: emoji sequences and
/// several scripts need them, and they join, they do not hide or reorder.
enum ScreenSafety {
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control:
            return true
        case .format, .unassigned:
            if scalar.value == 0x200C || scalar.value == 0x200D { return false }
            return properties.isBidiControl || properties.isDefaultIgnorableCodePoint
        default:
            return properties.isBidiControl
        }
    }

    /// The first forbidden scalar of `text`, described, or nil when the text is safe.
    static func firstForbidden(in text: String) -> String? {
        text.unicodeScalars.first(where: isForbidden).map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    static func describe(_ text: String, limit: Int = 120) -> String {
        let shown = text.unicodeScalars.prefix(limit).map { $0.escaped(asASCII: true) }.joined()
        return "\"\(shown)\"" + (text.unicodeScalars.count > limit ? "..." : "")
    }
}

/// Runs an async check to completion from libFuzzer's synchronous callback.
enum Blocking {
    static func run(_ work: @escaping @Sendable () async -> [String]) -> [String] {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value
    }

    private final class Box: @unchecked Sendable {
        // `@unchecked`: written once by the task before the semaphore is signalled, read after.
        var value: [String] = []
    }
}
