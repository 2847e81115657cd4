import Synchronization

/// What the `sessions` op lists of a session (its client, views, seq and observers, whether it ended), published
/// by the session as each request ends, so that listing takes no session's gate: a session busy with a long
/// request holds up no one's `sessions`. Each figure is as of the session's last answered request.
final class SessionListing: Sendable {
    let client = Mutex<String?>(nil)
    let views = Atomic<Int>(0)
    let seq = Atomic<Int>(0)
    let observers = Atomic<Int>(0)
    let closed = Atomic<Bool>(false)
    /// The bytes of the batch parts the session holds (``Session/staged``): its next `batch` may run them all.
    let stagedBytes = Atomic<Int>(0)
}

extension Session {
    /// Publishes the figures of ``listing`` (under the gate, after a request or a change of observers).
    @inline(__always)
    func publishListing() {
        listing.views.store(viewCount, ordering: .relaxed)
        listing.seq.store(seq, ordering: .relaxed)
        listing.observers.store(watch.observers.count, ordering: .relaxed)
    }
}
