/// Builders of the prop tables written from React Native's view configs: every prop optional, `null` by
/// default unless given, one line per group of props of one type, in the view config's order.
///
/// A type that declares such a table conforms (``ReactNativeView``, the core components), and calls them
/// unqualified: `bool("bounces", "bouncesZoom") + color("endFillColor")`.
protocol ViewConfigTable {}

extension ViewConfigTable {
    static func field(_ name: String, _ type: PropType, _ defaultValue: PropValue = .null) -> PropField {
        PropField(name, type, optional: true, default: defaultValue)
    }
    static func dimension(_ names: String...) -> [PropField] { names.map { field($0, .dimension) } }
    static func number(_ names: String...) -> [PropField] { names.map { field($0, .double) } }
    static func color(_ names: String...) -> [PropField] { names.map { field($0, .color) } }
    static func string(_ names: String...) -> [PropField] { names.map { field($0, .string) } }
    static func bool(_ names: String...) -> [PropField] { names.map { field($0, .bool) } }
    static func oneOf(_ name: String, _ values: [String], _ defaultValue: String? = nil) -> PropField {
        field(name, .enumeration(values), defaultValue.map { .string($0) } ?? .null)
    }
    static func mixed(_ names: String...) -> [PropField] { names.map { field($0, .mixed) } }
}

/// The props object of a core component: its props with native behaviour as properties, and the props its
/// native view takes but that change nothing headless (colors, keyboard settings…) kept as given, by name.
public protocol PassThroughProps: ViewProps {
    /// The pass-through props that differ from their defaults.
    var passThrough: [String: PropValue] { get set }
}

extension Prop where Props: PassThroughProps {
    /// Props kept in ``PassThroughProps/passThrough``: typed and checked as `fields` say, doing nothing else.
    static func passThrough(_ fields: [PropField]) -> [Prop<Props>] {
        fields.map { field in
            let name = field.name
            let defaultValue = field.defaultValue
            // unsafeDowncast: see the type's comment.
            let replace: @Sendable (AnyObject, PropValue) -> PropValue? = { object, value in
                let props = unsafeDowncast(object, to: Props.self)
                let old = props.passThrough[name] ?? defaultValue
                guard old != value else { return nil }
                props.passThrough[name] = value == defaultValue ? nil : value
                return old
            }
            return Prop(
                name: name,
                type: field.type,
                get: { unsafeDowncast($0, to: Props.self).passThrough[name] ?? defaultValue },
                set: { replace($0, $1) != nil },
                replace: replace
            )
        }
    }
}
