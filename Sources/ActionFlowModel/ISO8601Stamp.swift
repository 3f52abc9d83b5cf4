import Foundation

extension Date {
    /// `2026-11-23T23:10:05Z`, as `formatted(.iso8601)` writes it, without building a format
    /// style: that costs the interface's first frame, which logs, and every `serve` lookup of
    /// an account that has refreshed its token. Years outside 1000-9999 take the format style.
    public var iso8601Stamp: String {
        var seconds = time_t(timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        guard (1000...9999).contains(parts.tm_year + 1900) else { return formatted(.iso8601) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// `2026-11-23T23:10:05.123Z`, as JavaScript's `Date.toISOString()` writes it: the Auth
    /// Emulator's `lastRefreshAt` and `enrolledAt` (firebase-tools `operations.ts:2480`, `:2132`).
    public var iso8601MillisecondStamp: String {
        let milliseconds = Int((timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        let padded = String(repeating: "0", count: 3 - String(milliseconds).count) + String(milliseconds)
        return String(iso8601Stamp.dropLast()) + ".\(padded)Z"
    }
}
