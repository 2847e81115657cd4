import PropStore

/// A session's observers: adding and removing one (with the snapshot it starts from), delivering the change
/// frames of a request that succeeded (``SessionWatch`` writes them, ``OpContext`` says when), and the end.
extension Session {
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
        watch.discardPending()
        guard watch.isObserved else { return }
        watch.ended(reason: reason)
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
        writeCursor(into: &w)
        w.raw(#","views":"#)
        w.array(viewsByTag) { $0.observedView($1) }
        w.raw(#","events":"#)
        watch.recent.writeEvents(into: &w)
        w.raw("}")
    }

    /// `,"seq":…,"acked":…`: the session's event cursor, as its snapshot and its state file entry have it.
    func writeCursor(into w: inout JSONWriter) {
        w.raw(#","seq":"#)
        w.int(seq)
        w.raw(#","acked":"#)
        w.int(acked)
    }

    /// The session's views, by tag: as a snapshot and a state file list them.
    var viewsByTag: [ViewProxy] { ViewStorage.views(session: storageKey).sorted { $0.tag < $1.tag } }

    func removeObserver(_ sink: any ObserverSink) {
        watch.observers.removeAll { $0 === sink }
        publishListing()
        if !watch.isObserved {
            watch.pending = JSONWriter(capacity: 0)
            watch.treeFrames = JSONWriter(capacity: 0)
        }
    }
}
