/// The components a bridge knows, by name, in registration order.
///
/// ```swift
/// var registry = ComponentRegistry.builtin
/// try registry.register(MyGauge.self)
/// ```
public struct ComponentRegistry: Sendable {
    public private(set) var components: [ComponentType] = []
    private var byName: [String: ComponentType] = [:]
    /// Every event name any component declares, with whether it bubbles.
    public private(set) var events: [String: EventSpec] = [:]

    /// An empty registry, but for React Native's touch events (``TouchEvents``), which every view may emit.
    public init() {
        for event in TouchEvents.all { events[event.name] = event }
    }

    /// The built-in components, this package's own and React Native's core host components as iOS names them:
    /// protocol.md's "Built-in components" table lists them all, in this order.
    ///
    /// A new built-in is its own file in `Components/` and its line here; then its row in protocol.md's table,
    /// `js-client/builtins.d.ts` written again (`bridged-client types --builtins --out js-client/builtins.d.ts`),
    /// and its name in `componentsAddedToBuiltins` of js-client/lib/replay-rules.json (then
    /// `node js-client/scripts/generate.js` for the Swift replayer's copy), so that recordings made before it replay. `BuiltinComponentListsTests` and js-client/test/builtins.test.js
    /// fail, naming the place, until each has it.
    public static let builtin: ComponentRegistry = {
        var registry = ComponentRegistry()
        try! registry.register(ViewComponent.self)
        try! registry.register(SwiftUIButton.self)
        try! registry.register(TextField.self)
        try! registry.register(Slider.self)
        try! registry.register(ReactNativeView.type)
        try! registry.register(ReactNativeText.self)
        try! registry.register(ReactNativeVirtualText.self)
        try! registry.register(ReactNativeRawText.self)
        // Switch before the text inputs: the last declaration of the bubbling `change` types it for the client.
        try! registry.register(ReactNativeScrollView.self)
        try! registry.register(ReactNativeScrollContentView.self)
        try! registry.register(ReactNativeSwitch.self)
        try! registry.register(ReactNativeSinglelineTextInput.self)
        try! registry.register(ReactNativeMultilineTextInput.self)
        try! registry.register(ReactNativeActivityIndicator.self)
        try! registry.register(ReactNativeImage.self)
        try! registry.register(ReactNativeModal.self)
        try! registry.register(ReactNativeSafeAreaView.self)
        try! registry.register(ReactNativeRefreshControl.self)
        return registry
    }()

    /// Adds a component. Throws if its declaration is invalid (``ComponentType/validate()``), its name is taken or one of its events is declared elsewhere with the
    /// other kind (bubbling versus direct), since listeners anywhere in the tree depend on that kind.
    public mutating func register<C: Component>(_ component: C.Type) throws(RegistrationError) {
        try register(ComponentType(component))
    }

    /// Adds a component made from descriptors (e.g. loaded from a codegen schema), with the same checks.
    public mutating func register(_ type: ComponentType) throws(RegistrationError) {
        try type.validate()
        guard byName[type.name] == nil else {
            throw RegistrationError(message: "component '\(type.name)' is already registered")
        }
        for event in type.events {
            if let existing = events[event.name], existing.bubbles != event.bubbles {
                throw RegistrationError(
                    message: "event '\(event.name)' of \(type.name) is \(event.bubbles ? "bubbling" : "direct") "
                        + "but is declared \(existing.bubbles ? "bubbling" : "direct") elsewhere"
                )
            }
        }
        for event in type.events { events[event.name] = event }
        components.append(type)
        byName[type.name] = type
    }

    public func component(named name: String) -> ComponentType? { byName[name] }

    /// This registry without the component `name`, the others in their order; an event it declared stays known
    /// only as the other components declare it (the last declaration, as registering them would have it).
    public func removing(_ name: String) -> ComponentRegistry {
        guard byName[name] != nil else { return self }
        var registry = ComponentRegistry()
        for type in components where type.name != name {
            for event in type.events { registry.events[event.name] = event }
            registry.components.append(type)
            registry.byName[type.name] = type
        }
        return registry
    }
}

/// A component that cannot be registered, with the reason.
public struct RegistrationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
