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
        if let parent {
            parent.children.insert(view, at: index ?? parent.children.count)
            view.parent = parent
        }
        if watch.isObserved { observeCreated(view, index: parent.map { _ in index ?? parent!.children.count - 1 }) }
        if inBatch {
            recordUndo { [storageKey] in
                ViewStorage.remove(tags: [tag], session: storageKey)
                view.isMounted = false
                if let parent = view.parent { parent.children.removeAll { $0 === view } }
                view.parent = nil
                self.viewCount -= 1
            }
        }
        result.raw(#"{"tag":"#)
        result.int(tag)
        result.raw("}")
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
        var ancestor: ViewProxy? = parent
        while let current = ancestor {
            if seen.contains(current.tag) {
                throw BridgeError(
                    .cycle,
                    "setChildren: making \(current.tag) a child of \(parent.tag) would make it its own ancestor"
                )
            }
            ancestor = current.parent
        }

        // Remember every children list and parent pointer this touches, to undo inside a batch.
        if undoLog != nil {
            var oldChildren: [(ViewProxy, [ViewProxy])] = [(parent, parent.children)]
            var oldParents: [(ViewProxy, ViewProxy?)] = parent.children.map { ($0, $0.parent) }
            for child in children {
                oldParents.append((child, child.parent))
                if let former = child.parent, former !== parent { oldChildren.append((former, former.children)) }
            }
            recordUndo {
                for (view, list) in oldChildren { view.children = list }
                for (view, parent) in oldParents { view.parent = parent }
            }
        }
        for old in parent.children where !seen.contains(old.tag) { old.parent = nil }
        for child in children {
            if let former = child.parent, former !== parent { former.children.removeAll { $0 === child } }
            child.parent = parent
        }
        parent.children = children
        if watch.isObserved { observeMoved(parent) }
        result.raw(#"{"children":"#)
        result.tagArray(children)
        result.raw("}")
    }

    func delete(_ request: Request) throws(BridgeError) {
        let root = try view(try request.tag(), op: "delete")
        var subtree: [ViewProxy] = []
        var stack = [root]
        while let view = stack.popLast() {
            subtree.append(view)
            stack.append(contentsOf: view.children.reversed())
        }
        let parent = root.parent
        let position = parent?.children.firstIndex { $0 === root }
        if let parent, let position { parent.children.remove(at: position) }
        root.parent = nil
        let tags = subtree.map(\.tag)
        ViewStorage.remove(tags: tags, session: storageKey)
        for view in subtree { view.isMounted = false }
        viewCount -= subtree.count
        deletedRoots.append(root)
        if watch.isObserved { observeDeleted(subtree) }
        if inBatch {
            recordUndo { [storageKey] in
                ViewStorage.insert(subtree, session: storageKey)
                for view in subtree { view.isMounted = true }
                if let parent, let position {
                    parent.children.insert(root, at: position)
                    root.parent = parent
                }
                self.viewCount += subtree.count
                self.deletedRoots.removeAll { $0 === root }
            }
        }
        result.raw(#"{"deleted":"#)
        result.tagArray(subtree)
        result.raw("}")
    }
}
