import ActionFlowTUI

/// A terminal in memory: keeps the last frame and counts what each present would send.
@MainActor
public final class MemoryTerminal {
    public private(set) var width: Int
    public private(set) var height: Int
    public let colorMode: ColorMode
    public private(set) var screen: Frame?
    public private(set) var presentCount = 0
    /// Cells sent by the last present.
    public private(set) var lastChangedCells = 0

    public init(width: Int, height: Int, colorMode: ColorMode = .full256) {
        self.width = width
        self.height = height
        self.colorMode = colorMode
    }

    public func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public func present(_ frame: Frame) {
        lastChangedCells = FrameDiff.runs(from: screen, to: frame).reduce(0) { $0 + $1.cells.count }
        screen = frame
        presentCount += 1
    }

    public func invalidate() { screen = nil }

    /// The screen as text, one line per row.
    public var text: String { screen?.text ?? "" }
}
