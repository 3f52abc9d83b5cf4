import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
@testable import ActionFlowCommands
import ArgumentParser
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// What an XML parser finds in a picture: every element's name and every text's content.
final class ParsedXML: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var texts: [(x: String?, text: String)] = []
    private var currentX: String?
    private var current: String?

    static func parse(_ text: String) throws -> ParsedXML {
        let parsed = ParsedXML()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = parsed
        try #require(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        return parsed
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(name)
        if name == "text" { (currentX, current) = (attributes["x"], "") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let current { texts.append((currentX, current)) }
        current = nil
    }
}

@Suite("pictures, decks and their folders")
struct PictureFileTests {
    static let hostile = "</svg><script>alert(1)</script> & \"q\" \u{202E}evil"

    /// A frame holding hostile text, right-to-left text, wide characters and clusters.
    static func hostileFrame() -> Frame {
        var frame = Frame(width: 40, height: 4)
        _ = frame.put(hostile, x: 0, y: 0)
        _ = frame.put("שלום Tiếng Việt e\u{0302}\u{0301}", x: 0, y: 1)
        _ = frame.put("a👩‍💻b漢字c", x: 0, y: 2)
        frame.box(Rect(x: 30, y: 0, width: 10, height: 4))
        return frame
    }

    @Test("hostile text in a picture stays text: well-formed, no element but the picture's own, the characters as drawn")
    func hostileText() throws {
        let frame = Self.hostileFrame()
        let svg = FrameSVG.document(frame, region: Rect(x: 0, y: 0, width: 40, height: 4), caption: Self.hostile, colors: ShownColors(theme: .dark, mode: .full256))
        let parsed = try ParsedXML.parse(svg)
        #expect(Set(parsed.elements) == ["svg", "title", "style", "rect", "text", "g", "path"])
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("\u{202E}"), "a bidi override reaches the picture")
        // The screen's first row, whose cells start at column 0 (the caption's lines stand at the margin).
        let row0 = try #require(parsed.texts.first { $0.text.contains("alert") && $0.x?.hasPrefix("0 ") == true })
        // Its first 30 columns: the box at column 30 covers the rest.
        #expect(row0.text == "</svg><script>alert(1)</script")
        // The caption, wider than this 40-column picture, goes on over lines within it, whole.
        let caption = parsed.texts.filter { $0.x == "12" }.map(\.text)
        #expect(caption.count == 2 && caption.allSatisfy { $0.count <= 36 }, "\(caption)")
        #expect(caption.joined(separator: " ") == UntrustedText.sanitize(Self.hostile))
        // Each cell on its own column: a wide character takes two, a cluster one position.
        #expect(parsed.texts.contains { $0.x == "9" && $0.text == "👩‍💻" })
        #expect(parsed.texts.contains { $0.x == "36" && $0.text == "漢" })
        #expect(parsed.texts.contains { $0.x == "54" && $0.text == "字" })
        #expect(parsed.texts.contains { $0.x == "27" && $0.text == "b" })
        #expect(parsed.texts.contains { $0.text.hasPrefix("שלום") }, "right-to-left text stays in the order the terminal drew it")
        // Box-drawing lines are lines, their characters transparent text.
        #expect(svg.contains("fill-opacity=\"0\">╭────────╮"))
    }

    @Test("a file name is the step's number and its caption in lower-case ASCII, nothing a path could use")
    func fileNames() {
        #expect(StepPictures.slug("Signs in as ada@example.com") == "signs-in-as-ada-example-com")
        #expect(StepPictures.slug("../../etc/passwd </svg>") == "etc-passwd-svg")
        #expect(StepPictures.slug("Tiếng Việt") == "tieng-viet")
        #expect(StepPictures.slug("שלום") == "step")
        #expect(StepPictures.isPictureName("07-chooses-a-new-password.svg"))
        #expect(!StepPictures.isPictureName("notes.txt") && !StepPictures.isPictureName("-x.svg") && !StepPictures.isPictureName("a1-x.svg"))
    }

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("picture-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Exports `scenario`'s pictures into a folder of their own and hands `body` its path.
    func withPictures(of scenario: String, _ body: (String) throws -> Void) async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pictures = (root as NSString).appendingPathComponent("pictures")
        try await export([scenario, "--format", "svg", "--output", pictures])
        try body(pictures)
    }

    func export(_ arguments: [String]) async throws {
        let command = try #require(try ActionFlowCommand.parseAsRoot(["export"] + arguments) as? ExportCommand)
        try await command.run()
    }

    @Test("a folder of pictures: refused without --output, over a file, over a folder without --force or holding other files; replaced with --force")
    func folders() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pictures = (root as NSString).appendingPathComponent("pictures")
        await #expect(throws: ExitCode(2)) { try await export(["password-reset-in-app", "--format", "svg"]) }
        try await export(["password-reset-in-app", "--format", "svg", "--output", pictures])
        let first = try FileManager.default.contentsOfDirectory(atPath: pictures).sorted()
        #expect(first.first == "00-the-start.svg" && first.count == 9)
        await #expect(throws: ExitCode(2)) { try await export(["password-reset-in-app", "--format", "svg", "--output", pictures]) }
        // A picture left by an earlier, longer export goes with --force.
        try Data("old".utf8).write(to: URL(fileURLWithPath: (pictures as NSString).appendingPathComponent("99-old.svg")))
        try await export(["password-reset-in-app", "--format", "svg", "--output", pictures, "--force"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures).sorted() == first)
        // A file the export did not write stops --force, and stays.
        let notes = (pictures as NSString).appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: notes))
        await #expect(throws: ExitCode(2)) { try await export(["password-reset-in-app", "--format", "svg", "--output", pictures, "--force"]) }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "mine")
        // Nor does a folder holding the command's input go.
        let session = (pictures as NSString).appendingPathComponent("01-session.svg")
        let run = try #require(try ActionFlowCommand.parseAsRoot(["run", "password-reset-in-app", "--quiet", "--save", (root as NSString).appendingPathComponent("s.json")]) as? RunCommand)
        try await run.run()
        try FileManager.default.moveItem(atPath: (root as NSString).appendingPathComponent("s.json"), toPath: session)
        try FileManager.default.removeItem(atPath: notes)
        await #expect(throws: ExitCode(2)) { try await export([session, "--format", "svg", "--output", pictures, "--force"]) }
        #expect(FileManager.default.fileExists(atPath: session))
        // A file is not a folder.
        await #expect(throws: ExitCode(2)) { try await export(["password-reset-in-app", "--format", "svg", "--output", session, "--force"]) }
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: root)).contains { $0.hasPrefix(".") }, "a temporary folder was left behind")
    }

    @Test("options that do not go together are refused before anything is written")
    func refusedOptions() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = (root as NSString).appendingPathComponent("review.md")
        for arguments in [
            ["--format", "markdown", "--pictures"],
            ["--format", "mermaid", "--pictures", "--output", report],
            ["--format", "mermaid", "--theme", "light", "--output", report],
            ["--format", "cast", "--phone-only", "--output", report],
            ["--format", "html", "--theme", "sepia", "--output", report],
        ] {
            await #expect(throws: ExitCode(2), "\(arguments)") { try await export(["password-reset-in-app"] + arguments) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }

    @Test("the report with pictures shows each step's picture beside its narration, from a folder beside it")
    func reportWithPictures() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = (root as NSString).appendingPathComponent("review.md")
        try await export(["password-reset-in-app", "--format", "markdown", "--pictures", "--output", report])
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let images = text.split(separator: "\n").filter { $0.hasPrefix("![") }
        #expect(images.count == 9)
        for image in images {
            let target = try #require(image.split(separator: "(").last?.dropLast())
            #expect(FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent(String(target))), "\(image)")
        }
        #expect(text.contains("## Steps\n\n### The start\n\n![The start](review-pictures/00-the-start.svg)"))
        #expect(text.contains("### Step 4 of 8: Asks for a password reset email for bob@example.com"))
        #expect(text.contains("- Call: `POST /v1/accounts:sendOobCode?key=fake-a…(masked): HTTP 200`"))
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        #expect(headings == ["Outcome", "Steps"] + ReviewReport.sections.dropFirst())
        // A second export is refused whole: the report and the pictures stay as they were.
        await #expect(throws: ExitCode(2)) { try await export(["password-reset-in-app", "--format", "markdown", "--pictures", "--output", report]) }
    }

    @Test("the deck is one file that fetches nothing: its own style and script, the pictures inline, hostile text as text")
    func deckFile() async throws {
        let source = try await SessionSource.load("password-reset-in-app", project: ProjectFileOption.parse([]))
        let deck = ReviewDeck(recording: source.recording, title: Self.hostile, description: "Line one\n" + Self.hostile, drawing: SessionExport.Drawing(columns: 100, rows: 30, theme: .light)).html
        #expect(deck.components(separatedBy: "<script").count == 2)
        #expect(deck.contains("Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\""))
        #expect(!deck.contains(" src=") && !deck.contains("<link") && !deck.contains("@import") && !deck.contains("url("))
        #expect(deck.contains("<h1>&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"))
        #expect(deck.components(separatedBy: "<section class=\"step\"").count == 10)
        #expect(deck.components(separatedBy: "</svg>").count == 10)
    }

    @Test("the README's picture is what the export draws today (ACTIONFLOW_UPDATE_GOLDEN=1 rewrites it)")
    func readmePicture() async throws {
        try await withPictures(of: "password-reset-in-app") { pictures in
            let drawn = try String(contentsOfFile: (pictures as NSString).appendingPathComponent("04-asks-for-a-password-reset-email-for-bob-example-com.svg"), encoding: .utf8)
            let shown = CastExportTests.packageRoot.appendingPathComponent("docs/pictures/password-reset-in-app-step-4.svg")
            if ProcessInfo.processInfo.environment["ACTIONFLOW_UPDATE_GOLDEN"] == "1" {
                try Data(drawn.utf8).write(to: shown)
            }
            #expect(try String(contentsOf: shown, encoding: .utf8) == drawn, "docs/pictures/password-reset-in-app-step-4.svg is out of date: run with ACTIONFLOW_UPDATE_GOLDEN=1")
            let readme = try String(contentsOf: CastExportTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
            #expect(readme.contains("](docs/pictures/password-reset-in-app-step-4.svg)"))
        }
    }

    @Test("a scenario's pictures carry the captions the presenter shows: its own words, an attempt, \"again\"")
    func presenterCaptions() async throws {
        try await withPictures(of: "old-app-after-hosting-switch") { pictures in
            let names = try FileManager.default.contentsOfDirectory(atPath: pictures).sorted()
            #expect(names.contains("06-the-project-switches-from-dynamic-links-to-hosting-links.svg"), "\(names)")
            #expect(names.contains("07-opens-articles-42-in-the-app-again.svg"))
            let picture = try String(contentsOfFile: (pictures as NSString).appendingPathComponent(names[12]), encoding: .utf8)
            #expect(picture.contains("<title>Step 12 of 16: Bob updates to build 3.1, which also claims the Hosting domain</title>"))
            // The same words as the presenter's for that scenario.
            let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("old-app-after-hosting-switch"))
            #expect(Interface.captions(scenario, groups: Interface.stepGroups(scenario)).contains("Bob updates to build 3.1, which also claims the Hosting domain"))
        }
    }
}

