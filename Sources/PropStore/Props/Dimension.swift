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

    /// Whether `text` is a percentage iOS reads as no value: `RCTConvert`'s `YGValue:` takes text ending in `%` as
    /// a percentage whose number `NSScanner`'s `scanFloat:` reads, and when it reads none (`"-Infinity%"`, what
    /// `${a / 0}%` gives; `"NaN%"`) returns `YGValueUndefined` without an error, as for `null`: the prop is unset.
    public static func isUnreadablePercentage(_ text: String) -> Bool {
        guard text.hasSuffix("%") else { return false }
        // scanFloat: skips leading white space, then wants a digit, or a sign or a point before one.
        var rest = text.unicodeScalars.drop(while: { $0.properties.isWhitespace })
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        if rest.first == "." { rest = rest.dropFirst() }
        guard let first = rest.first else { return true }
        return !("0"..."9").contains(first)
    }
}

/// A number as text: integral values without a fraction (`50`), others as Swift's shortest form.
func numberText(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

extension Dimension: PropConvertible {
    public static var propType: PropType { .dimension }
    public var propValue: PropValue { .dimension(self) }
    public init?(propValue: PropValue) { if case .dimension(let v) = propValue { self = v } else { return nil } }
}
