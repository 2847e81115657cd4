/// A registered component with its props, events and commands, erased to work on any props object.
///
/// Built once per component, from its ``Component`` description (a Swift component) or from descriptors (a
/// component loaded at run time, such as one from a React Native codegen schema); shared by every view of it.
public final class ComponentType: Sendable {
    /// A prop with its default value, reading and writing an erased props object.
    ///
    /// A class so that handing one around the hot path costs one retain, not one per field.
    public final class PropDescriptor: Sendable {
        public let name: String
        public let type: PropType
        /// The value of a fresh view, and what `null` resets the prop to (`.null`: the prop has no default).
        public let defaultValue: PropValue
        /// Whether clients may leave the prop out (shapes generated TypeScript only; every prop may be left out
        /// of `create`).
        public let isOptional: Bool
        /// Whether the prop is one of View's that the component inherits (``ComponentType/inheritedProps``):
        /// its value lives beside the component's props object (``ViewProxy/inheritedProps``).
        public let isInherited: Bool
        public let get: @Sendable (AnyObject) -> PropValue
        /// Writes the value when it differs from the current one; returns whether it did.
        public let set: @Sendable (AnyObject, PropValue) -> Bool
        /// Writes the value when it differs from the current one; returns the value it replaced, or `nil` when
        /// nothing changed. What a batch uses, to undo the change, with one read of the prop instead of two.
        public let replace: @Sendable (AnyObject, PropValue) -> PropValue?

