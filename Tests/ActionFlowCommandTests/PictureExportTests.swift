import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
@testable import ActionFlowCommands
import Foundation
import TestSupport
import Testing

/// `export --format svg`: every picture of every shipped scenario and story read by CairoSVG
/// (PyPI), a renderer nobody here wrote: rendered to PNG, and its text read back through the
/// renderer's own parser, cell by cell, must be the frame the interface drew at that step.
/// `.ci/run` prepares the virtual environment; the test creates it when it is missing.
@Suite("export --format svg, read by CairoSVG", .serialized, .onDedicatedThread)
struct PictureExportTests {
    static let venv = CastExportTests.packageRoot.appendingPathComponent(".build/svg-venv")
    static let rowsScript = CastExportTests.packageRoot.appendingPathComponent("Tests/ActionFlowCommandTests/Interop/svg_rows.py")

    static func python() async throws -> String {
        try await virtualEnvironmentPython(venv, importing: "cairosvg, PIL", installing: ["cairosvg"])
    }

    struct Picture: Decodable {
        var title: String?
        var caption: String?
        var captionLines: [String]
        var cells: [[Cell]]
        var size: [Int]
        var corner: String

        enum Cell: Decodable {
            case number(Int)
            case text(String)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Int.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
            }
        }

        /// Row → column → text, as CairoSVG placed it.
        var placed: [Int: [Int: String]] {
            var out: [Int: [Int: String]] = [:]
            for cell in cells {
                guard cell.count == 3, case .number(let row) = cell[0], case .number(let column) = cell[1], case .text(let text) = cell[2] else { continue }
                out[row, default: [:]][column] = text
            }
            return out
        }
    }

    /// A frame's non-blank cells, row → column → text, within `region`.
    static func cells(of frame: Frame, region: Rect) -> [Int: [Int: String]] {
        var out: [Int: [Int: String]] = [:]
        for y in region.y..<region.maxY {
            for x in region.x..<region.maxX {
                let cell = frame[x, y]
                guard !cell.isContinuation, !cell.text.allSatisfy(\.isWhitespace) else { continue }
                out[y - region.y, default: [:]][x - region.x] = cell.text
            }
        }
        return out
    }

    /// A row's cells as a line, each on its column, for a failure anyone can read.
    static func line(_ row: [Int: String]?) -> String {
        var line = ""
        var column = 0
        for (at, text) in (row ?? [:]).sorted(by: { $0.key < $1.key }) {
            line += String(repeating: " ", count: max(0, at - column)) + text
            column = at + 1
        }
        return line
    }

    func export(_ file: String, into folder: String, _ options: [String]) async throws {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["export", file, "--format", "svg", "--output", folder] + options) as? ExportCommand)
        try await command.run()
    }

    /// Scenarios with two devices, a wide and a right-to-left language, for the light theme's
    /// phone-only pictures; the dark whole-screen ones are drawn for every scenario.
    static let phoneOnlyScenarios = ["password-reset-in-app", "password-reset-in-hebrew", "cross-device-email-link-sign-in-on-laptop", "verify-email-on-another-device"]

    @Test("every step of every shipped scenario and story: CairoSVG renders it, and reads back the frame's text on the frame's cells",
          arguments: [(Theme.dark, false), (.light, true)])
    func everyShippedScenario(theme: Theme, phoneOnly: Bool) async throws {
        let python = try await Self.python()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shipped = ScenarioLibrary.shippedFiles() + ScenarioLibrary.storyFiles()
        let files = phoneOnly ? shipped.filter { Self.phoneOnlyScenarios.contains($0.deletingPathExtension().lastPathComponent) } : shipped
        #expect(files.count == (phoneOnly ? Self.phoneOnlyScenarios.count : shipped.count) && shipped.count > 20)
        for file in files {
            let folder = (root as NSString).appendingPathComponent(file.deletingPathExtension().lastPathComponent)
            try await export(file.path, into: folder, ["--theme", theme.rawValue] + (phoneOnly ? ["--phone-only"] : []))
            let read = try CastExportTests.run(python, [Self.rowsScript.path, folder, "\(FrameSVG.cellWidth)", "\(FrameSVG.cellHeight)", "\(FrameSVG.baseline)"])
            try #require(read.status == 0, "svg_rows.py failed on \(file.lastPathComponent): \(read.errors)")
            let pictures = try JSONDecoder().decode([String: Picture].self, from: read.output)
            let source = try await SessionSource.load(file.path, project: ProjectFileOption.parse([]))
            let steps = Array(SessionSteps(recording: source.recording, title: source.title, width: 100, height: 30, theme: theme, captions: source.captions))
            #expect(pictures.count == steps.count, "\(file.lastPathComponent): \(pictures.count) pictures for \(steps.count) steps")
            let digits = max(2, String(steps.count - 1).count)
            for step in steps {
                let name = StepPictures.fileName(of: step, digits: digits)
                let picture = try #require(pictures[name], "\(file.lastPathComponent): no \(name) among \(pictures.keys.sorted())")
                let title = StepPictures.title(of: step, steps: steps.count - 1)
                #expect(picture.title == title && picture.caption == title)
                #expect(picture.corner == (theme == .dark ? "#000000" : "#ffffff"), "\(name): the background is \(picture.corner)")
                let region = phoneOnly ? try #require(step.phones) : Rect(x: 0, y: 0, width: 100, height: 30)
                // The caption stays inside the picture: a line of it at most as many letters as fit, each 20 pixels high.
                let fitting = (region.width * FrameSVG.cellWidth) / 10
                #expect(picture.captionLines.allSatisfy { $0.count <= fitting }, "\(name): a caption line overflows: \(picture.captionLines)")
                #expect(picture.size == [region.width * FrameSVG.cellWidth + 24, region.height * FrameSVG.cellHeight + 24 + picture.captionLines.count * 20 + 10])
                #expect(phoneOnly || picture.captionLines.count == 1, "\(name): a whole screen's caption fits one line")
                let wanted = Self.cells(of: step.frame, region: region)
                let placed = picture.placed
                for row in 0..<region.height where wanted[row] != placed[row] {
                    Issue.record("\(file.lastPathComponent) \(name) row \(row + 1):\n  frame: \(Self.line(wanted[row]))\n  drawn: \(Self.line(placed[row]))")
                }
            }
        }
    }
}

