import Observation

/// The props object of a component defined by data alone (a React Native codegen schema, or a description
/// carried by a recording or a state file): one value per prop, in the component's prop order.
@Observable
public final class DescribedProps {
    public var values: [PropValue]
    /// An untyped component's props that it does not declare, by name (never `.null`: a reset prop leaves).
    public var undeclared: [String: PropValue] = [:]

    public init(values: [PropValue]) { self.values = values }
}

/// A command of a component defined by data: a name and typed parameters, no native code.
public struct DescribedCommand: Sendable, Equatable {
    public var name: String
    public var params: [CommandParam]

    public init(_ name: String, params: [CommandParam]) {
        self.name = name
        self.params = params
    }
}

extension ComponentType {
    /// A component defined by data alone: its props (name, type, optional, default) hold their values in a
    /// ``DescribedProps``; its commands check their arguments and change nothing (the engine logs every call,
    /// which is what a test asserts on); it renders as its name followed by the props that differ from their
    /// defaults, e.g. `MyView color=#ff0000ff size=2`.
    ///
    /// Two components built from equal data behave the same, so a component rebuilt from its `hello`
    /// description replays the sessions of the original.
    ///
    /// With `untyped`, the component also takes any prop it does not declare, as `mixed` with no default (listed
    /// after the declared ones, in name order, and rendered after them), and its views may emit any event
    /// (``isUntyped``): a third-party component served without its spec.
    public convenience init(
        described name: String,
        props: [PropField],
        events: [EventSpec],
        commands: [DescribedCommand],
        untyped: Bool = false
    ) {
        let defaults = props.map(\.defaultValue)
        let descriptors = props.enumerated().map { index, prop in
            PropDescriptor(
                name: prop.name,
                type: prop.type,
                defaultValue: prop.defaultValue,
                isOptional: prop.isOptional,
                // unsafeDowncast: the engine passes only props objects made by makeProps below.
                get: { unsafeDowncast($0, to: DescribedProps.self).values[index] },
                set: { object, value in
                    let props = unsafeDowncast(object, to: DescribedProps.self)
                    guard props.values[index] != value else { return false }
                    props.values[index] = value
                    return true
                },
                replace: { object, value in
                    let props = unsafeDowncast(object, to: DescribedProps.self)
                    let old = props.values[index]
                    guard old != value else { return nil }
                    props.values[index] = value
                    return old
                }
            )
        }
        let names = props.map(\.name)
        self.init(
            name: name,
            props: descriptors,
            events: events,
            commands: commands.map { command in
                CommandDescriptor(name: command.name, params: command.params, emits: []) { _, _ in CommandOutcome() }
            },
            makeProps: { DescribedProps(values: defaults) },
            render: { object in
                let props = unsafeDowncast(object, to: DescribedProps.self)
                let values = props.values
                var text = name
                for index in values.indices where values[index] != defaults[index] {
                    text += " " + names[index] + "=" + values[index].renderText
                }
                if untyped {
                    for (prop, value) in props.undeclared.sorted(by: { $0.key < $1.key }) {
                        text += " " + prop + "=" + value.renderText
                    }
                }
                return text
            },
            fallback: untyped ? ComponentType.undeclaredProps : nil
        )
    }

    /// An untyped component's props that it does not declare: each a `mixed` prop with no default, held in
    /// ``DescribedProps/undeclared`` (`null` takes it out).
    private static let undeclaredProps = Fallback(
        prop: undeclaredProp,
        setProps: { object in
            unsafeDowncast(object, to: DescribedProps.self).undeclared.keys.sorted().map(undeclaredProp)
        }
    )

    @Sendable
    private static func undeclaredProp(_ name: String) -> PropDescriptor {
        PropDescriptor(
            name: name,
            type: .mixed,
            defaultValue: .null,
            // unsafeDowncast: an untyped component's views have DescribedProps (made by its makeProps).
            get: { unsafeDowncast($0, to: DescribedProps.self).undeclared[name] ?? .null },
            set: { object, value in
                let props = unsafeDowncast(object, to: DescribedProps.self)
                guard value != .null else { return props.undeclared.removeValue(forKey: name) != nil }
                guard props.undeclared[name] != value else { return false }
                props.undeclared[name] = value
                return true
            }
        )
    }
}
