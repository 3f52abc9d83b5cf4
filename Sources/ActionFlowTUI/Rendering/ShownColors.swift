/// The colours xterm shows for each colour number with its default resources: the 16 system
/// colours (xterm's `XTerm-col.ad`), the 6×6×6 cube and 24 greys (xterm's `256colres.pl`).
public enum XtermPalette {
    public static let system: [RGBColor] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ].map(RGBColor.init(hex:))

    public static func color(_ number: UInt8) -> RGBColor {
        switch number {
        case 0..<16:
            return system[Int(number)]
        case 16..<232:
            let cube = Int(number) - 16
            func level(_ step: Int) -> UInt32 { step == 0 ? 0 : UInt32(55 + 40 * step) }
            return RGBColor(hex: level(cube / 36) << 16 | level(cube / 6 % 6) << 8 | level(cube % 6))
        default:
            let grey = UInt32(8 + 10 * (Int(number) - 232))
            return RGBColor(hex: grey << 16 | grey << 8 | grey)
        }
    }
}

/// What a terminal shows for a cell of a frame: the dark theme on black (xterm's colour 7 for
/// default text), the light one on white with black text. The contrast checks measure frames
/// with it and the pictures of a session are drawn with it.
public struct ShownColors: Sendable {
    public let theme: Theme
    public let mode: ColorMode

    public init(theme: Theme, mode: ColorMode) {
        self.theme = theme
        self.mode = mode
    }

    public var defaultForeground: RGBColor { theme == .dark ? XtermPalette.system[7] : .black }
    public var defaultBackground: RGBColor { theme == .dark ? .black : .white }

    /// Foreground and background as drawn: a 256-colour number is not sent in 8-colour mode
    /// (as `CursesTerminal` does), reverse swaps, and dim is taken as halfway to the background.
    public func colors(of style: CellStyle) -> (foreground: RGBColor, background: RGBColor) {
        var foreground = resolve(style.foreground) ?? defaultForeground
        var background = resolve(style.background) ?? defaultBackground
        if style.reverse { swap(&foreground, &background) }
        if style.dim {
            foreground = RGBColor(red: (foreground.red + background.red) / 2, green: (foreground.green + background.green) / 2,
                                  blue: (foreground.blue + background.blue) / 2)
        }
        return (foreground, background)
    }

    private func resolve(_ color: TerminalColor) -> RGBColor? {
        switch color {
        case .default: nil
        case .ansi(let number): XtermPalette.color(number)
        case .indexed(let number): mode == .full256 ? XtermPalette.color(number) : nil
        }
    }
}
