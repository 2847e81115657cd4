/// A Swift type a prop binds to by key path: it names its ``PropType`` and converts to and from a
/// ``PropValue``.
///
/// `Int`, `Int32`, `Float`, `Double`, `Bool`, `String`, ``Color``, ``Point``, ``EdgeInsets``,
/// ``ImageSource``, ``Dimension``, ``JSONValue`` (a `mixed` prop), arrays of these, optionals of these (a prop
/// without a default: `nil` is `null`) and your own ``PropStruct`` types conform.
public protocol PropConvertible: Sendable, Equatable {
    static var propType: PropType { get }
    var propValue: PropValue { get }
    /// The Swift value of a converted value of ``propType``; `nil` for a value of another shape.
    init?(propValue: PropValue)
}

extension Int: PropConvertible {
    public static var propType: PropType { .int }
    public var propValue: PropValue { .int(self) }
    public init?(propValue: PropValue) { if case .int(let v) = propValue { self = v } else { return nil } }
}

extension Int32: PropConvertible {
    public static var propType: PropType { .int32 }
    public var propValue: PropValue { .int(Int(self)) }
    public init?(propValue: PropValue) {
        if case .int(let v) = propValue, let v = Int32(exactly: v) { self = v } else { return nil }
    }
}

extension Float: PropConvertible {
    public static var propType: PropType { .float }
    public var propValue: PropValue { .float(self) }
    public init?(propValue: PropValue) { if case .float(let v) = propValue { self = v } else { return nil } }
}

extension Double: PropConvertible {
    public static var propType: PropType { .double }
    public var propValue: PropValue { .double(self) }
    public init?(propValue: PropValue) { if case .double(let v) = propValue { self = v } else { return nil } }
}

extension Bool: PropConvertible {
    public static var propType: PropType { .bool }
    public var propValue: PropValue { .bool(self) }
    public init?(propValue: PropValue) { if case .bool(let v) = propValue { self = v } else { return nil } }
}

extension String: PropConvertible {
    public static var propType: PropType { .string }
    public var propValue: PropValue { .string(self) }
    public init?(propValue: PropValue) { if case .string(let v) = propValue { self = v } else { return nil } }
}

extension JSONValue: PropConvertible {
    public static var propType: PropType { .mixed }
    public var propValue: PropValue { .json(self) }
    public init?(propValue: PropValue) {
        switch propValue {
        case .json(let v): self = v
        case .null: self = .null
        default: return nil
        }
    }
}

extension Array: PropConvertible where Element: PropConvertible {
    public static var propType: PropType { .array(Element.propType) }
    public var propValue: PropValue { .array(map(\.propValue)) }
    public init?(propValue: PropValue) {
        guard case .array(let values) = propValue else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(propValue: value) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}

/// An optional is a prop without a default (or with `nil` as it): `nil` is `null`.
extension Optional: PropConvertible where Wrapped: PropConvertible {
    public static var propType: PropType { Wrapped.propType }
    public var propValue: PropValue { map(\.propValue) ?? .null }
    public init?(propValue: PropValue) {
        if case .null = propValue {
            self = .none
        } else if let wrapped = Wrapped(propValue: propValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }
}

/// A string enum prop (`StringEnumTypeAnnotation`): a Swift enum whose raw values are the accepted strings.
public protocol StringEnumProp: RawRepresentable, CaseIterable, PropConvertible where RawValue == String {}

extension StringEnumProp {
    public static var propType: PropType { .enumeration(allCases.map(\.rawValue)) }
    public var propValue: PropValue { .string(rawValue) }
    public init?(propValue: PropValue) {
        guard case .string(let raw) = propValue else { return nil }
        self.init(rawValue: raw)
    }
}

/// An int32 enum prop (`Int32EnumTypeAnnotation`): a Swift enum whose raw values are the accepted integers.
public protocol Int32EnumProp: RawRepresentable, CaseIterable, PropConvertible where RawValue == Int32 {}

extension Int32EnumProp {
    public static var propType: PropType { .int32Enumeration(allCases.map(\.rawValue)) }
    public var propValue: PropValue { .int(Int(rawValue)) }
    public init?(propValue: PropValue) {
        guard case .int(let raw) = propValue, let raw = Int32(exactly: raw) else { return nil }
        self.init(rawValue: raw)
    }
}
