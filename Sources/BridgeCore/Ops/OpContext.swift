import PropStore

/// What an op works with: its request, its session, and the one place that records what it changed.
///
/// An op makes its changes to the session's views through the context (a view inserted, children replaced, a
/// subtree removed, props set, listeners set, components defined), or says what a command changed (it ran);
/// the context records how to undo each when the session's undo is open (a batch, an op whose output is not
/// bounded) and writes the change frame its observers are owed when the session is observed, beside the change
/// itself. No op asks either question itself. A new kind of change is a method here with its undo and its frame
/// (``SessionWatch``, Engine/SessionWatch+Changes.swift), and a case in the DevTools page's change handler.
struct OpContext {
    /// The session the op runs in.
    let session: Session
    /// The request, read with errors that name the op.
    let request: Request

    var engine: Engine { session.engine }

    /// The op's result (the `result` member of its answer).
    var result: JSONWriter {
        _read { yield session.scratch.result }
        nonmutating _modify { yield &session.scratch.result }
    }

    /// The view with `tag` in this session; `unknown_tag`, naming the op and the field, when there is none.
    func view(_ tag: Int, field: StaticString = "tag") throws(BridgeError) -> ViewProxy {
        guard let view = ViewStorage.proxy(session: session.storageKey, tag: tag) else {
            throw BridgeError(.unknownTag, "\(request.op): no view with \(field) \(tag) in this session")
        }
        return view
    }

    /// How many more events the request may emit before the session's seq would pass `Int.max`.
    var eventRoom: Int { Int.max - session.seq - session.scratch.events.count }

    /// The error of a request whose events would take the session's seq past `Int.max`; it changes nothing.
    func seqExhausted(_ what: String) -> BridgeError {
        BridgeError(.limitExceeded, "\(what): the session's event seq is at \(session.seq), the most it can count")
    }

    /// Emits an event once the request succeeds (dispatched along its listeners then).
    func emit(_ event: EventSpec, from view: ViewProxy, payload: EventPayload) {
        session.scratch.events.append(Session.PendingEvent(view: view, event: event, payload: payload))
    }

    // MARK: What changed

    /// Puts the new `view` in storage and, with a `parent`, among its children at `index` (last when `nil`).
    func insert(_ view: ViewProxy, under parent: ViewProxy?, at index: Int?) {
        let session = self.session
        ViewStorage.insert(view, session: session.storageKey)
        session.viewCount += 1
        let unlink = parent.map { ViewTree.insert(view, into: $0, at: index) }
        if let layout = session.layout {
            layout.styleChanged(view)
            if let parent { layout.childrenChanged(parent) }
        }
        if session.watch.isObserved {
            session.watch.created(view, index: parent.map { index ?? $0.children.count - 1 })
        }
        if session.undo.isActive {
            let storageKey = session.storageKey
            let tag = view.tag
            session.undo.record {
                ViewStorage.remove(tags: [tag], session: storageKey)
                view.isMounted = false
                unlink?()
                session.viewCount -= 1
            }
        }
    }

    /// Makes `children` `parent`'s children, in order.
    func setChildren(_ children: [ViewProxy], of parent: ViewProxy) {
        if let layout = session.layout {
            layout.childrenChanged(parent)
            for child in children { if let former = child.parent, former !== parent { layout.childrenChanged(former) } }
        }
        let restore = ViewTree.setChildren(children, of: parent)
        if session.undo.isActive { session.undo.record { restore() } }
        if session.watch.isObserved { session.watch.moved(parent) }
    }

