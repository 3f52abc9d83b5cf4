import Foundation

extension Array {
    /// The index of the first element for which `belongs` is false, in an array where every element for which it holds comes first.
    func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A recording played back one event or one step at a time, forwards and backwards. Stepping
/// back rebuilds the session from the start up to the previous event, so any position gives
/// exactly the session the recording had there. A step is an event and the world's replies to
/// it, which follow it in the recording (`AppEvent.isReply`), in both worlds.
public struct Replay: Sendable, Equatable {
    public let recording: SessionRecording
    /// How many events have been played.
    public private(set) var position: Int
    public private(set) var session: Session
    /// Where each step begins: the index of its first event.
    public let stepStarts: [Int]

    public init(_ recording: SessionRecording) {
        self.recording = recording
        position = 0
        session = recording.start
        stepStarts = recording.events.indices.filter { $0 == 0 || !recording.events[$0].isReply }
    }

    /// How many steps the recording has.
    public var stepCount: Int { stepStarts.count }

    /// How many steps have begun.
    public var stepsPlayed: Int { stepStarts.partitionPoint { $0 < position } }

    /// The event that began the last step played.
    public var lastStep: AppEvent? { stepsPlayed == 0 ? nil : recording.events[stepStarts[stepsPlayed - 1]] }

    /// Plays the next step: its event and the replies to it. False at the end.
    @discardableResult
    public mutating func forwardStep() -> Bool {
        guard forward() else { return false }
        while let next = nextEvent, next.isReply { forward() }
        return true
    }

    /// Back to where the last step played began; false at the start.
    @discardableResult
    public mutating func backStep() -> Bool {
        guard stepsPlayed > 0 else { return false }
        seek(to: stepStarts[stepsPlayed - 1])
        return true
    }

    public var count: Int { recording.events.count }
    public var isAtEnd: Bool { position >= count }

    /// The event the next step plays.
    public var nextEvent: AppEvent? { isAtEnd ? nil : recording.events[position] }

    /// Plays the next event; false at the end.
    @discardableResult
    public mutating func forward() -> Bool {
        guard let event = nextEvent else { return false }
        // Replies of a remote world are events of the recording: the effects are not run again.
        _ = session.reduce(event)
        position += 1
        return true
    }

    /// The session after the first `target` events, rebuilt from the start.
    public mutating func seek(to target: Int) {
        let target = max(0, min(count, target))
        if target < position {
            session = recording.start
            position = 0
        }
        while position < target { forward() }
    }

    /// Longer recorded pauses are cut to this when playing at the recorded pace.
    public static let longestPause: TimeInterval = 3
    /// The pace between steps when the recording has no times.
    public static let stepWithoutTimes: TimeInterval = 0.5

    /// How long to wait before the next event: the recorded pace (long pauses cut short), but
    /// never faster than a presenter's, so that a recording made by `run` in a few
    /// milliseconds still gives each step time to be read and each field time to be typed.
    public var pauseBeforeNext: TimeInterval {
        max(min(Self.longestPause, recordedPause ?? Self.stepWithoutTimes), nextEvent.map(Self.presenterPause) ?? 0)
    }

    /// The least time a presenter leaves before `event`: a step the user takes follows a
    /// moment to read the screen; typed text takes its typing time; a reply comes at once.
    public static func presenterPause(before event: AppEvent) -> TimeInterval {
        switch event {
        case .draftEdited(_, let text): 0.3 + typingPause * Double(min(text.count, 60))
        case .onDevice(_, let inner): presenterPause(before: inner)
        default: event.isUserStep ? readingPause : 0.2
        }
    }

    /// Seconds a presenter leaves to read a screen before the next step.
    public static let readingPause: TimeInterval = 1.5
    /// Seconds between two typed characters.
    public static let typingPause: TimeInterval = 0.04

    /// Seconds between the event just played and the next one, as recorded; nil when the
    /// recording has no times.
    public var recordedPause: TimeInterval? {
        guard let times = recording.times, position > 0, position < times.count else { return nil }
        return max(0, times[position].timeIntervalSince(times[position - 1]))
    }
}
