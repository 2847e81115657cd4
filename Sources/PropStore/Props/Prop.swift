/// One typed prop of a component, bound by key path to a property of its observable props class: one line
/// per prop, as React Native's `RCT_EXPORT_VIEW_PROPERTY`.
///
/// ```swift
/// static let props: [Prop<GaugeProps>] = [
///     .prop("value", \.value), .prop("scale", \.scale), .prop("ticks", \.ticks), .prop("style", \.style),
/// ]
/// ```
/// Safety of `unsafeDowncast` in the accessors below: a `Prop<Props>` is reached only through the
/// ``ComponentType`` built from the component that declares it, whose `makeProps` makes every props object
/// of its views as a `Props`; the engine never hands a view's props object to another component's props.
///
/// The prop's type follows the property's Swift type; its default is the property's initial value in a fresh
/// props object. An optional property (`var source: ImageSource?`) is a prop without a default: `null` until set.
///
/// A write of an equal value changes nothing and is not reported as changed: the property's setter is not called.
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

    @usableFromInline
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

    /// What ``access(_:convert:wrap:)`` is asked to do.
    @usableFromInline
    enum Access: Sendable {
        /// Read the prop.
        case get
        /// Write it when the value differs; answer non-`nil` when it did.
        case set
        /// Write it when the value differs; answer the value it replaced, `nil` when nothing changed.
        case replace
    }

    /// The reads and writes of a prop bound by key path, as one closure that captures the key path once.
    ///
    /// Every constructor here is inlined into the component's declaration of its props, where the key path is a
    /// literal; the optimizer then turns the key path's getter and setter into direct calls of the property's
    /// accessors. It does that only for a key path captured by one closure, written and read apart (not one
    /// `inout` access). Through the key path at run time, an `@Observable` property is reached through a
    /// writeback buffer allocated per write, which the folded accessors avoid (bench/README.md has the
    /// instruction counts). ``get``, ``set`` and ``replace`` call this closure.
    ///
    /// A write of an equal value changes nothing and does not call the setter.
    @inlinable @inline(__always)
    static func access<Value: Equatable & Sendable>(
        _ keyPath: ReferenceWritableKeyPath<Props, Value> & Sendable,
        convert: @escaping @Sendable (PropValue) -> Value?,
        wrap: @escaping @Sendable (Value) -> PropValue
    ) -> @Sendable (AnyObject, PropValue?, Access) -> PropValue? {
        { object, value, access in
            // unsafeDowncast: see the type's comment.
            let props = unsafeDowncast(object, to: Props.self)
            let old = props[keyPath: keyPath]
            guard let value else { return wrap(old) }
            guard let typed = convert(value), typed != old else { return nil }
            props[keyPath: keyPath] = typed
            return access == .replace ? wrap(old) : .null
        }
    }

    /// A prop read and written through one ``access(_:convert:wrap:)`` closure.
    @inlinable @inline(__always)
    init(
        name: String,
        type: PropType,
        access: @escaping @Sendable (AnyObject, PropValue?, Access) -> PropValue?
    ) {
        self.init(
            name: name,
            type: type,
            get: { access($0, nil, .get)! },
            set: { access($0, $1, .set) != nil },
            replace: { access($0, $1, .replace) }
        )
    }

    /// A prop of any ``PropConvertible`` Swift type (`Int`, `Int32`, `Float`, `Double`, `Bool`, `String`, ``Color``,
    /// ``Point``, ``EdgeInsets``, ``ImageSource``, ``Dimension``, ``JSONValue``, a ``PropStruct``, a
    /// ``StringEnumProp`` or ``Int32EnumProp``, arrays and optionals of these): its type is the property's.
    @inlinable @inline(__always)
    public static func prop<Value: PropConvertible>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, Value> & Sendable
    ) -> Self {
        Self(
            name: name,
            type: Value.propType,
            access: access(keyPath, convert: { Value(propValue: $0) }, wrap: { $0.propValue })
        )
    }

    /// A string `enum` prop backed by a Swift enum whose raw values are the accepted strings.
    @inlinable @inline(__always)
    public static func enumeration<E: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable
    ) -> Self where E.RawValue == String {
        // The conversions are closures that capture nothing, so that the key path is still folded (see `access`).
        Self(
            name: name,
            type: .enumeration(E.allCases.map(\.rawValue)),
            access: access(
                keyPath,
                convert: { if case .string(let raw) = $0 { E(rawValue: raw) } else { nil } },
                wrap: { .string($0.rawValue) }
            )
        )
    }

    /// An int32 enum prop backed by a Swift enum whose raw values are the accepted integers.
    @inlinable @inline(__always)
    public static func enumeration<E: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<Props, E> & Sendable
    ) -> Self where E.RawValue == Int32 {
        Self(
            name: name,
            type: .int32Enumeration(E.allCases.map(\.rawValue)),
            access: access(
                keyPath,
                convert: {
                    if case .int(let raw) = $0, let raw = Int32(exactly: raw) { E(rawValue: raw) } else { nil }
                },
                wrap: { .int(Int($0.rawValue)) }
            )
        )
    }
}
