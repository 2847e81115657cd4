/// One typed prop of a component, bound by key path to a property of its observable props class.
///
/// ```swift
/// static let props: [Prop<ButtonProps>] = [.int("count", \.count), .string("title", \.title)]
/// ```
/// The default is the property's initial value in a fresh props object.
public struct Prop<Props: AnyObject>: Sendable {
    public let name: String
    public let type: PropType
    let get: @Sendable (Props) -> PropValue
    let set: @Sendable (Props, PropValue) -> Void

    init(
        _ name: String,
        _ type: PropType,
        get: @escaping @Sendable (Props) -> PropValue,
        set: @escaping @Sendable (Props, PropValue) -> Void
    ) {
        self.name = name
        self.type = type
        self.get = get
        self.set = set
    }

    public static func int(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Int> & Sendable) -> Self {
        Self(name, .int, get: { .int($0[keyPath: keyPath]) }) { props, value in
            if case .int(let v) = value { props[keyPath: keyPath] = v }
        }
    }

    public static func double(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Double> & Sendable) -> Self {
        Self(name, .double, get: { .double($0[keyPath: keyPath]) }) { props, value in
            if case .double(let v) = value { props[keyPath: keyPath] = v }
        }
    }

    public static func bool(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Bool> & Sendable) -> Self {
        Self(name, .bool, get: { .bool($0[keyPath: keyPath]) }) { props, value in
            if case .bool(let v) = value { props[keyPath: keyPath] = v }
        }
    }

    public static func string(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, String> & Sendable) -> Self {
        Self(name, .string, get: { .string($0[keyPath: keyPath]) }) { props, value in
            if case .string(let v) = value { props[keyPath: keyPath] = v }
        }
    }

    public static func color(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Color> & Sendable) -> Self {
        Self(name, .color, get: { .color($0[keyPath: keyPath]) }) { props, value in
            if case .color(let v) = value { props[keyPath: keyPath] = v }
        }
    }

    /// An `enum` prop backed by a Swift enum whose raw values are the accepted strings.
    public static func enumeration<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable
    ) -> Self where E.RawValue == String {
        Self(name, .enumeration(E.allCases.map(\.rawValue)), get: { .string($0[keyPath: keyPath].rawValue) }) {
            props,
            value in
            if case .string(let raw) = value, let v = E(rawValue: raw) { props[keyPath: keyPath] = v }
        }
    }
}
