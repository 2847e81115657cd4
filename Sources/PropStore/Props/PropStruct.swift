/// A Swift struct that an `object` prop binds to, its fields declared once.
///
/// ```swift
/// struct Marker: PropStruct {
///     var position = Point()
///     var label: String? = nil
///     var weight: Float = 1
///     init() {}
///     static let fields: [Field<Marker>] = [
///         .required("position", \.position),
///         .optional("label", \.label),
///         .optional("weight", \.weight),
///     ]
/// }
/// ```
/// A field's default is its value in `init()`; a missing optional field takes it, a missing required field
/// is an error, and so is a field the struct does not declare.
public protocol PropStruct: PropConvertible {
    init()
    static var fields: [Field<Self>] { get }
}

extension PropStruct {
    public static var propType: PropType {
        let defaults = Self()
        return .object(fields.map { PropField($0.name, $0.type, optional: $0.isOptional, default: $0.get(defaults)) })
    }

    public var propValue: PropValue { .object(Self.fields.map { PropMember($0.name, $0.get(self)) }) }

    public init?(propValue: PropValue) {
        guard case .object(let members) = propValue else { return nil }
        var value = Self()
        for member in members {
            guard let field = Self.fields.first(where: { $0.name == member.name }) else { return nil }
            guard field.set(&value, member.value) else { return nil }
        }
        self = value
    }
}

/// A field of a ``PropStruct``, bound by key path.
public struct Field<Root>: Sendable {
    public let name: String
    public let type: PropType
    public let isOptional: Bool
    let get: @Sendable (Root) -> PropValue
    /// Sets the field from a converted value; false for a value of another shape.
    let set: @Sendable (inout Root, PropValue) -> Bool

    init<Value: PropConvertible>(_ name: String, _ keyPath: WritableKeyPath<Root, Value> & Sendable, optional: Bool) {
        self.name = name
        self.type = Value.propType
        self.isOptional = optional
        self.get = { $0[keyPath: keyPath].propValue }
        self.set = { root, value in
            guard let typed = Value(propValue: value) else { return false }
            root[keyPath: keyPath] = typed
            return true
        }
    }

    /// A field that must be present.
    public static func required<Value: PropConvertible>(
        _ name: String,
        _ keyPath: WritableKeyPath<Root, Value> & Sendable
    ) -> Self {
        Self(name, keyPath, optional: false)
    }

    /// A field that may be absent; it then takes its value in the struct's `init()`.
    public static func optional<Value: PropConvertible>(
        _ name: String,
        _ keyPath: WritableKeyPath<Root, Value> & Sendable
    ) -> Self {
        Self(name, keyPath, optional: true)
    }
}
