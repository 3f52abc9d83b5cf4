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
}
