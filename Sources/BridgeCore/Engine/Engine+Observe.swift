import PropStore

/// Observing sessions: the list of sessions, and observations that start from a snapshot.
///
/// Called by a ``Connection`` that holds no session's gate. `sessions` reads each session's listing, which
/// takes no gate; `observe` reads the session under its own gate, after the session table's lock is released.
extension Engine {
    /// The session ids in the table, with whether a connection is attached, in the order they were opened.
    private func tableEntries() -> [(session: Session, connected: Bool)] {
        let entries = table.withLock { table in
            table.slots.values.map { (session: $0.session, connected: $0.connection != nil) }
        }
        return entries.sorted {
            $0.session.id.utf8.count != $1.session.id.utf8.count
                ? $0.session.id.utf8.count < $1.session.id.utf8.count : $0.session.id < $1.session.id
        }
    }

    /// `sessions`: `{"sessions":[{session, client, connected, views, seq, observers}]}`.
    func writeSessions(into w: inout JSONWriter) {
        w.raw(#"{"sessions":"#)
        var first = true
        w.raw("[")
        // Each session as its last request left it (its listing), so that a session busy with a long request
        // holds up no one's `sessions`.
        for (session, connected) in tableEntries() {
            let listing = session.listing
            guard !listing.closed.load(ordering: .acquiring) else { continue }
            if !first { w.comma() }
            first = false
            w.raw(#"{"session":"#)
            w.string(session.id)
            w.raw(#","client":"#)
            if let client = listing.client.withLock({ $0 }) { w.string(client) } else { w.null() }
            w.raw(#","connected":"#)
            w.bool(connected)
            w.raw(#","views":"#)
            w.int(listing.views.load(ordering: .relaxed))
            w.raw(#","seq":"#)
            w.int(listing.seq.load(ordering: .relaxed))
            w.raw(#","observers":"#)
            w.int(listing.observers.load(ordering: .relaxed))
            w.raw("}")
        }
        w.raw("]}")
    }

    private func liveSession(_ id: String, op: StaticString) throws(BridgeError) -> (Session, Bool) {
        let found = table.withLock { table in
            table.slots[id].map { ($0.session, $0.connection != nil) }
        }
        guard let found else {
            throw BridgeError(.unknownSession, "\(op): no session '\(id)' in this daemon (see the 'sessions' op)")
        }
        return found
    }

    /// `observe`: adds `sink` to the session's observers and writes its snapshot, atomically with respect
    /// to the session's requests, so the observer misses no change and sees none twice.
    func observe(_ id: String, sink: any ObserverSink, into w: inout JSONWriter) throws(BridgeError) {
        let (session, connected) = try liveSession(id, op: "observe")
        let added = session.gate.withLock { _ in
            guard !session.closed else { return false }
            // What a batch in parts applied ahead is not the session's yet: the snapshot must not show it.
            session.retractStaged()
            // A session that deferred its passes lays out what it deferred before one who takes the frames comes.
            _ = session.layoutToRead()
            session.addObserver(sink, connected: connected, into: &w)
            return true
        }
        guard added else {
            throw BridgeError(.unknownSession, "observe: session '\(id)' has just ended")
        }
    }

    /// `unobserve`: the session forgets `sink`; nothing happens if it had ended.
    func unobserve(_ id: String, sink: any ObserverSink) {
        guard let (session, _) = try? liveSession(id, op: "unobserve") else { return }
        session.gate.withLock { _ in session.removeObserver(sink) }
    }

    /// The last frame an observer gets when it fell more than `limit` bytes of change frames behind.
    public static func observerCutOffFrame(session: String, limit: Int) -> [UInt8] {
        var w = JSONWriter()
        w.raw(#"{"observe":"#)
        w.string(session)
        w.raw(#","change":"cutoff","message":"#)
        w.string(
            "this observer fell more than \(limit) bytes of change frames behind and was cut off; "
                + "observe again for a fresh snapshot"
        )
        w.raw("}\n")
        return w.bytes
    }
}
