import PropStore

/// Components loaded from React Native codegen schemas, on top of a registry.
///
/// A schema is the JSON `@react-native/codegen` writes from `codegenNativeComponent<NativeProps>('MyView')`
/// specs: `{"modules": {"<Module>": {"type": "Component", "components": {"<Name>": {"props": […],
/// "events": […], "commands": […], "extendsProps": […]}}}}` (its `CodegenSchema.js` defines the format).
/// Each component becomes a ``ComponentType`` made from data
/// (``ComponentType/init(described:props:events:commands:)``): typed props with their defaults, events with
/// typed payloads, commands with typed parameters that change nothing but are logged.
///
/// ```swift
/// var schemas = CodegenSchema(registry: .builtin)
/// try schemas.load(bytes, file: "MyViewSchema.json")
/// let engine = Engine(registry: schemas.registry)
/// ```
/// A file loads whole or not at all: a failed ``load(_:file:)`` leaves the registry as it was.
public struct CodegenSchema: Sendable {
    /// The registry with every component loaded so far.
    public private(set) var registry: ComponentRegistry
    /// The modules that were skipped because they are not components (`NativeModule`), in order.
    public private(set) var skippedModules: [(file: String, module: String)] = []
    /// The components loaded from schemas, in order.
    public private(set) var loadedComponents: [String] = []
    /// The file each loaded component came from.
    private var origins: [String: String] = [:]
    /// Whether a component already registered and described the same is left as it is (``unchangedComponents``)
    /// rather than refused: a session's `define`, which a client may repeat.
    var identicalIsUnchanged = false
    /// With ``identicalIsUnchanged``: the components of the schema that were registered already, described the same.
    private(set) var unchangedComponents: [String] = []
    /// With ``identicalIsUnchanged``: the components a session defined before, named so in errors. One of them
    /// given with another description is replaced by it when ``viewsOf`` finds no view of it.
    var definedBefore: Set<String> = []
    /// With ``identicalIsUnchanged``: the tags of the views of component `name` that the session has, in order.
    var viewsOf: @Sendable (String) -> [Int] = { _ in [] }
    /// The components of ``definedBefore`` that this load described otherwise and replaced (they are in
    /// ``loadedComponents`` too, and the registry has them at its end), in order.
    private(set) var replacedComponents: [String] = []

    public init(registry: ComponentRegistry = .builtin) { self.registry = registry }

    /// The props of React Native's core view that `extendsProps` `ReactNativeCoreViewProps` adds: those of
    /// bridged's `View`, with their types and defaults.
    public static let coreViewProps: [PropField] = ComponentType(ViewComponent.self).props.map {
        PropField($0.name, $0.type, optional: true, default: $0.defaultValue)
    }

