/// A registered component with its props, events and commands, erased to work on any props object.
///
/// Built once per component from its ``Component`` description; shared by every view of that component.
public final class ComponentType: Sendable {
    /// A prop with its default value, reading and writing an erased props object.
    ///
    /// A class so that handing one around the hot path costs one retain, not one per field.
    public final class PropDescriptor: Sendable {
        public let name: String
        public let type: PropType
        public let defaultValue: PropValue
        public let get: @Sendable (AnyObject) -> PropValue
        public let set: @Sendable (AnyObject, PropValue) -> Void

        init(
            name: String,
            type: PropType,
            defaultValue: PropValue,
            get: @escaping @Sendable (AnyObject) -> PropValue,
            set: @escaping @Sendable (AnyObject, PropValue) -> Void
        ) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.get = get
            self.set = set
        }
    }

    /// A command with its argument types.
    public struct CommandDescriptor: Sendable {
        public let name: String
        public let args: [PropType]
        let run: @Sendable (AnyObject, [PropValue]) -> CommandOutcome
    }

    public let name: String
    /// The props in declaration order.
    public let props: [PropDescriptor]
    /// The events in declaration order.
    public let events: [EventSpec]
    /// The commands in declaration order.
    public let commands: [CommandDescriptor]
    private let propIndex: [String: Int]
    private let commandIndex: [String: Int]
    private let makePropsObject: @Sendable () -> AnyObject
    private let renderProps: @Sendable (AnyObject) -> String

    public init<C: Component>(_ component: C.Type) {
        let defaults = C.Props()
        self.name = C.name
        self.props = C.props.map { prop in
            PropDescriptor(
                name: prop.name,
                type: prop.type,
                defaultValue: prop.get(defaults),
                get: prop.get,
                set: prop.set
            )
        }
        self.events = C.events
        self.commands = C.commands.map { command in
            CommandDescriptor(name: command.name, args: command.args) { object, args in
                let context = CommandContext(props: unsafeDowncast(object, to: C.Props.self), args: args)
                command.run(context)
                return CommandOutcome(undo: context.undo, emitted: context.emitted)
            }
        }
        self.propIndex = Dictionary(props.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.commandIndex = Dictionary(
            commands.enumerated().map { ($1.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        self.makePropsObject = { C.Props() }
        self.renderProps = { C.render(unsafeDowncast($0, to: C.Props.self)) }
    }

    /// The prop named `name`, if the component has one.
    public func prop(named name: String) -> PropDescriptor? {
        propIndex[name].map { props[$0] }
    }

    public func command(named name: String) -> CommandDescriptor? {
        commandIndex[name].map { commands[$0] }
    }

    public func event(named name: String) -> EventSpec? {
        events.first { $0.name == name }
    }

    /// A fresh props object holding every default.
    public func makeProps() -> AnyObject { makePropsObject() }

    /// The headless render of a props object of this component.
    public func render(_ props: AnyObject) -> String { renderProps(props) }
}

/// What a command did: how to undo its state changes, and the events it emitted, in order.
public struct CommandOutcome {
    public var undo: [() -> Void]
    public var emitted: [(event: String, payload: EventPayload)]
}

extension ComponentType.CommandDescriptor {
    /// Runs the command on a props object with already-checked arguments.
    public func run(on props: AnyObject, args: [PropValue]) -> CommandOutcome { run(props, args) }
}
