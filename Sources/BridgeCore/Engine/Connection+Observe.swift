/// `sessions`, `observe` and `unobserve`, answered by the connection: they reach other sessions, and the
/// change frames of an observation are pushed to this connection through a sink the daemon makes.
extension Connection {
    func answer(_ request: ObserverRequest, id: RequestLine.ID, into out: inout [UInt8]) {
        var w = JSONWriter(capacity: 256)
        do throws(BridgeError) {
            switch request {
            case .sessions:
                engine.writeSessions(into: &w)
            case .observe(let session, let tree, let layout, let grouped):
                guard let makeObserverSink else {
                    throw BridgeError(.badRequest, "observe: this connection cannot be sent change frames")
                }
                let own = session == self.session.id
                guard own || !tree else {
                    throw BridgeError(
                        .badRequest,
                        "observe: 'tree' is for the connection's own session ('\(self.session.id)'), not '\(session)'"
                    )
                }
                guard layout || (own && tree) else {
                    throw BridgeError(
                        .badRequest,
                        "observe: 'layout: false' is for the connection's own session with 'tree: true' (its change "
                            + "frames without 'laidOut')"
                    )
                }
                guard !grouped || (own && tree) else {
                    throw BridgeError(
                        .badRequest,
                        "observe: 'grouped' is for the connection's own session with 'tree: true' (a request's "
                            + "change frames as one)"
                    )
                }
                if let old = observing.removeValue(forKey: session) { stop(old, observing: session) }
                // Its own session: the frames go out with each answer, ahead of it (``OwnSessionObservation``).
                let sink: any ObserverSink =
                    own
                    ? OwnSessionObservation(treeOnly: tree, takesLayout: layout, grouped: grouped)
                    : makeObserverSink(session)
                try engine.observe(session, sink: sink, into: &w)
                observing[session] = sink
            case .unobserve(let session):
                if let sink = observing.removeValue(forKey: session) { stop(sink, observing: session) }
                w.raw("{}")
            case .screenshot(let session, let scale, let frames):
                try engine.screenshot(session, scale: scale, frames: frames, into: &w)
            case .hitTest(let session, let x, let y):
                try engine.hitTest(session, x: x, y: y, into: &w)
            }
        } catch {
            RequestLine.writeError(error, id: id, into: &out)
            return
        }
        RequestLine.writeResponsePrefix(id: id, into: &out)
        w.write(to: &out)
        out.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "\n")])
    }

    /// The connection ended: its observations end too.
    func endObservations() {
        for (session, sink) in observing { stop(sink, observing: session) }
        observing.removeAll()
    }

    private func stop(_ sink: any ObserverSink, observing session: String) {
        engine.unobserve(session, sink: sink)
        sink.close()
    }
}
