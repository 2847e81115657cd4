import PropStore

extension Ops {
    /// `define {schema?, untyped?}` → `{components, unchanged, skipped}`: adds components to this session alone,
    /// from a React Native codegen schema (what `--components` files hold) and by name without a spec (`untyped`:
    /// a View that takes any prop and may emit any event). All or nothing.
    ///
    /// `components` describes the components added, as `hello` does; `unchanged` names those of the request that
    /// were served already, described the same (a repeated `define` is a no-op); `skipped` names the schema's
    /// modules that are not components (`NativeModule`). A component the session defined before, described
    /// otherwise, is replaced (and described in `components`) when the session has no view of it; with one, it is
    /// refused, naming the views' tags. Built-ins and `--components` ones are never replaced.
    enum Define: Op {
        static let entry = OpTable.Entry(
            "define",
            batch: .refused("batch: define cannot be part of a batch"),
            outputIsUnbounded: true
        )
        static let spec = OpSpec(
            fields: #"{"schema?":"object","untyped?":["string"]}"#,
            sample: #"{"op":"define","untyped":["SampleUntyped"]}"#,
            result:
                #"{"$name":"DefineResult","components":{"$name":"Components","*":"object"},"unchanged":["string"],"skipped":["string"]}"#,
        )

        /// Where a `define`'s schema is said to be in errors: `define: schema.modules.M…: problem`.
        static let source = "define"

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let schema = try request.object("schema", required: false)
            let untyped = try untypedNames(request)
            guard schema != nil || request.json[field: "untyped"] != nil else {
                throw BridgeError(
                    .badRequest,
                    "define: missing 'schema' (a codegen schema) or 'untyped' (names of components without one)"
                )
            }
            let session = context.session
            // A session that has defined nothing gets what the same schema made for another one (DefineCache).
            let fresh = session.components?.defined.isEmpty ?? true
            let key = fresh ? DefineCache.Key(schema: schema?.compactText ?? "", untyped: untyped.map(\.text)) : nil
            if let key, let kept = context.engine.defineCache.entry(for: key) {
                var components = SessionComponents(over: kept.registry)
                components.defined = kept.added
                if !kept.added.isEmpty { context.defined(components) }
                answer(context, description: kept.description, unchanged: kept.unchanged, skipped: kept.skipped)
                return nil
            }
            var components = session.components ?? SessionComponents(over: context.engine.registry)
            var schemas = CodegenSchema(registry: components.registry)
            schemas.identicalIsUnchanged = true
            schemas.definedBefore = Set(components.defined.map(\.name))
            let storageKey = session.storageKey
            schemas.viewsOf = { name in
                ViewStorage.views(session: storageKey).filter { $0.type.name == name }.map(\.tag).sorted()
            }
            do throws(SchemaError) {
                if let schema { try schemas.load(schema, file: source, path: "schema") }
                for (index, name) in untyped.enumerated() {
                    let node = SchemaNode(value: name.ref, path: "untyped[\(index)]", file: source)
                    try schemas.loadUntyped(name.text, at: node)
                }
            } catch {
                throw BridgeError(.invalidSchema, error.description)
            }
            let added = schemas.loadedComponents.compactMap { schemas.registry.component(named: $0) }
            // A replaced component moves to the end, where the registry has it too: the order it was defined in
            // last (a restored session's registry is rebuilt in this order).
            let replaced = Set(schemas.replacedComponents)
            let kept = replaced.isEmpty ? components.defined : components.defined.filter { !replaced.contains($0.name) }
            let total = kept.count + added.count
            guard total <= SessionComponents.limit else {
                throw BridgeError(
                    .limitExceeded,
                    "define: the session would have defined \(total) components; it may define at most "
                        + "\(SessionComponents.limit)"
                )
            }
            if !added.isEmpty {
                components.registry = schemas.registry
                components.defined = kept + added
                context.defined(components)
            }
            let description = Engine.describe(added)
            let skipped = schemas.skippedModules.map(\.module)
            answer(context, description: description, unchanged: schemas.unchangedComponents, skipped: skipped)
            if let key {
                let entry = DefineCache.Entry(
                    registry: schemas.registry,
                    added: added,
                    description: description,
                    unchanged: schemas.unchangedComponents,
                    skipped: skipped
                )
                context.engine.defineCache.keep(entry, for: key)
            }
            return nil
        }

        private static func answer(
            _ context: OpContext,
            description: [UInt8],
            unchanged: [String],
            skipped: [String]
        ) {
            context.result.raw(#"{"components":"#)
            context.result.raw(description)
            context.result.raw(#","unchanged":"#)
            context.result.stringArray(unchanged)
            context.result.raw(#","skipped":"#)
            context.result.stringArray(skipped)
            context.result.raw("}")
        }

        /// The request's `untyped` names (none when absent), each a non-empty string.
        private static func untypedNames(_ request: Request) throws(BridgeError) -> [(text: String, ref: JSONRef)] {
            var names: [(text: String, ref: JSONRef)] = []
            for element in try request.array("untyped", required: false) ?? [] {
                guard let name = element.string, !name.isEmpty else {
                    throw BridgeError(
                        .badRequest,
                        "define: 'untyped' must be an array of component names, got \(element.compactText) in it"
                    )
                }
                names.append((name, element))
            }
            return names
        }
    }
}
