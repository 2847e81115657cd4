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
