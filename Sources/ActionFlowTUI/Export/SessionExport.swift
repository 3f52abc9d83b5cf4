import ActionFlowClient
import Foundation

/// A session's recording in the formats a design review uses: a Mermaid sequence diagram, a
/// Markdown review report, an asciicast of the interface playing it, a deck of its steps' pictures
/// as one HTML file, a folder of SVG pictures, and its exchanges as a shell script of `curl`
/// commands.
public enum SessionExport {
    public enum Format: String, CaseIterable, Sendable {
        case mermaid, markdown, cast, html, svg, curl

        public var fileExtension: String {
            switch self {
            case .mermaid: "mmd"
            case .markdown: "md"
            case .cast: "cast"
            case .html: "html"
            case .svg: "svg"
            case .curl: "sh"
            }
        }

        /// Whether the format draws the interface's frames (a size and a theme apply).
        public var drawsFrames: Bool { self == .cast || self == .html || self == .svg }

        /// What the interface's `e` writes: the review formats. A script of calls is asked for
        /// by name (`export --format curl`), and so is a folder of pictures.
        static let review: [Format] = [.mermaid, .markdown, .cast, .html]
    }

    /// How the frames of a cast, a deck or pictures are drawn.
    public struct Drawing: Sendable {
        public var columns: Int
        public var rows: Int
        public var style: StepPictures.Style
        /// A scenario's own captions, by the index of the event that begins their step
        /// (`Interface.presentedCaptions`).
        public var captions: [Int: String]

        public init(columns: Int, rows: Int, theme: Theme = .dark, phoneOnly: Bool = false, captions: [Int: String] = [:]) {
            self.columns = columns
            self.rows = rows
            style = StepPictures.Style(theme: theme, phoneOnly: phoneOnly)
            self.captions = captions
        }

        /// The steps of `recording` drawn so.
        public func steps(of recording: SessionRecording, title: String) -> SessionSteps {
            SessionSteps(recording: recording, title: title, width: columns, height: rows, theme: style.theme, captions: captions)
        }
    }

    /// The file's text, for every format but `svg` (a folder: `StepPictures.write`).
    /// `description` opens a deck; `revealsSecrets` writes a curl script's secrets as sent.
    public static func text(_ format: Format, recording: SessionRecording, title: String, description: String? = nil, drawing: Drawing, revealsSecrets: Bool = false) -> String {
        switch format {
        case .mermaid: SequenceDiagram(recording.current).mermaid
        case .markdown: ReviewReport(title: title, session: recording.current).markdown
        case .cast: SessionCast(recording: recording, title: title, drawing: drawing).asciicast
        case .html: ReviewDeck(recording: recording, title: title, description: description, drawing: drawing).html
        case .svg: preconditionFailure("pictures are a folder, written by StepPictures.write")
        case .curl: CurlScript(title: title, session: recording.current, revealsSecrets: revealsSecrets).script
        }
    }

    /// Writes every review format into `folder` as `NAME-N.EXT`, N the first number no format's file
    /// uses yet, so that a second export never overwrites the first. Returns the paths written.
    public static func writeAll(recording: SessionRecording, title: String, into folder: String, drawing: Drawing) throws(SessionExportError) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SessionExportError("the folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else { throw SessionExportError("no write permission in \(folder)") }
        let base = fileNameBase(title)
        var counter = 1
        // Paths as the folder was given, so that the status line stays short.
        func paths(_ counter: Int) -> [(Format, String)] {
            Format.review.map { ($0, (folder as NSString).appendingPathComponent("\(base)-\(counter).\($0.fileExtension)")) }
        }
        while paths(counter).contains(where: { FileManager.default.fileExists(atPath: $0.1) }) { counter += 1 }
        var written: [String] = []
        for (format, path) in paths(counter) {
            do {
                try Data(text(format, recording: recording, title: title, drawing: drawing).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw SessionExportError("cannot write \(path): \(error.localizedDescription)")
            }
            written.append(path)
        }
        return written
    }

    /// The title as a file name: letters, digits, `.`, `_` and `-`; anything else becomes `-`.
    static func fileNameBase(_ title: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let cleaned = String(title.map { allowed.contains($0) ? $0 : "-" }).trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
        return cleaned.isEmpty ? "session" : String(cleaned.prefix(80))
    }
}

public struct SessionExportError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
