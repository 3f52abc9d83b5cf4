import ActionFlowBackend
@testable import ActionFlowClient
import ActionFlowModel
import ActionFlowTransport
import Foundation
import Testing

@Suite("Replay: forwards and backwards through a recording")
struct ReplayTests {
    func recordedReset() async throws -> SessionRecording {
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-web-widget"))
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: try ProjectConfigLoader.loadDefault())
        return try #require(transcript.recording)
    }

    @Test("played to the end, a replay reaches the recorded session exactly")
    func reachesTheEnd() async throws {
        let recording = try await recordedReset()
        var replay = Replay(recording)
        while replay.forward() {}
        #expect(replay.position == recording.events.count)
        #expect(replay.session == recording.current)
    }

    @Test("stepping back and forth reaches at every position the session a straight play reaches")
    func backAndForth() async throws {
        let recording = try await recordedReset()
        var straight = Replay(recording)
        var sessions = [straight.session]
        while straight.forward() { sessions.append(straight.session) }
        var replay = Replay(recording)
        replay.seek(to: recording.events.count)
        for position in stride(from: recording.events.count, through: 0, by: -1) {
            #expect(replay.position == position)
            #expect(replay.session == sessions[position], "at \(position) after stepping back")
            replay.back()
        }
        let movedBeforeStart = replay.back()
        #expect(!movedBeforeStart, "nothing before the start")
        replay.seek(to: 3)
        replay.forward()
        #expect(replay.session == sessions[4])
    }

    @Test("a remote session replays from its recorded replies, without a server")
    func remoteRecording() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("password-reset-in-app"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: RestrictedTransport.emulatorLike(EmbeddedTransport(configuration: project)))
        let recording = try #require(transcript.recording)
        #expect(recording.events.contains { if case .exchangeRecorded = $0 { true } else { false } })
        var replay = Replay(recording)
        while replay.forward() {}
        #expect(replay.session == recording.current)
    }

    @Test("a remote session of two devices replays too: each reply was recorded with its device, and back and forth agree")
    func remoteTwoDevices() async throws {
        let project = try ProjectConfigLoader.loadDefault()
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate("cross-device-password-reset"))
        let transcript = await ScenarioLibrary.run(scenario, baseProject: project, over: RestrictedTransport.emulatorLike(EmbeddedTransport(configuration: project)))
        #expect(transcript.passed, "\(transcript.text())")
        let recording = try #require(transcript.recording)
        let replies = recording.events.filter { if case .onDevice(_, .callSucceeded) = $0 { true } else { false } }
        #expect(!replies.isEmpty)
        #expect(!recording.events.contains { if case .callSucceeded = $0 { true } else { false } }, "no reply without its device")
        var replay = Replay(recording)
        while replay.forward() {}
        #expect(replay.session == recording.current)
        replay.seek(to: recording.events.count / 2)
        var straight = Replay(recording)
        for _ in 0..<(recording.events.count / 2) { straight.forward() }
        #expect(replay.session == straight.session)
    }

    @Test("the recorded pace: the pause before each event, from the times kept with the file")
    func recordedPace() async throws {
        let base = try await recordedReset()
        let start = Date(timeIntervalSince1970: 1_000)
        let recording = SessionRecording(start: base.start, events: base.events, times: base.events.indices.map { start.addingTimeInterval(Double($0) * 2) }, current: base.current, worlds: base.worlds)
        var replay = Replay(recording)
        #expect(replay.recordedPause == nil, "nothing played yet")
        replay.forward()
        #expect(replay.recordedPause == 2)
        let decoded = try SessionFile.decode(SessionFile.encode(recording), path: "paced.json", transport: nil)
        #expect(decoded.times == recording.times)
    }
}
