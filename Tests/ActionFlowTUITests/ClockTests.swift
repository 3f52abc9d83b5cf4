@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("The simulated clock as the status line shows it")
struct ClockTests {
    @Test("Dates read in UTC to the minute, across leap days, centuries and both ends of the range", arguments: [
        (0.0, "1970-01-01 00:00"),
        (951_868_799, "2000-02-29 23:59"),
        (1_795_449_900, "2026-11-23 16:05"),
        (1_700_000_000.9, "2023-11-14 22:13"),
        (4_107_542_400, "2100-03-01 00:00"),
        (253_402_300_799, "9999-12-31 23:59"),
        (-1, "1969-12-31 23:59"),
    ])
    func format(seconds: TimeInterval, shown: String) {
        #expect(Clock.format(Date(timeIntervalSince1970: seconds)) == shown)
    }
}
