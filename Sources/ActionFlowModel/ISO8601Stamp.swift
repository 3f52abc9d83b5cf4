import Foundation

extension Date {
    /// The last second of 9999: the latest time a four-digit-year stamp writes.
    public static let endOf9999 = Date(timeIntervalSince1970: 253_402_300_799)
    /// The first second of year 1, in seconds since 1970.
    private static let startOfYear1: TimeInterval = -62_135_596_800

    /// Whole seconds since 1970, rounded down. A time outside the years 1-9999, which only
    /// hostile input makes (a session file, a server's answer), is taken to the nearest end,
    /// so that no conversion of a time traps.
    public var wholeSecondsSince1970: Int {
        let seconds = timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return 0 }
        return Int(min(max(seconds, Self.startOfYear1), Self.endOf9999.timeIntervalSince1970))
    }

    /// Milliseconds since 1970, rounded, within the same years.
    public var millisecondsSince1970: Int {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        guard !milliseconds.isNaN else { return 0 }
        return Int(min(max(milliseconds, Self.startOfYear1 * 1000), Self.endOf9999.timeIntervalSince1970 * 1000 + 999))
    }

    /// `2026-11-23T23:10:05Z`, as `formatted(.iso8601)` writes it, without building a format
    /// style: that costs the interface's first frame, which logs, and every `serve` lookup of
    /// an account that has refreshed its token. Years outside 1000-9999 take the format style,
    /// which also writes any far or non-finite time a hostile input makes.
    public var iso8601Stamp: String {
        let whole = timeIntervalSince1970.rounded(.down)
        // -30_610_224_000 is the first second of year 1000.
        guard whole >= -30_610_224_000, whole <= Self.endOf9999.timeIntervalSince1970 else { return formatted(.iso8601) }
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        guard (1000...9999).contains(parts.tm_year + 1900) else { return formatted(.iso8601) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// `2026-11-23T23:10:05.123Z`, as JavaScript's `Date.toISOString()` writes it: the Auth
    /// Emulator's `lastRefreshAt` and `enrolledAt` (firebase-tools `operations.ts:2480`, `:2132`).
    public var iso8601MillisecondStamp: String {
        let stamp = iso8601Stamp
        // Outside years 1000-9999, whole seconds.
        guard stamp.utf8.count == 20 else { return stamp }
        let milliseconds = Int((timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        let padded = String(repeating: "0", count: 3 - String(milliseconds).count) + String(milliseconds)
        return String(stamp.dropLast()) + ".\(padded)Z"
    }
}
