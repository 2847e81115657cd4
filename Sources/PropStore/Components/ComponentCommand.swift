/// A command of a component (`dispatchViewManagerCommand`): typed parameters, the events it may emit, and
/// what it does.
///
/// ```swift
/// Command("press", emits: ["countChange"]) { ctx in
///     guard !ctx.props.disabled else { return }
///     ctx.emit("countChange", ["count": .int(ctx.props.count + 1)])
/// }
/// ```
public struct Command<Props: AnyObject>: Sendable {
    public let name: String
    /// The parameters, checked with the same rules as props before `run` is called.
    public let params: [CommandParam]
    /// The events `run` may emit; registration checks each is declared by the component. `nil`: any event
    /// the component declares (an undeclared one still fails the command).
    public let emits: [String]?
    let run: @Sendable (CommandContext<Props>) -> Void

    public init(
        _ name: String,
        params: [CommandParam] = [],
        emits: [String]? = nil,
        run: @escaping @Sendable (CommandContext<Props>) -> Void
    ) {
        self.name = name
        self.params = params
        self.emits = emits
        self.run = run
    }

    /// A command whose parameters have no names of their own (`arg0`, `arg1`, …).
    public init(
        _ name: String,
        args: [PropType],
        emits: [String]? = nil,
        run: @escaping @Sendable (CommandContext<Props>) -> Void
    ) {
        self.init(
            name,
            params: args.enumerated().map { CommandParam("arg\($0.offset)", $0.element) },
            emits: emits,
            run: run
        )
    }
}

/// A named, typed parameter of a command, e.g. `scrollTo(x: int32, y: int32, animated: bool)`.
public struct CommandParam: Sendable, Equatable {
    public var name: String
    public var type: PropType

    public init(_ name: String, _ type: PropType) {
        self.name = name
        self.type = type
    }
}

/// What a running command sees and may do: read props and arguments, change state, emit events.
///
/// Change state only through `set(_:_:)`: the engine records the old value so that a failed batch
/// can roll the change back.
public final class CommandContext<Props: AnyObject> {
    public let props: Props
    /// The checked arguments, one per declared parameter.
    public let args: [PropValue]
    var undo: [() -> Void] = []
    var emitted: [(event: String, payload: EventPayload)] = []

    init(props: Props, args: [PropValue]) {
        self.props = props
        self.args = args
    }

    /// Sets a property of the props object (a prop or native state), remembering the old value.
    public func set<Value: Equatable>(_ keyPath: ReferenceWritableKeyPath<Props, Value>, _ value: Value) {
        let props = self.props
        let old = props[keyPath: keyPath]
        guard old != value else { return }
        undo.append { props[keyPath: keyPath] = old }
        props[keyPath: keyPath] = value
    }

    /// Emits an event of the component from this view. The event must be among the command's `emits` and its
    /// payload must fit the event's payload type, or the command fails (`invalid_payload`) and changes nothing.
    public func emit(_ event: String, _ payload: EventPayload = [:]) {
        emitted.append((event: event, payload: payload))
    }

    /// The argument at `index` as a Swift value of the parameter's type (`ctx.arg(0, as: Int32.self)`).
    public func arg<Value: PropConvertible>(_ index: Int, as type: Value.Type = Value.self) -> Value? {
        Value(propValue: args[index])
    }

    public func string(_ index: Int) -> String {
        if case .string(let s) = args[index] { return s }
        return ""
    }

    public func double(_ index: Int) -> Double {
        switch args[index] {
        case .double(let d): d
        case .float(let f): Double(f)
        case .int(let i): Double(i)
        default: 0
        }
    }

    public func int(_ index: Int) -> Int {
        if case .int(let i) = args[index] { return i }
        return 0
    }

    public func bool(_ index: Int) -> Bool {
        if case .bool(let b) = args[index] { return b }
        return false
    }
}
