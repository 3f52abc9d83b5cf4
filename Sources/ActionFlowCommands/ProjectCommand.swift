import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import ArgumentParser
import Foundation

/// `actionflow project`: a project file for the user's own Firebase project.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Make a project file from your app's own Firebase configuration.",
        subcommands: [ProjectInitCommand.self]
    )
}

/// `actionflow project init --from PATH...`: a project file from `GoogleService-Info.plist`,
/// `google-services.json`, `firebase.json` and `.firebaserc`.
struct ProjectInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a project file from GoogleService-Info.plist, google-services.json, firebase.json and .firebaserc.",
        discussion: """
        Each PATH is one of those files, or a folder searched for them (an app's repository). \
        Every value in the file written says which file and field it came from; what the files \
        cannot tell (the Apple team id, SHA-256 fingerprints, authorized domains, the builds in \
        users' hands) is a QUESTION with a placeholder. The file works with --project FILE on \
        every command.
        """
    )

    @Option(name: .customLong("from"), parsing: .upToNextOption, help: ArgumentHelp("Configuration files, or folders to search for them.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Where to write the project file (default: standard output).", valueName: "file"))
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Option(help: ArgumentHelp("The Android app to take when google-services.json lists several.", valueName: "package"))
    var androidPackage: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("--from: name the app's configuration files, or a folder holding them") }
    }

    func run() throws {
        do {
            if let output { try OutputFile.check(output, inputs: paths, force: force, option: "--output") }
            let config = try AppConfigReader.read(paths, androidPackage: androidPackage)
            let text = ProjectFileWriter.yaml(config)
            // What is written must be a project every command runs on.
            _ = try ProjectConfigLoader.parse(text, fileName: output ?? "project file", base: ProjectConfigLoader.loadDefault())
            guard let output else {
                print(text, terminator: "")
                return
            }
            if let failure = Data(text.utf8).withUnsafeBytes({ DescriptorWrite.replaceFile(at: output, with: $0, mode: 0o644) }) {
                throw OutputFile.Refused(path: output, reason: "cannot be written: \(String(cString: strerror(failure)))")
            }
            let questions = text.components(separatedBy: "# QUESTION:").count - 1
            FileHandle.standardError.write(Data((UntrustedText.sanitize("wrote \(output) for \(config.projectId?.value ?? "?") from \(config.files.count) file(s); \(questions) question(s) to answer in it") + "\n").utf8))
        } catch {
            FileHandle.standardError.write(Data("actionflow project init: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
