/// A terminal colour: the terminal's default, one of the 8 ANSI colours, or a 256-colour index.
public enum TerminalColor: Hashable, Sendable {
    case `default`
    case ansi(UInt8)
    case indexed(UInt8)

    public static let black = TerminalColor.ansi(0)
    public static let red = TerminalColor.ansi(1)
    public static let green = TerminalColor.ansi(2)
    public static let yellow = TerminalColor.ansi(3)
    public static let blue = TerminalColor.ansi(4)
    public static let magenta = TerminalColor.ansi(5)
    public static let cyan = TerminalColor.ansi(6)
    public static let white = TerminalColor.ansi(7)
}

/// How one cell is drawn.
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var dim: Bool
    public var underline: Bool
    public var reverse: Bool

    public init(foreground: TerminalColor = .default, background: TerminalColor = .default, bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    public static let plain = CellStyle()
}

/// What a piece of the screen means; the palette decides how that looks.
public enum Role: Hashable, Sendable, CaseIterable {
    case text, muted, title, accent, border, focusedBorder, selection, keyHint, keyName
    case success, warning, error, link, statusBar, phoneFrame, phoneScreen, button, focusedButton
    case field, focusedField, current, badge
    /// A text field's hint while it is empty, unfocused and focused.
    case placeholder, focusedPlaceholder
}

/// How many colours the terminal gets.
public enum ColorMode: String, Sendable, CaseIterable {
    case full256 = "256"
    case basic8 = "8"
    case monochrome

    /// The mode for this environment: `NO_COLOR` (any non-empty value) or `--monochrome` turn
    /// colour off; otherwise the terminal's colour count decides.
    public static func choose(environment: [String: String], monochromeRequested: Bool, terminalColors: Int) -> ColorMode {
        if monochromeRequested { return .monochrome }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        if terminalColors >= 256 { return .full256 }
        if terminalColors >= 8 { return .basic8 }
        return .monochrome
    }
}

/// Which terminal background the colours are chosen for.
public enum Theme: String, Sendable, CaseIterable {
    case dark, light

    /// The theme for a terminal whose background is `background`: the one whose own text
    /// (black for light, white for dark) has the higher contrast on it.
    public static func suited(to background: RGBColor) -> Theme {
        background.contrast(with: .black) > background.contrast(with: .white) ? .light : .dark
    }
}

/// Maps roles to cell styles for a colour mode and a theme. Monochrome keeps meaning with bold,
/// underline and reverse alone, so focus and errors stay visible.
public struct Palette: Sendable {
    public let mode: ColorMode
    public let theme: Theme

    public init(mode: ColorMode, theme: Theme = .dark) {
        self.mode = mode
        self.theme = theme
    }

    /// Every text cell has at least 4.5:1 contrast (WCAG 2.x AA) with the xterm palette, the
    /// dark theme on black and the light one on white: `ContrastTests` measures it.
    public func style(_ role: Role) -> CellStyle {
        switch (mode, theme) {
        case (.monochrome, _): monochrome(role)
        case (.basic8, .dark): basicDark(role)
        case (.basic8, .light): basicLight(role)
        case (.full256, .dark): richDark(role)
        case (.full256, .light): richLight(role)
        }
    }

    private func monochrome(_ role: Role) -> CellStyle {
        switch role {
        case .text, .border, .phoneScreen, .field, .placeholder, .link, .muted, .phoneFrame: .plain
        case .title, .accent, .keyName, .success, .current, .badge, .focusedBorder: CellStyle(bold: true)
        case .warning, .error: CellStyle(bold: true, underline: true)
        case .selection, .focusedButton, .focusedField, .focusedPlaceholder, .statusBar: CellStyle(reverse: true)
        case .keyHint: .plain
        case .button: CellStyle(bold: true)
        }
    }

    /// Eight colours as xterm shows them by default, on black: blue, red and magenta are too
    /// dark for text there, and dim too faint.
    private func basicDark(_ role: Role) -> CellStyle {
        switch role {
        case .text, .phoneScreen: .plain
        case .muted, .keyHint: CellStyle(foreground: .white)
        case .title: CellStyle(foreground: .cyan, bold: true)
        case .accent: CellStyle(foreground: .cyan)
        case .border: CellStyle(foreground: .blue)
        case .focusedBorder: CellStyle(foreground: .cyan, bold: true)
        case .selection, .focusedField: CellStyle(foreground: .black, background: .cyan)
        case .keyName: CellStyle(foreground: .yellow, bold: true)
        case .success: CellStyle(foreground: .green, bold: true)
        case .warning: CellStyle(foreground: .yellow, bold: true)
        case .error: CellStyle(foreground: .white, background: .red, bold: true)
        case .link: CellStyle(foreground: .cyan, underline: true)
        case .statusBar, .button: CellStyle(foreground: .black, background: .white)
        case .phoneFrame: CellStyle(foreground: .white, bold: true)
        case .focusedButton: CellStyle(foreground: .black, background: .cyan, bold: true)
        case .field: CellStyle(underline: true)
        case .placeholder: CellStyle(foreground: .cyan, underline: true)
        case .focusedPlaceholder: CellStyle(foreground: .blue, background: .cyan)
        case .current: CellStyle(foreground: .black, background: .yellow, bold: true)
        case .badge: CellStyle(foreground: .yellow)
        }
    }

