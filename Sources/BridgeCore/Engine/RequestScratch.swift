import PropStore

/// What handling one request writes and holds until it is answered: its result, the events it emitted, the
/// views it deleted, and the working arrays of its ops.
///
/// A session keeps one and reuses its buffers from request to request, so that the hot path (an `update`)
/// allocates nothing of its own once they have grown. A working array is taken (``takeConverted()``) and
/// given back emptied, with its capacity (``giveBack(converted:)``): taking one again gets the same storage.
struct RequestScratch: ~Copyable {
    /// The result of the request being handled (its `result` member), written before the response prefix, which
    /// depends on whether it succeeds.
    var result = JSONWriter(capacity: 256)
    /// Where one frame (an event, the response) is put together before it is appended to the output.
    var frame = JSONWriter(capacity: 256)
    /// Events the request emitted, written once it succeeds.
    var events: [Session.PendingEvent] = []
    /// Roots of the subtrees the request deleted; torn down once it succeeds.
    var deletedRoots: [ViewProxy] = []
    /// Roots of the subtrees a request that succeeded deleted, whose teardown waits for its answer to be on its way
    /// (``takeDeferredDeleted()``). Out of storage and detached, nothing reaches them but this.
    private var deferredDeleted: [ViewProxy] = []
    /// For `update`: the props converted from the request.
    private var converted: [Session.PropChange] = []
    /// For an event's dispatch: the listening views on its way.
    private var listeners: [(tag: Int, phases: ListenerPhases)] = []
    /// For a commit: where each event frame written ends in the output.
    private var frameEnds: [Int] = []

    /// Appends to `out` the frame `body` writes, put together in ``frame`` first.
    mutating func writeFrame(to out: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        frame.removeAll()
        body(&frame)
        frame.write(to: &out)
    }

    /// Appends to `out` the response of the request that succeeded: its `id`, then ``result``.
    mutating func writeResponse(id: RequestLine.ID, to out: inout [UInt8]) {
        frame.removeAll()
        RequestLine.writeResponsePrefix(id: id, into: &frame)
        result.withUnsafeBytes { frame.raw($0) }
        frame.raw("}\n")
        frame.write(to: &out)
    }

    /// Starts a request: an empty result, keeping its capacity.
    mutating func begin() { result.removeAll() }

    /// The request failed: what it emitted is dropped and what it deleted is not torn down (a rollback put it
    /// back).
    mutating func discard() {
        events.removeAll(keepingCapacity: true)
        deletedRoots.removeAll()
    }

    /// The request succeeded: the views it deleted are freed once its answer is on its way (a React Native
    /// screen's unmount frees hundreds, for a few hundred microseconds its client need not wait for): kept for
    /// ``takeDeferredDeleted()``. What the request before it deferred, and no one took, is freed now.
    mutating func deferDeleted() {
        for root in deferredDeleted { root.tearDown() }
        deferredDeleted.removeAll()
        swap(&deferredDeleted, &deletedRoots)
    }

    /// Whether a request that succeeded left deleted subtrees to tear down.
    var hasDeferredDeleted: Bool { !deferredDeleted.isEmpty }

    /// Takes the subtrees a request that succeeded deleted, for the caller to tear down (``ViewProxy/tearDown()``).
    mutating func takeDeferredDeleted() -> [ViewProxy] {
        guard !deferredDeleted.isEmpty else { return [] }
        var taken: [ViewProxy] = []
        swap(&taken, &deferredDeleted)
        return taken
    }

    /// The empty array for converted props, with the capacity it had when given back.
    mutating func takeConverted() -> [Session.PropChange] {
        var taken: [Session.PropChange] = []
        swap(&taken, &converted)
        return taken
    }

    /// Keeps `taken`'s storage for the next ``takeConverted()``; `taken` is left empty.
    mutating func giveBack(converted taken: inout [Session.PropChange]) {
        taken.removeAll(keepingCapacity: true)
        swap(&taken, &converted)
    }

    /// The empty array for an event's listeners, with the capacity it had when given back.
    mutating func takeListeners() -> [(tag: Int, phases: ListenerPhases)] {
        var taken: [(tag: Int, phases: ListenerPhases)] = []
        swap(&taken, &listeners)
        return taken
    }

    /// Keeps `taken`'s storage for the next ``takeListeners()``; `taken` is left empty.
    mutating func giveBack(listeners taken: inout [(tag: Int, phases: ListenerPhases)]) {
        taken.removeAll(keepingCapacity: true)
        swap(&taken, &listeners)
    }

    /// The empty array for the ends of event frames, with the capacity it had when given back.
    mutating func takeFrameEnds() -> [Int] {
        var taken: [Int] = []
        swap(&taken, &frameEnds)
        return taken
    }

    /// Keeps `taken`'s storage for the next ``takeFrameEnds()``; `taken` is left empty.
    mutating func giveBack(frameEnds taken: inout [Int]) {
        taken.removeAll(keepingCapacity: true)
        swap(&taken, &frameEnds)
    }
}
