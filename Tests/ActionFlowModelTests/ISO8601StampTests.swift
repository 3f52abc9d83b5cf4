import ActionFlowModel
import Foundation
import Testing

@Suite("ISO 8601 time stamps")
struct ISO8601StampTests {
    @Test("A stamp reads as ISO 8601 writes it, in UTC, across days, months, years and leap days, before 1970 and past 9999")
    func stampMatchesISO8601() {
        let style = Date.ISO8601FormatStyle()
        var generator = SystemRandomNumberGenerator()
        let fixed: [TimeInterval] = [0, 59, 86_399, 951_782_400, 1_709_164_799, 1_735_689_599, 1_735_689_600, 4_102_444_800, -1, -0.5, -86_400.25, -62_135_596_800, 253_402_300_800,
                                     // Far times a hostile file or server can write.
                                     1e15, 1e300, -1e300, .infinity]
        let drawn = (0..<2_000).map { _ in TimeInterval(UInt64.random(in: 0...4_102_444_800, using: &generator)) + 0.999 }
        for seconds in fixed + drawn {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(date.iso8601Stamp == style.format(date), "\(seconds)")
        }
    }

    @Test("Whole seconds and milliseconds of any time, far ones taken to the nearest end of the years 1-9999")
    func wholeSecondsNeverTrap() {
        #expect(Date(timeIntervalSince1970: 1_709_164_799.9).wholeSecondsSince1970 == 1_709_164_799)
        #expect(Date(timeIntervalSince1970: -0.5).wholeSecondsSince1970 == -1)
        #expect(Date(timeIntervalSince1970: 1_709_164_799.9994).millisecondsSince1970 == 1_709_164_799_999)
        #expect(Date(timeIntervalSince1970: 1e300).wholeSecondsSince1970 == 253_402_300_799)
        #expect(Date(timeIntervalSince1970: -1e300).wholeSecondsSince1970 == -62_135_596_800)
        #expect(Date(timeIntervalSince1970: .infinity).millisecondsSince1970 == 253_402_300_799_999)
        #expect(Date(timeIntervalSince1970: .nan).wholeSecondsSince1970 == 0)
        #expect(Date(timeIntervalSince1970: 1e300).iso8601MillisecondStamp == Date(timeIntervalSince1970: 1e300).iso8601Stamp)
    }
}
