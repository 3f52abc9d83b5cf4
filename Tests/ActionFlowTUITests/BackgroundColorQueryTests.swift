@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("The terminal's background colour (OSC 11) and the theme it picks")
struct BackgroundColorQueryTests {
    private func reply(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("An xterm reply, ended by BEL or by ESC \\, gives its colour", arguments: ["\u{07}", "\u{1B}\\"])
    func xtermReply(terminator: String) throws {
        let color = try #require(BackgroundColorQuery.color(inReply: reply("\u{1B}]11;rgb:ffff/ffff/dddd" + terminator)))
        #expect(color.red == 1 && color.green == 1)
        #expect(abs(color.blue - Double(0xDDDD) / 0xFFFF) < 1e-9)
    }

    @Test("Channels of 1 to 4 hex digits are scaled to their own range", arguments: [
        ("rgb:f/8/0", 1.0, 8.0 / 15, 0.0),
        ("rgb:ff/80/00", 1.0, 128.0 / 255, 0.0),
        ("rgb:FFF/800/000", 1.0, 2048.0 / 4095, 0.0),
        ("rgb:1e1e/1e1e/2e2e", Double(0x1E1E) / 0xFFFF, Double(0x1E1E) / 0xFFFF, Double(0x2E2E) / 0xFFFF),
        ("rgba:ffff/ffff/ffff/0000", 1.0, 1.0, 1.0),
    ])
    func channelWidths(specification: String, red: Double, green: Double, blue: Double) throws {
        let color = try #require(BackgroundColorQuery.color(inReply: reply("\u{1B}]11;\(specification)\u{07}")))
        #expect(abs(color.red - red) < 1e-9 && abs(color.green - green) < 1e-9 && abs(color.blue - blue) < 1e-9)
    }

    @Test("Garbage, a cut reply or another colour's reply gives nothing", arguments: [
        "",
        "\u{1B}[?62;22c",
        "\u{1B}]11;rgb:ffff/ffff/ffff",
        "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}[?1;2c",
        "\u{1B}]11;rgb:fffff/ffff/ffff\u{07}",
        "\u{1B}]11;rgb:/ffff/ffff\u{07}",
        "\u{1B}]11;rgb:ffff/ffff\u{07}",
        "\u{1B}]11;rgb:ffff/ffff/ffff/ffff\u{07}",
        "\u{1B}]11;rgb:gggg/0000/0000\u{07}",
        "\u{1B}]11;rgb:+fff/0000/0000\u{07}",
        "\u{1B}]11;#ffffff\u{07}",
        "\u{1B}]11;?\u{07}",
        "\u{1B}]10;rgb:ffff/ffff/ffff\u{07}",
        "\u{1B}]111;rgb:ffff/ffff/ffff\u{07}",
    ])
    func garbage(text: String) {
        #expect(BackgroundColorQuery.color(inReply: reply(text)) == nil)
    }

    @Test("The reply is found among other bytes: keys typed before it, the DA1 reply after it, a broken reply before it")
    func amongOtherBytes() throws {
        let bytes = reply("q\u{1B}]11;rgb:zz\u{07}\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?1;2c")
        #expect(try #require(BackgroundColorQuery.color(inReply: bytes)) == .black)
        #expect(BackgroundColorQuery.containsDeviceAttributes(bytes))
        #expect(!BackgroundColorQuery.containsDeviceAttributes(reply("\u{1B}[?1;2")))
        #expect(!BackgroundColorQuery.containsDeviceAttributes(reply("\u{1B}]11;rgb:0/0/0\u{07}")))
    }

    @Test("A light background picks the light theme, a dark or mid-dark one the dark theme", arguments: [
        ("rgb:ffff/ffff/ffff", Theme.light),
        ("rgb:fdfd/f6f6/e3e3", .light),   // Solarized Light
        ("rgb:eeee/e8e8/d5d5", .light),
        ("rgb:0000/0000/0000", .dark),
        ("rgb:0000/2b2b/3636", .dark),    // Solarized Dark
        ("rgb:2828/2c2c/3434", .dark),
        ("rgb:8080/8080/8080", .light),   // mid grey: black text reads better on it
        ("rgb:6060/6060/6060", .dark),
    ])
    func themeForBackground(specification: String, theme: Theme) throws {
        let color = try #require(BackgroundColorQuery.color(inReply: reply("\u{1B}]11;\(specification)\u{07}")))
        #expect(Theme.suited(to: color) == theme)
    }
}
