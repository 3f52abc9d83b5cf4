/// A rectangle of cells, in columns and rows.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// The rectangle shrunk by `by` cells on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// Splits off the first `columns` columns (left) from the rest (right).
    public func splitColumns(_ columns: Int) -> (left: Rect, right: Rect) {
        let left = min(max(0, columns), width)
        return (Rect(x: x, y: y, width: left, height: height), Rect(x: x + left, y: y, width: width - left, height: height))
    }

    /// Splits off the first `rows` rows (top) from the rest (bottom).
    public func splitRows(_ rows: Int) -> (top: Rect, bottom: Rect) {
        let top = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: top), Rect(x: x, y: y + top, width: width, height: height - top))
    }
}

/// One screen cell: a grapheme cluster and its style. The cell right of a wide character holds
/// an empty `text` (a continuation) so the grid stays aligned with the terminal's columns.
public struct Cell: Hashable, Sendable {
    public var style: CellStyle
    private var cluster: CellText

    public init(text: String = " ", style: CellStyle = .plain) {
        self.style = style
        cluster = CellText(text)
    }

    init(singleColumn scalar: Unicode.Scalar, style: CellStyle) {
        self.style = style
        cluster = CellText(singleColumn: scalar)
    }

    public var text: String {
        get { cluster.string }
        set { cluster = CellText(newValue) }
    }

    public static let blank = Cell()
    public var isContinuation: Bool { cluster.count == 0 }

    /// Whether the cell is the first half of a wide character (its continuation follows it).
    var isWide: Bool { cluster.isWide }

    /// The cluster's UTF-8, without making a `String`.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        cluster.withUTF8(body)
    }
}

/// A cell's cluster as UTF-8 kept in place, so that a frame's cells are plain memory: made,
/// copied, compared and freed without reference counting (a `String` a cell was about a third
/// of drawing a frame). It holds 39 bytes, the longest emoji sequence (35) and more; of a longer
/// cluster, which only stacked combining marks make, it keeps the whole scalars that fit, as a
/// terminal keeps only a few marks on a cell.
struct CellText: Hashable, Sendable {
    static let capacity = 39
    // Bytes 0 to 38 the UTF-8, zero after it; byte 39 the count, its top bit set when the
    // cluster takes two columns (measured once here, not at every write over it).
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    private static let wideFlag: UInt8 = 0x80

    init(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var count = utf8.count
            if count > Self.capacity {
                // Back to the start of a scalar: a continuation byte is 10xxxxxx.
                count = Self.capacity
                while count > 0, utf8[count] & 0xC0 == 0x80 { count -= 1 }
            }
            withUnsafeMutableBytes(of: &words) { bytes in
                for index in 0..<count { bytes[index] = utf8[index] }
                bytes[Self.capacity] = UInt8(count)
            }
        }
        // A wide character takes three UTF-8 bytes or more.
        if count >= 3, DisplayWidth.of(string) == 2 {
            withUnsafeMutableBytes(of: &words) { $0[Self.capacity] |= Self.wideFlag }
        }
    }

    /// A scalar of one column (`DisplayWidth.isSingleColumnScalar`), encoded straight into place.
    init(singleColumn scalar: Unicode.Scalar) {
        let value = scalar.value
        let (encoded, count): (UInt64, UInt64) = switch value {
        case ..<0x80: (UInt64(value), 1)
        case ..<0x800: (UInt64(0xC0 | value >> 6) | UInt64(0x80 | value & 0x3F) << 8, 2)
        case ..<0x10000: (UInt64(0xE0 | value >> 12) | UInt64(0x80 | value >> 6 & 0x3F) << 8 | UInt64(0x80 | value & 0x3F) << 16, 3)
        default: (UInt64(0xF0 | value >> 18) | UInt64(0x80 | value >> 12 & 0x3F) << 8 | UInt64(0x80 | value >> 6 & 0x3F) << 16
                  | UInt64(0x80 | value & 0x3F) << 24, 4)
        }
        words.0 = encoded.littleEndian
        words.4 = (count << 56).littleEndian
    }

    private var lastByte: UInt8 { withUnsafeBytes(of: words) { $0[Self.capacity] } }
    var count: Int { Int(lastByte & ~Self.wideFlag) }
    var isWide: Bool { lastByte & Self.wideFlag != 0 }

    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let count = count
        return withUnsafeBytes(of: words) { bytes in
            body(UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[0..<count]))
        }
    }

    var string: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }

    static func == (lhs: CellText, rhs: CellText) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
        hasher.combine(words.4)
    }
}

