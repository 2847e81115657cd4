import PropStore

/// The change frames an observed session owes its observers, and the snapshot an observation starts from.
///
/// Every hook is called only when the session is observed (``SessionWatch/isObserved``), except the recent
/// log, which is cheap. Frames go into ``SessionWatch/pending`` and reach the observers when the request
/// succeeds (``deliverObserved()``), so a failed batch shows them nothing.
extension Session {
    /// Starts the frame `{"observe":"<session>","change":"<change>"`, leaving the object open.
    private func openChange(_ change: StaticString) {
        watch.pending.raw(#"{"observe":"#)
        watch.pending.string(id)
        watch.pending.raw(#","change":""#)
        watch.pending.raw(change)
        watch.pending.raw("\"")
    }

    private func closeChange() { watch.pending.raw("}\n") }

    func observeCreated(_ view: ViewProxy, index: Int?) {
        openChange("created")
        watch.pending.raw(#","view":"#)
        watch.pending.observedView(view)
        if let index {
            watch.pending.raw(#","index":"#)
            watch.pending.int(index)
        }
        closeChange()
    }

    /// The props of `view` whose value is no longer the one in `before` (same order as `props`).
    func observeUpdated(_ view: ViewProxy, props: [ComponentType.PropDescriptor], before: [PropValue]) {
        var changed: [(ComponentType.PropDescriptor, PropValue)] = []
        for (prop, old) in zip(props, before) {
            let new = view.value(of: prop)
            if new != old, !changed.contains(where: { $0.0 === prop }) { changed.append((prop, new)) }
        }
        guard !changed.isEmpty else { return }
        openUpdated(view)
        watch.pending.object(changed, key: \.0.name) { $0.propValue($1.1) }
        closeChange()
    }

    /// Starts the frame `updated` of `view`, up to its `props` object.
    private func openUpdated(_ view: ViewProxy) {
        openChange("updated")
        watch.pending.raw(#","tag":"#)
        watch.pending.int(view.tag)
        watch.pending.raw(#","props":"#)
    }

    /// A command changed the view's state (it recorded how to undo): `updated` with every prop, since the
    /// command does not say which it set. Reading them all only then keeps a command that changes nothing
    /// (a press) as cheap observed as not.
    func observeChangedState(_ view: ViewProxy) {
        openUpdated(view)
        watch.pending.object(view.listedProps, key: \.name) { $0.propValue(view.value(of: $1)) }
        closeChange()
    }

    func observeMoved(_ parent: ViewProxy) {
        openChange("moved")
        watch.pending.raw(#","tag":"#)
        watch.pending.int(parent.tag)
        watch.pending.raw(#","children":"#)
        watch.pending.tagArray(parent.children)
        closeChange()
    }

    func observeDeleted(_ subtree: [ViewProxy]) {
        openChange("deleted")
        watch.pending.raw(#","tags":"#)
        watch.pending.tagArray(subtree)
        closeChange()
    }

    func observeSubscribed(_ view: ViewProxy, event: String) {
        openChange("subscribed")
        watch.pending.raw(#","tag":"#)
        watch.pending.int(view.tag)
        watch.pending.raw(#","event":"#)
        watch.pending.string(event)
        watch.pending.raw(#","phases":"#)
        watch.pending.phases(view.listeners[event] ?? [])
        closeChange()
    }

    func observeCommand(_ view: ViewProxy, name: String, args: [PropValue]) {
        openChange("command")
        watch.pending.raw(#","tag":"#)
        watch.pending.int(view.tag)
        watch.pending.raw(#","name":"#)
        watch.pending.string(name)
        watch.pending.raw(#","args":"#)
        watch.pending.array(args) { $0.propValue($1) }
        closeChange()
    }

    /// An event frame just written (without its newline).
    func observeEvent(_ frame: ArraySlice<UInt8>) {
        openChange("event")
        watch.pending.raw(#","event":"#)
        watch.pending.raw(frame)
        closeChange()
    }

    func observeRender(_ view: ViewProxy) {
        openChange("render")
        watch.pending.raw(#","tag":"#)
        watch.pending.int(view.tag)
        watch.pending.viewRender(view)
        closeChange()
    }

    /// Hands the frames of the request that just succeeded to every observer; forgets those that fell behind.
    func deliverObserved() {
        guard !watch.pending.isEmpty else { return }
        // The observers are taken out while the frames are read (one access to `watch` at a time).
        var observers = watch.takeObservers()
        watch.pending.withUnsafeBytes { frames in
            observers.removeAll { !$0.deliver(frames, last: false) }
        }
        watch.observers = observers
        watch.pending.removeAll()
    }

    /// The session ends: tells every observer, which is then forgotten.
    func endObservations(reason: StaticString) {
        watch.pending.removeAll()
        guard watch.isObserved else { return }
        openChange("ended")
        watch.pending.raw(#","reason":""#)
        watch.pending.raw(reason)
        watch.pending.raw("\"")
        closeChange()
        let observers = watch.takeObservers()
        watch.pending.withUnsafeBytes { frames in
            for observer in observers { _ = observer.deliver(frames, last: true) }
        }
        watch.pending = JSONWriter(capacity: 0)
    }

    /// Adds an observer and writes the snapshot it starts from: the session, every view, the recent log.
    ///
    /// Reads the session without changing it: a view that needs a render is reported as it last rendered,
    /// with `"stale": true`.
    func addObserver(_ sink: any ObserverSink, connected: Bool, into w: inout JSONWriter) {
        watch.observers.removeAll { $0 === sink }
        watch.observers.append(sink)
        publishListing()
        w.raw(#"{"session":"#)
        w.string(id)
        w.raw(#","client":"#)
        if let client = watch.client { w.string(client) } else { w.null() }
        w.raw(#","connected":"#)
        w.bool(connected)
        w.raw(#","seq":"#)
        w.int(seq)
        w.raw(#","acked":"#)
        w.int(acked)
        w.raw(#","views":"#)
        let views = ViewStorage.views(session: storageKey).sorted { $0.tag < $1.tag }
        w.array(views) { $0.observedView($1) }
        w.raw(#","events":"#)
        watch.recent.writeEvents(into: &w)
        w.raw("}")
    }

    func removeObserver(_ sink: any ObserverSink) {
        watch.observers.removeAll { $0 === sink }
        publishListing()
        if !watch.isObserved { watch.pending = JSONWriter(capacity: 0) }
    }
}

extension JSONWriter {
    /// A view as an observer sees it: `inspect`'s fields (its command log too), its listeners by event, and
    /// whether its render is stale.
    mutating func observedView(_ view: ViewProxy) {
        viewHead(view)
        viewPlace(view)
        raw(#","listeners":"#)
        object(view.listeners.sorted { $0.key < $1.key }, key: \.key) { $0.phases($1.value) }
        viewRender(view)
        raw(#","commands":"#)
        commandLog(view.commandsInOrder)
        raw(#","stale":"#)
        bool(view.needsRender)
        raw("}")
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
