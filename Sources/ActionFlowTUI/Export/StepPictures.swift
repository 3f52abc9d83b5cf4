import ActionFlowClient
import ActionFlowModel
import Foundation

/// A session's steps as pictures: one SVG a step, named by its number and its plain caption
/// (`03-signs-in-as-ada-example-com.svg`), so that a folder lists them in order.
public enum StepPictures {
    public struct Style: Sendable {
        public var theme: Theme
        /// Just the device (both, when two stand side by side), for slides.
        public var phoneOnly: Bool

        public init(theme: Theme, phoneOnly: Bool) {
            self.theme = theme
            self.phoneOnly = phoneOnly
        }
    }

    /// What a step's picture is titled: its number among all and its caption.
    public static func title(of step: SessionStep, steps: Int) -> String {
        step.number == 0 ? step.caption : "Step \(step.number) of \(steps): \(step.caption)"
    }

    public static func svg(_ step: SessionStep, steps: Int, style: Style) -> String {
        let whole = Rect(x: 0, y: 0, width: step.frame.width, height: step.frame.height)
        let region = style.phoneOnly ? step.phones ?? whole : whole
        return FrameSVG.document(step.frame, region: region, caption: title(of: step, steps: steps), colors: ShownColors(theme: style.theme, mode: .full256))
    }

    /// `NN-caption.svg`, the number with at least `digits` digits.
    public static func fileName(of step: SessionStep, digits: Int) -> String {
        let number = String(step.number)
        return String(repeating: "0", count: max(0, digits - number.count)) + number + "-" + slug(step.caption) + ".svg"
    }

    /// Whether a folder's entry is a picture `write` makes: `--force` replaces only those.
    public static func isPictureName(_ name: String) -> Bool {
        guard name.hasSuffix(".svg"), let dash = name.firstIndex(of: "-"), dash > name.startIndex else { return false }
        return name[..<dash].allSatisfy(\.isASCII) && name[..<dash].allSatisfy(\.isNumber)
    }

    /// Lower-case ASCII letters and digits, anything else one `-`: a name every file system and
    /// Markdown host takes as it is.
    static func slug(_ caption: String) -> String {
        var out = ""
        for character in caption.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
            if out.count >= 60 { break }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "step" : out
    }

    /// Writes each step's picture into `folder` as it is drawn, so that memory holds one frame
    /// at a time; `each` is told every step with its file's name. Returns the names written.
    @discardableResult
    public static func write(_ steps: SessionSteps, into folder: String, style: Style, each: (SessionStep, String) -> Void = { _, _ in }) throws -> [String] {
        let total = steps.count - 1
        let digits = max(2, String(total).count)
        var names: [String] = []
        for step in steps {
            let name = fileName(of: step, digits: digits)
            let path = (folder as NSString).appendingPathComponent(name)
            // Into a folder no one sees until it is complete (`OutputFolder.replace`): no file needs its own rename.
            do {
                try Data(svg(step, steps: total, style: style).utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw OutputFile.Refused(path: path, reason: "cannot be written (\(error.localizedDescription))")
            }
            each(step, name)
            names.append(name)
        }
        return names
    }
}
