import Foundation
import Testing

/// The python of the virtual environment at `venv`, created with `packages` when it cannot
/// import `modules`: the tools the interoperability tests hold the project against, from PyPI
/// (`.ci/run` prepares each environment; a test creates one when it is missing).
public func virtualEnvironmentPython(_ venv: URL, importing modules: String, installing packages: [String]) async throws -> String {
    func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, errors: String) {
        let finished = try await SpawnedChild.start(executable, arguments).finish()
        return (finished.status, String(decoding: finished.errors, as: UTF8.self))
    }
    let python = venv.appendingPathComponent("bin/python").path
    if FileManager.default.isExecutableFile(atPath: python), try await run(python, ["-c", "import \(modules)"]).status == 0 {
        return python
    }
    let created = try await run("/usr/bin/env", ["python3", "-m", "venv", venv.path])
    try #require(created.status == 0, "python3 -m venv failed: \(created.errors)")
    let installed = try await run(venv.appendingPathComponent("bin/pip").path, ["install", "--quiet"] + packages)
    try #require(installed.status == 0, "pip install \(packages.joined(separator: " ")) failed: \(installed.errors)")
    return python
}
