import ActionFlowClient
import Foundation

/// A session's recording in the formats a design review uses: a Mermaid sequence diagram, a
/// Markdown review report, an asciicast of the interface playing it, and its exchanges as a
/// shell script of `curl` commands.
public enum SessionExport {
    public enum Format: String, CaseIterable, Sendable {
        case mermaid, markdown, cast, curl

        public var fileExtension: String {
            switch self {
            case .mermaid: "mmd"
            case .markdown: "md"
            case .cast: "cast"
            case .curl: "sh"
            }
        }

        /// What the interface's `e` writes: the review formats. A script of calls is asked for
        /// by name (`export --format curl`).
        static let review: [Format] = [.mermaid, .markdown, .cast]
    }

    /// The file's text. `columns` and `rows` size the cast's terminal; `revealsSecrets` writes
    /// a curl script's secrets as sent.
    public static func text(_ format: Format, recording: SessionRecording, title: String, columns: Int, rows: Int, revealsSecrets: Bool = false) -> String {
        switch format {
        case .mermaid: SequenceDiagram(recording.current).mermaid
        case .markdown: ReviewReport(title: title, session: recording.current).markdown
        case .cast: SessionCast(recording: recording, title: title, width: columns, height: rows).asciicast
        case .curl: CurlScript(title: title, session: recording.current, revealsSecrets: revealsSecrets).script
        }
    }

    /// Writes every review format into `folder` as `NAME-N.EXT`, N the first number no format's file
    /// uses yet, so that a second export never overwrites the first. Returns the paths written.
    public static func writeAll(recording: SessionRecording, title: String, into folder: String, columns: Int, rows: Int) throws(SessionExportError) -> [String] {
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
                try Data(text(format, recording: recording, title: title, columns: columns, rows: rows).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
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
