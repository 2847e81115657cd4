/// An ARGB colour, as React Native's `processColor` produces it.
///
/// Parsed from `#RGB`, `#RRGGBB`, `#RRGGBBAA` or an ARGB integer; reported back as `#rrggbbaa`.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// The colour as `0xAARRGGBB`.
    public var argb: UInt32

    public init(argb: UInt32) { self.argb = argb }

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 0xFF) {
        self.argb = UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    public static let black = Color(argb: 0xFF00_0000)

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (hex digits in either case); `nil` for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.first == UInt8(ascii: "#") else { return nil }
        var digits: [UInt8] = []
        digits.reserveCapacity(8)
        for byte in utf8.dropFirst() {
            guard let digit = Color.hexDigit(byte) else { return nil }
            digits.append(digit)
        }
        switch digits.count {
        case 3, 4:
            let alpha = digits.count == 4 ? digits[3] * 17 : 0xFF
            self.init(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17, alpha: alpha)
        case 6, 8:
            func byte(_ i: Int) -> UInt8 { digits[i] << 4 | digits[i + 1] }
            self.init(red: byte(0), green: byte(2), blue: byte(4), alpha: digits.count == 8 ? byte(6) : 0xFF)
        default:
            return nil
        }
    }

    /// The canonical form, `#rrggbbaa` in lower case.
    public var description: String {
        let rgba = (argb << 8) | (argb >> 24)
        let hex = String(rgba, radix: 16)
        return "#" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Color: PropConvertible {
    public static var propType: PropType { .color }
    public var propValue: PropValue { .color(self) }
    public init?(propValue: PropValue) { if case .color(let v) = propValue { self = v } else { return nil } }
}

extension Color {
    /// iOS's semantic colours, as `PlatformColor(name)` names them (`RCTConvert`'s `RCTSemanticColorsMap`: the
    /// Objective-C selector, `labelColor`, or the Swift one, `label`), in light mode: React Native's own
    /// `fallback-argb` where it lists one (the colour iOS 13 gives in light mode), else UIKit's light-mode value.
    public static let semantic: [String: Color] = {
        let table: [(String, UInt32)] = [
            ("labelColor", 0xFF00_0000), ("secondaryLabelColor", 0x993C_3C43), ("tertiaryLabelColor", 0x4C3C_3C43),
            ("quaternaryLabelColor", 0x2D3C_3C43), ("systemFillColor", 0x3378_7880),
            ("secondarySystemFillColor", 0x2878_7880), ("tertiarySystemFillColor", 0x1E76_7680),
            ("quaternarySystemFillColor", 0x1474_7480), ("placeholderTextColor", 0x4C3C_3C43),
            ("systemBackgroundColor", 0xFFFF_FFFF), ("secondarySystemBackgroundColor", 0xFFF2_F2F7),
            ("tertiarySystemBackgroundColor", 0xFFFF_FFFF), ("systemGroupedBackgroundColor", 0xFFF2_F2F7),
            ("secondarySystemGroupedBackgroundColor", 0xFFFF_FFFF),
            ("tertiarySystemGroupedBackgroundColor", 0xFFF2_F2F7),
            ("separatorColor", 0x493C_3C43), ("opaqueSeparatorColor", 0xFFC6_C6C8), ("linkColor", 0xFF00_7AFF),
            ("darkTextColor", 0xFF00_0000), ("lightTextColor", 0x99FF_FFFF), ("systemBlueColor", 0xFF00_7AFF),
            ("systemBrownColor", 0xFFA2_845E), ("systemGreenColor", 0xFF34_C759), ("systemIndigoColor", 0xFF58_56D6),
            ("systemOrangeColor", 0xFFFF_9500), ("systemPinkColor", 0xFFFF_2D55), ("systemPurpleColor", 0xFFAF_52DE),
            ("systemRedColor", 0xFFFF_3B30), ("systemTealColor", 0xFF5A_C8FA), ("systemYellowColor", 0xFFFF_CC00),
            ("systemGrayColor", 0xFF8E_8E93), ("systemGray2Color", 0xFFAE_AEB2), ("systemGray3Color", 0xFFC7_C7CC),
            ("systemGray4Color", 0xFFD1_D1D6), ("systemGray5Color", 0xFFE5_E5EA), ("systemGray6Color", 0xFFF2_F2F7),
            ("clearColor", 0x0000_0000),
        ]
        var colors: [String: Color] = [:]
        for (selector, argb) in table {
            colors[selector] = Color(argb: argb)
            colors[String(selector.dropLast("Color".count))] = Color(argb: argb)
        }
        return colors
    }()
}
