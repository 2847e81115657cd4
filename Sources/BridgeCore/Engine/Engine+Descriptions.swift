import PropStore

/// The components' `hello` descriptions as data that travels: in recordings and the state file, and back.
extension Engine {
    /// The description of each built-in component as `bridged` ships it.
    static let builtinDescriptions: [String: [UInt8]] = Dictionary(
        uniqueKeysWithValues: ComponentRegistry.builtin.components.map { ($0.name, describe([$0])) }
    )

    /// The descriptions of the components of `registry` that are not built-ins as `bridged` ships them, or
    /// `nil` when there are none.
    static func describeNonBuiltin(_ registry: ComponentRegistry) -> [UInt8]? {
        let own = registry.components.filter { builtinDescriptions[$0.name] != describe([$0]) }
        return own.isEmpty ? nil : describe(own)
    }

    /// `registry` with the components of `descriptions` (a `hello` `components` object) that it lacks, rebuilt
    /// as described components (``ComponentType/init(described:props:events:commands:)``). A component it has
    /// must be described the same, or this throws; `source` names the descriptions in errors.
    public static func registry(
        _ registry: ComponentRegistry,
        adding descriptions: JSONRef,
        source: String
    ) throws(SchemaError) -> ComponentRegistry {
        var registry = registry
        let current = JSONDocument.describing(registry)
        let root = SchemaNode(value: descriptions, path: "components", file: source)
        for (name, description) in try root.members() {
            if let existing = current.root[name] {
                guard existing.isEqual(to: description.value) else {
                    throw description.error("component '\(name)' is described differently by this bridged")
                }
                continue
            }
            let type = try ComponentDescription.component(named: name, description)
            do {
                try registry.register(type)
            } catch {
                throw description.error(error.message)
            }
        }
        return registry
    }
}

extension JSONDocument {
    /// The `hello` description of every component of `registry`, parsed.
    static func describing(_ registry: ComponentRegistry) -> JSONDocument {
        // The engine wrote it: it is JSON.
        try! JSONDocument(parsing: Engine.describe(registry.components))
    }
}