    /// Loads every component of one schema file (its bytes; `file` names it in errors).
    public mutating func load(_ bytes: [UInt8], file: String) throws(SchemaError) {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes)
        } catch {
            let at = error.line > 0 ? " at line \(error.line), column \(error.column)" : ""
            throw SchemaError(file: file, path: "", problem: "not JSON: \(error.message)\(at)")
        }
        var copy = self
        try copy.load(SchemaNode(value: document.root, path: "", file: file))
        self = copy
    }

    /// Loads every component of a schema already parsed (a `define` request's `schema`); `file` and `path` name
    /// it in errors. Whole or not at all, as ``load(_:file:)``.
    mutating func load(_ schema: JSONRef, file: String, path: String) throws(SchemaError) {
        var copy = self
        try copy.load(SchemaNode(value: schema, path: path, file: file))
        self = copy
    }

    /// Adds an untyped component `name` (``ComponentType/init(described:props:events:commands:untyped:)``):
    /// View's props, no events or commands of its own; `node` is where it is named, for errors.
    mutating func loadUntyped(_ name: String, at node: SchemaNode) throws(SchemaError) {
        let type = ComponentType(
            described: name,
            props: CodegenSchema.coreViewProps,
            events: [],
            commands: [],
            untyped: true
        )
        try add(type, at: node)
    }

    private mutating func load(_ root: SchemaNode) throws(SchemaError) {
        guard root.value.isObject else {
            throw root.error("a codegen schema is an object with 'modules', got \(root.describedValue)")
        }
        for (moduleName, module) in try root.required("modules").members() {
            _ = try module.members()
            let type = try module.member("type").map { node throws(SchemaError) in try node.string() }
            switch type {
            case "NativeModule":
                skippedModules.append((file: root.file, module: moduleName))
                continue
            case "Component":
                break
            case nil:
                // Older schemas have no `type`; a module without components is a native module there.
                if module.member("components") == nil {
                    skippedModules.append((file: root.file, module: moduleName))
                    continue
                }
            case let other?:
                throw module.member("type")!.error(
                    "unknown module type '\(other)' (expected Component or NativeModule)"
                )
            }
            for (name, shape) in try module.required("components").members() {
                try register(name: name, shape: shape)
            }
        }
    }

    private mutating func register(name: String, shape: SchemaNode) throws(SchemaError) {
        _ = try shape.members()
        if !identicalIsUnchanged && registry.component(named: name) != nil { throw alreadyRegistered(name, at: shape) }
        let props = try props(of: shape)
        let events: [EventSpec]
        do {
            events = try self.events(of: shape, against: registry)
        } catch {
            // The component this description may replace does not constrain its events: only the others do.
            guard mayReplace(name) else { throw error }
            events = try self.events(of: shape, against: registry.removing(name))
        }
        let type = ComponentType(
            described: name,
            props: props,
            events: events,
            commands: try commands(of: shape)
        )
        try add(type, at: shape)
    }

    /// Whether a new description of `name` may replace the registered one: a component the session defined
    /// before, not already given in this load (views of it are looked for only when the descriptions differ).
    private func mayReplace(_ name: String) -> Bool {
        identicalIsUnchanged && definedBefore.contains(name) && origins[name] == nil
    }

    /// Registers a component read at `node`; with ``identicalIsUnchanged``, one registered already and described
    /// the same is noted as unchanged, and one the session defined before, described otherwise, replaces it when
    /// the session has no view of it.
    private mutating func add(_ type: ComponentType, at node: SchemaNode) throws(SchemaError) {
        var target = registry
        var replaces = false
        if let existing = registry.component(named: type.name) {
            if identicalIsUnchanged, Engine.describe([existing]) == Engine.describe([type]) {
                if !unchangedComponents.contains(type.name) { unchangedComponents.append(type.name) }
                return
            }
            guard mayReplace(type.name) else { throw alreadyRegistered(type.name, at: node) }
            let views = viewsOf(type.name)
            guard views.isEmpty else { throw alreadyRegistered(type.name, at: node, views: views) }
            target = registry.removing(type.name)
            replaces = true
        }
        do {
            try target.register(type)
        } catch {
            throw node.error(error.message)
        }
        if replaces { replacedComponents.append(type.name) }
        registry = target
        origins[type.name] = node.file
        loadedComponents.append(type.name)
    }

    /// The error of a component `name` that is registered already (here: described otherwise); `views`, those of
    /// it that the session has (a component it defined cannot be described anew while one exists).
    private func alreadyRegistered(_ name: String, at node: SchemaNode, views: [Int] = []) -> SchemaError {
        guard identicalIsUnchanged else {
            let origin = origins[name].map { $0 == node.file ? "earlier in this file" : "in \($0)" }
            return node.error(
                "component '\(name)' is already registered (" + (origin.map { "declared \($0)" } ?? "a built-in") + ")"
            )
        }
        let origin =
            origins[name] != nil
            ? "declared earlier in this request"
            : definedBefore.contains(name)
                ? "defined earlier in this session"
                : Engine.builtinDescriptions[name] != nil ? "a built-in" : "served by this daemon"
        guard views.isEmpty else {
            let tags =
                views.prefix(10).map(String.init).joined(separator: ", ")
                + (views.count > 10 ? ", and \(views.count - 10) more" : "")
            let held = views.count == 1 ? "a view of it (tag \(tags))" : "\(views.count) views of it (tags \(tags))"
            return node.error(
                "component '\(name)' is already registered (\(origin)) and described differently, and the session "
                    + "has \(held); it may be described anew only once no view of it exists"
            )
        }
        return node.error(
            "component '\(name)' is already registered (\(origin)) and described differently; "
                + "only an identical description may be given again"
        )
    }

    /// The props: the core view props when `extendsProps` asks for them (a schema prop of the same name
    /// replaces the core one, in place), then the schema's own.
    private func props(of shape: SchemaNode) throws(SchemaError) -> [PropField] {
        var props: [PropField] = []
        for base in try shape.optionalElements("extendsProps") {
            let kind = try base.string("type")
            let known = try base.string("knownTypeName")
            guard kind == "ReactNativeBuiltInType", known == "ReactNativeCoreViewProps" else {
                throw base.error(
                    "unknown extendsProps \(kind) '\(known)' (known: ReactNativeBuiltInType ReactNativeCoreViewProps)"
                )
            }
            if props.isEmpty { props = CodegenSchema.coreViewProps }
        }
        let core = Set(props.map(\.name))
        var declared = Set<String>()
        for prop in try shape.optionalElements("props") {
            let name = try prop.string("name")
            guard declared.insert(name).inserted else {
                throw prop.member("name")!.error("prop '\(name)' is declared twice")
            }
            let annotation = try CodegenSchema.typeAnnotation(of: prop)
            let type = try CodegenSchema.propType(annotation)
            let field = PropField(
                name,
                type,
                optional: try prop.bool("optional", default: true),
                default: try CodegenSchema.defaultValue(annotation, type: type)
            )
            if core.contains(name), let index = props.firstIndex(where: { $0.name == name }) {
                props[index] = field
            } else {
                props.append(field)
            }
        }
        return props
    }

    /// The events, named on the wire without their `on` (`onFooBar` is `fooBar`); an event's kind is checked
    /// against those `registry` declares.
    private func events(of shape: SchemaNode, against registry: ComponentRegistry) throws(SchemaError) -> [EventSpec] {
        var events: [EventSpec] = []
        for event in try shape.optionalElements("events") {
            let declaredName = try event.string("name")
            let name = CodegenSchema.wireName(declaredName)
            guard !events.contains(where: { $0.name == name }) else {
                throw event.member("name")!.error("event '\(declaredName)' is declared twice")
            }
            let bubbling = try event.required("bubblingType")
            let bubbles: Bool
            switch try bubbling.string() {
            case "bubble": bubbles = true
            case "direct": bubbles = false
            case let other: throw bubbling.error("unknown bubblingType '\(other)' (expected bubble or direct)")
            }
            if let existing = registry.events[name], existing.bubbles != bubbles {
                let owner = registry.components.first { $0.event(named: name) != nil }?.name ?? "another component"
                throw bubbling.error(
                    "event '\(name)' is \(bubbles ? "bubbling" : "direct") here but \(owner) declares it "
                        + (existing.bubbles ? "bubbling" : "direct")
                )
            }
            let annotation = try event.required("typeAnnotation")
            let kind = try annotation.string("type")
            guard kind == "EventTypeAnnotation" else {
                throw annotation.error("unknown event type annotation '\(kind)' (expected EventTypeAnnotation)")
            }
            var payload: [PropField] = []
            if let argument = annotation.member("argument"), !argument.value.isNull {
                let argumentKind = try argument.string("type")
                guard argumentKind == "ObjectTypeAnnotation" else {
                    throw argument.error("an event's argument is an ObjectTypeAnnotation, not '\(argumentKind)'")
                }
                payload = try CodegenSchema.fields(argument.required("properties"), withDefaults: false)
            }
            events.append(EventSpec(name: name, bubbles: bubbles, payload: payload))
        }
        return events
    }

    /// The commands: `FunctionTypeAnnotation`s with typed params.
    private func commands(of shape: SchemaNode) throws(SchemaError) -> [DescribedCommand] {
        var commands: [DescribedCommand] = []
        for command in try shape.optionalElements("commands") {
            let name = try command.string("name")
            guard !commands.contains(where: { $0.name == name }) else {
                throw command.member("name")!.error("command '\(name)' is declared twice")
            }
            let function = try CodegenSchema.typeAnnotation(of: command)
            let kind = try function.string("type")
            guard kind == "FunctionTypeAnnotation" else {
                throw function.error("a command is a FunctionTypeAnnotation, not '\(kind)'")
            }
            var params: [CommandParam] = []
            for param in try function.optionalElements("params") {
                let paramName = try param.string("name")
                guard !params.contains(where: { $0.name == paramName }) else {
                    throw param.member("name")!.error("parameter '\(paramName)' is declared twice")
                }
                params.append(
                    CommandParam(paramName, try CodegenSchema.propType(CodegenSchema.typeAnnotation(of: param)))
                )
            }
            commands.append(DescribedCommand(name, params: params))
        }
        return commands
    }

    /// The wire name of a schema event: `onFooBar` → `fooBar`, `onDire tChange` → `dire tChange`; a name
    /// without the `on` prefix is used as written.
    public static func wireName(_ declared: String) -> String {
        guard declared.hasPrefix("on"), declared.count > 2 else { return declared }
        let rest = declared.dropFirst(2)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }
}
