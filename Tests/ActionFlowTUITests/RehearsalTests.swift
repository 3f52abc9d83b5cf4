import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

/// A presenter's rehearsal, in process: every shipped scenario played with `n` (typing both
/// ticked through and skipped) and walked back with `b`, every story through the welcome
/// screen one after another, at three sizes and in both themes. Every frame is held to the
/// invariants of `FrameInvariants`; a failure names the scenario, size, theme, step and line.
@MainActor
struct Rehearsal {
    struct Shot {
        var frame: Frame
        /// Where it was drawn: scenario, size, theme and step.
        var place: String
        var interface: Interface
    }

    var model: Interface
    let name: String
    private(set) var shots: [Shot] = []
    private var now = Date(timeIntervalSince1970: 1_800_000_000)

    init(_ model: Interface, name: String) {
        self.model = model
        self.name = name
        shoot("start")
    }

    static func presenting(_ scenario: String, size: (Int, Int), theme: Theme) throws -> Rehearsal {
        let parsed = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate(scenario))
        let driver = parsed.embeddedSession(baseProject: try ProjectConfigLoader.loadDefault())
        let model = Interface(driver: driver, scenario: parsed, colorMode: .full256, theme: theme, width: size.0, height: size.1)
        return Rehearsal(model, name: "\(scenario) at \(size.0)x\(size.1), \(theme)")
    }

    static func welcome(size: (Int, Int), theme: Theme, devices: [DeviceName] = [.iphone]) throws -> Rehearsal {
        let project = try ProjectConfigLoader.loadDefault()
        let model = Interface(driver: .embedded(project: project, devices: EmbeddedWorld.defaultDevices(devices, project: project)), colorMode: .full256, theme: theme, width: size.0, height: size.1)
        return Rehearsal(model, name: "welcome at \(size.0)x\(size.1), \(theme)")
    }

    mutating func key(_ key: Key, _ label: String? = nil) {
        _ = model.update(.key(key))
        shoot(label ?? "after \(key)")
    }

    /// Ticks until nothing waits for time; draws the first and the last frame of it.
    mutating func settle(_ label: String) {
        var ticks = 0
        while let due = model.nextTick, ticks < 2_000 {
            now = max(now.addingTimeInterval(0.01), min(due, now.addingTimeInterval(5)))
            _ = model.update(.tick(now))
            ticks += 1
            if ticks == 1 { shoot("\(label), typing") }
        }
        shoot(label)
    }

    mutating func shoot(_ label: String) {
        let step = model.presentation.map { "step \($0.step)/\($0.total)" } ?? "no presentation"
        shots.append(Shot(frame: MainView.render(model, transport: model.replay?.transportLabel ?? "embedded demo-actionflow"), place: "\(name), \(step), \(label)", interface: model))
    }

    /// Presents every step: odd steps typed to the end by ticks, even ones finished by a
    /// second `n` (as a presenter in a hurry does), then back over the last three with `b`.
    mutating func presentAll() {
        key(.character("n"), "opening card closed")
        var pressed = 0
        while let presentation = model.presentation, !presentation.finished, !presentation.failed, pressed < 200 {
            pressed += 1
            key(.character("n"), "n #\(pressed)")
            if pressed.isMultiple(of: 2), model.typing != nil { key(.character("n"), "n #\(pressed) again, finishing the typing") }
            settle("n #\(pressed) settled")
        }
        for back in 1...3 { key(.character("b"), "b #\(back)") }
    }
}

/// What every frame must be, and the check of each.
enum FrameInvariants {
    /// camelCase names that only code and scenario files use; an audience never reads them.
    static let codeWords: Set<String> = {
        var words: Set<String> = Set(FlowStep.allCases.map(\.rawValue))
        words.formUnion(["landsAt", "linkOpensIn", "flowStep", "signedIn", "emailVerified", "noError", "narrates",
                         "tapLink", "openMailbox", "openMessage", "forgotPassword", "requestPasswordReset", "requestVerification",
                         "requestSignInLink", "confirmSignInEmail", "newPassword", "backToApp", "reloadUser", "signIn", "signOut",
                         "pasteLink", "killApp", "expectOn", "webWidget", "confirmEmailForSignIn", "verifyEmail", "dismissError",
                         "resetWorld", "addSecondFactor", "handledInWebWidget"])
        return words
    }()

