import ActionFlowModel
import PropertyBased
import Testing

@Suite struct SimulatedDurationTests {
    @Test("durations as written in scenarios, project files and the Project pane",
          arguments: [("90s", 90), ("30m", 1800), ("2h", 7200), ("3d", 259_200), ("1h30m", 5400), ("1d2h3m4s", 93_784),
                      ("5400", 5400), ("2", 2), ("  2h  ", 7200), ("0h5m", 300)])
    func parses(_ text: String, _ seconds: Int) throws {
        #expect(try SimulatedDuration(parsing: text).seconds == seconds)
    }

    @Test("each malformed duration gets the reason it is refused", arguments: [
        ("", "expected a duration such as 1h, 30m, 3d or a number of seconds, got an empty string"),
        ("soon", "expected a duration such as 1h, 30m, 3d or a number of seconds, got 'soon'"),
        ("h", "expected a duration such as 1h, 30m, 3d or a number of seconds, got 'h'"),
        ("0", "expected a duration above 0, got 0"),
        ("0s", "expected a duration above 0, got '0s'"),
        ("-5", "expected a duration above 0, got -5"),
        ("-1h", "expected a duration above 0, got '-1h'"),
        ("1.5h", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '1.5h': whole numbers only (1h30m, not 1.5h)"),
        ("2h 30m", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '2h 30m': no spaces inside a duration"),
        ("2x", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '2x': 'x' is not a unit (d, h, m or s)"),
        ("2H", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '2H': 'H' is not a unit (d, h, m or s)"),
        ("1hm", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '1hm': a number must come before 'm'"),
        ("1h30", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '1h30': '30' needs a unit (d, h, m or s)"),
        ("1h2h", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '1h2h': 'h' appears twice"),
        ("30m1h", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '30m1h': 'h' comes too late (units go d, h, m, s)"),
        ("99999999999999999999", "expected a duration such as 1h, 30m, 3d or a number of seconds, got 99999999999999999999: too large (at most 36525d, 100 years)"),
        ("9999999999999999d", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '9999999999999999d': too large (at most 36525d, 100 years)"),
        ("36526d", "expected a duration such as 1h, 30m, 3d or a number of seconds, got '36526d': too large (at most 36525d, 100 years)"),
        ("3155760001", "expected a duration such as 1h, 30m, 3d or a number of seconds, got 3155760001: too large (at most 36525d, 100 years)"),
    ])
    func refuses(_ text: String, _ message: String) {
        #expect(throws: SimulatedDuration.ParseError.self) { try SimulatedDuration(parsing: text) }
        do {
            _ = try SimulatedDuration(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("shown with the largest units that add up exactly",
          arguments: [(90, "1m30s"), (3600, "1h"), (5400, "1h30m"), (259_200, "3d"), (93_784, "1d2h3m4s"), (45, "45s")])
    func formats(_ seconds: Int, _ text: String) throws {
        #expect(try #require(SimulatedDuration(seconds: seconds)).description == text)
    }

    @Test func storedIntervalsAreShownInTheSameGrammar() {
        #expect(SimulatedDuration.describe(7200) == "2h")
        #expect(SimulatedDuration.describe(0) == "0s")
        #expect(SimulatedDuration.describe(1.5) == "1.5s")
        #expect(SimulatedDuration(exactly: 1.5) == nil)
        #expect(SimulatedDuration(exactly: -60) == nil)
        #expect(SimulatedDuration(seconds: 0) == nil)
    }

    @Test func whatIsShownReadsBackAsTheSameDuration() async {
        await propertyCheck(input: Gen.int(in: 1...400_000_000)) { seconds in
            let duration = SimulatedDuration(seconds: seconds)!
            #expect((try? SimulatedDuration(parsing: duration.description)) == duration)
            #expect((try? SimulatedDuration(parsing: String(seconds))) == duration)
        }
    }
}
