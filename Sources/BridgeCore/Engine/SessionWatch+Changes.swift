import PropStore

/// The change frames an observed session owes its observers, written into ``SessionWatch/pending`` (and, for a
/// tree-only own observation, into ``SessionWatch/treeFrames``).
///
/// Each is written only when the session is observed (``SessionWatch/isObserved``): ``OpContext`` asks, for
/// every op. They reach the observers when the request succeeds (``Session/deliverObserved()``), so a failed
/// batch shows them nothing.
extension SessionWatch {
    /// A frame that changes the tree, the same for every observer: written for those who take every frame and for a
    /// tree-only own observation; for a grouped one (``ownTreeGrouped``), `entry` writes the change's array instead.
    private mutating func treeChange(_ write: (inout JSONWriter, String) -> Void, entry: (inout JSONWriter) -> Void) {
        let session = self.session
        if takesEveryFrame { write(&pending, session) }
        if ownTreeOnly { ownTree(session, write, entry: entry) }
    }

    /// A change for the session's own tree-only observation: its frame, or, grouped, its array among the request's.
    private mutating func ownTree(
        _ session: String,
        _ write: (inout JSONWriter, String) -> Void,
        entry: (inout JSONWriter) -> Void
    ) {
        if ownTreeGrouped {
            if !treeFrames.isEmpty { treeFrames.comma() }
            entry(&treeFrames)
        } else {
            write(&treeFrames, session)
        }
    }

    /// A frame that does not change the tree (a subscription, a command's log entry, an event, a render): written for
    /// those who take every frame alone.
    private mutating func otherChange(_ write: (inout JSONWriter, String) -> Void) {
        let session = self.session
        if takesEveryFrame { write(&pending, session) }
    }

