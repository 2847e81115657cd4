/// The type of a prop, an object field, an event payload field or a command parameter, with its checked
/// conversion from a JSON value (``PropType/convert(_:path:into:)``).
///
/// ## Adding a prop type
/// Seven files, and no list elsewhere:
/// 1. its own file: its Swift value with its ``PropConvertible`` conformance and its conversion, either a
///    ``FieldTable`` (a small struct of numbers and strings, as `Point.swift`: conversion, ``expected``, the
///    JSON output and renders all read the table) or an `extension Converter` (as `Converter+Color.swift`);
/// 2. `PropType.swift`: its case, its ``name``, its ``expected`` (for a table, `Type.fields.expected`), and its
///    place in ``plain`` if a schema names it alone (`hello` descriptions and `--components` read names there);
/// 3. `PropValue.swift`: its case, its ``PropValue/kindName`` (its ``name``: then ``problem(with:)`` accepts
///    it) and its render text;
/// 4. `Converter.swift`: its line in the dispatch to the conversions;
/// 5. BridgeCore's `JSONWriter+Props.swift`: its line in `propValue` (for a table, `fields(value, Type.fields)`);
/// 6. protocol.md: its row in the prop table;
/// 7. the client: its case in `lib/types.js`'s `typeOf` (an unknown type throws there) and its name in
///    `index.d.ts`'s `PropType`.
/// `PropTypeListsTests` fails until 6 and 7 list it (and until its case is in that suite's own list).
/// A React Native codegen annotation that maps to it is one more line in `CodegenSchema+Types.swift`.
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

    /// The type's name as `hello` describes it: `int`, `int32`, `float`, `double`, `bool`, `string`, `enum`,
    /// `int32Enum`, `color`, `point`, `edgeInsets`, `imageSource`, `dimension`, `array`, `object`, `mixed`.
    public var name: String {
        switch self {
        case .int: "int"
        case .int32: "int32"
        case .float: "float"
        case .double: "double"
        case .bool: "bool"
        case .string: "string"
        case .enumeration: "enum"
        case .int32Enumeration: "int32Enum"
        case .color: "color"
        case .point: "point"
        case .edgeInsets: "edgeInsets"
        case .imageSource: "imageSource"
        case .dimension: "dimension"
        case .array: "array"
        case .object: "object"
        case .mixed: "mixed"
        }
    }

    /// What an error message says was expected, e.g. `int32` or `one of never, always`.
    public var expected: String {
        switch self {
        case .enumeration(let values): "one of " + values.joined(separator: ", ")
        case .int32Enumeration(let values): "one of " + values.map(String.init).joined(separator: ", ")
        case .color: "color (#RGB, #RRGGBB, #RRGGBBAA or an ARGB integer)"
        case .int32: "int32 (an integer in -2147483648...2147483647)"
        case .float: "float (a number within the 32-bit float range)"
        case .point: Point.fields.expected
        case .edgeInsets: EdgeInsets.fields.expected
        case .imageSource: ImageSource.fields.expected
        case .dimension: "dimension (a number, \"auto\" or a percentage such as \"50%\")"
        case .array(let element): "array of \(element.expected)"
        case .object(let fields):
            "object {" + fields.map { $0.name + ($0.isOptional ? "?" : "") }.joined(separator: ", ") + "}"
        default: name
        }
    }

    /// The types a schema names with no further description (`{"type": "point"}`), by ``name``.
    public static let plain: [PropType] = [
        .int, .int32, .float, .double, .bool, .string, .color, .point, .edgeInsets, .imageSource, .dimension, .mixed,
    ]

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
