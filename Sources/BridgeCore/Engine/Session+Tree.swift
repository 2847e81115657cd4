import PropStore

extension Session {
    func create(_ request: Request) throws(BridgeError) {
        let tag = try request.tag()
        let componentName = try request.string("component")
        let parentTag = try request.optionalTag("parent")
        let index = try request.optionalInt("index")
        let props = try request.object("props", required: false)
        guard let type = engine.registry.component(named: componentName) else {
            let known = engine.registry.components.map(\.name).joined(separator: ", ")
            throw BridgeError(.unknownComponent, "create: no component '\(componentName)'; registered: \(known)")
        }
        if ViewStorage.proxy(session: storageKey, tag: tag) != nil {
            throw BridgeError(.tagInUse, "create: tag \(tag) already has a view in this session")
        }
        var parent: ViewProxy?
        if let parentTag { parent = try view(parentTag, field: "parent", op: "create") }
        if let index {
            guard let parent else { throw BridgeError(.badRequest, "create: 'index' needs a 'parent'") }
            guard index >= 0, index <= parent.children.count else {
                throw BridgeError(
                    .badRequest,
                    "create: index \(index) is outside 0...\(parent.children.count) for parent \(parent.tag)"
                )
            }
        }
        var converted: [PropChange] = []
        if let props { try convert(props, for: type, tag: tag, op: "create", into: &converted) }
        guard viewCount < engine.configuration.maxViewsPerSession else {
            throw BridgeError(
                .limitExceeded,
                "create: the session has \(viewCount) views, the limit is \(engine.configuration.maxViewsPerSession)"
            )
        }

        let view = ViewProxy(tag: tag, type: type)
        for (prop, value) in converted { view.setValue(value, of: prop) }
        ViewStorage.insert(view, session: storageKey)
        viewCount += 1
        let unlink = parent.map { ViewTree.insert(view, into: $0, at: index) }
        if watch.isObserved { observeCreated(view, index: parent.map { index ?? $0.children.count - 1 }) }
        if undo.isActive {
            undo.record { [storageKey] in
                ViewStorage.remove(tags: [tag], session: storageKey)
                view.isMounted = false
                unlink?()
                self.viewCount -= 1
            }
        }
        scratch.result.raw(#"{"tag":"#)
        scratch.result.int(tag)
        scratch.result.raw("}")
    }

    func setChildren(_ request: Request) throws(BridgeError) {
        let parent = try view(try request.tag(), op: "setChildren")
        guard let elements = try request.array("children", required: true) else { return }
        var children: [ViewProxy] = []
        children.reserveCapacity(elements.count)
        var seen = Set<Int>()
        for element in elements {
            let tag = try Request.tag(element, field: "children", op: "setChildren")
            guard seen.insert(tag).inserted else {
                throw BridgeError(.badRequest, "setChildren: tag \(tag) appears twice in 'children'")
            }
            children.append(try view(tag, field: "child", op: "setChildren"))
        }
        // A child may not be the parent itself or one of its ancestors.
        if let looped = ViewTree.cycle(making: children, childrenOf: parent) {
            throw BridgeError(
                .cycle,
                "setChildren: making \(looped.tag) a child of \(parent.tag) would make it its own ancestor"
            )
        }
        let restore = ViewTree.setChildren(children, of: parent)
        if undo.isActive { undo.record { restore() } }
        if watch.isObserved { observeMoved(parent) }
        scratch.result.raw(#"{"children":"#)
        scratch.result.tagArray(children)
        scratch.result.raw("}")
    }

    func delete(_ request: Request) throws(BridgeError) {
        let root = try view(try request.tag(), op: "delete")
        let subtree = ViewTree.subtree(of: root)
        let relink = ViewTree.detach(root)
        let tags = subtree.map(\.tag)
        ViewStorage.remove(tags: tags, session: storageKey)
        for view in subtree { view.isMounted = false }
        viewCount -= subtree.count
        scratch.deletedRoots.append(root)
        if watch.isObserved { observeDeleted(subtree) }
        if undo.isActive {
            undo.record { [storageKey] in
                ViewStorage.insert(subtree, session: storageKey)
                for view in subtree { view.isMounted = true }
                relink()
                self.viewCount += subtree.count
                self.scratch.deletedRoots.removeAll { $0 === root }
            }
        }
        scratch.result.raw(#"{"deleted":"#)
        scratch.result.tagArray(subtree)
        scratch.result.raw("}")
    }
}
