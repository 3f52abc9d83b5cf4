import ActionFlowModel
import Foundation

/// A frame as an SVG picture: each cell's text placed on its own column, so that the picture
/// does not depend on the viewer's font widths; text stays text (selectable, searchable), in
/// the order the terminal shows it; box-drawing lines are drawn as lines, so that borders join
/// as a terminal joins them, with their characters kept as transparent text.
public enum FrameSVG {
    /// A monospace font's advance is 0.6 em: 9 pixels at 15.
    public static let cellWidth = 9
    public static let cellHeight = 18
    static let fontSize = 15
    /// From a row's top to the text's baseline (DejaVu Sans Mono's ascent, 0.928 em, centred).
    public static let baseline = 14
    static let margin = 12
    /// A line of the caption, and the room a bold 15-pixel sans-serif letter takes at most
    /// (DejaVu Sans Bold's widest common letters are 0.64 em).
    static let captionLineHeight = 20
    static let captionLetterWidth = 10
    /// The space below the caption's last line.
    static let captionGap = 10

    /// The picture of `region` of `frame`, with `caption` over it and as its title. A caption
    /// wider than the picture (a phone alone) goes on over more lines rather than past its edge.
    public static func document(_ frame: Frame, region: Rect, caption: String, colors: ShownColors) -> String {
        let width = region.width * cellWidth + 2 * margin
        let captionLines = wrapped(UntrustedText.sanitize(caption), letters: max(10, (width - 2 * margin) / captionLetterWidth))
        let captionHeight = captionLines.count * captionLineHeight + captionGap
        let height = region.height * cellHeight + 2 * margin + captionHeight
        let background = colors.defaultBackground.description
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
        font-family="'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace" font-size="\(fontSize)" xml:space="preserve">
        <title>\(Markup.escaped(caption))</title>
        <style>text{white-space:pre;unicode-bidi:bidi-override;direction:ltr}</style>
        <rect width="\(width)" height="\(height)" fill="\(background)"/>

        """
        for (index, line) in captionLines.enumerated() {
            out += "<text class=\"caption\" x=\"\(margin)\" y=\"\(margin + 16 + index * captionLineHeight)\" font-family=\"'DejaVu Sans', Helvetica, Arial, sans-serif\" font-weight=\"bold\" fill=\"\(colors.defaultForeground.description)\">\(Markup.escaped(line))</text>\n"
        }
        out += "<g class=\"screen\" transform=\"translate(\(margin),\(margin + captionHeight))\">\n"
        for y in region.y..<region.maxY {
            out += row(frame, y: y, region: region, colors: colors)
        }
        out += "</g>\n</svg>\n"
        return out
    }

    /// `text` in lines of at most `letters` characters, broken at spaces (a longer word alone on its line).
    static func wrapped(_ text: String, letters: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 1 + word.count > letters {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty && !lines.isEmpty ? [] : [line])
    }

    /// One row: its backgrounds, its box-drawing lines, then its text runs.
    private static func row(_ frame: Frame, y: Int, region: Rect, colors: ShownColors) -> String {
        let top = (y - region.y) * cellHeight
        var backgrounds = ""
        // One path per colour and dash a row: a border is hundreds of cells.
        var lines: [(color: String, dashed: Bool, d: String)] = []
        var texts = ""
        var boxText: [(column: Int, text: String)] = []
        var run: (start: Int, columns: [Int], text: String, style: CellStyle)?

        func flush() {
            guard let current = run else { return }
            run = nil
            let trimmed = current.text.unicodeScalars.count - current.text.unicodeScalars.reversed().prefix { $0 == " " }.count
            guard trimmed > 0 else { return }
            let scalars = Array(current.text.unicodeScalars.prefix(trimmed))
            let positions = current.columns.prefix(trimmed).map { String($0 * cellWidth) }.joined(separator: " ")
            texts += "<text x=\"\(positions)\" y=\"\(top + baseline)\"\(attributes(current.style, colors: colors))>\(Markup.escaped(String(String.UnicodeScalarView(scalars))))</text>\n"
            if current.style.underline {
                let width = (current.columns[trimmed - 1] - current.start + 1) * cellWidth
                texts += "<rect x=\"\(current.start * cellWidth)\" y=\"\(top + baseline + 2)\" width=\"\(width)\" height=\"1\" fill=\"\(colors.colors(of: current.style).foreground)\"/>\n"
            }
        }

        var backgroundRun: (start: Int, end: Int, color: String)?
        func flushBackground() {
            if let current = backgroundRun {
                backgrounds += "<rect x=\"\(current.start * cellWidth)\" y=\"\(top)\" width=\"\((current.end - current.start) * cellWidth)\" height=\"\(cellHeight)\" fill=\"\(current.color)\"/>\n"
            }
            backgroundRun = nil
        }

        for x in region.x..<region.maxX {
            let column = x - region.x
            let cell = frame[x, y]
            let drawn = colors.colors(of: cell.style)
            if drawn.background != colors.defaultBackground {
                let color = drawn.background.description
                if let current = backgroundRun, current.color == color, current.end == column {
                    backgroundRun?.end = column + 1
                } else {
                    flushBackground()
                    backgroundRun = (column, column + 1, color)
                }
            } else {
                flushBackground()
            }
            if cell.isContinuation { continue }
            let scalars = cell.text.unicodeScalars
            let isWide = x + 1 < frame.width && frame[x + 1, y].isContinuation
            if let box = BoxDrawing.strokes(of: cell.text) {
                flush()
                let color = drawn.foreground.description
                if let index = lines.firstIndex(where: { $0.color == color && $0.dashed == box.dashed }) {
                    lines[index].d += box.path(column: column, top: top)
                } else {
                    lines.append((color, box.dashed, box.path(column: column, top: top)))
                }
                boxText.append((column, cell.text))
            } else if scalars.count == 1, let scalar = scalars.first, scalar.value <= 0xFFFF, !isWide {
                // One scalar of the basic plane, one column: a position each, the same in every renderer.
                if let current = run, current.style == cell.style {
                    run?.columns.append(column)
                    run?.text.unicodeScalars.append(scalar)
                } else {
                    flush()
                    run = (column, [column], String(scalar), cell.style)
                }
            } else {
                // A cluster (emoji, combining marks) or a wide character: one position for the whole.
                flush()
                texts += "<text x=\"\(column * cellWidth)\" y=\"\(top + baseline)\"\(attributes(cell.style, colors: colors))>\(Markup.escaped(cell.text))</text>\n"
            }
        }
        flush()
        flushBackground()
        if !boxText.isEmpty {
            let positions = boxText.map { String($0.column * cellWidth) }.joined(separator: " ")
            texts += "<text x=\"\(positions)\" y=\"\(top + baseline)\" fill-opacity=\"0\">\(Markup.escaped(boxText.map(\.text).joined()))</text>\n"
        }
        let paths = lines.map { line in
            "<path d=\"\(line.d)\" stroke=\"\(line.color)\" stroke-width=\"1.2\" fill=\"none\"\(line.dashed ? " stroke-dasharray=\"3 2\"" : "")/>\n"
        }
        return backgrounds + paths.joined() + texts
    }

    private static func attributes(_ style: CellStyle, colors: ShownColors) -> String {
        var out = " fill=\"\(colors.colors(of: style).foreground)\""
        if style.bold { out += " font-weight=\"bold\"" }
        return out
    }
}

/// The box-drawing characters the interface draws, as the strokes from the cell's centre to
/// its edges that a terminal draws for them.
struct BoxDrawing {
    var up = false, down = false, left = false, right = false
    var dashed = false
    var rounded = false

    static func strokes(of text: String) -> BoxDrawing? {
        switch text {
        case "─": BoxDrawing(left: true, right: true)
        case "╌": BoxDrawing(left: true, right: true, dashed: true)
        case "│": BoxDrawing(up: true, down: true)
        case "╎": BoxDrawing(up: true, down: true, dashed: true)
        case "┌": BoxDrawing(down: true, right: true)
        case "┐": BoxDrawing(down: true, left: true)
        case "└": BoxDrawing(up: true, right: true)
        case "┘": BoxDrawing(up: true, left: true)
        case "╭": BoxDrawing(down: true, right: true, rounded: true)
        case "╮": BoxDrawing(down: true, left: true, rounded: true)
        case "╰": BoxDrawing(up: true, right: true, rounded: true)
        case "╯": BoxDrawing(up: true, left: true, rounded: true)
        case "├": BoxDrawing(up: true, down: true, right: true)
        case "┤": BoxDrawing(up: true, down: true, left: true)
        case "┬": BoxDrawing(down: true, left: true, right: true)
        case "┴": BoxDrawing(up: true, left: true, right: true)
        case "┼": BoxDrawing(up: true, down: true, left: true, right: true)
        default: nil
        }
    }

    /// The strokes as SVG path data.
    func path(column: Int, top: Int) -> String {
        let (width, height) = (Double(FrameSVG.cellWidth), Double(FrameSVG.cellHeight))
        let (cellLeft, cellTop) = (Double(column) * width, Double(top))
        let (centreX, centreY) = (cellLeft + width / 2, cellTop + height / 2)
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        var d: [String] = []
        if rounded {
            // A quarter circle's corner, as terminals draw ╭╮╰╯.
            let vertical = up ? cellTop : cellTop + height
            let horizontal = right ? cellLeft + width : cellLeft
            d.append("M\(number(centreX)) \(number(vertical))L\(number(centreX)) \(number(centreY + (up ? -2 : 2)))Q\(number(centreX)) \(number(centreY)) \(number(centreX + (right ? 2 : -2))) \(number(centreY))L\(number(horizontal)) \(number(centreY))")
        } else {
            if left { d.append("M\(number(cellLeft)) \(number(centreY))H\(number(centreX))") }
            if right { d.append("M\(number(centreX)) \(number(centreY))H\(number(cellLeft + width))") }
            if up { d.append("M\(number(centreX)) \(number(cellTop))V\(number(centreY))") }
            if down { d.append("M\(number(centreX)) \(number(centreY))V\(number(cellTop + height))") }
        }
        return d.joined()
    }
}