    /// Takes `root` and its subtree out of storage and out of its parent (they are freed once the request
    /// succeeds); returns the subtree, pre-order.
    func remove(_ root: ViewProxy) -> [ViewProxy] {
        let session = self.session
        let subtree = ViewTree.subtree(of: root)
        if let layout = session.layout {
            if let parent = root.parent { layout.childrenChanged(parent) }
            layout.removed(subtree)
        }
        let relink = ViewTree.detach(root)
        ViewStorage.remove(tags: subtree.map(\.tag), session: session.storageKey)
        for view in subtree { view.isMounted = false }
        session.viewCount -= subtree.count
        session.scratch.deletedRoots.append(root)
        if session.watch.isObserved { session.watch.deleted(subtree) }
        if session.undo.isActive {
            let storageKey = session.storageKey
            session.undo.record {
                ViewStorage.insert(subtree, session: storageKey)
                for view in subtree { view.isMounted = true }
                relink()
                session.viewCount += subtree.count
                session.scratch.deletedRoots.removeAll { $0 === root }
            }
        }
        return subtree
    }

    /// Sets converted props on a view, calling `changed` with each prop whose value changed, in order.
    @inline(__always)
    func set(_ converted: [Session.PropChange], of view: ViewProxy, changed: (ComponentType.PropDescriptor) -> Void) {
        let before = session.watch.isObserved ? converted.map { view.value(of: $0.prop) } : nil
        for (prop, value) in converted {
            if session.undo.isActive {
                let neededRender = view.needsRender
                guard let old = view.replaceValue(value, of: prop) else { continue }
                session.undo.note(view, neededRender: neededRender)
                session.undo.record(prop: prop, of: view, old: old)
            } else {
                guard view.setValue(value, of: prop) else { continue }
            }
            changed(prop)
        }
        if let before { session.watch.updated(view, props: converted.map(\.prop), before: before) }
        if let layout = session.layout { layout.styleChanged(view) }
    }

    /// Makes `phases` the phases in which `view` listens to `event` (none: it does not listen).
    func setListeners(_ phases: ListenerPhases, of view: ViewProxy, for event: String) {
        let old = view.listeners[event] ?? []
        guard phases != old else { return }
        if !phases.isEmpty && event == Session.layoutEvent.name && !session.layoutListened {
            // The first listener: what the session deferred is laid out first, before anything listens, so that only
            // what changes from here on moves a view (unless this request changed the tree already: Ops.Batch lays a
            // batch that subscribes out before its first op). Kept when its request is undone.
            _ = session.layoutToRead()
            session.layoutListened = true
        }
        view.listeners[event] = phases.isEmpty ? nil : phases
        if session.undo.isActive { session.undo.record { view.listeners[event] = old.isEmpty ? nil : old } }
        if session.watch.isObserved { session.watch.subscribed(view, event: event) }
    }

    /// A command ran on `view` and is logged; `stateUndo` undoes what it changed of the view's state (empty: it
    /// changed nothing), `neededRender` is whether the view needed a render before it.
    @inline(__always)
    func commandRan(
        _ view: ViewProxy,
        name: String,
        args: [PropValue],
        stateUndo: [() -> Void],
        neededRender: Bool
    ) {
        if session.undo.isActive && !stateUndo.isEmpty {
            session.undo.note(view, neededRender: neededRender)
            session.undo.record(contentsOf: stateUndo)
        }
        if !stateUndo.isEmpty, let layout = session.layout { layout.styleChanged(view) }
        let logged = view.logCommand(LoggedCommand(name: name, args: args))
        if session.undo.isActive { session.undo.record(logged: logged, of: view) }
        if session.watch.isObserved {
            session.watch.command(view, name: name, args: args)
            if !stateUndo.isEmpty { session.watch.changedState(view) }
        }
    }

    /// The session's components are now `components` (a `define` added some).
    func defined(_ components: SessionComponents) {
        if session.undo.isActive {
            let session = self.session
            let old = session.components
            session.undo.record { session.components = old }
        }
        session.components = components
    }

    /// `view` rendered (it needed to).
    func rendered(_ view: ViewProxy) {
        if session.watch.isObserved { session.watch.rendered(view) }
    }

    /// Opens the undo: what the ops change from now on is undone should the request fail.
    func beginUndo() { session.undo.begin() }
}
