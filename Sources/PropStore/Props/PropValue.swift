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

extension PropValue {
    /// The kind of type whose values this case holds (an `int` holds int32 and int32 enum values too, a
    /// `string` enum values), `nil` for `null`.
    public var kind: PropType.Kind? {
        switch self {
        case .null: nil
        case .int: .int
        case .float: .float
        case .double: .double
        case .bool: .bool
        case .string: .string
        case .color: .color
        case .point: .point
        case .edgeInsets: .edgeInsets
        case .imageSource: .imageSource
        case .dimension: .dimension
        case .array: .array
        case .object: .object
        case .json: .mixed
        }
    }

    /// The case's name, for messages: its ``kind``'s name, or `null`.
    public var kindName: String { kind?.rawValue ?? "null" }

    /// A short text of the value for a render: scalars as they are, composites summarised.
    var renderText: String {
        switch self {
        case .null: "null"
        case .int(let i): String(i)
        case .float(let f): f.description
        case .double(let d): numberText(d)
        case .bool(let b): b ? "true" : "false"
        case .string(let s): "\"" + s + "\""
        case .color(let c): c.description
        case .point(let p): Point.fields.renderText(p)
        case .edgeInsets(let e): EdgeInsets.fields.renderText(e)
        case .imageSource(let source): ImageSource.fields.renderText(source)
        case .dimension(let dimension): dimension.description
        case .array(let elements): "[\(elements.count) element\(elements.count == 1 ? "" : "s")]"
        case .object(let members): "{" + members.map(\.name).joined(separator: ", ") + "}"
        case .json: "<mixed>"
        }
    }
}
