/// A key press (or paste, click or resize) as the UI sees it, decoded from terminal input.
public enum Key: Hashable, Sendable {
    case character(Character)
    /// Ctrl plus a letter, as the lowercase letter (`.control("c")` is Ctrl-C).
    case control(Character)
    case alt(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// Text the terminal delivered as a bracketed paste (sanitized by whoever shows it).
    case paste(String)
    case mouse(x: Int, y: Int, button: MouseButton)
    case resize

    public enum MouseButton: Hashable, Sendable {
        case left, scrollUp, scrollDown
    }

    /// The key's name in hints and the help overlay.
    public var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .control(let c): "Ctrl-\(c.uppercased())"
        case .alt(let c): "Alt-\(c)"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        case .paste: "paste"
        case .mouse: "click"
        case .resize: "resize"
        }
    }
}

/// One unit of raw input: a character code, a curses function-key code or a mouse report.
public enum InputUnit: Hashable, Sendable {
    case code(UInt32)
    /// A function key as curses reports it, already mapped out of curses' numbering.
    case functionKey(Key)
    case mouse(x: Int, y: Int, button: Key.MouseButton)
    case resize
}

/// Turns raw input into keys. Stateful across batches, because a bracketed paste
/// (`ESC [200~ ... ESC [201~`) can arrive in several reads.
public struct KeyDecoder: Sendable {
    private var pending: [UInt32] = []
    private var pasting = false
    private var pasted: [UInt32] = []

    private static let pasteStart: [UInt32] = Array("\u{1B}[200~".unicodeScalars.map(\.value))
    private static let pasteEnd: [UInt32] = Array("\u{1B}[201~".unicodeScalars.map(\.value))

    public init() {}

    /// True while a paste has started but not ended: the caller should keep reading.
    public var isInsidePaste: Bool { pasting }

    /// Decodes a batch of input read together. An ESC alone at the end of a batch is the Esc key.
    public mutating func feed(_ units: [InputUnit]) -> [Key] {
        var keys: [Key] = []
        for unit in units {
            switch unit {
            case .code(let code):
                pending.append(code)
                keys += drainPending(final: false)
            case .functionKey(let function):
                keys += drainPending(final: true)
                keys.append(function)
            case .mouse(let x, let y, let button):
                keys += drainPending(final: true)
                keys.append(.mouse(x: x, y: y, button: button))
            case .resize:
                keys += drainPending(final: true)
                keys.append(.resize)
            }
        }
        keys += drainPending(final: true)
        return keys
    }

    private mutating func drainPending(final: Bool) -> [Key] {
        var keys: [Key] = []
        while !pending.isEmpty {
            if pasting {
                pasted.append(pending.removeFirst())
                if pasted.count >= Self.pasteEnd.count, Array(pasted.suffix(Self.pasteEnd.count)) == Self.pasteEnd {
                    pasted.removeLast(Self.pasteEnd.count)
                    let scalars = pasted.compactMap(Unicode.Scalar.init)
                    keys.append(.paste(String(String.UnicodeScalarView(scalars))))
                    pasted = []
                    pasting = false
                }
                continue
            }
            if pending[0] == 0x1B {
                if pending.count == 1 {
                    if final {
                        pending.removeAll()
                        keys.append(.escape)
                    }
                    return keys
                }
                if Self.pasteStart.starts(with: pending) {
                    if pending.count == Self.pasteStart.count {
                        pending.removeAll()
                        pasting = true
                        continue
                    }
                    if !final { return keys }
                }
                if pending.count >= 2, pending[1] != 0x5B, pending[1] != 0x4F, let scalar = Unicode.Scalar(pending[1]) {
                    // ESC followed by a character is Alt plus that character.
                    pending.removeFirst(2)
                    keys.append(.alt(Character(scalar)))
                    continue
                }
                if !final, pending.count < 8 { return keys }
                // An unknown escape sequence: drop it whole rather than type its bytes.
                let end = pending.dropFirst(2).firstIndex { (0x40...0x7E).contains($0) } ?? (pending.count - 1)
                pending.removeFirst(min(pending.count, end + 1))
                continue
            }
            keys.append(Self.key(forCode: pending.removeFirst()))
        }
        return keys
    }

    private static func key(forCode code: UInt32) -> Key {
        switch code {
        case 9: .tab
        case 10, 13: .enter
        case 8, 127: .backspace
        case 1...26: .control(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        default: Unicode.Scalar(code).map { .character(Character($0)) } ?? .character("\u{FFFD}")
        }
    }
}
