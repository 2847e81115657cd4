import PropStore

extension Ops {
    /// `create {tag, component, props?, parent?, index?}` → `{tag}`: a view, under its parent at `index` (last
    /// when not given).
    enum Create: Op {
        static let entry = OpTable.Entry("create")
        static let spec = OpSpec(
            fields: #"{"tag":"integer","component":"string","props?":"object","parent?":"integer","index?":"integer"}"#,
            sample: #"{"op":"create","tag":3,"component":"View","props":{},"parent":1,"index":0}"#,
            result: #"{"tag":"integer"}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let engine = context.engine
            let tag = try request.tag()
            let componentName = try request.string("component")
            let parentTag = try request.optionalTag("parent")
            let index = try request.optionalInt("index")
            let props = try request.object("props", required: false)
            guard let type = context.session.component(named: componentName) else {
                let known = context.session.registry.components.map(\.name).joined(separator: ", ")
                throw BridgeError(.unknownComponent, "create: no component '\(componentName)'; registered: \(known)")
            }
            if ViewStorage.proxy(session: context.session.storageKey, tag: tag) != nil {
                throw BridgeError(.tagInUse, "create: tag \(tag) already has a view in this session")
            }
            var parent: ViewProxy?
            if let parentTag { parent = try context.view(parentTag, field: "parent") }
            if let index {
                guard let parent else { throw BridgeError(.badRequest, "create: 'index' needs a 'parent'") }
                guard index >= 0, index <= parent.children.count else {
                    throw BridgeError(
                        .badRequest,
                        "create: index \(index) is outside 0...\(parent.children.count) for parent \(parent.tag)"
                    )
                }
            }
            var converted: [Session.PropChange] = []
            if let props { try context.convert(props, for: type, tag: tag, into: &converted) }
            let limit = engine.configuration.maxViewsPerSession
            guard context.session.viewCount < limit else {
                throw BridgeError(
                    .limitExceeded,
                    "create: the session has \(context.session.viewCount) views, the limit is \(limit)"
                )
            }

            let view = ViewProxy(tag: tag, type: type)
            for (prop, value) in converted { view.setValue(value, of: prop) }
            context.insert(view, under: parent, at: index)
            context.result.raw(#"{"tag":"#)
            context.result.int(tag)
            context.result.raw("}")
            return nil
        }
    }
}
