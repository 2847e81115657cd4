/// Where the change frames of an observed session go: the daemon queues them on the observer's socket.
///
/// The engine calls a sink on the observed session's thread, while it holds that session. A sink must
/// therefore return at once: it never writes to a socket itself, never waits for the observer, and bounds
/// what it keeps. An observer that does not read must not slow the session it watches.
public protocol ObserverSink: AnyObject, Sendable {
    /// Takes the change frames of one request of the observed session (each a line ending in `\n`).
    ///
    /// - Parameter last: the observation ends with these frames (the session ended); the sink is not
    ///   called again.
    /// - Returns: `false` when the observer has fallen too far behind. The sink has then queued its last
    ///   frame (``Engine/observerCutOffFrame(session:limit:)``) and the session forgets it.
    func deliver(_ frames: UnsafeRawBufferPointer, last: Bool) -> Bool

    /// The observer ended the observation (`unobserve`, or its connection ended): frames not yet handed to
    /// its socket are dropped, so none follows the answer to `unobserve`. Called on the observer's thread.
    func close()
}

/// The observation of a session by its own connection (`observe` with the connection's own session id): its change
/// frames are written into the connection's output before the response of the request that made them (``Session``),
/// so this sink itself takes nothing.
final class OwnSessionObservation: ObserverSink {
    /// `observe` with `tree: true`: only the frames that change the tree, a created view with only its props that
    /// are set (``SessionWatch/treeFrames``).
    let treeOnly: Bool
    /// `observe` with `tree: true, layout: false`: not the `laidOut` frames either (the client reads a frame when it
    /// needs one), so that the session may defer its layout passes (``Session/layoutIsDeferred``).
    let takesLayout: Bool
    /// `observe` with `tree: true, grouped: true`: a request's changes as one frame, `{"observe":…,"tree":[…]}`, each
    /// change an array (``SessionWatch/writeOwnFrames(to:)``).
    let grouped: Bool

    init(treeOnly: Bool, takesLayout: Bool = true, grouped: Bool = false) {
        self.treeOnly = treeOnly
        self.takesLayout = takesLayout
        self.grouped = grouped
    }

    func deliver(_ frames: UnsafeRawBufferPointer, last: Bool) -> Bool { true }
    func close() {}
}