    mutating func created(_ view: ViewProxy, index: Int?) {
        let session = self.session
        if takesEveryFrame {
            pending.openChange("created", session: session)
            pending.raw(#","view":"#)
            pending.observedView(view)
            pending.closeCreated(index: index)
        }
        if ownTreeOnly {
            ownTree(session) { w, session in
                w.openChange("created", session: session)
                w.raw(#","view":"#)
                w.treeView(view)
                w.closeCreated(index: index)
            } entry: { w in
                // ["created",tag,component,{props},parent,[children]] and its index when it has one.
                w.raw(#"["created","#)
                w.treeViewEntry(view)
                if let index {
                    w.comma()
                    w.int(index)
                }
                w.raw("]")
            }
        }
    }

    /// The props of `view` whose value is no longer the one in `before` (same order as `props`).
    mutating func updated(_ view: ViewProxy, props: [ComponentType.PropDescriptor], before: [PropValue]) {
        var changed: [(ComponentType.PropDescriptor, PropValue)] = []
        for (prop, old) in zip(props, before) {
            let new = view.value(of: prop)
            if new != old, !changed.contains(where: { $0.0 === prop }) { changed.append((prop, new)) }
        }
        guard !changed.isEmpty else { return }
        treeChange { w, session in
            w.openUpdated(view, session: session)
            w.object(changed, key: \.0.name) { $0.propValue($1.1) }
            w.closeChange()
        } entry: { w in
            w.openUpdatedEntry(view)
            w.object(changed, key: \.0.name) { $0.propValue($1.1) }
            w.raw("]")
        }
    }

    /// A layout pass moved or resized views (the session's layout, ``ShadowTree``): their new frames, relative to
    /// their parents, in the order read (parents first).
    mutating func laidOut(_ frames: [(view: ViewProxy, frame: Frame)]) {
        guard !frames.isEmpty, takesLayoutFrames else { return }
        let session = self.session
        let list = { (w: inout JSONWriter) in
            w.raw("[")
            for (index, entry) in frames.enumerated() {
                if index > 0 { w.comma() }
                w.raw(#"{"tag":"#)
                w.int(entry.view.tag)
                w.raw(#","layout":"#)
                w.frame(entry.frame)
                w.raw("}")
            }
            w.raw("]")
        }
        let write = { (w: inout JSONWriter, session: String) in
            w.openChange("laidOut", session: session)
            w.raw(#","frames":"#)
            list(&w)
            w.closeChange()
        }
        if takesEveryFrame { write(&pending, session) }
        if ownTreeTakesLayout {
            ownTree(session, write) { w in
                w.raw(#"["laidOut","#)
                list(&w)
                w.raw("]")
            }
        }
    }

    /// A command changed the view's state (it recorded how to undo): `updated` with every prop, since the
    /// command does not say which it set. Reading them all only then keeps a command that changes nothing
    /// (a press) as cheap observed as not.
    mutating func changedState(_ view: ViewProxy) {
        treeChange { w, session in
            w.openUpdated(view, session: session)
            w.object(view.listedProps, key: \.name) { $0.propValue(view.value(of: $1)) }
            w.closeChange()
        } entry: { w in
            w.openUpdatedEntry(view)
            w.object(view.listedProps, key: \.name) { $0.propValue(view.value(of: $1)) }
            w.raw("]")
        }
    }

    mutating func moved(_ parent: ViewProxy) {
        treeChange { w, session in
            w.openChange("moved", session: session)
            w.raw(#","tag":"#)
            w.int(parent.tag)
            w.raw(#","children":"#)
            w.tagArray(parent.children)
            w.closeChange()
        } entry: { w in
            w.raw(#"["moved","#)
            w.int(parent.tag)
            w.comma()
            w.tagArray(parent.children)
            w.raw("]")
        }
    }

    mutating func deleted(_ subtree: [ViewProxy]) {
        treeChange { w, session in
            w.openChange("deleted", session: session)
            w.raw(#","tags":"#)
            w.tagArray(subtree)
            w.closeChange()
        } entry: { w in
            w.raw(#"["deleted","#)
            w.tagArray(subtree)
            w.raw("]")
        }
    }

    mutating func subscribed(_ view: ViewProxy, event: String) {
        otherChange { w, session in
            w.openChange("subscribed", session: session)
            w.raw(#","tag":"#)
            w.int(view.tag)
            w.raw(#","event":"#)
            w.string(event)
            w.raw(#","phases":"#)
            w.phases(view.listeners[event] ?? [])
            w.closeChange()
        }
    }

    mutating func command(_ view: ViewProxy, name: String, args: [PropValue]) {
        otherChange { w, session in
            w.openChange("command", session: session)
            w.raw(#","tag":"#)
            w.int(view.tag)
            w.raw(#","name":"#)
            w.string(name)
            w.raw(#","args":"#)
            w.array(args) { $0.propValue($1) }
            w.closeChange()
        }
    }

    /// An event frame just written (without its newline).
    mutating func event(_ frame: ArraySlice<UInt8>) {
        otherChange { w, session in
            w.openChange("event", session: session)
            w.raw(#","event":"#)
            w.raw(frame)
            w.closeChange()
        }
    }

    mutating func rendered(_ view: ViewProxy) {
        otherChange { w, session in
            w.openChange("render", session: session)
            w.raw(#","tag":"#)
            w.int(view.tag)
            w.viewRender(view)
            w.closeChange()
        }
    }

    /// The session ended (`reason`: `closed`, `expired`…), written for every observer's sink (a session's own
    /// connection is gone by then).
    mutating func ended(reason: StaticString) {
        pending.openChange("ended", session: session)
        pending.raw(#","reason":""#)
        pending.raw(reason)
        pending.raw("\"")
        pending.closeChange()
    }
}

extension JSONWriter {
    /// Starts the frame `{"observe":"<session>","change":"<change>"`, leaving the object open.
    fileprivate mutating func openChange(_ change: StaticString, session: String) {
        raw(#"{"observe":"#)
        string(session)
        raw(#","change":""#)
        raw(change)
        raw("\"")
    }

    fileprivate mutating func closeChange() { raw("}\n") }

    /// Ends a `created` frame: its `index` among its parent's children, when it has a parent.
    fileprivate mutating func closeCreated(index: Int?) {
        if let index {
            raw(#","index":"#)
            int(index)
        }
        closeChange()
    }

    /// Starts a grouped `updated` change of `view`, `["updated",tag,`, up to its props object.
    fileprivate mutating func openUpdatedEntry(_ view: ViewProxy) {
        raw(#"["updated","#)
        int(view.tag)
        comma()
    }

    /// Starts the frame `updated` of `view`, up to its `props` object.
    fileprivate mutating func openUpdated(_ view: ViewProxy, session: String) {
        openChange("updated", session: session)
        raw(#","tag":"#)
        int(view.tag)
        raw(#","props":"#)
    }
}
