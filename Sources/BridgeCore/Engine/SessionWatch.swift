import PropStore

/// What a session keeps for those who observe it: its observers, the change frames the current request
/// owes them, its client's name and its recent log.
///
/// Observing never changes the session: none of this is part of its protocol state (its `seq`, its events,
/// its acks), of its recording or of its saved state.
struct SessionWatch: ~Copyable {
    /// The id of the session watched, which every change frame names.
    let session: String
    /// Sinks of the connections observing the session.
    var observers: [any ObserverSink] = []
    /// The session's own connection observes it: the change frames of each request go out before its response,
    /// in the same output, rather than through a sink (``OwnSessionObservation``). Read only while observed.
    var observesItself: Bool { observers.contains { $0 is OwnSessionObservation } }
    /// Change frames of the request being handled; delivered when it succeeds, dropped when it fails.
    var pending = JSONWriter(capacity: 0)
    /// The `client` of the session's hello.
    var client: String?
    var recent = RecentLog()

    init(session: String) { self.session = session }

    @inline(__always)
    var isObserved: Bool { !observers.isEmpty }

    /// The observers, which are no longer here (put them back by assigning ``observers``).
    mutating func takeObservers() -> [any ObserverSink] {
        var taken: [any ObserverSink] = []
        swap(&taken, &observers)
        return taken
    }
}
