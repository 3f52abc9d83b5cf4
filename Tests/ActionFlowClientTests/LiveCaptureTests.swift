@testable import ActionFlowClient
import ActionFlowBackend
import ActionFlowModel
import Foundation
import Testing

/// `serve --inspect`'s reading: traffic one exchange at a time gives what `import` gives for
/// the same traffic in a file, a long run stays bounded, and the saved file holds every event.
@Suite("live traffic is read as a capture, in bounded memory")
struct LiveCaptureTests {
    /// A capture's exchanges fed one at a time, as the server hands them over.
    static func live(_ name: String) throws -> (live: [AppEvent], imported: SessionRecording, capture: LiveCapture) {
        let project = try ProjectConfigLoader.loadDefault()
        let data = try Data(contentsOf: CaptureSessionTests.captures.appendingPathComponent(name))
        var capture = LiveCapture(project: project, source: "serve --inspect", now: Date(timeIntervalSince1970: 1_800_000_000))
        var events: [AppEvent] = []
        _ = try HTTPArchive.forEachEntry(data) { index, entry in
            events += capture.read(CapturedExchange(entry: index, entry), at: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)))
        }
        return (events, try CaptureSessionTests.recording(name), capture)
    }

    static func facts(_ events: [AppEvent]) -> [CapturedFact] {
        events.compactMap { if case .captured(let step) = $0 { step.fact } else { nil } }
    }

    @Test("the recorded emulator capture read live: the same calls, links and findings as its import, each as it comes")
    func sameAsImport() throws {
        let (events, imported, capture) = try Self.live("serve-emulator.har")
        let live = Self.facts(events)
        let fromFile = Self.facts(imported.events)
        let calls = { (facts: [CapturedFact]) in facts.filter { if case .call = $0 { true } else { false } } }
        let links = { (facts: [CapturedFact]) in facts.filter { if case .actionLink = $0 { true } else { false } } }
        let findings = { (facts: [CapturedFact]) in facts.filter { if case .finding = $0 { true } else { false } } }
        #expect(calls(live) == calls(fromFile))
        #expect(links(live) == links(fromFile))
        #expect(findings(live).count == findings(fromFile).count)
        #expect(capture.calls == 9 && capture.links == 3)
        var session = capture.start
        for event in events { _ = session.reduce(event) }
        #expect(session.exchanges.map(\.operation) == imported.current.exchanges.map(\.operation))
        #expect(session.sentMail.map(\.to) == ["ios@example.com", "android@example.com", "bob@example.com"])
    }

    @Test("an oobCodes listing read again adds no link twice; preflights and unrelated traffic add nothing")
    func repeatsAndNoise() throws {
        let project = try ProjectConfigLoader.loadDefault()
        var capture = LiveCapture(project: project, source: "serve --inspect")
        let listing = Data(#"{"oobCodes":[{"email":"a@example.com","oobCode":"c1","oobLink":"http://127.0.0.1:9099/emulator/action?mode=resetPassword&oobCode=c1&apiKey=k&lang=en","requestType":"PASSWORD_RESET"}]}"#.utf8)
        func exchange(_ method: String, _ url: String, body: Data = Data()) -> CapturedExchange {
            CapturedExchange(entry: 0, startedDateTime: nil, time: 1, method: method, url: url, requestHeaders: [:], requestBody: Data(),
                             status: 200, responseHeaders: ["content-type": "application/json"], responseBody: body)
        }
        let oobCodes = "http://127.0.0.1:9099/emulator/v1/projects/p/oobCodes"
        let first = Self.facts(capture.read(exchange("GET", oobCodes, body: listing), at: Date()))
        #expect(first.filter { if case .actionLink = $0 { true } else { false } }.count == 1)
        #expect(capture.read(exchange("GET", oobCodes, body: listing), at: Date()).isEmpty, "the same link listed again")
        #expect(capture.read(exchange("OPTIONS", "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:sendOobCode"), at: Date()).isEmpty)
        #expect(capture.read(exchange("GET", "http://127.0.0.1:9099/favicon.ico"), at: Date()).isEmpty)
        #expect(capture.entries == 4 && capture.links == 1)
    }

    @Test("a long run keeps the last events and facts, and says what came before")
    func boundedWindow() throws {
        let (events, _, capture) = try Self.live("serve-emulator.har")
        var driver = SessionDriver(session: capture.start, runner: nil)
        for _ in 0..<200 { for event in events { _ = driver.sendNow(event) } }
        let all = driver.session.journal.count
        driver.forgetEarlierEvents(keepingLast: 100, facts: 60, mail: 5)
        #expect(driver.events.count == 100)
        #expect(driver.session.journal.count == 60)
        #expect(driver.session.sentMail.count == 5)
        #expect(driver.session.inbox.count == 5, "the mail kept is still listed")
        let earlier = try #require(driver.session.earlier)
        #expect(earlier.facts == all - 60)
        #expect(earlier.callCount > 1000)
        #expect(earlier.summary.hasPrefix("\(all - 60) earlier facts summarised: \(earlier.callCount) calls"))
        // The start moved on: replaying the events kept from it ends where the session is.
        var replayed = driver.start
        for event in driver.events { _ = replayed.reduce(event) }
        #expect(replayed.exchanges == driver.session.exchanges)
        #expect(replayed.app.lastLink == driver.session.app.lastLink)
    }

    @Test("the spool writes a session file with every event and its time, which loads and replays to the session shown")
    func spoolRoundTrip() throws {
        let (events, _, capture) = try Self.live("serve-emulator.har")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-spool-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("live.json").path
        let spool = try SessionSpool(path: path)
        var session = capture.start
        for (index, event) in events.enumerated() {
            spool.append([event], at: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)))
            _ = session.reduce(event)
        }
        try spool.finish(start: capture.start, current: session)
        let loaded = try #require(try SessionFile.load(path, transport: nil))
        #expect(loaded.events == events)
        #expect(loaded.times?.count == events.count)
        #expect(loaded.start == capture.start)
        #expect(loaded.current == session)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["live.json"], "the spool is gone once the session file holds its events")
    }

    @Test("--save into a folder that does not exist is refused before anything runs, naming the file")
    func unwritableSave() {
        #expect(throws: SessionFileError.self) { try SessionSpool(path: "/nonexistent-folder/live.json") }
    }
}
