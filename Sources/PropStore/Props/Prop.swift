/// One typed prop of a component, bound by key path to a property of its observable props class.
///
/// ```swift
/// static let props: [Prop<ButtonProps>] = [.int("count", \.count), .string("title", \.title)]
/// ```
/// The default is the property's initial value in a fresh props object.
public struct Prop<Props: AnyObject>: Sendable {
    public let name: String
    public let type: PropType
    /// Reads the prop of a props object of type `Props`. Erased here, once, so that the engine's hot path
    /// makes one call per read or write.
    let get: @Sendable (AnyObject) -> PropValue
    /// Writes the prop; a value of another case than the prop's type is ignored (conversion checked it).
    let set: @Sendable (AnyObject, PropValue) -> Void

    /// A prop whose Swift type converts to and from a ``PropValue`` case.
    private static func bound<Value: PropRepresentable>(
        _ name: String,
        _ type: PropType,
        _ keyPath: ReferenceWritableKeyPath<Props, Value> & Sendable
    ) -> Self {
        Self(
            name: name,
            type: type,
            get: { Value.wrap(unsafeDowncast($0, to: Props.self)[keyPath: keyPath]) },
            set: { object, value in
                if let typed = Value.unwrap(value) { unsafeDowncast(object, to: Props.self)[keyPath: keyPath] = typed }
            }
        )
    }

    public static func int(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Int> & Sendable) -> Self {
        bound(name, .int, keyPath)
    }

    public static func double(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Double> & Sendable) -> Self {
        bound(name, .double, keyPath)
    }

    public static func bool(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Bool> & Sendable) -> Self {
        bound(name, .bool, keyPath)
    }

    public static func string(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, String> & Sendable) -> Self {
        bound(name, .string, keyPath)
    }

    public static func color(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Color> & Sendable) -> Self {
        bound(name, .color, keyPath)
    }

    /// An `enum` prop backed by a Swift enum whose raw values are the accepted strings.
    public static func enumeration<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable
    ) -> Self where E.RawValue == String {
        Self(
            name: name,
            type: .enumeration(E.allCases.map(\.rawValue)),
            get: { .string(unsafeDowncast($0, to: Props.self)[keyPath: keyPath].rawValue) },
            set: { object, value in
                if case .string(let raw) = value, let typed = E(rawValue: raw) {
                    unsafeDowncast(object, to: Props.self)[keyPath: keyPath] = typed
                }
            }
        )
    }
}

/// A Swift type that one ``PropValue`` case holds.
protocol PropRepresentable: Sendable {
    static func wrap(_ value: Self) -> PropValue
    static func unwrap(_ value: PropValue) -> Self?
}

extension Int: PropRepresentable {
    static func wrap(_ value: Int) -> PropValue { .int(value) }
    static func unwrap(_ value: PropValue) -> Int? { if case .int(let v) = value { v } else { nil } }
}

extension Double: PropRepresentable {
    static func wrap(_ value: Double) -> PropValue { .double(value) }
    static func unwrap(_ value: PropValue) -> Double? { if case .double(let v) = value { v } else { nil } }
}

extension Bool: PropRepresentable {
    static func wrap(_ value: Bool) -> PropValue { .bool(value) }
    static func unwrap(_ value: PropValue) -> Bool? { if case .bool(let v) = value { v } else { nil } }
}

extension String: PropRepresentable {
    static func wrap(_ value: String) -> PropValue { .string(value) }
    static func unwrap(_ value: PropValue) -> String? { if case .string(let v) = value { v } else { nil } }
}

extension Color: PropRepresentable {
    static func wrap(_ value: Color) -> PropValue { .color(value) }
    static func unwrap(_ value: PropValue) -> Color? { if case .color(let v) = value { v } else { nil } }
}
