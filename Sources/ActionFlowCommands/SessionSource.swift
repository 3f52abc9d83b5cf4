import ActionFlowClient
import ActionFlowModel
import ActionFlowTUI
import Foundation

/// FILE as `replay` and `export` take it: a session file, an HTTP capture (HAR) played as a
/// session, or a scenario played headless first on the embedded project.
struct SessionSource {
    var recording: SessionRecording
    /// The scenario's name, or the session file's name.
    var title: String
    /// The scenario's description; nil for a session file or a capture.
    var description: String? = nil
    /// The scenario's own captions, by the index of the event that begins their step.
    var captions: [Int: String] = [:]
    /// The scenario's unmet expectation, where the recording stops; nil for a session file.
    var failure: ScenarioFailure?

    /// `keepsCapturedValues`: a capture's requests and answers as they were, for a curl script
    /// that repeats it; nothing else needs them, and nothing else keeps them.
    static func load(_ file: String, project: ProjectFileOption, keepsCapturedValues: Bool = false) async throws -> SessionSource {
        if isCapture(file) {
            let mapped: MappedFile
            do {
                // Mapped, not read: a capture can be 100 MB of other traffic.
                mapped = try MappedFile(path: file)
            } catch {
                throw CaptureSourceError(path: file, reason: error.description)
            }
            let configuration = try project.load()
            do {
                let flow = try CapturedFlow.read(mapped.data, project: configuration, release: mapped.release)
                let name = URL(fileURLWithPath: file).lastPathComponent
                return SessionSource(recording: flow.recording(project: configuration, source: name, keepsValues: keepsCapturedValues), title: name, failure: nil)
            } catch {
                throw CaptureSourceError(path: file, reason: error.description)
            }
        }
        if isSessionFile(file) {
            guard let recording = try SessionFile.load(file, transport: nil) else {
                throw SessionFileError(path: file, "does not exist")
            }
            return SessionSource(recording: recording, title: URL(fileURLWithPath: file).lastPathComponent, failure: nil)
        }
        let scenario = try ScenarioParser.load(contentsOf: try ScenarioLibrary.locate(file))
        let baseProject = try project.load()
        _ = try scenario.project.validated(appliedTo: baseProject, source: scenario.source)
        let transcript = await ScenarioLibrary.runEmbedded(scenario, baseProject: baseProject)
        guard let recording = transcript.recording else {
            throw transcript.failure ?? ScenarioFailure(source: scenario.source, step: 0, line: nil, message: "the scenario did not run")
        }
        return SessionSource(recording: recording, title: scenario.name, description: scenario.description,
                             captions: Interface.presentedCaptions(scenario, sentEvents: transcript.sentEvents), failure: transcript.failure)
    }

    /// A `.har` path, or a JSON file whose first key is `log`, as every HAR writer puts it.
    static func isCapture(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".har") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = ((try? handle.read(upToCount: 64)) ?? Data()).filter { !$0.isWhitespace }
        return start.starts(with: Data(#"{"log""#.utf8))
    }

    /// A `.json` path, or a file whose first character is `{`.
    static func isSessionFile(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".json") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 64)) ?? Data()
        return start.first { !$0.isWhitespace } == UInt8(ascii: "{")
    }
}

/// A capture given to `replay` or `export` that cannot be read.
struct CaptureSourceError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { UntrustedText.sanitize("capture \(path): \(reason)") }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
