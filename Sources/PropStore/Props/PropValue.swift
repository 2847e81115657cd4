/// A typed prop value after conversion: what a props object holds and what `inspect` reports.
///
/// Composite values (arrays, objects) hold converted values all the way down, so two values that are equal
/// after conversion (`"#F00"` and `"#ff0000"`) compare equal and change nothing.
public enum PropValue: Sendable, Equatable {
    /// No value: a prop without a default before it is set, an optional field that is absent.
    case null
    /// An `int`, an `int32` or an int32 enum value.
    case int(Int)
    case float(Float)
    case double(Double)
    case bool(Bool)
    /// A string, or the raw value of an `enum` prop.
    case string(String)
    case color(Color)
    case point(Point)
    case edgeInsets(EdgeInsets)
    indirect case imageSource(ImageSource)
    case dimension(Dimension)
    case array([PropValue])
    /// An object prop: every declared field, in declaration order.
    case object([PropMember])
    /// A `mixed` prop: any JSON value, as it was given.
    case json(JSONValue)
}

/// A named field of an object value.
public struct PropMember: Sendable, Equatable {
    public var name: String
    public var value: PropValue

    public init(_ name: String, _ value: PropValue) {
        self.name = name
        self.value = value
    }
}

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

/// A `point` prop (React Native's `PointPrimitive`): `{x, y}`, both required.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    /// The fields of its JSON object, in order.
    public static let fieldNames = ["x", "y"]

    public init(x: Double = 0, y: Double = 0) {
        self.x = x
        self.y = y
    }
}

/// An `edgeInsets` prop (React Native's `EdgeInsetsPrimitive`, e.g. `hitSlop`): a missing edge is 0.
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    /// The fields of its JSON object, in order.
    public static let fieldNames = ["top", "left", "bottom", "right"]

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// An `imageSource` prop (React Native's `ImageSourcePrimitive`): `{uri, width?, height?, scale?}`, or a
/// string taken as `{uri}`. React Native's other source fields (`headers`, `method`, `body`, `cache`,
/// `bundle`) are kept as given.
public struct ImageSource: Sendable, Equatable {
    public var uri: String
    public var width: Double?
    public var height: Double?
    public var scale: Double?
    /// `headers`, `method`, `body`, `cache`, `bundle`, as given, in the order given.
    public var extra: [JSONMember]

    public init(uri: String, width: Double? = nil, height: Double? = nil, scale: Double? = nil, extra: [JSONMember] = []) {
        self.uri = uri
        self.width = width
        self.height = height
        self.scale = scale
        self.extra = extra
    }

    /// The source fields kept as given.
    public static let passThroughFields = ["headers", "method", "body", "cache", "bundle"]
}

/// A `dimension` prop (React Native's `DimensionPrimitive`, a Yoga value): points, `"auto"` or a percentage.
public enum Dimension: Sendable, Hashable, CustomStringConvertible {
    case points(Double)
    case auto
    /// A percentage, `50` for `"50%"`.
    case percent(Double)

    /// `"auto"` or `"50%"` (points have no text form; they are reported as a number).
    public var description: String {
        switch self {
        case .points(let value): numberText(value)
        case .auto: "auto"
        case .percent(let value): numberText(value) + "%"
        }
    }

    /// Parses `"auto"` or a percentage such as `"50%"` or `"12.5%"`.
    public init?(text: String) {
        if text == "auto" {
            self = .auto
            return
        }
        guard text.hasSuffix("%"), text.count > 1 else { return nil }
        let number = text.dropLast()
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
            let value = Double(number), value.isFinite
        else { return nil }
        self = .percent(value)
    }
}

/// A number as text: integral values without a fraction (`50`), others as Swift's shortest form.
func numberText(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
