/// A JSON value as it arrived, before conversion to a prop type.
///
/// PropStore knows nothing of JSON text; the codec in BridgeCore builds these from the parsed frame.
/// Arrays and objects carry their compact JSON text so that error messages can quote them.
public enum RawValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array(json: String)
    case object(json: String)
    /// An array or object too large to quote, described in words (written as a JSON string).
    case summary(String)

    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        case .summary(let text): text.hasPrefix("an array") ? "array" : "object"
        }
    }

    /// The value as quoted in messages (a string without its quotes, other values as JSON text).
    public var displayText: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : String(d)
        case .string(let s): s
        case .array(let json), .object(let json): json
        case .summary(let text): text
        }
    }
}
