/// One typed prop of a component, bound by key path to a property of its observable props class: one line
/// per prop, as React Native's `RCT_EXPORT_VIEW_PROPERTY`.
///
/// ```swift
/// static let props: [Prop<GaugeProps>] = [
///     .int32("value", \.value), .float("scale", \.scale), .array("ticks", \.ticks), .object("style", \.style),
/// ]
/// ```
/// Safety of `unsafeDowncast` in the accessors below: a `Prop<Props>` is reached only through the
/// ``ComponentType`` built from the component that declares it, whose `makeProps` makes every props object
/// of its views as a `Props`; the engine never hands a view's props object to another component's props.
///
/// The prop's type follows the property's Swift type; its default is the property's initial value in a fresh
/// props object. An optional property (`var source: ImageSource?`) is a prop without a default: `null` until set.
///
/// A write of an equal value changes nothing and is not reported as changed, but it goes through the property's
/// setter (with the value it has: one key path access reads and writes): the `@Observable` macro's setter
/// notifies no observer then. A props class that is not `@Observable` must not act on a setter call alone.
public struct Prop<Props: AnyObject>: Sendable {
    public let name: String
    public let type: PropType
    /// Reads the prop of a props object of type `Props`. Erased here, once, so that the engine's hot path
    /// makes one call per read or write.
    let get: @Sendable (AnyObject) -> PropValue
    /// Writes the prop when the value differs from the current one; returns whether it did. A value of
    /// another shape than the prop's type is ignored (conversion checked it).
    let set: @Sendable (AnyObject, PropValue) -> Bool
    /// Writes the prop when the value differs and returns the value it replaced (`nil`: nothing changed).
    let replace: @Sendable (AnyObject, PropValue) -> PropValue?

    init(
        name: String,
        type: PropType,
        get: @escaping @Sendable (AnyObject) -> PropValue,
        set: @escaping @Sendable (AnyObject, PropValue) -> Bool,
        replace: @escaping @Sendable (AnyObject, PropValue) -> PropValue?
    ) {
        self.name = name
        self.type = type
        self.get = get
        self.set = set
        self.replace = replace
    }

    /// Writes `value` into `slot` when it differs; returns whether it did. Through a key path to an `@Observable`
    /// property, `slot` is one access (the getter, then the setter when it ends): half the key path work of a read
    /// followed by a write. The setter then runs with the value it had when nothing changed, which the
    /// `@Observable` macro's setter checks for: it notifies no observer of an equal value.
    @inline(__always)
    private static func exchange<Value: Equatable>(_ slot: inout Value, with value: Value) -> Bool {
        guard slot != value else { return false }
        slot = value
        return true
    }

    /// Writes `value` into `slot` when it differs, in one access as ``exchange(_:with:)``; returns the value it
    /// replaced, or `nil` when nothing changed.
    @inline(__always)
    private static func replace<Value: Equatable>(_ slot: inout Value, with value: Value) -> Value? {
        guard slot != value else { return nil }
        defer { slot = value }
        return slot
    }

    /// A prop of any ``PropConvertible`` Swift type; the named constructors below say the type in the line.
    public static func prop<Value: PropConvertible>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, Value> & Sendable
    ) -> Self {
        Self(
            name: name,
            type: Value.propType,
            get: { unsafeDowncast($0, to: Props.self)[keyPath: keyPath].propValue },
            set: { object, value in
                guard let typed = Value(propValue: value) else { return false }
                return exchange(&unsafeDowncast(object, to: Props.self)[keyPath: keyPath], with: typed)
            },
            replace: { object, value in
                guard let typed = Value(propValue: value) else { return nil }
                return replace(&unsafeDowncast(object, to: Props.self)[keyPath: keyPath], with: typed)?.propValue
            }
        )
    }

    public static func int(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Int> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func int(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Int?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func int32(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Int32> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func int32(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Int32?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func float(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Float> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func float(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Float?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func double(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Double> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func double(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Double?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func bool(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Bool> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func bool(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Bool?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func string(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, String> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func string(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, String?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func color(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Color> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func color(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Color?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func point(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Point> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func point(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Point?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func edgeInsets(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, EdgeInsets> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func edgeInsets(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, EdgeInsets?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func imageSource(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, ImageSource> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func imageSource(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, ImageSource?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func dimension(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Dimension> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func dimension(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, Dimension?> & Sendable) -> Self {
        prop(name, keyPath)
    }

    public static func mixed(_ name: String, _ keyPath: ReferenceWritableKeyPath<Props, JSONValue> & Sendable) -> Self {
        prop(name, keyPath)
    }

    /// An array prop: `[Point]`, `[[Int32]]`, `[Marker]` (any ``PropConvertible`` element).
    public static func array<Element: PropConvertible>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, [Element]> & Sendable
    ) -> Self {
        prop(name, keyPath)
    }

    public static func array<Element: PropConvertible>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, [Element]?> & Sendable
    ) -> Self {
        prop(name, keyPath)
    }

    /// An object prop bound to a struct of yours whose fields are declared once (``PropStruct``).
    public static func object<Value: PropStruct>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, Value> & Sendable
    ) -> Self {
        prop(name, keyPath)
    }

    public static func object<Value: PropStruct>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, Value?> & Sendable
    ) -> Self {
        prop(name, keyPath)
    }

    /// A string `enum` prop backed by a Swift enum whose raw values are the accepted strings.
    public static func enumeration<E: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable
    ) -> Self where E.RawValue == String {
        rawBacked(name, keyPath, type: .enumeration(E.allCases.map(\.rawValue)), wrap: PropValue.string) {
            if case .string(let raw) = $0 { raw } else { nil }
        }
    }

    /// An int32 enum prop backed by a Swift enum whose raw values are the accepted integers.
    public static func enumeration<E: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable
    ) -> Self where E.RawValue == Int32 {
        rawBacked(name, keyPath, type: .int32Enumeration(E.allCases.map(\.rawValue)), wrap: { .int(Int($0)) }) {
            if case .int(let raw) = $0 { Int32(exactly: raw) } else { nil }
        }
    }

    /// A prop of a Swift enum, held on the wire as its raw value.
    private static func rawBacked<E: RawRepresentable & Sendable & Equatable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable,
        type: PropType,
        wrap: @escaping @Sendable (E.RawValue) -> PropValue,
        unwrap: @escaping @Sendable (PropValue) -> E.RawValue?
    ) -> Self {
        Self(
            name: name,
            type: type,
            get: { wrap(unsafeDowncast($0, to: Props.self)[keyPath: keyPath].rawValue) },
            set: { object, value in
                guard let raw = unwrap(value), let typed = E(rawValue: raw) else { return false }
                return exchange(&unsafeDowncast(object, to: Props.self)[keyPath: keyPath], with: typed)
            },
            replace: { object, value in
                guard let raw = unwrap(value), let typed = E(rawValue: raw) else { return nil }
                return replace(&unsafeDowncast(object, to: Props.self)[keyPath: keyPath], with: typed).map {
                    wrap($0.rawValue)
                }
            }
        )
    }
}
