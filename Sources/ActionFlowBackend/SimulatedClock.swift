import ActionFlowModel
import Foundation

/// The project's time. Starts at the configuration's `clockStart` and moves only when told,
/// so every run of a demo or scenario sees the same times and the same expiries.
public struct SimulatedClock: Sendable, Hashable, Codable {
    /// The times the clock shows: 1970 to the end of 9999, what the wire's four-digit-year
    /// stamps, tokens' whole seconds and the interface's status line can all write.
    public static let range = Date(timeIntervalSince1970: 0)...Date.endOf9999

    public let start: Date
    public private(set) var now: Date

    /// A start outside `range` is taken to its nearest end (project checks refuse one first).
    public init(start: Date) {
        let start = min(max(start, Self.range.lowerBound), Self.range.upperBound)
        self.start = start
        self.now = start
    }


    /// Moves forward; time never runs backwards, so expired codes stay expired.
    public mutating func advance(by seconds: TimeInterval) throws(AuthFailure) {
        guard seconds.isFinite, seconds >= 0 else {
            throw AuthFailure.server(.invalidArgument, detail: "the simulated clock only moves forward by a finite number of seconds, got \(seconds)")
        }
        guard seconds <= Self.range.upperBound.timeIntervalSince(now) else {
            throw AuthFailure.server(.invalidArgument, detail: "the simulated clock stops at \(Self.range.upperBound.iso8601Stamp); it is \(now.iso8601Stamp), so it cannot move \(seconds) seconds")
        }
        now = now.addingTimeInterval(seconds)
    }

    public mutating func reset() {
        now = start
    }
}

/// SplitMix64: a small, fast generator whose output depends only on its seed, so two fresh
/// projects hand out the same ids, codes and tokens for the same calls.
struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable, Codable {
    private var state: UInt64

    /// A seed derived from text with FNV-1a (Swift's `Hasher` is randomised per process).
    init(seedText: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seedText.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    private static let urlSafeAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let alphanumericAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// `count` characters of URL-safe base64 (the emulator's oobCodes are 54 of them).
    mutating func urlSafeString(count: Int) -> String {
        string(count: count, alphabet: Self.urlSafeAlphabet)
    }

    /// Letters and digits, like Firebase user ids.
    mutating func alphanumericString(count: Int) -> String {
        string(count: count, alphabet: Self.alphanumericAlphabet)
    }

    private mutating func string(count: Int, alphabet: [UInt8]) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        var bits: UInt64 = 0
        var available = 0
        for index in 0..<count {
            if available < 6 {
                bits = next()
                available = 64
            }
            bytes[index] = alphabet[Int(bits & 63) % alphabet.count]
            bits >>= 6
            available -= 6
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