    /// Eight colours as xterm shows them by default, on white: green, yellow and cyan are too
    /// light for text there, so they are backgrounds.
    private func basicLight(_ role: Role) -> CellStyle {
        switch role {
        case .text, .phoneScreen, .muted, .keyHint: .plain
        case .title, .focusedBorder, .keyName: CellStyle(foreground: .blue, bold: true)
        case .accent: CellStyle(foreground: .magenta)
        case .border: CellStyle(foreground: .blue)
        case .selection, .focusedField: CellStyle(foreground: .black, background: .cyan)
        case .success: CellStyle(foreground: .black, background: .green)
        case .warning: CellStyle(foreground: .black, background: .yellow, bold: true)
        case .error: CellStyle(foreground: .red, bold: true)
        case .link: CellStyle(foreground: .blue, underline: true)
        case .statusBar: CellStyle(foreground: .white, background: .blue)
        case .phoneFrame: CellStyle(bold: true)
        case .button: CellStyle(foreground: .black, background: .white)
        case .focusedButton: CellStyle(foreground: .black, background: .cyan, bold: true)
        case .field: CellStyle(underline: true)
        case .placeholder: CellStyle(foreground: .blue, underline: true)
        case .focusedPlaceholder: CellStyle(foreground: .blue, background: .cyan)
        case .current: CellStyle(foreground: .black, background: .yellow, bold: true)
        case .badge: CellStyle(foreground: .magenta, bold: true)
        }
    }

    private func richDark(_ role: Role) -> CellStyle {
        switch role {
        case .text, .phoneScreen: .plain
        case .muted: CellStyle(foreground: .indexed(245))
        case .title: CellStyle(foreground: .indexed(75), bold: true)
        case .accent: CellStyle(foreground: .indexed(80))
        case .border: CellStyle(foreground: .indexed(240))
        case .focusedBorder: CellStyle(foreground: .indexed(75), bold: true)
        case .selection: CellStyle(foreground: .indexed(231), background: .indexed(25))
        case .keyHint: CellStyle(foreground: .indexed(250), background: .indexed(236))
        case .keyName: CellStyle(foreground: .indexed(221), background: .indexed(236), bold: true)
        case .success: CellStyle(foreground: .indexed(114), bold: true)
        case .warning: CellStyle(foreground: .indexed(214), bold: true)
        case .error: CellStyle(foreground: .indexed(203), bold: true)
        case .link: CellStyle(foreground: .indexed(111), underline: true)
        case .statusBar: CellStyle(foreground: .indexed(231), background: .indexed(24))
        case .phoneFrame: CellStyle(foreground: .indexed(252), bold: true)
        case .button: CellStyle(foreground: .indexed(231), background: .indexed(239))
        case .focusedButton: CellStyle(foreground: .indexed(16), background: .indexed(75), bold: true)
        case .field: CellStyle(foreground: .indexed(252), background: .indexed(236))
        case .placeholder: CellStyle(foreground: .indexed(248), background: .indexed(236))
        case .focusedField, .focusedPlaceholder: focusedField(role)
        case .current: CellStyle(foreground: .indexed(16), background: .indexed(221), bold: true)
        case .badge: CellStyle(foreground: .indexed(177), bold: true)
        }
    }

    private func richLight(_ role: Role) -> CellStyle {
        switch role {
        case .text, .phoneScreen: .plain
        case .muted: CellStyle(foreground: .indexed(241))
        case .title: CellStyle(foreground: .indexed(25), bold: true)
        case .accent: CellStyle(foreground: .indexed(23))
        case .border: CellStyle(foreground: .indexed(246))
        case .focusedBorder: CellStyle(foreground: .indexed(25), bold: true)
        case .selection: CellStyle(foreground: .indexed(231), background: .indexed(25))
        case .keyHint: CellStyle(foreground: .indexed(237), background: .indexed(254))
        case .keyName: CellStyle(foreground: .indexed(18), background: .indexed(254), bold: true)
        case .success: CellStyle(foreground: .indexed(22), bold: true)
        case .warning: CellStyle(foreground: .indexed(130), bold: true)
        case .error: CellStyle(foreground: .indexed(160), bold: true)
        case .link: CellStyle(foreground: .indexed(26), underline: true)
        case .statusBar: CellStyle(foreground: .indexed(231), background: .indexed(24))
        case .phoneFrame: CellStyle(foreground: .indexed(238), bold: true)
        case .button: CellStyle(foreground: .indexed(16), background: .indexed(252))
        case .focusedButton: CellStyle(foreground: .indexed(231), background: .indexed(25), bold: true)
        case .field: CellStyle(foreground: .indexed(16), background: .indexed(254))
        case .placeholder: CellStyle(foreground: .indexed(240), background: .indexed(254))
        case .focusedField, .focusedPlaceholder: focusedField(role)
        case .current: CellStyle(foreground: .indexed(16), background: .indexed(221), bold: true)
        case .badge: CellStyle(foreground: .indexed(91), bold: true)
        }
    }

    /// A focused field is navy in both themes: dark enough that its placeholder, in grey, is
    /// still legible and unlike a value, in white.
    private func focusedField(_ role: Role) -> CellStyle {
        CellStyle(foreground: .indexed(role == .focusedPlaceholder ? 248 : 231), background: .indexed(18))
    }
}
