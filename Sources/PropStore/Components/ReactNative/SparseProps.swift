import Observation

/// The props object of a component with many optional props, of which a view sets few (React Native's view
/// props and style attributes): only the values that differ from their defaults are stored, by prop index.
///
/// A view with nothing set costs one empty dictionary, so a list of a thousand rows stays small.
@Observable
public final class SparseProps {
    public var values: [Int: PropValue] = [:]

    public init() {}

    /// Descriptors for `fields` over a `SparseProps`: a value equal to the field's default is not stored.
    static func descriptors(_ fields: [PropField], inherited: Bool) -> [ComponentType.PropDescriptor] {
        fields.enumerated().map { index, field in
            let defaultValue = field.defaultValue
            return ComponentType.PropDescriptor(
                name: field.name,
                type: field.type,
                defaultValue: defaultValue,
                isInherited: inherited,
                // unsafeDowncast: these descriptors are handed only SparseProps (see ViewProxy.object(for:)).
                get: { unsafeDowncast($0, to: SparseProps.self).values[index] ?? defaultValue },
                set: { object, value in
                    let props = unsafeDowncast(object, to: SparseProps.self)
                    let old = props.values[index] ?? defaultValue
                    guard old != value else { return false }
                    props.values[index] = value == defaultValue ? nil : value
                    return true
                },
                replace: { object, value in
                    let props = unsafeDowncast(object, to: SparseProps.self)
                    let old = props.values[index] ?? defaultValue
                    guard old != value else { return nil }
                    props.values[index] = value == defaultValue ? nil : value
                    return old
                }
            )
        }
    }
}
