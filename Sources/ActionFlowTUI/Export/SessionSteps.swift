import ActionFlowClient
import ActionFlowModel
import Foundation

/// One step of a recording as the interface showed it: the frame drawn once the step and the
/// world's replies to it were played, with what the step said and called.
public struct SessionStep: Sendable {
    /// 0 for the screen before the first step, then 1, 2...
    public var number: Int
    /// The step's plain caption, said of the device it happened on.
    public var caption: String
    /// The event that began the step; nil for the start.
    public var event: AppEvent?
    public var frame: Frame
    /// Where the devices are drawn in `frame` (two stand side by side in a wide one); nil when
    /// the frame is too small to draw them.
    public var phones: Rect?
    /// The narration lines the step produced, as the Narration pane shows them.
    public var narration: [String]
    /// The backend calls the step made: each request with its answer.
    public var calls: [String]
    /// Seconds from the start at which the step is shown, at a presenter's pace.
    public var time: TimeInterval
}

/// The steps of a recording, played headless one at a time, so that a recording of thousands of
/// steps is drawn in the memory of one frame.
public struct SessionSteps: Sequence, IteratorProtocol, Sendable {
    public static let startCaption = "The start"

    private var replay: Replay
    private let title: String
    private let ui: UIState
    private let width: Int
    private let height: Int
    private var time: TimeInterval = 0
    private var started = false
    private var lastCall = 0
    /// Each step's caption, said of the device it happened on.
    public let captions: [String]

    /// `captions`: a scenario's own words for the steps that begin at these event indexes
    /// (`Interface.presentedCaptions`); every other step is captioned by its event.
    public init(recording: SessionRecording, title: String, width: Int, height: Int, theme: Theme = .dark, captions: [Int: String] = [:]) {
        replay = Replay(recording)
        self.title = title
        var ui = UIState(colorMode: .full256, theme: theme)
        ui.mode = .main
        self.ui = ui
        self.width = width
        self.height = height
        lastCall = recording.start.exchanges.map(\.id).max() ?? 0
        let replay = replay
        let presented = captions
        self.captions = replay.stepStarts.map { presented[$0] ?? Replay.caption(of: recording.events[$0], in: recording.current) }
    }

    /// How many steps `next()` gives in all, the start included.
    public var count: Int { replay.stepCount + 1 }

    public mutating func next() -> SessionStep? {
        if !started {
            started = true
            let shown = replay.shownSession(title: title, captions: captions)
            return SessionStep(number: 0, caption: Self.startCaption, event: nil, frame: render(shown), phones: phones(shown), narration: [], calls: [], time: 0)
        }
        guard !replay.isAtEnd else { return nil }
        time += replay.pauseBeforeNext
        let journalBefore = replay.session.journal.count
        replay.forwardStep()
        let shown = replay.shownSession(title: title, captions: captions)
        let event = replay.lastStep
        let narration = shown.journal.count >= journalBefore ? shown.journal[journalBefore...].flatMap(\.lines) : []
        let calls = shown.exchanges.filter { $0.id > lastCall }.map { exchange in
            "\(exchange.request): " + (exchange.status.map { "HTTP \($0)" } ?? exchange.failure.map { Narration.describe($0) } ?? "no response")
        }
        lastCall = Swift.max(lastCall, shown.exchanges.map(\.id).max() ?? 0)
        return SessionStep(number: replay.stepsPlayed, caption: captions[replay.stepsPlayed - 1],
                           event: event, frame: render(shown), phones: phones(shown), narration: narration.map(UntrustedText.sanitize), calls: calls.map(UntrustedText.sanitize), time: time)
    }

    private func phones(_ session: Session) -> Rect? {
        let layout = ScreenLayout(width: width, height: height, session: session)
        guard !layout.isTooSmall else { return nil }
        guard let other = layout.otherPhone else { return layout.phone }
        let (left, right) = (Swift.min(layout.phone.x, other.x), Swift.max(layout.phone.maxX, other.maxX))
        return Rect(x: left, y: layout.phone.y, width: right - left, height: layout.phone.height)
    }

    private func render(_ session: Session) -> Frame {
        MainView.render(session: session, ui: ui, transport: replay.transportLabel, width: width, height: height)
    }
}
