import ActionFlowClient
import ActionFlowModel
import Foundation

extension Replay {
    /// The session as the interface shows a replay: the replayed session with its progress
    /// as a presenter's, so the narration names the current step.
    public func shownSession(title: String) -> Session {
        shownSession(title: title, captions: stepStarts.map { Self.caption(of: recording.events[$0], in: session) })
    }

    /// `captions`: each step's, worked out once for a walk through every step.
    func shownSession(title: String, captions: [String]) -> Session {
        var shown = session
        // A recording made headless sent its forms without typing into them: the fields show
        // what each form sent, as presenter mode shows it typed, not their placeholders.
        // What was typed into a field after a form sent it stays as typed.
        var sent: [Int: [String: String]] = [:]
        for event in recording.events.prefix(position) {
            let (device, inner) = if case .onDevice(let index, let inner) = event { (index, inner) } else { (shown.focus, event) }
            if case .draftEdited(let field, _) = inner { sent[device]?[field] = nil }
            for (field, text) in inner.submittedFields { sent[device, default: [:]][field.rawValue] = text }
        }
        for (device, fields) in sent where shown.devices.indices.contains(device) {
            shown.devices[device].drafts.merge(fields) { _, submitted in submitted }
        }
        var progress = PresenterProgress(title: title, steps: captions)
        progress.played = stepsPlayed
        progress.lastResult = stepsPlayed == 0 ? nil : "step \(stepsPlayed): \(captions[stepsPlayed - 1])"
        shown.presenter = progress
        return shown
    }

    /// An event's caption, said of the device it happened on: on a computer "the app" is its website.
    static func caption(of event: AppEvent, in session: Session) -> String {
        let index = if case .onDevice(let device, _) = event { device } else { session.focus }
        guard session.devices.indices.contains(index) else { return event.caption }
        return Vocabulary.said(event.caption, on: session.devices[index].app.device)
    }

    /// What the status line names instead of a transport: nothing is called while replaying.
    public var transportLabel: String {
        recording.current.capture.map { "replay · captured traffic (\(UntrustedText.sanitize($0)))" } ?? "replay · \(recording.transport) session"
    }
}

/// A recording played in the interface, headless, as an asciicast v2 file: a header line, then
/// one `[seconds, "o", bytes]` event per frame, each a full redraw of the screen, and a
/// `[seconds, "m", label]` marker before each step the user took.
public struct SessionCast: Sendable {
    public let recording: SessionRecording
    public let title: String
    public let drawing: SessionExport.Drawing
    public var width: Int { drawing.columns }
    public var height: Int { drawing.rows }

    public init(recording: SessionRecording, title: String, drawing: SessionExport.Drawing) {
        self.recording = recording
        self.title = title
        self.drawing = drawing
    }

    public init(recording: SessionRecording, title: String, width: Int, height: Int) {
        self.init(recording: recording, title: title, drawing: SessionExport.Drawing(columns: width, rows: height))
    }

    /// The frames the interface shows, from the recording's start, one per step, with the
    /// second each appears and the event that began its step.
    public var frames: [(time: TimeInterval, frame: Frame, step: AppEvent?)] {
        drawing.steps(of: recording, title: title).map { ($0.time, $0.frame, $0.event) }
    }

    /// The whole file: the header, then the events, one JSON value per line.
    public var asciicast: String {
        var header: [String: Any] = ["version": 2, "width": width, "height": height, "title": title]
        if let start = recording.times?.first { header["timestamp"] = start.wholeSecondsSince1970 }
        var lines = [Self.json(header)]
        var step = 0
        for (index, (time, frame, event)) in frames.enumerated() {
            let stamp = String(format: "%.6f", time)
            // A marker where each step the user took begins, so a player can jump between steps.
            if let event, event.isUserStep {
                step += 1
                lines.append("[\(stamp), \"m\", \(Self.json("step \(step): \(event.caption)"))]")
            }
            let setup = index == 0 ? "\u{1B}[?25l" : ""
            lines.append("[\(stamp), \"o\", \(Self.json(setup + Self.drawing(frame)))]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The bytes that draw `frame` on a cleared screen: each row from its first column, with
    /// an SGR sequence wherever the style changes. Continuation cells are skipped, since the
    /// wide character before them already covers their column.
    public static func drawing(_ frame: Frame) -> String {
        var out = "\u{1B}[0m\u{1B}[H\u{1B}[2J"
        for y in 0..<frame.height {
            out += "\u{1B}[\(y + 1);1H"
            var current = CellStyle.plain
            for x in 0..<frame.width {
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                if cell.style != current {
                    out += sgr(cell.style)
                    current = cell.style
                }
                out += cell.text
            }
            if current != .plain { out += "\u{1B}[0m" }
        }
        return out
    }

    static func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        switch style.foreground {
        case .default: break
        case .ansi(let n): codes.append("\(30 + Int(n % 8))")
        case .indexed(let n): codes.append("38;5;\(n)")
        }
        switch style.background {
        case .default: break
        case .ansi(let n): codes.append("\(40 + Int(n % 8))")
        case .indexed(let n): codes.append("48;5;\(n)")
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// As `JSONSerialization` writes it with `.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes`.
    private static func json(_ value: Any) -> String {
        JSONOutput.string(plain: value, format: .wire) ?? "null"
    }
}
