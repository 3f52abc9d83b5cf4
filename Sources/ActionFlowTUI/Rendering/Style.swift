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

/// Maps roles to cell styles for a colour mode. Monochrome keeps meaning with bold, underline
/// and reverse alone, so focus and errors stay visible.
public struct Palette: Sendable {
    public let mode: ColorMode

    public init(mode: ColorMode) { self.mode = mode }

    public func style(_ role: Role) -> CellStyle {
        switch mode {
        case .monochrome: monochrome(role)
        case .basic8: basic(role)
        case .full256: rich(role)
        }
    }

    private func monochrome(_ role: Role) -> CellStyle {
        switch role {
        case .text, .border, .phoneScreen, .field, .link, .muted, .phoneFrame: .plain
        case .title, .accent, .keyName, .success, .current, .badge, .focusedBorder: CellStyle(bold: true)
        case .warning, .error: CellStyle(bold: true, underline: true)
        case .selection, .focusedButton, .focusedField, .statusBar: CellStyle(reverse: true)
        case .keyHint: .plain
        case .button: CellStyle(bold: true)
        }
    }

    private func basic(_ role: Role) -> CellStyle {
        switch role {
        case .text, .phoneScreen: .plain
        case .muted: CellStyle(foreground: .white, dim: true)
        case .title: CellStyle(foreground: .cyan, bold: true)
        case .accent: CellStyle(foreground: .cyan)
        case .border: CellStyle(foreground: .blue)
        case .focusedBorder: CellStyle(foreground: .cyan, bold: true)
        case .selection: CellStyle(foreground: .black, background: .cyan)
        case .keyHint: CellStyle(foreground: .white)
        case .keyName: CellStyle(foreground: .yellow, bold: true)
        case .success: CellStyle(foreground: .green, bold: true)
        case .warning: CellStyle(foreground: .yellow, bold: true)
        case .error: CellStyle(foreground: .red, bold: true)
        case .link: CellStyle(foreground: .blue, underline: true)
        case .statusBar: CellStyle(foreground: .black, background: .white)
        case .phoneFrame: CellStyle(foreground: .white, bold: true)
        case .button: CellStyle(foreground: .black, background: .white)
        case .focusedButton: CellStyle(foreground: .black, background: .cyan, bold: true)
        case .field: CellStyle(underline: true)
        case .focusedField: CellStyle(foreground: .black, background: .cyan)
        case .current: CellStyle(foreground: .black, background: .yellow, bold: true)
        case .badge: CellStyle(foreground: .magenta, bold: true)
        }
    }

    private func rich(_ role: Role) -> CellStyle {
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
        case .focusedField: CellStyle(foreground: .indexed(231), background: .indexed(24))
        case .current: CellStyle(foreground: .indexed(16), background: .indexed(221), bold: true)
        case .badge: CellStyle(foreground: .indexed(177), bold: true)
        }
    }
}
