/// The type of a prop, an object field, an event payload field or a command parameter, with its checked
/// conversion from a JSON value (``PropType/convert(_:path:into:)``).
///
/// Every kind of type has one ``PropTypeDescriptor`` (``Kind/descriptor``, `PropType+Descriptors.swift`): its
/// name, what it accepts, and what clients need of it (React Native's native type, whether a renderer deep-diffs
/// it, its TypeScript types), which `hello` sends as `propTypes`. README's "Where a change goes" lists every place
/// of a new type; the compiler names each switch that lacks its case.
public enum PropType: Sendable, Equatable {
    /// A 64-bit integer.
    case int
    /// A 32-bit integer (React Native's `Int32TypeAnnotation`).
    case int32
    /// A 32-bit float (`FloatTypeAnnotation`), reported as the shortest decimal that reads back as it.
    case float
    case double
    case bool
    case string
    /// One of the listed string values (`StringEnumTypeAnnotation`).
    case enumeration([String])
    /// One of the listed integer values (`Int32EnumTypeAnnotation`).
    case int32Enumeration([Int32])
    case color
    case point
    case edgeInsets
    case imageSource
    case dimension
    /// A JSON array whose every element converts to the element type.
    indirect case array(PropType)
    /// A JSON object with declared fields; unknown fields and missing required ones are errors.
    case object([PropField])
    /// Any JSON value, kept as given.
    case mixed

    /// The type's name as `hello` describes it: its ``Kind``'s (`int`, `enum`, `int32Enum`, `array`, …).
    @inlinable public var name: String { kind.rawValue }

    /// The kind of type, without its parameters (an enum's values, an array's element type, an object's fields).
    @inlinable public var kind: Kind {
        switch self {
        case .int: .int
        case .int32: .int32
        case .float: .float
        case .double: .double
        case .bool: .bool
        case .string: .string
        case .enumeration: .enumeration
        case .int32Enumeration: .int32Enumeration
        case .color: .color
        case .point: .point
        case .edgeInsets: .edgeInsets
        case .imageSource: .imageSource
        case .dimension: .dimension
        case .array: .array
        case .object: .object
        case .mixed: .mixed
        }
    }

    /// What an error message says was expected, e.g. `int32` or `one of never, always`: the descriptor's
    /// ``PropTypeDescriptor/accepts``, with the type's parameters where it has some.
    public var expected: String {
        switch self {
        case .enumeration(let values): "one of " + values.joined(separator: ", ")
        case .int32Enumeration(let values): "one of " + values.map(String.init).joined(separator: ", ")
        case .array(let element): "array of \(element.expected)"
        case .object(let fields):
            "object {" + fields.map { $0.name + ($0.isOptional ? "?" : "") }.joined(separator: ", ") + "}"
        default: kind.descriptor.accepts
        }
    }

    /// The types a schema names with no further description (`{"type": "point"}`), by ``name``: every kind's
    /// ``PropTypeDescriptor/plain`` type.
    public static let plain: [PropType] = Kind.allCases.compactMap(\.descriptor.plain)

    /// The type named `name` among ``plain``, or `nil`.
    public static func named(_ name: String) -> PropType? { plain.first { $0.name == name } }
}

/// A declared field of an object type (or of an event payload): its type, whether it may be absent, and the
/// value an absent field takes (`.null` when it has none).
public struct PropField: Sendable, Equatable {
    public var name: String
    public var type: PropType
    public var isOptional: Bool
    public var defaultValue: PropValue

    public init(_ name: String, _ type: PropType, optional: Bool = false, default defaultValue: PropValue = .null) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
    }
}
