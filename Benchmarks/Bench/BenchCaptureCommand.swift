import ArgumentParser
import Foundation

/// `actionflow-bench capture`: peak memory of `import` on captures of growing size, most of
/// them other traffic, as a browser's HAR export is: bounded means the peak does not follow
/// the file's size.
struct BenchCaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Peak memory of import on a 10 MB and a 100 MB capture (target: the same, within 10 MiB)."
    )

    @Option(help: "Megabytes of the larger capture.")
    var megabytes = 100

    static let allowedGrowthMiB = 10.0

    func validate() throws {
        guard (20...2_000).contains(megabytes) else { throw ValidationError("--megabytes must be between 20 and 2000, not \(megabytes)") }
    }

    func run() throws {
        let executable = try ChildProcess.besideThis("actionflow")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionflow-bench-capture-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        print("capture (import of a HAR file, mostly other traffic's 50 KB bodies)")
        var peaks: [Double] = []
        for size in [10, megabytes] {
            let path = folder.appendingPathComponent("capture-\(size).har").path
            try Self.write(megabytes: size, to: path)
            let result = try ChildProcess.run(executable, ["import", path], stdin: "/dev/null")
            peaks.append(result.peakMiB)
            print("  \(size) MB capture: peak memory \(String(format: "%.1f", result.peakMiB)) MiB, \(String(format: "%.2f", result.seconds)) s")
        }
        let growth = peaks[1] - peaks[0]
        print("  growth from 10 MB to \(megabytes) MB: \(String(format: "%.1f", growth)) MiB (target: within \(Int(Self.allowedGrowthMiB)) MiB: \(growth <= Self.allowedGrowthMiB ? "meets" : "above"))")
    }

    /// A capture of `megabytes`: a sign-up, a reset email and the emulator's listing of its
    /// link, then other traffic, written a piece at a time.
    static func write(megabytes: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw BenchFailure(description: "cannot write \(path)")
        }
        defer { try? file.close() }
        func entry(_ method: String, _ url: String, body: String?, status: Int, response: String) -> String {
            let post = body.map { #","postData":{"mimeType":"application/json","text":\#(quoted($0))}"# } ?? ""
            return #"{"startedDateTime":"2026-01-15T09:00:00.000Z","time":4,"request":{"method":"\#(method)","url":"\#(url)","headers":[]\#(post)},"response":{"status":\#(status),"headers":[],"content":{"mimeType":"application/json","text":\#(quoted(response))}}}"#
        }
        let base = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1"
        let link = "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=CODE&apiKey=fake-api-key"
        var entries = [
            entry("POST", "\(base)/accounts:signUp?key=fake-api-key", body: #"{"email":"ada@example.com","password":"secret-1"}"#, status: 200, response: #"{"localId":"a","email":"ada@example.com","idToken":"t"}"#),
            entry("POST", "\(base)/accounts:sendOobCode?key=fake-api-key", body: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#, status: 200, response: #"{"email":"ada@example.com"}"#),
            entry("GET", "http://127.0.0.1:9099/emulator/v1/projects/demo-actionflow/oobCodes", body: nil, status: 200,
                  response: #"{"oobCodes":[{"email":"ada@example.com","oobCode":"CODE","oobLink":"\#(link)","requestType":"PASSWORD_RESET"}]}"#),
        ]
        let other = String(repeating: "x", count: 50_000)
        file.write(Data(#"{"log":{"version":"1.2","entries":["#.utf8))
        file.write(Data(entries.removeFirst().utf8))
        var written = 0
        var index = 0
        while written < megabytes * 1_000_000 {
            let text = "," + entry("GET", "https://cdn.example.com/asset-\(index).js", body: nil, status: 200, response: other)
            file.write(Data(text.utf8))
            written += text.utf8.count
            index += 1
            if index == 3, !entries.isEmpty { file.write(Data(("," + entries.removeFirst()).utf8)) }
        }
        for rest in entries { file.write(Data(("," + rest).utf8)) }
        file.write(Data("]}}".utf8))
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
