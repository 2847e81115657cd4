import Observation
import Synchronization

/// The native side of one view: its component, its observable props, its place in the tree, its listeners
/// and its headless render (the `SwiftUIButtonProxy` of the article).
///
/// Safety of `@unchecked Sendable`: a proxy is created, mutated and read only by the session that owns
/// it, and a session is driven by one connection at a time. ``ViewStorage`` shares only the reference.
public final class ViewProxy: @unchecked Sendable {
    public let tag: Int
    public let type: ComponentType
    /// The component's `@Observable` props object.
    public let props: AnyObject
    /// The parent view, or `nil` for a root. Strong: the owner breaks the cycle with ``tearDown()``.
    /// Changed only by ``ViewTree``.
    public internal(set) var parent: ViewProxy?
    /// The children, in order. Changed only by ``ViewTree``.
    public internal(set) var children: [ViewProxy] = []
    /// The events this view listens for, by name, with their phases.
    public var listeners: [String: ListenerPhases] = [:]

    /// The phases this view listens in for `event`, if any: what an event's dispatch asks of every view on its
    /// path. A view listens for a few events at most, so they are compared by name (two words for a short
    /// name), without hashing it.
    @inlinable
    public func phases(for event: String) -> ListenerPhases? {
        guard listeners.count > 4 else {
            for (name, phases) in listeners where name == event { return phases }
            return nil
        }
        return listeners[event]
    }
    /// False once the view is deleted: it is out of storage and never emits again.
    public var isMounted = true
    /// The text of the last render.
    public private(set) var render: String = ""
    /// How many times the view has rendered.
    public private(set) var renders: Int = 0
    private let invalidation = Invalidation()

    public init(tag: Int, type: ComponentType) {
        self.tag = tag
        self.type = type
        self.props = type.makeProps()
    }

    /// The values of the View props the component inherits (``ComponentType/inheritedProps``), once one is set.
    public private(set) var inheritedProps: SparseProps?

    /// The object that holds `prop`'s value: the props object, or the inherited View props.
    @inlinable
    func object(for prop: ComponentType.PropDescriptor) -> AnyObject {
        prop.isInherited ? inheritedObject() : props
    }

    @usableFromInline
    func inheritedObject() -> SparseProps {
        if let inheritedProps { return inheritedProps }
        let made = SparseProps()
        inheritedProps = made
        return made
    }

    /// The current value of a prop.
    @inlinable
    public func value(of prop: ComponentType.PropDescriptor) -> PropValue { prop.get(object(for: prop)) }

    /// Sets a prop when the value differs; observers of that prop mark the view for a re-render. Returns
    /// whether the prop changed.
    @inlinable
    @discardableResult
    public func setValue(_ value: PropValue, of prop: ComponentType.PropDescriptor) -> Bool {
        prop.set(object(for: prop), value)
    }

    /// Sets a prop when the value differs, as ``setValue(_:of:)``; returns the value it replaced, or `nil` when
    /// the prop did not change.
    @inlinable
    public func replaceValue(_ value: PropValue, of prop: ComponentType.PropDescriptor) -> PropValue? {
        prop.replace(object(for: prop), value)
    }

    /// The props `inspect`, observers and the state file list: every prop of the component, then the inherited
    /// View props that hold a value other than their default, in View's order.
    ///
    /// An untyped component's undeclared props that hold a value follow, in name order.
    public var listedProps: [ComponentType.PropDescriptor] {
        let declared: [ComponentType.PropDescriptor]
        if let inheritedProps, !inheritedProps.values.isEmpty {
            declared = type.props + type.inheritedProps.filter { value(of: $0) != $0.defaultValue }
        } else {
            declared = type.props
        }
        return type.isUntyped ? declared + type.undeclaredProps(of: props) : declared
    }

    /// Calls `body` with each of ``listedProps`` whose value is neither null nor its default, in that order, with
    /// the value: what a `tree: true` observer is sent of a view.
    ///
    /// The same as filtering ``listedProps``, without reading every prop: the View props of `RCTView` and those a
    /// component inherits are held sparsely (``SparseProps``, only values other than the default), so only those
    /// held are visited: a row's view holds two or three of React Native's hundred and more.
    public func forEachChangedProp(_ body: (ComponentType.PropDescriptor, PropValue) -> Void) {
        if type === ReactNativeView.type, let sparse = props as? SparseProps {
            let values = sparse.values
            for index in values.keys.sorted() {
                let prop = type.props[index]
                if let value = values[index], value != .null, value != prop.defaultValue { body(prop, value) }
            }
        } else {
            for prop in type.props {
                let value = value(of: prop)
                if value != .null, value != prop.defaultValue { body(prop, value) }
            }
        }
        if let inheritedProps, !inheritedProps.values.isEmpty {
            let values = inheritedProps.values
            for index in values.keys.sorted() {
                guard let prop = type.inheritedByViewIndex[index], let value = values[index] else { continue }
                if value != .null, value != prop.defaultValue { body(prop, value) }
            }
        }
        if type.isUntyped {
            for prop in type.undeclaredProps(of: props) {
                let value = value(of: prop)
                if value != .null, value != prop.defaultValue { body(prop, value) }
            }
        }
    }

