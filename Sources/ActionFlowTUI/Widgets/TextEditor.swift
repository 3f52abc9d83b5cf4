import ActionFlowModel

/// A one-line text field's contents and cursor, with the editing keys people expect:
/// ←/→, Home/End (Ctrl-A/Ctrl-E), Backspace, Delete (Ctrl-D), Ctrl-U/Ctrl-K (kill to start/end),
/// Ctrl-W (delete word) and paste. Pasted text is sanitized and flattened to one line.
public struct TextEditor: Hashable, Sendable {
    public private(set) var characters: [Character]
    /// Index in `characters` before which typing inserts.
    public private(set) var cursor: Int
    /// The whole text is selected, as a prefilled field's is when editing starts: what is typed
    /// or pasted replaces it, a deleting key clears it, a moving key keeps it and moves.
    public private(set) var selectsAll: Bool

    /// `selected`: the text starts selected (a prefilled field opened for editing).
    public init(_ text: String = "", selected: Bool = false) {
        characters = Array(UntrustedText.sanitize(text))
        cursor = characters.count
        selectsAll = selected && !characters.isEmpty
    }

    public var text: String { String(characters) }

    /// Applies an editing key; returns false for keys a text field does not handle.
    public mutating func apply(_ key: Key) -> Bool {
        if selectsAll {
            selectsAll = false
            switch key {
            case .character, .paste, .backspace, .control("h"), .delete, .control("d"), .control("u"), .control("k"), .control("w"):
                characters = []
                cursor = 0
                if case .character = key {} else if case .paste = key {} else { return true }
            default: break
            }
        }
        switch key {
        case .character(let character):
            insert(String(character))
        case .paste(let text):
            // Line breaks in a paste become spaces; everything else is made visible.
            insert(UntrustedText.sanitize(text.replacingEvery("\r\n", with: " ").replacingEvery("\n", with: " ")))
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
        case .right, .control("f"):
            cursor = min(characters.count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = characters.count
        case .backspace, .control("h"):
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            characters.removeLast(characters.count - cursor)
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    private mutating func insert(_ text: String) {
        let safe = Array(UntrustedText.sanitize(text))
        characters.insert(contentsOf: safe, at: cursor)
        cursor += safe.count
    }

    /// The part of the text to show in `width` columns so the cursor stays visible, and the
    /// cursor's column within it.
    public func visible(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        var start = 0
        var columnsBeforeCursor = characters[0..<cursor].reduce(0) { $0 + DisplayWidth.of($1) }
        while columnsBeforeCursor > width - 1, start < cursor {
            columnsBeforeCursor -= DisplayWidth.of(characters[start])
            start += 1
        }
        var shown = ""
        var used = 0
        for character in characters[start...] {
            let columns = DisplayWidth.of(character)
            if used + columns > width { break }
            shown.append(character)
            used += columns
        }
        return (shown, columnsBeforeCursor)
    }
}
