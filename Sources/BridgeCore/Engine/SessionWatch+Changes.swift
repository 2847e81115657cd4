import PropStore

/// The change frames an observed session owes its observers, written into ``SessionWatch/pending``.
///
/// Each is written only when the session is observed (``SessionWatch/isObserved``): ``OpContext`` asks, for
/// every op. They reach the observers when the request succeeds (``Session/deliverObserved()``), so a failed
/// batch shows them nothing.
extension SessionWatch {
    /// Starts the frame `{"observe":"<session>","change":"<change>"`, leaving the object open.
    private mutating func openChange(_ change: StaticString) {
        pending.raw(#"{"observe":"#)
        pending.string(session)
        pending.raw(#","change":""#)
        pending.raw(change)
        pending.raw("\"")
    }

    private mutating func closeChange() { pending.raw("}\n") }

    mutating func created(_ view: ViewProxy, index: Int?) {
        openChange("created")
        pending.raw(#","view":"#)
        pending.observedView(view)
        if let index {
            pending.raw(#","index":"#)
            pending.int(index)
        }
        closeChange()
    }

    /// The props of `view` whose value is no longer the one in `before` (same order as `props`).
    mutating func updated(_ view: ViewProxy, props: [ComponentType.PropDescriptor], before: [PropValue]) {
        var changed: [(ComponentType.PropDescriptor, PropValue)] = []
        for (prop, old) in zip(props, before) {
            let new = view.value(of: prop)
            if new != old, !changed.contains(where: { $0.0 === prop }) { changed.append((prop, new)) }
        }
        guard !changed.isEmpty else { return }
        openUpdated(view)
        pending.object(changed, key: \.0.name) { $0.propValue($1.1) }
        closeChange()
    }

    /// Starts the frame `updated` of `view`, up to its `props` object.
    private mutating func openUpdated(_ view: ViewProxy) {
        openChange("updated")
        pending.raw(#","tag":"#)
        pending.int(view.tag)
        pending.raw(#","props":"#)
    }

    /// A layout pass moved or resized views (the session's layout, ``ShadowTree``): their new frames, relative to
    /// their parents, in the order read (parents first).
    mutating func laidOut(_ frames: [(view: ViewProxy, frame: Frame)]) {
        guard !frames.isEmpty else { return }
        openChange("laidOut")
        pending.raw(#","frames":["#)
        for (index, entry) in frames.enumerated() {
            if index > 0 { pending.comma() }
            pending.raw(#"{"tag":"#)
            pending.int(entry.view.tag)
            pending.raw(#","layout":"#)
            pending.frame(entry.frame)
            pending.raw("}")
        }
        pending.raw("]")
        closeChange()
    }

    /// A command changed the view's state (it recorded how to undo): `updated` with every prop, since the
    /// command does not say which it set. Reading them all only then keeps a command that changes nothing
    /// (a press) as cheap observed as not.
    mutating func changedState(_ view: ViewProxy) {
        openUpdated(view)
        pending.object(view.listedProps, key: \.name) { $0.propValue(view.value(of: $1)) }
        closeChange()
    }

    mutating func moved(_ parent: ViewProxy) {
        openChange("moved")
        pending.raw(#","tag":"#)
        pending.int(parent.tag)
        pending.raw(#","children":"#)
        pending.tagArray(parent.children)
        closeChange()
    }

    mutating func deleted(_ subtree: [ViewProxy]) {
        openChange("deleted")
        pending.raw(#","tags":"#)
        pending.tagArray(subtree)
        closeChange()
    }

    mutating func subscribed(_ view: ViewProxy, event: String) {
        openChange("subscribed")
        pending.raw(#","tag":"#)
        pending.int(view.tag)
        pending.raw(#","event":"#)
        pending.string(event)
        pending.raw(#","phases":"#)
        pending.phases(view.listeners[event] ?? [])
        closeChange()
    }

    mutating func command(_ view: ViewProxy, name: String, args: [PropValue]) {
        openChange("command")
        pending.raw(#","tag":"#)
        pending.int(view.tag)
        pending.raw(#","name":"#)
        pending.string(name)
        pending.raw(#","args":"#)
        pending.array(args) { $0.propValue($1) }
        closeChange()
    }

    /// An event frame just written (without its newline).
    mutating func event(_ frame: ArraySlice<UInt8>) {
        openChange("event")
        pending.raw(#","event":"#)
        pending.raw(frame)
        closeChange()
    }

    mutating func rendered(_ view: ViewProxy) {
        openChange("render")
        pending.raw(#","tag":"#)
        pending.int(view.tag)
        pending.viewRender(view)
        closeChange()
    }

    /// The session ended (`reason`: `closed`, `expired`…).
    mutating func ended(reason: StaticString) {
        openChange("ended")
        pending.raw(#","reason":""#)
        pending.raw(reason)
        pending.raw("\"")
        closeChange()
    }
}