/// `export --format html`: the deck opened from the file system in headless Chromium (Debian's
/// `chromium` and `chromium-driver`, through Selenium from `.build/browser-venv`, which
/// `.ci/run` prepares), paged with the arrow keys as a reviewer pages it.
@Suite("export --format html, paged in headless Chromium", .serialized, .onDedicatedThread)
struct DeckBrowserTests {
    static let venv = CastExportTests.packageRoot.appendingPathComponent(".build/browser-venv")
    static let script = CastExportTests.packageRoot.appendingPathComponent("Tests/ActionFlowCommandTests/Interop/deck_browser.py")
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    static func python() async throws -> String {
        try await virtualEnvironmentPython(venv, importing: "selenium", installing: ["selenium"])
    }

    struct Report: Decodable {
        var listed: [String]
        var pages: [[String]]
        var fromList: [String]
        var screenText: String
        var printedPages: Int
        var requests: [String]
        var deckURL: String
    }

    @Test("the step list, → through every step and ← back, a step from the list, one step a printed page, and no request but the file's own",
          arguments: ["password-reset-in-app", "cross-device-email-link-sign-in"])
    func pageThrough(scenario: String) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium) && FileManager.default.isExecutableFile(atPath: Self.chromedriver),
                     "install Debian's chromium and chromium-driver (.ci/run does)")
        let python = try await Self.python()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deck-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deck = (folder as NSString).appendingPathComponent("deck.html")
        let command = try #require(try ActionFlowCommand.parseAsRoot(["export", scenario, "--format", "html", "--output", deck]) as? ExportCommand)
        try await command.run()
        let result = try CastExportTests.run(python, [Self.script.path, deck, Self.chromium, Self.chromedriver])
        try #require(result.status == 0, "deck_browser.py failed: \(result.errors)")
        let report = try JSONDecoder().decode(Report.self, from: result.output)

        let source = try await SessionSource.load(scenario, project: ProjectFileOption.parse([]))
        let steps = Array(SessionSteps(recording: source.recording, title: source.title, width: 100, height: 30, captions: source.captions))
        let titles = steps.map { StepPictures.title(of: $0, steps: steps.count - 1) }
        #expect(report.listed == steps.map(\.caption))
        // One step on screen at a time: the start, each → the next (the last stays), ← one back.
        #expect(report.pages == titles.map { [$0] } + [[titles[titles.count - 1]], [titles[titles.count - 2]]])
        #expect(report.fromList == [titles[2]])
        // The picture's text is the browser's text: the header row, read without its spacing.
        func words(_ text: some StringProtocol) -> String { String(text.filter { !$0.isWhitespace }) }
        #expect(words(report.screenText).contains(words(steps[2].frame.text.split(separator: "\n")[0])))
        #expect(report.printedPages >= steps.count, "\(report.printedPages) printed pages for \(steps.count) steps")
        #expect(report.requests == [report.deckURL], "requests left the file: \(report.requests)")
    }
}
