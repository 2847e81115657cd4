/// The type of a prop or a command argument, with its checked conversion from a JSON value.
public enum PropType: Sendable, Equatable {
    case int
    case double
    case bool
    case string
    /// One of the listed string values.
    case enumeration([String])
    case color

    /// The type's name as the protocol describes it: `int`, `double`, `bool`, `string`, `enum`, `color`.
    public var name: String {
        switch self {
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .string: "string"
        case .enumeration: "enum"
        case .color: "color"
        }
    }

    /// What an error message says was expected, e.g. `int` or `one of never, always`.
    public var expected: String {
        switch self {
        case .enumeration(let values): "one of " + values.joined(separator: ", ")
        case .color: "color (#RGB, #RRGGBB, #RRGGBBAA or an ARGB integer)"
        default: name
        }
    }

    /// Converts `raw` to this type, or explains, in React Native's words, why it cannot.
    ///
    /// `null` is not handled here: for a prop it means "reset to default", which the caller decides.
    public func convert(_ raw: RawValue) -> Result<PropValue, PropConversionError> {
        switch (self, raw) {
        case (.int, .int(let i)):
            return .success(.int(Int(i)))
        case (.int, .double(let d)):
            // Integral reals such as 5.0 are accepted, within the signed 64-bit range.
            if d.rounded(.towardZero) == d, d >= -9.223_372_036_854_775_808e18, d < 9.223_372_036_854_775_808e18 {
                return .success(.int(Int(d)))
            }
        case (.double, .int(let i)):
            return .success(.double(Double(i)))
        case (.double, .double(let d)):
            return .success(.double(d))
        case (.bool, .bool(let b)):
            return .success(.bool(b))
        case (.string, .string(let s)):
            return .success(.string(s))
        case (.enumeration(let values), .string(let s)):
            if values.contains(s) { return .success(.string(s)) }
            return .failure(
                PropConversionError(
                    expected: expected,
                    message: "JSON value '\(s)' of type string is not one of \(values.joined(separator: ", "))"
                )
            )
        case (.color, .string(let s)):
            if let color = Color(hex: s) { return .success(.color(color)) }
            return .failure(
                PropConversionError(
                    expected: expected,
                    message:
                        "JSON value '\(s)' of type string cannot be converted to color (#RGB, #RRGGBB or #RRGGBBAA)"
                )
            )
        case (.color, .int(let i)):
            // processColor sends 0xAARRGGBB, as a signed 32-bit int on Android.
            if i >= Int64(Int32.min), i <= Int64(UInt32.max) {
                return .success(.color(Color(argb: UInt32(truncatingIfNeeded: i))))
            }
        default:
            break
        }
        return .failure(
            PropConversionError(
                expected: expected,
                message: "JSON value '\(raw.displayText)' of type \(raw.typeName) cannot be converted to \(name)"
            )
        )
    }
}

/// Why a JSON value could not be converted to a prop type.
public struct PropConversionError: Error, Sendable, Equatable {
    /// What the type accepts, e.g. `int`.
    public var expected: String
    /// A human sentence, e.g. "JSON value 'abc' of type string cannot be converted to int".
    public var message: String

    public init(expected: String, message: String) {
        self.expected = expected
        self.message = message
    }
}