    /// The commands sent to this view, oldest first: at most ``commandLogLimit``, the newest kept.
    public private(set) var commandLog: [LoggedCommand] = []
    /// Where the oldest entry is once the log is full (a ring).
    private var commandLogStart = 0
    public static let commandLogLimit = 1_000

    /// Logs a command; returns what ``unlogCommand(_:)`` needs to take the entry back (a failed batch).
    @discardableResult
    public func logCommand(_ command: LoggedCommand) -> CommandLogEntry {
        if commandLog.count < ViewProxy.commandLogLimit {
            commandLog.append(command)
            return CommandLogEntry(slot: commandLog.count - 1, replaced: nil)
        }
        let slot = commandLogStart
        let replaced = commandLog[slot]
        commandLog[slot] = command
        commandLogStart = (slot + 1) % ViewProxy.commandLogLimit
        return CommandLogEntry(slot: slot, replaced: replaced)
    }

    /// Takes back the newest entry of the command log.
    public func unlogCommand(_ entry: CommandLogEntry) {
        if let replaced = entry.replaced {
            commandLog[entry.slot] = replaced
            commandLogStart = entry.slot
        } else if commandLog.count == entry.slot + 1 {
            commandLog.removeLast()
        }
    }

    /// The command log in call order.
    public var commandsInOrder: ArraySlice<LoggedCommand> {
        commandLogStart == 0
            ? commandLog[...] : ArraySlice(commandLog[commandLogStart...] + commandLog[..<commandLogStart])
    }

    /// Replaces the command log (a view loaded from a saved state).
    public func restore(commands: [LoggedCommand]) {
        commandLog = Array(commands.suffix(ViewProxy.commandLogLimit))
        commandLogStart = 0
    }

    /// Whether an observed prop changed since the last render (or the view never rendered).
    public var needsRender: Bool { invalidation.dirty.load(ordering: .relaxed) }

    /// Renders if an observed prop changed since the last render, tracking what the render reads.
    ///
    /// With `counting: false` the render text and the tracking are refreshed without counting a render:
    /// used after a rolled-back batch restored the old values.
    @discardableResult
    public func renderIfNeeded(counting: Bool = true) -> Bool {
        if let content = type.contentRender {
            // The text of a subtree: read anew each time, a render counted when it changed.
            let text = content(self)
            let first = invalidation.dirty.exchange(false, ordering: .relaxed)
            guard first || text != render else { return false }
            render = text
            if counting { renders += 1 }
            return true
        }
        guard invalidation.dirty.exchange(false, ordering: .relaxed) else { return false }
        let invalidation = self.invalidation
        let props = self.props
        let type = self.type
        render = withObservationTracking {
            type.render(props)
        } onChange: {
            invalidation.dirty.store(true, ordering: .relaxed)
        }
        // Never past Int.max: inspect refuses to render a view that has counted that many.
        if counting && renders < .max { renders += 1 }
        return true
    }

    /// Sets the render count of a view loaded from a saved state.
    public func restore(renders: Int) { self.renders = renders }

    /// Sets the text of the last render of a view loaded from a saved state that still needs a render: what an
    /// observer is shown until it renders again.
    public func restore(render: String) { self.render = render }

    /// Breaks the references between this view and its subtree so that a deleted subtree is freed. A deleted
    /// subtree is unmounted already (``unmount()`` writes nothing then but the references it breaks): its teardown may
    /// run on another thread than the session's next request, which reads no more than whether it is mounted.
    public func tearDown() {
        var stack = [self]
        while let view = stack.popLast() {
            stack.append(contentsOf: view.children)
            view.unmount()
        }
    }

    /// Takes this view out of the tree for good: no parent, no children, no listeners, never emits again.
    public func unmount() {
        if isMounted { isMounted = false }
        children = []
        parent = nil
        listeners = [:]
    }
}

/// Where ``ViewProxy/logCommand(_:)`` put an entry, and what it replaced in a full log.
public struct CommandLogEntry: Sendable {
    let slot: Int
    let replaced: LoggedCommand?
}

/// A command a view was sent, with its checked arguments.
public struct LoggedCommand: Sendable, Equatable {
    public var name: String
    public var args: [PropValue]

    public init(name: String, args: [PropValue]) {
        self.name = name
        self.args = args
    }
}

/// The phases a view listens in for one event.
public struct ListenerPhases: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bubble = ListenerPhases(rawValue: 1)
    public static let capture = ListenerPhases(rawValue: 2)
}

/// Set by the observation `onChange` when a prop the last render read is about to change.
private final class Invalidation: Sendable {
    let dirty = Atomic<Bool>(true)
}
