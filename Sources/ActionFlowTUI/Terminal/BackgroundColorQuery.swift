import ActionFlowModel
import Foundation

/// Asks the terminal for its background colour (xterm's OSC 11 query), before curses takes the
/// terminal, so the reply never reaches the keys. A Device Attributes query (DA1) follows it:
/// terminals answer in order and nearly all answer DA1, so its reply ends the wait at once,
/// with or without a colour before it.
public enum BackgroundColorQuery {
    /// `ESC ] 11 ; ? BEL` then `ESC [ c` (xterm's ctlseqs, "Operating System Commands" and "Send Device Attributes").
    static let query = Array("\u{1B}]11;?\u{07}\u{1B}[c".utf8)

    /// The colour of the first well-formed OSC 11 reply in `bytes`: `ESC ] 11 ; rgb:R/G/B`, each
    /// channel 1 to 4 hex digits (an `rgba:` reply's alpha is ignored), ended by BEL or `ESC \`.
    /// Anything else gives nil.
    public static func color(inReply bytes: [UInt8]) -> RGBColor? {
        let introducer = Array("\u{1B}]11;".utf8)
        var start = 0
        while let found = bytes.firstRange(of: introducer, from: start) {
            start = found.upperBound
            guard let end = terminator(in: bytes, from: start) else { continue }
            if let color = parseSpecification(bytes[start..<end]) { return color }
        }
        return nil
    }

    /// Where the OSC string from `start` ends: at BEL or `ESC \`; nil when it does not end, or
    /// another escape sequence starts first.
    private static func terminator(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x07: return index
            case 0x1B: return index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\\") ? index : nil
            default: index += 1
            }
        }
        return nil
    }

    /// `rgb:R/G/B` or `rgba:R/G/B/A`, each part 1 to 4 hex digits scaled to its full range.
    private static func parseSpecification(_ text: ArraySlice<UInt8>) -> RGBColor? {
        let string = String(decoding: text, as: UTF8.self)
        let parts: [Substring]
        if string.hasPrefix("rgb:") {
            parts = string.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
        } else if string.hasPrefix("rgba:") {
            parts = string.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
        } else {
            return nil
        }
        var channels: [Double] = []
        for part in parts.prefix(3) {
            guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit), let value = UInt32(part, radix: 16) else { return nil }
            channels.append(Double(value) / Double((1 << (4 * part.count)) - 1))
        }
        return RGBColor(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// Whether `bytes` hold a DA1 reply, `ESC [ ? digits and semicolons c`.
    static func containsDeviceAttributes(_ bytes: [UInt8]) -> Bool {
        bytes.indices.contains { deviceAttributesEnd(in: bytes, at: $0) != nil }
    }

    /// The index after a DA1 reply that starts at `start`, if one does.
    private static func deviceAttributesEnd(in bytes: [UInt8], at start: Int) -> Int? {
        guard start + 3 < bytes.count, bytes[start] == 0x1B, bytes[start + 1] == UInt8(ascii: "["), bytes[start + 2] == UInt8(ascii: "?") else { return nil }
        var index = start + 3
        while index < bytes.count, bytes[index] == UInt8(ascii: ";") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            index += 1
        }
        return index < bytes.count && bytes[index] == UInt8(ascii: "c") ? index + 1 : nil
    }

    /// The bytes read that are not a reply: keys typed before or while the terminal answered,
    /// which the interface then reads as keys.
    static func typedInput(in bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]"),
               let end = terminator(in: bytes, from: index + 2) {
                index = end + (bytes[end] == 0x07 ? 1 : 2)
                continue
            }
            if let end = deviceAttributesEnd(in: bytes, at: index) {
                index = end
                continue
            }
            kept.append(bytes[index])
            index += 1
        }
        return kept
    }

    /// What the terminal said: its background, if it did, and the keys typed meanwhile.
    public struct Answer: Sendable {
        public var background: RGBColor?
        public var typedInput: [UInt8]
    }

    /// Asks the terminal on `input` and `output` (both a terminal) and waits up to `timeout`
    /// milliseconds for the replies.
    public static func ask(input: Int32 = 0, output: Int32 = 1, timeout milliseconds: Int = 100) -> Answer {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return Answer(background: nil, typedInput: []) }
        var raw = saved
        // No echo of the reply, no line buffering, and Ctrl-C read as a byte for these few milliseconds.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return Answer(background: nil, typedInput: []) }
        defer { tcsetattr(input, TCSANOW, &saved) }
        guard query.withUnsafeBytes({ DescriptorWrite.all(output, $0) }) == nil else { return Answer(background: nil, typedInput: []) }
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        var answered = false
        while !answered {
            let remaining = Int32(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, remaining) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(input, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer.prefix(count)
            answered = containsDeviceAttributes(received)
        }
        // A reply cut by the timeout would otherwise be read as keys.
        if !answered { tcflush(input, TCIFLUSH) }
        return Answer(background: color(inReply: received), typedInput: answered ? typedInput(in: received) : [])
    }
}

private extension Array where Element == UInt8 {
    func firstRange(of pattern: [UInt8], from start: Int) -> Range<Int>? {
        guard start < count, let range = self[start...].firstRange(of: pattern) else { return nil }
        return range
    }
}
