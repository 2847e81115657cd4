import PropStore

/// `screenshot` and `layout`'s `at` about another session (their `session`, as `observe` names it): the DevTools
/// page's picture of a session and its picking of a view. Called by a ``Connection`` that holds no session's gate;
/// the session's is taken while its tree is read, after the session table's lock is released, as for `observe`.
extension Engine {
    /// `screenshot {session, scale?, frames?}`: that session's window drawn (``Ops/Screenshot``). Changes nothing.
    func screenshot(_ id: String, scale: Double?, frames: Bool, into w: inout JSONWriter) throws(BridgeError) {
        let session = try sessionToRead(id, op: "screenshot")
        let limit = configuration.maxRequestOutputBytes
        try session.gate.withLock { _ throws(BridgeError) in
            guard !session.closed else {
                throw BridgeError(.unknownSession, "screenshot: session '\(id)' has just ended")
            }
            // What a batch in parts applied ahead is not the session's yet: the picture must not show it.
            session.retractStaged()
            try Ops.Screenshot.write(session, scale: scale, frames: frames, into: &w)
        }
        guard w.count <= limit else {
            throw BridgeError(
                .limitExceeded,
                "screenshot: the answer would exceed \(limit) bytes (--max-request-output-bytes); ask for a smaller "
                    + "'scale'"
            )
        }
    }

    /// `layout {session, at: {x, y}}`: the view a touch at that point of the session's window reaches.
    func hitTest(_ id: String, x: Double, y: Double, into w: inout JSONWriter) throws(BridgeError) {
        let session = try sessionToRead(id, op: "layout")
        try session.gate.withLock { _ throws(BridgeError) in
            guard !session.closed else {
                throw BridgeError(.unknownSession, "layout: session '\(id)' has just ended")
            }
            session.retractStaged()
            guard let tree = session.layoutToRead() else {
                throw BridgeError(.badRequest, "layout: 'at' needs session '\(id)''s layout on")
            }
            Ops.Layout.writeHit(tree, x: x, y: y, into: &w)
        }
    }

    /// The session `id` names, or `unknown_session`.
    private func sessionToRead(_ id: String, op: StaticString) throws(BridgeError) -> Session {
        guard let session = table.withLock({ $0.slots[id]?.session }) else {
            throw BridgeError(.unknownSession, "\(op): no session '\(id)' in this daemon (see the 'sessions' op)")
        }
        return session
    }
}
