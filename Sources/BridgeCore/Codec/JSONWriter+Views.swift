import PropStore

/// The encoders of a view: its head (tag, component, props), its place in the tree, its render, its command log,
/// its tags; `inspect`, snapshots and observers' change frames write views with them.
extension JSONWriter {
    /// The tags of views, `[1,2,3]`.
    public mutating func tagArray<S: Sequence<ViewProxy>>(_ views: S) {
        array(views) { $0.int($1.tag) }
    }

    /// Writes `{"tag":…,"component":…,"props":{every prop}` of a view, leaving the object open.
    mutating func viewHead(_ view: ViewProxy) {
        raw(#"{"tag":"#)
        int(view.tag)
        raw(#","component":"#)
        string(view.type.name)
        raw(#","props":"#)
        object(view.listedProps, key: \.name) { $0.propValue(view.value(of: $1)) }
    }

    /// `,"parent":…,"children":[…]`: where a view is in its tree.
    mutating func viewPlace(_ view: ViewProxy) {
        raw(#","parent":"#)
        if let parent = view.parent { int(parent.tag) } else { null() }
        raw(#","children":"#)
        tagArray(view.children)
    }

    /// `,"render":"…","renders":N`: a view's last render and how many times it has rendered.
    mutating func viewRender(_ view: ViewProxy) {
        raw(#","render":"#)
        string(view.render)
        raw(#","renders":"#)
        int(view.renders)
    }

    /// `[{"name":"scrollTo","args":[0,100,true]},…]`: a view's command log, oldest first.
    mutating func commandLog<S: Sequence<LoggedCommand>>(_ commands: S) {
        array(commands) { w, command in
            w.raw(#"{"name":"#)
            w.string(command.name)
            w.raw(#","args":"#)
            w.array(command.args) { $0.propValue($1) }
            w.raw("}")
        }
    }

    /// A view as an observer sees it: `inspect`'s fields (its command log too), its listeners by event, and
    /// whether its render is stale.
    mutating func observedView(_ view: ViewProxy) {
        viewHead(view)
        viewPlace(view)
        listeners(of: view)
        viewRender(view)
        raw(#","commands":"#)
        commandLog(view.commandsInOrder)
        raw(#","stale":"#)
        bool(view.needsRender)
        raw("}")
    }

    /// A view as a tree-only observation sees it (`observe` with `tree: true`): `{"tag":…,"component":…,"props":{…},
    /// "parent":…,"children":[…]}`, its props those whose value is not their default (a `null` default, listed as
    /// `null` in ``observedView(_:)``, or the one `hello`'s components give, which the client fills in).
    mutating func treeView(_ view: ViewProxy) {
        raw(#"{"tag":"#)
        int(view.tag)
        raw(#","component":"#)
        string(view.type.name)
        raw(#","props":"#)
        setProps(of: view)
        viewPlace(view)
        raw("}")
    }

    /// `{"testID":"row-1",…}`: the props of `view` whose value is not their default.
    private mutating func setProps(of view: ViewProxy) {
        raw("{")
        var first = true
        view.forEachChangedProp { prop, value in
            if !first { comma() }
            first = false
            string(prop.name)
            raw(":")
            propValue(value)
        }
        raw("}")
    }

    /// A created view in a grouped own-tree change (``SessionWatch/ownTreeGrouped``): `tag,"component",{props},
    /// parent,[children]`, its props as ``treeView(_:)`` lists them.
    mutating func treeViewEntry(_ view: ViewProxy) {
        int(view.tag)
        comma()
        string(view.type.name)
        comma()
        setProps(of: view)
        comma()
        if let parent = view.parent { int(parent.tag) } else { null() }
        comma()
        tagArray(view.children)
    }

    /// `,"listeners":{"press":["capture","bubble"],…}`: a view's listeners by event, each event's phases in
    /// dispatch order (observers' snapshots and the state file).
    mutating func listeners(of view: ViewProxy) {
        raw(#","listeners":"#)
        object(view.listeners.sorted { $0.key < $1.key }, key: \.key) { $0.phases($1.value) }
    }

    /// `["capture","bubble"]`, in dispatch order.
    mutating func phases(_ phases: ListenerPhases) {
        raw("[")
        if phases.contains(.capture) { raw(#""capture""#) }
        if phases.contains(.bubble) {
            if phases.contains(.capture) { comma() }
            raw(#""bubble""#)
        }
        raw("]")
    }
}
