/// A command of a component (`dispatchViewManagerCommand`): typed arguments and what it does.
///
/// ```swift
/// Command("press") { ctx in
///     guard !ctx.props.disabled else { return }
///     ctx.emit("countChange", ["count": .int(ctx.props.count + 1)])
/// }
/// ```
public struct Command<Props: AnyObject>: Sendable {
    public let name: String
    /// The argument types, checked with the same rules as props before `run` is called.
    public let args: [PropType]
    let run: @Sendable (CommandContext<Props>) -> Void

    public init(_ name: String, args: [PropType] = [], run: @escaping @Sendable (CommandContext<Props>) -> Void) {
        self.name = name
        self.args = args
        self.run = run
    }
}

/// What a running command sees and may do: read props and arguments, change state, emit events.
///
/// Change state only through `set(_:_:)`: the engine records the old value so that a failed batch
/// can roll the change back.
public final class CommandContext<Props: AnyObject> {
    public let props: Props
    /// The checked arguments, one per declared type.
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

    /// Emits an event of the component from this view.
    public func emit(_ event: String, _ payload: EventPayload = [:]) {
        emitted.append((event: event, payload: payload))
    }

    public func string(_ index: Int) -> String {
        if case .string(let s) = args[index] { return s }
        return ""
    }

    public func double(_ index: Int) -> Double {
        switch args[index] {
        case .double(let d): d
        case .int(let i): Double(i)
        default: 0
        }
    }
}
