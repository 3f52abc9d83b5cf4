import ActionFlowModel
import Foundation

/// Asks the terminal for its background colour (xterm's OSC 11 query) without waiting for the
/// answer: the first frame is drawn at once in the dark theme, and `ReplyFilter` takes the
/// answer out of the keys when it comes, so that the interface recolours itself. A Device
/// Attributes query (DA1) follows it: terminals answer in order and nearly all answer DA1, so its
/// reply says the terminal has answered, with or without a colour before it.
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

    /// Sends the query to `output`, the terminal on `input` set first not to echo (the reply
    /// would be printed) nor to hold input for a line: curses, which starts next, keeps it so.
    /// Returns whether the query went out.
    public static func send(input: Int32 = 0, output: Int32 = 1) -> Bool {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { return false }
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(input, TCSANOW, &settings) == 0 else { return false }
        return query.withUnsafeBytes({ DescriptorWrite.all(output, $0) }) == nil
    }

    /// Takes the terminal's replies out of what is read as keys, as they come (a reply can span
    /// reads): the background colour when one is given, and whether the terminal has answered.
    /// A terminal that never answers costs nothing: after `patience` seconds the filter stands
    /// aside, and a sequence it was holding is given back as keys.
    public struct ReplyFilter: Sendable {
        public private(set) var background: RGBColor?
        public private(set) var finished = false
        private var pending: [UInt8] = []
        private let deadline: Date
        static let patience: TimeInterval = 2

        public init(now: Date = Date()) {
            deadline = now.addingTimeInterval(Self.patience)
        }

        /// `units` without the replies in them.
        public mutating func filter(_ units: [InputUnit], now: Date = Date()) -> [InputUnit] {
            guard !finished else { return units }
            var kept: [InputUnit] = []
            for unit in units {
                guard case .code(let code) = unit, code < 0x80 else {
                    kept += flush() + [unit]
                    continue
                }
                let byte = UInt8(code)
                if pending.isEmpty {
                    if byte == 0x1B { pending = [byte] } else { kept.append(unit) }
                    continue
                }
                pending.append(byte)
                if pending.count == 2, byte != UInt8(ascii: "]"), byte != UInt8(ascii: "[") {
                    kept += flush()
                    continue
                }
                if let complete = Self.reply(pending) {
                    if complete == .deviceAttributes {
                        finished = true
                    } else if let color = BackgroundColorQuery.color(inReply: pending) {
                        background = color
                    }
                    pending = []
                } else if pending.count > 64 || (pending.count == 3 && pending[1] == UInt8(ascii: "[") && byte != UInt8(ascii: "?")) {
                    kept += flush()
                }
            }
            // A lone Esc at the end of a read is a key; an answer's start keeps its place.
            if pending == [0x1B] { kept += flush() }
            if now > deadline {
                kept += flush()
                finished = true
            }
            return kept
        }

        /// What is held, given back as keys.
        private mutating func flush() -> [InputUnit] {
            defer { pending = [] }
            return pending.map { .code(UInt32($0)) }
        }

        private enum Reply { case operatingSystemCommand, deviceAttributes }

        /// Which whole reply `bytes` are: an OSC string ended by BEL or `ESC \`, or a DA1.
        private static func reply(_ bytes: [UInt8]) -> Reply? {
            guard bytes.count >= 3 else { return nil }
            if bytes[1] == UInt8(ascii: "]") {
                if bytes.last == 0x07 { return .operatingSystemCommand }
                if bytes.count >= 4, bytes[bytes.count - 2] == 0x1B, bytes.last == UInt8(ascii: "\\") { return .operatingSystemCommand }
                return nil
            }
            return BackgroundColorQuery.containsDeviceAttributes(bytes) ? .deviceAttributes : nil
        }
    }
}

private extension Array where Element == UInt8 {
    func firstRange(of pattern: [UInt8], from start: Int) -> Range<Int>? {
        guard start < count, let range = self[start...].firstRange(of: pattern) else { return nil }
        return range
    }
}