    /// The lines an audience reads as sentences: the header, the status line and the caption.
    static func spokenLines(_ frame: Frame) -> [String] {
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard rows.count >= 3 else { return rows }
        return [rows[0], rows[rows.count - 2]]
    }

    static func codeWordsIn(_ text: String) -> [String] {
        text.split(whereSeparator: { !$0.isLetter }).map(String.init).filter { codeWords.contains($0) }
    }

    /// The status line's segments, as it separates them.
    static func statusSegments(_ frame: Frame) -> [String] {
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard rows.count >= 2 else { return [] }
        return rows[rows.count - 2].split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasSuffix("…") }
    }

    /// Words of a frame: runs of letters.
    static func words(_ frame: Frame) -> Set<String> {
        Set(frame.text.split(whereSeparator: { !$0.isLetter }).map(String.init))
    }

    /// Words cut at a pane's edge: a run of letters that touches a border (or the frame's
    /// edge), is no word the wide frames show, and begins a word they do show.
    static func cutWords(_ frame: Frame, vocabulary: Set<String>, prefixes: Set<String>) -> [String] {
        var cut: [String] = []
        for line in frame.text.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(line)
            for (index, character) in characters.enumerated() where character.isLetter {
                let next = index + 1 < characters.count ? characters[index + 1] : "│"
                guard "│╮╯┤".contains(next) else { continue }
                var start = index
                while start > 0, characters[start - 1].isLetter { start -= 1 }
                let word = String(characters[start...index])
                // A word inside a longer token (a URL, an address, an identifier) is not prose.
                if start > 0, !" ({[“\"'".contains(characters[start - 1]) { continue }
                if word.count >= 3, !vocabulary.contains(word), prefixes.contains(word) { cut.append(word) }
            }
        }
        return cut
    }

    /// Every proper prefix of every word, for `cutWords`.
    static func prefixes(of vocabulary: Set<String>) -> Set<String> {
        var prefixes: Set<String> = []
        for word in vocabulary where word.count > 3 {
            for length in 3..<word.count { prefixes.insert(String(word.prefix(length))) }
        }
        return prefixes
    }

    /// The header's step counter and caption, when a scenario is presented.
    static func headerStep(_ frame: Frame) -> (step: Int, caption: String)? {
        let header = frame.text.split(separator: "\n").first.map(String.init) ?? ""
        guard let range = header.range(of: #" step (\d+)/\d+ *$"#, options: .regularExpression) else { return nil }
        let counter = header[range].trimmingCharacters(in: .whitespaces).dropFirst(5).split(separator: "/").first.flatMap { Int($0) } ?? -1
        let caption = header[..<range.lowerBound].replacingOccurrences(of: " actionflow ", with: "").trimmingCharacters(in: .whitespaces)
        return (counter, caption)
    }

    /// Every invariant on a rehearsal's frames; `wide` are the same frames at the widest size.
    static func violations(_ shots: [Rehearsal.Shot], wide: [Rehearsal.Shot]) -> [String] {
        var found: [String] = []
        let vocabulary = wide.reduce(into: Set<String>()) { $0.formUnion(words($1.frame)) }
        let starts = prefixes(of: vocabulary)
        for shot in shots {
            let frame = shot.frame
            // The welcome screen is read whole: every line of it is words for a newcomer.
            let lines = shot.interface.ui.mode == .welcome ? frame.text.split(separator: "\n").map(String.init) : spokenLines(frame)
            for line in lines {
                let code = codeWordsIn(line)
                if !code.isEmpty { found.append("\(shot.place): code words \(code) in \"\(line)\"") }
            }
            let segments = statusSegments(frame)
            if Set(segments).count != segments.count { found.append("\(shot.place): the status line repeats itself: \(segments)") }
            // An overlay covers what is under it: the words it hides are not cut.
            let covered = shot.interface.ui.overlay != nil || shot.interface.ui.openingCard
            for word in covered ? [] : cutWords(frame, vocabulary: vocabulary, prefixes: starts) {
                found.append("\(shot.place): \"\(word)\" is cut at a pane's edge")
            }
            if shot.interface.ui.overlay == nil, !shot.interface.ui.openingCard, let (step, caption) = headerStep(frame), !caption.isEmpty, !caption.hasPrefix("▶") {
                let expected = shot.interface.stepCaption(step - 1)
                let shown = caption.components(separatedBy: "  ✓").first?.trimmingCharacters(in: .whitespaces) ?? caption
                let stem = (shown.hasSuffix("…") ? String(shown.dropLast()) : shown).trimmingCharacters(in: .whitespaces)
                if step < 1 || !expected.hasPrefix(stem) {
                    found.append("\(shot.place): the header says step \(step) \"\(shown)\", but step \(step) is \"\(expected)\"")
                }
            }
            // A computer has no app, only the app's website; a phone without the app has none yet.
            let device = shot.interface.session.app.device
            let claims = device.platform == .desktop ? [#"handled in the app\b"#, #"\[ Back to the app \]"#, #"(?<!web )\bapp asks for"#, #"into the app\b"#]
                : device.appInstalled ? [] : [#"handled in the app(?! once)"#, #"\[ Back to the app \]"#]
            for claim in claims where frame.text.range(of: claim, options: .regularExpression) != nil {
                found.append("\(shot.place): the \(shot.interface.session.focusedDevice.name.title) has no app, but the frame matches \(claim)")
            }
        }
        return found
    }

    /// Text cells under 4.5:1 in the frame's own theme.
    static func illegible(_ shots: [Rehearsal.Shot]) -> [String] {
        shots.flatMap { shot in
            textContrasts(shot.frame, name: shot.place, shown: ShownColors(theme: shot.interface.ui.theme, mode: .full256)).illegible.map(\.description)
        }
    }
}

@Suite("Rehearsal: every frame of every shipped scenario and story, at every size, in both themes")
@MainActor
struct RehearsalTests {
    nonisolated static let sizes = [(80, 24), (100, 30), (200, 50)]
    nonisolated static let scenarios = ScenarioLibrary.shippedFiles().map { $0.deletingPathExtension().lastPathComponent }

    @Test("Every frame of a presented scenario, n and b", arguments: scenarios)
    func scenario(_ name: String) throws {
        var problems: [String] = []
        for theme in Theme.allCases {
            var wide = try Rehearsal.presenting(name, size: (200, 50), theme: theme)
            wide.presentAll()
            for size in Self.sizes {
                var rehearsal = size == (200, 50) ? wide : try Rehearsal.presenting(name, size: size, theme: theme)
                if size != (200, 50) { rehearsal.presentAll() }
                // Text does not depend on the theme: the text checks run on the dark frames.
                if theme == .dark { problems += FrameInvariants.violations(rehearsal.shots, wide: wide.shots) }
                problems += FrameInvariants.illegible(rehearsal.shots)
            }
        }
        let parsed = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate(name))
        let captions = Interface.captions(parsed, groups: Interface.stepGroups(parsed))
        let repeated = Dictionary(grouping: captions, by: { $0 }).filter { $0.value.count > 1 }.keys
        if !repeated.isEmpty { problems.append("\(name): two steps share the caption \(repeated.sorted())") }
        #expect(problems.isEmpty, "\(problems.count) problems, the first 20:\n\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test("Every story from the welcome screen, one after another, starts clean and ends as written",
          arguments: [[DeviceName.iphone], [.iphone, .laptop]])
    func stories(devices: [DeviceName]) throws {
        var problems: [String] = []
        for theme in Theme.allCases {
            for size in Self.sizes {
                var rehearsal = try Rehearsal.welcome(size: size, theme: theme, devices: devices)
                for (index, story) in ScenarioLibrary.stories.enumerated() {
                    if index > 0 {
                        rehearsal.key(.character("w"), "w before story \(index + 1)")
                        rehearsal.key(.character(Character("\(index + 1)")), "picks story \(index + 1)")
                        // The session holds the last story's steps: the interface asks first.
                        rehearsal.key(.character("y"), "starts story \(index + 1) fresh")
                    } else {
                        rehearsal.key(.character("1"), "picks story 1")
                    }
                    rehearsal.settle("story \(index + 1) played")
                    let message = rehearsal.model.ui.message ?? ""
                    if message.hasPrefix("✗") { problems.append("\(rehearsal.name): story \(index + 1) “\(story.name)” ended with \(message)") }
                    if rehearsal.model.driver.session.journal.contains(where: { $0.lines.joined().contains("alice@example.com") }), index > 0 {
                        let sent = rehearsal.model.driver.session.sentMail.count
                        if sent > 0, rehearsal.model.driver.session.sentMail.contains(where: { $0.sentAt < rehearsal.model.driver.start.now ?? .distantPast }) {
                            problems.append("\(rehearsal.name): story \(index + 1) holds mail from before it began")
                        }
                    }
                    rehearsal.key(.escape, "Esc after story \(index + 1)")
                }
                if theme == .dark { problems += FrameInvariants.violations(rehearsal.shots, wide: rehearsal.shots) }
                problems += FrameInvariants.illegible(rehearsal.shots)
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, the first 20:\n\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test("Every frame of a replay of a headless run, n to the end and b back", arguments: scenarios)
    func replay(_ name: String) async throws {
        let scenario = try ScenarioParser.load(contentsOf: ScenarioLibrary.locate(name))
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        let recording = try #require(transcript.recording)
        var problems: [String] = []
        var wide: [Rehearsal.Shot] = []
        for size in Self.sizes.reversed() {
            var rehearsal = Rehearsal(Interface(replaying: recording, title: scenario.title, colorMode: .full256, width: size.0, height: size.1),
                                      name: "replay of \(name) at \(size.0)x\(size.1)")
            // One n per step: an event and the world's replies to it.
            for index in 0..<Replay(recording).stepCount { rehearsal.key(.character("n"), "n #\(index + 1)") }
            for index in 0..<3 { rehearsal.key(.character("b"), "b #\(index + 1)") }
            if size == (200, 50) { wide = rehearsal.shots }
            problems += FrameInvariants.violations(rehearsal.shots, wide: wide)
            // A replay offers nothing it refuses.
            for shot in rehearsal.shots where ["paste one with p", "R reset", "p paste link", "d use this device"].contains(where: shot.frame.text.contains) {
                problems.append("\(shot.place): the frame offers what a replay refuses")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, the first 20:\n\(problems.prefix(20).joined(separator: "\n"))")
    }

    nonisolated static let captures: [String] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../ActionFlowCommandTests/Fixtures/Captures").standardizedFileURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("flow-") || $0.hasPrefix("serve-") || $0.hasPrefix("production-") }.map { folder.appendingPathComponent($0).path }.sorted()
    }()

    @Test("Every frame of a replay of a real capture, n to the end and b back, in both themes", arguments: captures)
    func captureReplay(_ path: String) throws {
        let project = try ProjectConfigLoader.loadDefault()
        let name = URL(fileURLWithPath: path).lastPathComponent
        let recording = try CapturedFlow.read(try Data(contentsOf: URL(fileURLWithPath: path)), project: project).recording(project: project, source: name)
        var problems: [String] = []
        var wide: [Rehearsal.Shot] = []
        for size in Self.sizes.reversed() {
            for theme in [Theme.dark, .light] {
                var rehearsal = Rehearsal(Interface(replaying: recording, title: name, colorMode: .full256, theme: theme, width: size.0, height: size.1),
                                          name: "replay of \(name) at \(size.0)x\(size.1), \(theme)")
                // Through every pane at the start and at the end, so that each is drawn with the whole capture.
                for tab in 1...8 { rehearsal.key(.character(Character(String(tab))), "pane \(tab)") }
                // One n per step: an event and the world's replies to it.
                for index in 0..<Replay(recording).stepCount { rehearsal.key(.character("n"), "n #\(index + 1)") }
                for tab in 1...8 { rehearsal.key(.character(Character(String(tab))), "pane \(tab)") }
                for index in 0..<3 { rehearsal.key(.character("b"), "b #\(index + 1)") }
                if size == (200, 50), theme == .dark { wide = rehearsal.shots }
                problems += FrameInvariants.violations(rehearsal.shots, wide: wide)
                for shot in rehearsal.shots where ["paste one with p", "R reset", "p paste link", "d use this device"].contains(where: shot.frame.text.contains) {
                    problems.append("\(shot.place): the frame offers what a replay refuses")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, the first 20:\n\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test("Story 2 after story 1 opens on its own world: no mail, no flow of story 1")
    func secondStoryStartsClean() throws {
        var rehearsal = try Rehearsal.welcome(size: (100, 30), theme: .dark)
        rehearsal.key(.character("1"))
        rehearsal.settle("story 1")
        // Esc leaves the field story 1 left selected; then letters are shortcuts.
        rehearsal.key(.escape)
        _ = rehearsal.model.update(.key(.character("m")))
        let before = rehearsal.model.driver.session.sentMail.count
        rehearsal.key(.character("w"))
        rehearsal.key(.character("2"))
        #expect(rehearsal.model.ui.overlay == .confirmStory(1), "a session with steps asks before a story replaces it")
        rehearsal.key(.character("y"))
        rehearsal.settle("story 2")
        let session = rehearsal.model.driver.session
        #expect(before > 0 || session.sentMail.isEmpty)
        #expect(!session.journal.isEmpty)
        #expect(session.app.flow == nil || session.app.flow?.kind == .passwordReset)
        #expect(rehearsal.model.ui.message?.hasPrefix("✗") != true, "\(rehearsal.model.ui.message ?? "")")
        #expect(!session.app.settings.handleCodeInApp, "story 2 is the web widget's")
        // Esc is back, never quit: from the welcome screen back to the session, and never `.quit`.
        rehearsal.key(.character("w"))
        let commands = rehearsal.model.update(.key(.escape))
        #expect(!commands.contains(.quit))
        #expect(rehearsal.model.ui.mode == .main)
    }

    @Test("Esc never ends the program; q during a presentation asks")
    func escapeAndQuit() throws {
        var welcome = try Rehearsal.welcome(size: (80, 24), theme: .dark)
        #expect(!welcome.model.update(.key(.escape)).contains(.quit), "Esc on the first welcome screen")
        #expect(welcome.model.ui.mode == .welcome)
        var presenting = try Rehearsal.presenting("cross-device-password-reset", size: (80, 24), theme: .dark)
        for _ in 0..<3 { presenting.key(.character("n")); presenting.settle("n") }
        presenting.key(.character("w"))
        #expect(!presenting.model.update(.key(.escape)).contains(.quit))
        #expect(presenting.model.ui.mode == .main, "Esc on the welcome screen returns to the presentation")
        #expect(!presenting.model.update(.key(.character("q"))).contains(.quit), "q in a presentation asks first")
        #expect(presenting.model.ui.overlay == .confirmQuit)
        #expect(!presenting.model.update(.key(.character("n"))).contains(.quit), "any other key goes on")
        _ = presenting.model.update(.key(.character("q")))
        #expect(presenting.model.update(.key(.character("y"))).contains(.quit))
    }

    @Test("A narration scrolled into the middle of a line still shows its number, and … where it goes on from above")
    func narrationShowsTheNumberOfAPartLine() {
        let blocks: [Block] = (1...30).map { .item(String($0).padded(toColumns: 4), "a narration line long enough to wrap onto a second row, number \($0)", .text) }
        let layout = BlockLayout(blocks, width: 30, editing: nil)
        let starts = Set(layout.placed.map(\.row))
        var partial = 0
        for requested in [Int.max] + Array(0..<layout.contentHeight) {
            let offset = layout.scrollOffset(selected: nil, height: 7, requested: requested)
            var frame = Frame(width: 30, height: 7)
            layout.draw(into: &frame, rect: Rect(x: 0, y: 0, width: 30, height: 7), selected: nil, focused: false, editing: nil, offset: offset)
            let top = frame.text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            #expect(top.first?.isNumber == true, "scrolled to \(requested), the pane starts with \"\(top)\"")
            if !starts.contains(offset) {
                partial += 1
                #expect(top.prefix(4).hasSuffix("…"), "\(top)")
            }
        }
        #expect(partial > 0)
    }

    @Test("Each invariant catches what it is there for")
    func theChecksCanFail() {
        // A cut word at a border.
        var frame = Frame(width: 34, height: 3)
        frame.put("│ resetPassword {oobCode, newPass│", x: 0, y: 1)
        let vocabulary: Set<String> = ["resetPassword", "oobCode", "newPassword"]
        #expect(FrameInvariants.cutWords(frame, vocabulary: vocabulary, prefixes: FrameInvariants.prefixes(of: vocabulary)) == ["newPass"])
        // Code words in the header and a repeated status segment.
        var header = Frame(width: 60, height: 4)
        header.put(" actionflow  Password reset · emailSent", x: 0, y: 0)
        header.put(" on the iPhone │ signed out │ on the iPhone ", x: 0, y: 2)
        #expect(FrameInvariants.codeWordsIn(FrameInvariants.spokenLines(header)[0]) == ["emailSent"])
        #expect(FrameInvariants.statusSegments(header) == ["on the iPhone", "signed out", "on the iPhone"])
        // The header's counter and caption.
        var counter = Frame(width: 60, height: 2)
        counter.put(" actionflow   Taps the link in the latest email   step 4/8 ", x: 0, y: 0)
        #expect(FrameInvariants.headerStep(counter)?.step == 4)
        #expect(FrameInvariants.headerStep(counter)?.caption == "Taps the link in the latest email")
    }
}
