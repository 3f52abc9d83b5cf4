import ActionFlowBackend
import ActionFlowClient
@testable import ActionFlowCommands
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import ArgumentParser
import Foundation
import Logging
import Testing

/// `project init`: a project file from an app's own configuration files, in the shapes
/// Firebase's quickstart repositories ship (quickstart-ios `authentication/GoogleService-Info.plist`,
/// quickstart-android `mock-google-services.json`).
@Suite("A project from the app's own files")
struct ProjectInitTests {
    static let serviceInfo = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>API_KEY</key>
    \t<string>AIzaSyAzlj4APqi5S58nFtE52Da0fYBOHA2MhaY</string>
    \t<key>BUNDLE_ID</key>
    \t<string>com.google.firebase.quickstart.AuthenticationExample</string>
    \t<key>GCM_SENDER_ID</key>
    \t<string>123456789000</string>
    \t<key>GOOGLE_APP_ID</key>
    \t<string>1:123456789000:ios:f1bf012572b04063</string>
    \t<key>IS_SIGNIN_ENABLED</key>
    \t<true/>
    \t<key>PROJECT_ID</key>
    \t<string>mockproject-1234</string>
    </dict>
    </plist>
    """

    static func googleServices(project: String = "mockproject-1234", packages: [String] = ["com.google.firebase.quickstart.auth"]) -> String {
        let clients = packages.map { package in
            """
            {"client_info": {"mobilesdk_app_id": "1:123456789000:android:f1bf012572b04063", "client_id": "android:\(package)", "client_type": 1,
               "android_client_info": {"package_name": "\(package)", "certificate_hash": []}},
             "oauth_client": [
               {"client_id": "123456789000-a.apps.googleusercontent.com", "client_type": 1,
                "android_info": {"package_name": "\(package)", "certificate_hash": "4C20644DE36B8F89D25650C7D1FF9FBAE650FDF7"}},
               {"client_id": "123456789000-b.apps.googleusercontent.com", "client_type": 3}],
             "api_key": [{"current_key": "AIzbSzCn1N6LWIe6wthYyrgUUSAlUsdqMb-wvTo"}],
             "services": {"appinvite_service": {"status": 2}}}
            """
        }
        return """
        {"project_info": {"project_id": "\(project)", "project_number": "123456789000", "name": "FirebaseQuickstarts"},
         "client": [\(clients.joined(separator: ","))], "configuration_version": "1"}
        """
    }

    /// An app repository: iOS and Android apps, Hosting with two sites (one by target).
    struct AppFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)")
        func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

        init(files: [String: String]) throws {
            for (relative, text) in files {
                let file = url.appendingPathComponent(relative)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }

        static func whole() throws -> AppFolder {
            try AppFolder(files: [
                "ios/Runner/GoogleService-Info.plist": serviceInfo,
                "android/app/google-services.json": googleServices(),
                "firebase.json": #"{"hosting": [{"target": "links", "public": "public"}, {"site": "mockproject-docs", "appAssociation": "NONE"}]}"#,
                ".firebaserc": #"{"projects": {"default": "mockproject-1234"}, "targets": {"mockproject-1234": {"hosting": {"links": ["mockproject-links"]}}}}"#,
                "node_modules/x/google-services.json": "not searched",
            ])
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    func initCommand(_ arguments: [String]) throws -> ProjectInitCommand {
        try #require(ActionFlowCommand.parseAsRoot(["project", "init"] + arguments) as? ProjectInitCommand)
    }

    @Test("Every value the files hold is taken, each with its file and field; every value they cannot hold is a question")
    func wholeApp() throws {
        let app = try AppFolder.whole()
        defer { app.remove() }
        let config = try AppConfigReader.read([app.url.path])
        #expect(config.files.count == 4, "node_modules is not searched: \(config.files)")
        #expect(config.projectId?.value == "mockproject-1234")
        #expect(config.iOSBundleId?.value == "com.google.firebase.quickstart.AuthenticationExample" && config.iOSBundleId?.source == "GoogleService-Info.plist: BUNDLE_ID")
        #expect(config.androidPackage?.value == "com.google.firebase.quickstart.auth")
        #expect(config.androidSHA1.map(\.value) == ["4C:20:64:4D:E3:6B:8F:89:D2:56:50:C7:D1:FF:9F:BA:E6:50:FD:F7"])
        #expect(config.hostingSites.map(\.name.value) == ["mockproject-links", "mockproject-docs"])
        #expect(config.hostingSites.map(\.servesNoAssociation) == [false, true])

        let text = ProjectFileWriter.yaml(config)
        #expect(text.contains("# GoogleService-Info.plist: BUNDLE_ID\n  bundleId: \"com.google.firebase.quickstart.AuthenticationExample\""))
        #expect(text.contains("# google-services.json: client[0].oauth_client[0].android_info.certificate_hash"))
        for question in ["team id", "SHA-256", "Authorized domains", "App Store id", "version code on the Play Store", "builds in users' hands"] {
            #expect(text.contains(question), "no question for \(question)")
        }
        #expect(text.contains("appAssociation: NONE"))

        // A project every command runs on, with none of the demo's apps or domains left.
        let project = try ProjectConfigLoader.parse(text, fileName: "project.yaml", base: ProjectConfigLoader.loadDefault())
        #expect(project.projectId == "mockproject-1234")
        #expect(project.iOSApp?.bundleId == "com.google.firebase.quickstart.AuthenticationExample" && project.iOSApp?.teamId == nil)
        #expect(project.androidApp?.packageName == "com.google.firebase.quickstart.auth" && project.androidApp?.sha256 == [])
        #expect(project.authorizedDomains == ["localhost", "mockproject-1234.firebaseapp.com", "mockproject-1234.web.app"])
        #expect(project.hostingDomains == ["mockproject-links.firebaseapp.com", "mockproject-links.web.app", "mockproject-docs.firebaseapp.com", "mockproject-docs.web.app"])
        #expect(project.apps.isEmpty && project.dynamicLinkDomains.isEmpty)
        #expect(!text.contains("example.com") && !text.contains("demo-actionflow"))
    }

    @Test("The file written is refused over an existing file without --force, then runs a scenario with --project")
    func writesAndRuns() async throws {
        let app = try AppFolder.whole()
        defer { app.remove() }
        let output = app.path("project.yaml")
        try await initCommand(["--from", app.url.path, "--output", output]).run()
        let written = try String(contentsOfFile: output, encoding: .utf8)
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: output))
        await #expect(throws: ExitCode.self) { try await initCommand(["--from", app.url.path, "--output", output]).run() }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "mine\n", "the user's file is kept")
        try await initCommand(["--from", app.url.path, "--output", output, "--force"]).run()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == written)
        await #expect(throws: ExitCode.self) { try await initCommand(["--from", output, "--output", output, "--force"]).run() }

        let run = try #require(ActionFlowCommand.parseAsRoot(["run", "verify-email-in-app", "--project", output]) as? RunCommand)
        let project = try run.transportOptions.project.load()
        #expect(project.projectId == "mockproject-1234")
    }

    @Test("inspect, matrix and the flow commands read the project file: the app's own domains and apps, none of the demo's")
    func everyCommand() async throws {
        let app = try AppFolder.whole()
        defer { app.remove() }
        let output = app.path("project.yaml")
        try await initCommand(["--from", app.url.path, "--output", output]).run()

        let link = "https://mockproject-1234.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=abc&apiKey=k&continueUrl=https%3A%2F%2Fwww.example.com%2Fa"
        let inspect = try #require(ActionFlowCommand.parseAsRoot(["inspect", link, "--project", output]) as? InspectCommand)
        #expect(try inspect.authorizedDomains() == ["localhost", "mockproject-1234.firebaseapp.com", "mockproject-1234.web.app"])
        let text = try InspectCommand.render(link, json: false, authorizedDomains: try inspect.authorizedDomains()).get()
        #expect(text.contains("continueUrl https://www.example.com/a  [NOT authorized]"), "www.example.com is the demo's domain, not this project's")

        let matrix = try #require(ActionFlowCommand.parseAsRoot(["matrix", "--migration", "--project", output]) as? MatrixCommand)
        let project = try matrix.projectFile.load()
        #expect(project.projectId == "mockproject-1234" && project.apps.isEmpty)
        guard case .failure(let refusal) = MatrixCommand.renderMigration(settings: matrix.settings, requestType: .passwordReset, project: project, format: .text) else {
            Issue.record("the demo's apps in the field were shown for another project")
            return
        }
        #expect(refusal.lines.joined().contains("project mockproject-1234 lists no apps in the field"))
    }

    @Test("--online asks the project's public configuration for its authorized domains over a real socket; a server that is not there is said")
    func online() async throws {
        let app = try AppFolder.whole()
        defer { app.remove() }
        var logger = Logger(label: "project-init")
        logger.logLevel = .critical
        let served = try ProjectConfigLoader.loadDefault()
        let server = try await AuthEmulatorServer(api: EmulatorAPI(transport: EmbeddedTransport(configuration: served), project: ServedProject(served)), port: 0, logger: logger).start()
        let output = app.path("project.yaml")
        try await initCommand(["--from", app.url.path, "--output", output, "--online", "--emulator", "127.0.0.1:\(server.port)"]).run()
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("# GET http://127.0.0.1:\(server.port)/identitytoolkit.googleapis.com/v1/projects?key=AIzbSz"))
        #expect(!text.contains("AIzbSzCn1N6LWIe6wthYyrgUUSAlUsdqMb-wvTo (the project"), "the key is masked in the comment")
        let project = try ProjectConfigLoader.parse(text, fileName: "project.yaml", base: ProjectConfigLoader.loadDefault())
        #expect(project.authorizedDomains == served.authorizedDomains, "the served project's answer")
        await server.stop()
        await #expect(throws: ExitCode(2)) {
            try await initCommand(["--from", app.url.path, "--output", output, "--force", "--online", "--emulator", "127.0.0.1:\(server.port)"]).run()
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == text, "a failed ask writes nothing")
    }

    @Test("Files cut, of another platform or of two projects are refused, naming the file and the field")
    func badFiles() throws {
        let cases: [(files: [String: String], arguments: [String], says: String)] = [
            (["google-services.json": String(Self.googleServices().prefix(200))], [], "google-services.json: is not valid JSON"),
            (["GoogleService-Info.plist": String(Self.serviceInfo.prefix(300))], [], "GoogleService-Info.plist: is not a readable property list"),
            (["GoogleService-Info.plist": Self.serviceInfo, "google-services.json": Self.googleServices(project: "other-5678")], [],
             "project_info.project_id: is 'other-5678', but GoogleService-Info.plist: PROJECT_ID is 'mockproject-1234'"),
            (["google-services.json": #"{"project_info": {"project_id": "p"}, "client": [{"client_info": {}}]}"#], [], "android_client_info.package_name: missing"),
            (["Info.plist": #"<?xml version="1.0"?><plist version="1.0"><dict><key>PROJECT_ID</key><string>p</string></dict></plist>"#], [], "Info.plist: API_KEY: missing: is this an iOS app's GoogleService-Info.plist?"),
            (["google-services.json": Self.googleServices(packages: ["a.one", "b.two"])], ["--android-package", "c.three"], "lists no app c.three (it lists a.one, b.two)"),
            (["settings.json": #"{"editor": 1}"#], [], "is not a Firebase configuration file"),
            (["firebase.json": #"{"hosting": {"appAssociation": "SOMETIMES"}}"#, ".firebaserc": #"{"projects": {"default": "p"}}"#], [], "hosting.appAssociation: is 'SOMETIMES'"),
            (["firebase.json": #"{"hosting": {}}"#], [], "none of these names the project"),
            (["big.json": String(repeating: " ", count: 1 << 21)], [], "is larger than 1 MiB"),
        ]
        for (files, arguments, says) in cases {
            let app = try AppFolder(files: files)
            defer { app.remove() }
            let paths = files.keys.sorted().map(app.path)
            #expect {
                _ = try AppConfigReader.read(paths, androidPackage: arguments.last)
            } throws: { error in
                "\(error)".contains(says)
            }
        }
    }

    @Test("Hostile text in a file's values stays one safe line in the project file, and the project it makes is refused, safely said")
    func hostileValues() throws {
        let bundle = "com.evil\u{1B}[2J\n#injected: true\u{202E}"
        let plist = Self.serviceInfo.replacingOccurrences(of: "com.google.firebase.quickstart.AuthenticationExample", with: bundle)
        let app = try AppFolder(files: ["GoogleService-Info.plist": plist])
        defer { app.remove() }
        let text = ProjectFileWriter.yaml(try AppConfigReader.read([app.path("GoogleService-Info.plist")]))
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(!text.contains("\n#injected"))
        #expect {
            _ = try ProjectConfigLoader.parse(text, fileName: "project.yaml", base: ProjectConfigLoader.loadDefault())
        } throws: { error in
            let said = "\(error)"
            return said.contains("iosApp.bundleId: expected an app id") && !said.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\n" }
        }
    }
}