        public init(
            name: String,
            type: PropType,
            defaultValue: PropValue,
            isOptional: Bool = true,
            isInherited: Bool = false,
            get: @escaping @Sendable (AnyObject) -> PropValue,
            set: @escaping @Sendable (AnyObject, PropValue) -> Bool,
            replace: (@Sendable (AnyObject, PropValue) -> PropValue?)? = nil
        ) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.isOptional = isOptional
            self.isInherited = isInherited
            self.get = get
            self.set = set
            self.replace =
                replace ?? { object, value in
                    let old = get(object)
                    return set(object, value) ? old : nil
                }
        }
    }

    /// A command with its parameters.
    public struct CommandDescriptor: Sendable {
        public let name: String
        public let params: [CommandParam]
        /// The events the command may emit; `nil`: any the component declares.
        public let emits: [String]?
        let run: @Sendable (AnyObject, [PropValue]) -> CommandOutcome

        public init(
            name: String,
            params: [CommandParam],
            emits: [String]? = nil,
            run: @escaping @Sendable (AnyObject, [PropValue]) -> CommandOutcome
        ) {
            self.name = name
            self.params = params
            self.emits = emits
            self.run = run
        }
    }

    public let name: String
    /// The props in declaration order.
    public let props: [PropDescriptor]
    /// The events in declaration order.
    public let events: [EventSpec]
    /// The commands in declaration order.
    public let commands: [CommandDescriptor]
    /// React Native's view props that the component does not declare itself, which it accepts as every
    /// React Native component does (``ReactNativeView``); empty for `RCTView` itself.
    public let inheritedProps: [PropDescriptor]
    private let inheritedIndex: NameIndex
    /// ``inheritedProps`` by their place in ``ReactNativeView/props`` (what ``SparseProps/values`` is keyed by):
    /// nil where the component declares a prop of that name itself.
    let inheritedByViewIndex: [PropDescriptor?]
    /// For a component whose render is its text content (React Native's `Text`): the render of a view of it,
    /// read from the view and its subtree rather than from its props alone. Such a view renders whenever it is
    /// asked to and its text changed.
    public let contentRender: (@Sendable (ViewProxy) -> String)?
    /// How a view of it holds the window's focus (``FocusableComponent``); nil for a component whose views never do.
    public let focus: FocusDescriptor?
    private let propIndex: NameIndex
    private let commandIndex: NameIndex
    private let makePropsObject: @Sendable () -> AnyObject
    private let renderProps: @Sendable (AnyObject) -> String
    /// How an untyped component takes the props it does not declare (``Fallback``); `nil` for every other.
    private let fallback: Fallback?

    /// How a component without a spec (an untyped one, ``init(untyped:)``) takes any prop name: a descriptor made
    /// for a name it does not declare, and the props a props object holds through such descriptors.
    ///
    /// Consulted only when a name is not declared, so a typed component's lookups never reach it.
    public struct Fallback: Sendable {
        /// A `mixed` prop of that name, with no default.
        let prop: @Sendable (String) -> PropDescriptor
        /// The props set through ``prop`` on a props object, by name.
        let setProps: @Sendable (AnyObject) -> [PropDescriptor]

        public init(
            prop: @escaping @Sendable (String) -> PropDescriptor,
            setProps: @escaping @Sendable (AnyObject) -> [PropDescriptor]
        ) {
            self.prop = prop
            self.setProps = setProps
        }
    }

    /// Whether the component has no spec: it takes any prop (as `mixed`) and may emit any event.
    public var isUntyped: Bool { fallback != nil }

    /// A component from descriptors. ``validate()`` checks the declaration.
    public init(
        name: String,
        props: [PropDescriptor],
        events: [EventSpec],
        commands: [CommandDescriptor],
        inheritsViewProps: Bool = true,
        makeProps: @escaping @Sendable () -> AnyObject,
        render: @escaping @Sendable (AnyObject) -> String,
        contentRender: (@Sendable (ViewProxy) -> String)? = nil,
        focus: FocusDescriptor? = nil,
        fallback: Fallback? = nil
    ) {
        self.name = name
        self.props = props
        self.events = events
        self.commands = commands
        let own = Set(props.map(\.name))
        self.inheritedProps =
            inheritsViewProps ? ReactNativeView.inheritedDescriptors.filter { !own.contains($0.name) } : []
        self.inheritedIndex = NameIndex(inheritedProps.map(\.name))
        var byViewIndex = [PropDescriptor?](repeating: nil, count: inheritsViewProps ? ReactNativeView.props.count : 0)
        if inheritsViewProps {
            for (index, descriptor) in ReactNativeView.inheritedDescriptors.enumerated()
            where !own.contains(descriptor.name) {
                byViewIndex[index] = descriptor
            }
        }
        self.inheritedByViewIndex = byViewIndex
        self.contentRender = contentRender
        self.focus = focus
        self.propIndex = NameIndex(props.map(\.name))
        self.commandIndex = NameIndex(commands.map(\.name))
        self.makePropsObject = makeProps
        self.renderProps = render
        self.fallback = fallback
    }

    public convenience init<C: Component>(_ component: C.Type) {
        let defaults = C.Props()
        self.init(
            name: C.name,
            props: C.props.map { prop in
                PropDescriptor(
                    name: prop.name,
                    type: prop.type,
                    defaultValue: prop.get(defaults),
                    get: prop.get,
                    set: prop.set,
                    replace: prop.replace
                )
            },
            events: C.events,
            commands: C.commands.map { command in
                CommandDescriptor(name: command.name, params: command.params, emits: command.emits) { object, args in
                    // unsafeDowncast: views of this component are made by makeProps below, with C.Props.
                    let context = CommandContext(props: unsafeDowncast(object, to: C.Props.self), args: args)
                    command.run(context)
                    return CommandOutcome(undo: context.undo, emitted: context.emitted)
                }
            },
            makeProps: { C.Props() },
            render: { C.render(unsafeDowncast($0, to: C.Props.self)) },
            contentRender: C.rendersTextContent ? TextContent.render : nil,
            focus: (C.self as? any FocusableComponent.Type)?.focusDescriptor
        )
    }

    /// Checks the declaration: unique names, defaults of their own types, emitted events declared.
    public func validate() throws(RegistrationError) {
        func fail(_ problem: String) -> RegistrationError {
            RegistrationError(message: "component '\(name)': \(problem)")
        }
        var seen = Set<String>()
        for prop in props {
            guard seen.insert(prop.name).inserted else { throw fail("prop '\(prop.name)' is declared twice") }
            if let problem = prop.type.problem(with: prop.defaultValue) {
                throw fail("the default of prop '\(prop.name)' is not a \(prop.type.name): \(problem)")
            }
        }
        seen = []
        for event in events {
            guard seen.insert(event.name).inserted else { throw fail("event '\(event.name)' is declared twice") }
            var fields = Set<String>()
            for field in event.payload ?? [] {
                guard fields.insert(field.name).inserted else {
                    throw fail("field '\(field.name)' of the payload of event '\(event.name)' is declared twice")
                }
            }
            if let problem = event.payloadType?.problem(with: .object([])) {
                throw fail("the payload of event '\(event.name)': \(problem)")
            }
        }
        seen = []
        for command in commands {
            guard seen.insert(command.name).inserted else { throw fail("command '\(command.name)' is declared twice") }
            var params = Set<String>()
            for param in command.params {
                guard params.insert(param.name).inserted else {
                    throw fail("parameter '\(param.name)' of command '\(command.name)' is declared twice")
                }
            }
            for emitted in command.emits ?? [] where event(named: emitted) == nil {
                let declared = events.map(\.name).joined(separator: ", ")
                throw fail(
                    "command '\(command.name)' emits '\(emitted)', which the component does not declare"
                        + (declared.isEmpty ? " (it declares no events)" : " (it declares \(declared))")
                )
            }
        }
        if let focus, command(named: focus.resign)?.params.isEmpty != true {
            throw fail("its focus is given up by command '\(focus.resign)', which it must declare with no parameters")
        }
    }

    /// The prop named `name`, if the component has one: its own, else one of View's it inherits, else (an untyped
    /// component) a `mixed` one of that name.
    public func prop(named name: String) -> PropDescriptor? {
        if let index = propIndex.index(of: name) { return props[index] }
        if let index = inheritedIndex.index(of: name) { return inheritedProps[index] }
        return fallback?.prop(name)
    }

    /// The prop whose name is the UTF-8 `name` (a request's key, as jansson holds it), if the component has one:
    /// its own, else one of View's it inherits, else (an untyped component) a `mixed` one of that name.
    public func prop(named name: UnsafeRawBufferPointer) -> PropDescriptor? {
        if let index = propIndex.index(of: name) { return props[index] }
        if let index = inheritedIndex.index(of: name) { return inheritedProps[index] }
        return fallback?.prop(String(decoding: name, as: UTF8.self))
    }

    /// The props a props object of an untyped component holds that the component does not declare, by name;
    /// none for any other component.
    public func undeclaredProps(of props: AnyObject) -> [PropDescriptor] { fallback?.setProps(props) ?? [] }

    public func command(named name: String) -> CommandDescriptor? {
        commandIndex.index(of: name).map { commands[$0] }
    }

    /// The command whose name is the UTF-8 `name`, if the component has one.
    public func command(named name: UnsafeRawBufferPointer) -> CommandDescriptor? {
        commandIndex.index(of: name).map { commands[$0] }
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

    public init(undo: [() -> Void] = [], emitted: [(event: String, payload: EventPayload)] = []) {
        self.undo = undo
        self.emitted = emitted
    }
}

extension ComponentType.CommandDescriptor {
    /// Runs the command on a props object with already-checked arguments.
    public func run(on props: AnyObject, args: [PropValue]) -> CommandOutcome { run(props, args) }
}
