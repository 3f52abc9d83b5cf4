import Foundation

/// A colour as a screen shows it, each channel from 0 to 1 (sRGB).
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(red: Double(hex >> 16 & 0xFF) / 255, green: Double(hex >> 8 & 0xFF) / 255, blue: Double(hex & 0xFF) / 255)
    }

    public static let black = RGBColor(hex: 0x000000)
    public static let white = RGBColor(hex: 0xFFFFFF)

    /// WCAG 2.x relative luminance: https://www.w3.org/TR/WCAG21/#dfn-relative-luminance
    public var relativeLuminance: Double {
        func linear(_ channel: Double) -> Double {
            channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.x contrast ratio, from 1 (none) to 21 (black on white): https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio
    public func contrast(with other: RGBColor) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    public var description: String {
        let bytes = [red, green, blue].map { Int(($0 * 255).rounded()) }
        return "#" + bytes.map { String(format: "%02x", $0) }.joined()
    }
}
