import Foundation

/// The cells that changed between two frames, grouped in runs along each row.
public enum FrameDiff {
    public struct Run: Hashable, Sendable {
        public var x: Int
        public var y: Int
        /// The changed cells, sharing the frame's storage rather than copying it.
        public var cells: ArraySlice<Cell>
    }

    /// Runs of changed cells. With no previous frame (or a different size) every cell changes.
    /// A wide character and the continuation cell right of it always travel together.
    public static func runs(from previous: Frame?, to next: Frame) -> [Run] {
        let before = previous.flatMap { $0.width == next.width && $0.height == next.height ? $0.cells : nil }
        let width = next.width
        let nextCells = next.cells
        var runs: [Run] = []
        var changed = [Bool](repeating: false, count: width)
        // Through buffers: this runs for every frame over every cell, and the arrays' checks
        // and copies were an eighth of a key's work.
        next.cells.withUnsafeBufferPointer { after in
            for y in 0..<next.height {
                let row = y * width
                var anyChanged = false
                if let before {
                    before.withUnsafeBufferPointer { old in
                        // A row whose bytes are all the same holds the same cells: most rows of
                        // most frames. Only a row that differs in its bytes is compared cell by
                        // cell (its cells may still be equal, e.g. a string stored another way).
                        if width > 0, memcmp(old.baseAddress! + row, after.baseAddress! + row, width * MemoryLayout<Cell>.stride) == 0 { return }
                        for x in 0..<width {
                            let differs = old[row + x] != after[row + x]
                            changed[x] = differs
                            anyChanged = anyChanged || differs
                        }
                    }
                } else {
                    for x in 0..<width { changed[x] = true }
                    anyChanged = width > 0
                }
                guard anyChanged else { continue }
                for x in 0..<width where changed[x] {
                    if after[row + x].isContinuation, x > 0 { changed[x - 1] = true }
                    if x + 1 < width, after[row + x + 1].isContinuation { changed[x + 1] = true }
                }
                var x = 0
                while x < width {
                    guard changed[x] else {
                        x += 1
                        continue
                    }
                    let start = x
                    while x < width, changed[x] { x += 1 }
                    runs.append(Run(x: start, y: y, cells: nextCells[(row + start)..<(row + x)]))
                }
            }
        }
        return runs
    }
}
