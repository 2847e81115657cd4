import PropStore

/// The components a session added with `define`, layered over its engine's: seen by this session's `create`,
/// `subscribe` and `emit` only, never by another session or in `hello`.
struct SessionComponents {
    /// The most components one session may define.
    static let limit = 1_000

    /// The engine's registry with the session's components added.
    var registry: ComponentRegistry
    /// The components the session added, in the order it defined them.
    var defined: [ComponentType] = []

    init(over registry: ComponentRegistry) { self.registry = registry }

    /// The descriptions of ``defined``, as `hello` describes components (what `components` answers, what the
    /// state file keeps).
    var descriptions: [UInt8] { Engine.describe(defined) }

    /// `engine`'s registry with the components of `descriptions` (a state file's `defined`), rebuilt from their
    /// descriptions; `source` names them in errors.
    static func restore(
        _ descriptions: JSONRef,
        over registry: ComponentRegistry,
        source: String
    ) throws(SchemaError) -> SessionComponents {
        let rebuilt = try Engine.registry(registry, adding: descriptions, source: source)
        var components = SessionComponents(over: rebuilt)
        components.defined = rebuilt.components.filter { registry.component(named: $0.name) == nil }
        return components
    }
}

extension Session {
    /// The registry this session's requests see: its engine's, with the components it defined.
    var registry: ComponentRegistry { components?.registry ?? engine.registry }

    /// The component `name` as this session sees it (its own, or its engine's).
    @inline(__always)
    func component(named name: String) -> ComponentType? {
        if components == nil { return engine.registry.component(named: name) }
        return components!.registry.component(named: name)
    }

    /// The event `name` that some component this session sees declares.
    @inline(__always)
    func event(named name: String) -> EventSpec? {
        if components == nil { return engine.registry.events[name] }
        return components!.registry.events[name]
    }

    /// The event `name` as a view of an untyped component has it (it may emit any): the kind a component this
    /// session sees declares for it, else direct; any payload.
    func untypedEvent(named name: String) -> EventSpec {
        EventSpec(name: name, bubbles: event(named: name)?.bubbles ?? false, payload: nil)
    }
}