/// A styled run of text.
public struct Span: Hashable, Sendable {
    public var text: String
    public var role: Role
    public init(_ text: String, _ role: Role = .text) {
        self.text = text
        self.role = role
    }
}

/// The whole screen as a grid of cells: what `view` produces and what drivers draw. Every string
/// is sanitized before it is measured, so no input can move the cursor or change colours.
public struct Frame: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    public let palette: Palette
    /// Where the terminal cursor should be (a focused text field), nil to hide it.
    public var cursor: (x: Int, y: Int)? {
        get { cursorPosition.map { ($0.x, $0.y) } }
        set { cursorPosition = newValue.map { CursorPosition(x: $0.x, y: $0.y) } }
    }
    private var cursorPosition: CursorPosition?

    private struct CursorPosition: Hashable, Sendable {
        var x: Int
        var y: Int
    }

    public init(width: Int, height: Int, palette: Palette = Palette(mode: .full256)) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.palette = palette
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells && lhs.cursorPosition == rhs.cursorPosition
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cells)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    public func style(_ role: Role) -> CellStyle { palette.style(role) }

    /// Fills a rectangle with blanks of a role's style.
    public mutating func fill(_ rect: Rect, role: Role = .text, character: Character = " ") {
        let cell = Cell(text: String(character), style: palette.style(role))
        let clipped = clip(rect)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                self[x, y] = cell
            }
        }
    }

    /// Writes text on one row from column `x`, clipped to `clip` (the whole frame by default).
    /// Returns the column after the last cell written. Wide characters that do not fit whole
    /// become a space.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: Role = .text, clip: Rect? = nil) -> Int {
        put(text, x: x, y: y, style: palette.style(role), clip: clip)
    }

    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle, clip: Rect? = nil) -> Int {
        let area = self.clip(clip ?? bounds)
        guard y >= area.y, y < area.maxY else { return x + text.displayWidth }
        // Printable ASCII, most of a screen, is a scalar a byte: no decoding.
        if text.printableASCIICount != nil {
            return putSingleColumnScalars(text.utf8.lazy.map { Unicode.Scalar($0) }, x: x, y: y, style: style, area: area)
        }
        if DisplayWidth.singleColumnCount(text) != nil {
            return putSingleColumnScalars(text.unicodeScalars, x: x, y: y, style: style, area: area)
        }
        var column = x
        for character in text.screenSafe {
            let columns = DisplayWidth.of(character)
            if columns == 0 {
                // A lone combining mark or joiner: attach to the previous cell.
                if column - 1 >= area.x, column - 1 < area.maxX {
                    var previous = self[column - 1, y]
                    if !previous.isContinuation { previous.text.append(character) }
                    self[column - 1, y] = previous
                }
                continue
            }
            if column >= area.maxX { break }
            if column >= area.x {
                if column + columns > area.maxX {
                    self[column, y] = Cell(text: " ", style: style)
                } else {
                    clearWideRemnant(x: column, y: y)
                    self[column, y] = Cell(text: String(character), style: style)
                    if columns == 2 {
                        clearWideRemnant(x: column + 1, y: y)
                        self[column + 1, y] = Cell(text: "", style: style)
                    }
                }
            }
            column += columns
        }
        return column
    }

    /// `put` of text whose every scalar is a character of one column that needs no sanitizing
    /// (`DisplayWidth.isSingleColumnScalar`), which most of a screen is: it skips grapheme
    /// breaking, which was a third of a key's work.
    private mutating func putSingleColumnScalars(_ scalars: some Sequence<Unicode.Scalar>, x: Int, y: Int, style: CellStyle, area: Rect) -> Int {
        var column = x
        let width = width
        // Straight into the row's storage: checking and copying through the subscript at every
        // cell was most of writing one.
        cells.withUnsafeMutableBufferPointer { cells in
            let row = y * width
            for scalar in scalars {
                if column >= area.maxX { break }
                if column >= area.x {
                    Self.clearWideRemnant(cells, row: row, column: column, width: width)
                    cells[row + column] = Cell(singleColumn: scalar, style: style)
                }
                column += 1
            }
        }
        return column
    }

    /// Writes spans one after another; returns the column after the last.
    @discardableResult
    public mutating func put(_ spans: [Span], x: Int, y: Int, clip: Rect? = nil) -> Int {
        var column = x
        for span in spans {
            column = put(span.text, x: column, y: y, role: span.role, clip: clip)
        }
        return column
    }

    /// Overwriting half of a wide character leaves the other half blank, as a terminal would.
    private mutating func clearWideRemnant(x: Int, y: Int) {
        let width = width
        cells.withUnsafeMutableBufferPointer { Self.clearWideRemnant($0, row: y * width, column: x, width: width) }
    }

    private static func clearWideRemnant(_ cells: UnsafeMutableBufferPointer<Cell>, row: Int, column: Int, width: Int) {
        let current = cells[row + column]
        if current.isContinuation, column > 0 {
            cells[row + column - 1] = Cell(singleColumn: " ", style: cells[row + column - 1].style)
        } else if column + 1 < width, current.isWide {
            cells[row + column + 1] = Cell(singleColumn: " ", style: current.style)
        }
    }

    /// Text centred in a row of `rect`.
    public mutating func putCentered(_ text: String, in rect: Rect, y: Int, role: Role = .text) {
        let cut = text.truncated(toColumns: rect.width)
        let x = rect.x + max(0, (rect.width - DisplayWidth.of(cut)) / 2)
        put(cut, x: x, y: y, role: role, clip: rect)
    }

    /// A box-drawing frame around `rect`, with an optional title in the top edge.
    public mutating func box(_ rect: Rect, title: String? = nil, role: Role = .border, titleRole: Role = .title, rounded: Bool = true) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let style = palette.style(role)
        let (tl, tr, bl, br) = rounded ? ("╭", "╮", "╰", "╯") : ("┌", "┐", "└", "┘")
        for (y, left, right) in [(rect.y, tl, tr), (rect.maxY - 1, bl, br)] {
            put(left, x: rect.x, y: y, style: style)
            putRepeated("─", count: rect.width - 2, x: rect.x + 1, y: y, style: style, clip: bounds)
            put(right, x: rect.maxX - 1, y: y, style: style)
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            put("│", x: rect.x, y: y, style: style)
            put("│", x: rect.maxX - 1, y: y, style: style)
        }
        if let title, rect.width > 6 {
            let label = " " + title.truncated(toColumns: rect.width - 6) + " "
            put(label, x: rect.x + 2, y: rect.y, role: titleRole)
        }
    }

    /// A horizontal rule across `rect` at row `y`.
    public mutating func rule(in rect: Rect, y: Int, role: Role = .border) {
        putRepeated("─", count: rect.width, x: rect.x, y: y, style: palette.style(role), clip: rect)
    }

    /// `put` of a one-column scalar `count` times, without making the string.
    private mutating func putRepeated(_ scalar: Unicode.Scalar, count: Int, x: Int, y: Int, style: CellStyle, clip: Rect) {
        let area = self.clip(clip)
        guard y >= area.y, y < area.maxY else { return }
        putSingleColumnScalars(repeatElement(scalar, count: max(0, count)), x: x, y: y, style: style, area: area)
    }

    private func clip(_ rect: Rect) -> Rect {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.maxX), y1 = min(height, rect.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The frame as plain text, one line per row, trailing spaces kept (for tests and captures).
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            for x in 0..<width { line += self[x, y].text }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// Word wrapping to a column width, measuring display columns; words longer than a line are cut.
public enum TextWrap {
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        // Most narration and labels are one short line of plain ASCII with single spaces:
        // that line itself, without splitting it into words.
        if text.utf8.count <= width, isOneCleanASCIILine(text) { return [text] }
        return wrappedLines(text, width: width)
    }

    /// Printable ASCII, no space at either end and none doubled: what wrapping keeps as it is.
    static func isOneCleanASCIILine(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F, !(byte == 0x20 && (previous == 0 || previous == 0x20)) else { return false }
            previous = byte
        }
        return previous != 0x20
    }

    static func wrappedLines(_ text: String, width: Int) -> [String] {
        // Text of single-column scalars and line breaks splits on bytes, as it would on
        // characters (no carriage return or combining mark can join a break or a space to
        // another scalar), and needs no sanitizing: splitting by characters was a sixth of a key.
        let simple = text.unicodeScalars.allSatisfy { $0 == "\n" || DisplayWidth.isSingleColumnScalar($0.value) }
        let paragraphs = simple
            ? text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
            : text.split(separator: "\n", omittingEmptySubsequences: false)
        var result: [String] = []
        for paragraph in paragraphs {
            var line = ""
            var lineWidth = 0
            let words = simple
                ? paragraph.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { Substring($0) }
                : paragraph.split(separator: " ", omittingEmptySubsequences: true)
            for word in words {
                var word = simple ? String(word) : String(word).screenSafe
                var wordWidth = DisplayWidth.of(word)
                if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                    result.append(line)
                    line = ""
                    lineWidth = 0
                }
                if wordWidth > width {
                    // A word wider than a line starts one (the line was ended above) and fills
                    // whole lines; its last piece goes on like a word.
                    var pieces = hardLines(word, width: width)
                    word = pieces.removeLast()
                    wordWidth = DisplayWidth.of(word)
                    result.append(contentsOf: pieces)
                }
                if lineWidth > 0 {
                    line += " "
                    lineWidth += 1
                }
                line += word
                lineWidth += wordWidth
            }
            result.append(line)
        }
        return result
    }

    /// Splits text into lines of at most `width` columns without looking for spaces (for URLs,
    /// tokens and JSON). A line ends after the last `/`, `?`, `&`, `=`, `#`, `,`, `;` or `%XX`
    /// escape that fits when that keeps at least half of it; else at the last place that is
    /// neither between two digits nor inside a `%XX` escape; only a line with no such place is
    /// cut where it is full.
    public static func hardLines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        if DisplayWidth.singleColumnCount(text) != nil {
            // A character a scalar, a column each.
            let scalars = Array(text.unicodeScalars)
            return lineRanges(count: scalars.count, width: width, columns: { _ in 1 },
                              ascii: { scalars[$0].isASCII ? UInt8(scalars[$0].value) : nil })
                .map { String(String.UnicodeScalarView(scalars[$0])) }
        }
        let characters = Array(text.screenSafe)
        let widths = characters.map(DisplayWidth.of)
        return lineRanges(count: characters.count, width: width, columns: { widths[$0] }, ascii: { characters[$0].asciiValue })
            .map { String(characters[$0]) }
    }

    /// The lines of `hardLines` as ranges of the text's units (scalars or characters).
    private static func lineRanges(count: Int, width: Int, columns: (Int) -> Int, ascii: (Int) -> UInt8?) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        while start < count {
            // As many units as fit, and at least one (a unit wider than a line gets it alone).
            var end = start
            var used = 0
            while end < count, end == start || used + columns(end) <= width {
                used += columns(end)
                end += 1
            }
            if end < count { end = lineBreak(after: start, full: end, ascii: { $0 >= 0 && $0 < count ? ascii($0) : nil }) }
            lines.append(start..<end)
            start = end
        }
        return lines.isEmpty ? [0..<0] : lines
    }

    private static let breakAfter: Set<UInt8> = Set("/?&=#,;".utf8)

    /// Where a line that starts at `start` and is full at `full` ends (see `hardLines`).
    private static func lineBreak(after start: Int, full: Int, ascii: (Int) -> UInt8?) -> Int {
        func isDigit(_ index: Int) -> Bool { ascii(index).map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        func isHex(_ index: Int) -> Bool { ascii(index).map { Character(Unicode.Scalar($0)).isHexDigit } ?? false }
        func escapeStarts(_ index: Int) -> Bool { index >= 0 && ascii(index) == UInt8(ascii: "%") && isHex(index + 1) && isHex(index + 2) }
        // A break before `index`: the line ends with the unit at index - 1.
        func splitsNothing(_ index: Int) -> Bool {
            !(isDigit(index - 1) && isDigit(index)) && !escapeStarts(index - 1) && !escapeStarts(index - 2)
        }
        var fallback: Int? = nil
        var index = full
        while index > start {
            if splitsNothing(index) {
                let afterSeparator = ascii(index - 1).map { breakAfter.contains($0) && ascii(index) != $0 } ?? false
                if afterSeparator || escapeStarts(index - 3), (index - start) * 2 >= full - start {
                    return index
                }
                if fallback == nil { fallback = index }
            }
            index -= 1
        }
        return fallback ?? full
    }
}
