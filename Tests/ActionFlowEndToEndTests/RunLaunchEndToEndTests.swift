import Foundation
import TestSupport
import Testing

/// `run SCENARIO --quiet` is read without ArgumentParser; the program must behave exactly as
/// when the same run is parsed.
@Suite("run's plain form", .onDedicatedThread)
struct RunLaunchEndToEndTests {
    @Test("the plain form prints and exits as the parsed form does, passing or not", arguments: ["password-reset-in-app", "no-such-scenario"])
    func sameAsParsed(scenario: String) throws {
        let binary = BuiltBinary.url.path
        let plain = try Spawn.run(binary, ["run", scenario, "--quiet"], capture: true)
        let parsed = try Spawn.run(binary, ["run", scenario, "--quiet", "--transport", "embedded"], capture: true)
        #expect(plain.status == parsed.status)
        #expect(plain.output == parsed.output)
        #expect(plain.status == (scenario == "no-such-scenario" ? 2 : 0), "\(plain.output)")
    }
}
