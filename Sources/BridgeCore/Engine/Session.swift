import PropStore
import Synchronization

/// One client's session: its views (in ``ViewStorage``), its subscriptions and its event sequence.
///
/// A ``Connection`` feeds it requests (``Connection/handle(line:into:)`` is the one entry point, for the
/// daemon, `record`, replay and tests alike); it appends the frames to write, in order: the events a request
/// caused, then the request's response. Not thread-safe: drive a session from one place at a time.
///
/// What it holds:
/// - who it is: ``id``, ``token``, its ``engine`` and its key in ``ViewStorage`` (``storageKey``), and the
///   ``gate`` its users hold;
/// - its protocol state: whether it said hello (`greeted`) or ended (`closed`), the components it defined
///   (`components`), how many views it has (`viewCount`), its last event's ``seq``, the client's last ``acked`` seq and the events kept for a resume
///   (`events`, an ``EventBuffer``);
/// - the request being handled: its result, events and deleted views (`scratch`, a ``RequestScratch``) and,
///   inside a batch, how to undo it (`undo`, a ``BatchUndo``);
/// - what its observers are owed (`watch`, a ``SessionWatch``), which never changes the protocol state.
///
/// Each op is a file in `Ops/`, listed by ``OpTable``: the session finds it, runs it through an ``OpContext``
/// and commits or rolls back what it changed. A request that only the connection can answer, because it reaches
/// other sessions (a resume, `observe`), is checked here and handed to the connection as a value (``Handoff``).
///
/// Safety of `@unchecked Sendable`: a session moves between connections (a resume), but every use from a
/// ``Connection`` holds ``gate``, so one thread at a time touches its state.
public final class Session: @unchecked Sendable {
    public let id: String
    /// The secret a `hello` with `resume` must present to take this session: given to the client in hello.
    public let token: String
    /// Held while a connection drives the session, or while the engine reads it (state, observers). Taken
    /// after the engine's session table when both are needed, never before (see ``Engine/table``).
    let gate = Mutex<Void>(())
    /// Whether a committed request left something for ``freeDeferred()``: read without the gate, so that a read with
    /// nothing to free (most) takes no lock for it.
    private let leftToFree = Atomic<Bool>(false)
    public let engine: Engine
    /// The longest `client` name a hello may give, in UTF-8 bytes (`sessions` lists it for every session).
    public static let maxClientBytes = 256
    /// This session's key in ``ViewStorage``.
    public let storageKey: UInt64
    /// The last event sequence number written (0 before the first event).
    public internal(set) var seq = 0
    var greeted = false
    var closed = false
    /// Live views of this session; the engine keeps the sum over its sessions (``Engine/viewCount``).
    var viewCount = 0 {
        didSet { engine.viewsChanged(by: viewCount - oldValue) }
    }

    /// The components this session defined (`define`), layered over its engine's; `nil` until it defines one.
    var components: SessionComponents?
    /// The session's layout, once `layout` turned it on (``ShadowTree``); `nil`: no geometry, as before it existed.
    var layout: ShadowTree?
    /// Some view of the session has listened to `layout` (sticky: set by the first subscription, never cleared).
    /// Until then, and while no observer takes the `laidOut` frames, a request's layout pass is deferred to the
    /// first read of a frame (``layoutToRead()``): nothing could tell when it ran.
    var layoutListened = false

    /// Event frames not yet acked, for a resume.
    var events: EventBuffer
    /// The highest seq the client has acked.
    public internal(set) var acked = 0

    /// The request being handled: its result, the events it emitted, the views it deleted, working arrays.
    var scratch = RequestScratch()
    /// Inside a batch: how to undo what it changed so far.
    var undo = BatchUndo()
    /// The parts of a batch sent over several lines, held until its last part (``Ops/Batch``), perhaps applied
    /// ahead (``StagedBatch``): drop it with ``dropStaged()``.
    private(set) var staged: StagedBatch? {
        didSet { listing.stagedBytes.store(staged?.bytes ?? 0, ordering: .relaxed) }
    }
    /// The length of the line being handled (its request's), which bounds a staged batch's bytes.
    var lineBytes = 0
    /// Observers, the change frames they are owed (``OpContext`` says when), the recent log.
    var watch: SessionWatch
    /// What `sessions` lists of this session, published as each request ends: read without the gate.
    let listing = SessionListing()

    /// A prop and the value it is to take.
    typealias PropChange = (prop: ComponentType.PropDescriptor, value: PropValue)

    /// An event a request emitted: written, with its listener path and seq, once the request succeeds.
    struct PendingEvent {
        let view: ViewProxy
        let event: EventSpec
        let payload: EventPayload
    }

    init(engine: Engine, id: String, token: String) {
        self.engine = engine
        self.id = id
        self.token = token
        self.storageKey = ViewStorage.makeSessionKey()
        self.watch = SessionWatch(session: id)
        self.events = EventBuffer(
            limit: engine.configuration.eventBuffer,
            byteLimit: engine.configuration.eventBufferBytes
        )
    }

    deinit {
        if !closed { close() }
    }

    /// Ends the session: every view it has leaves storage; no event is emitted for them again.
    public func close() {
        guard !closed else { return }
        closed = true
        dropStaged()
        endObservations(reason: "closed")
        for root in scratch.takeDeferredDeleted() { root.tearDown() }
        for view in ViewStorage.removeSession(storageKey) { view.unmount() }
        viewCount = 0
        listing.closed.store(true, ordering: .releasing)
        engine.sessionClosed()
    }

    /// A request the session checked and leaves to its ``Connection``, which alone reaches other sessions.
    enum Handoff {
        /// A valid first `hello`: the connection makes room for the session (`--max-sessions`) and answers it.
        case greet
        /// A valid `hello` with `resume`: the connection claims the session asked for and answers the hello.
        case resume(ResumeRequest)
        /// A valid `sessions`, `observe` or `unobserve`.
        case observer(ObserverRequest)
    }

    /// What ``handle(request:into:)`` did with a request.
    enum Handled {
        /// Answered (with its result or an error).
        case answered
        /// Checked, nothing written: the connection answers the request with this id.
        case handoff(Handoff, RequestLine.ID)
        /// A `bye`, answered: the session is closed (its views are gone); no line after it is handled.
        case ended
    }

    /// Handles one request object: appends the events it caused and its answer, or, for what only the connection
    /// can answer, writes nothing and hands it over. A failed request changes nothing (``rollback()``).
    @discardableResult
    func handle(request: JSONRef, into out: inout [UInt8]) -> Handled {
        // After `bye` the connection is closing: nothing more is read from it.
        guard !closed else { return .ended }
        guard let id = RequestLine.id(of: request, into: &out) else { return .answered }
        scratch.begin()
        let ending: Bool
        let handoff: Handoff?
        /// hello's result, the components' description, is the same for every session: it is not bounded.
        var isHello = false
        do throws(BridgeError) {
            guard let op = request[field: "op"] else { throw BridgeError(.badRequest, "the request has no 'op'") }
            guard let name = op.stringBytes else { throw BridgeError(.badRequest, "'op' must be a string") }
            let index = OpTable.table.index(of: name)
            if !greeted && (index == nil || !OpTable.table.entries[index!].isHello) {
                throw BridgeError(.helloRequired, "send hello {protocol: 1} before '\(op.string ?? "")'")
            }
            guard let index else { throw OpTable.unknownOp(op) }
            let traits = OpTable.table.entries[index]
            if !traits.keepsBatchInParts { retractStaged() }
            if traits.outputIsUnbounded { undo.begin() }
            handoff = try perform(index, traits, request: request, inBatch: false)
            ending = traits.endsSession
            isHello = traits.resultIsUnbounded
        } catch {
            rollback()
            // A batch the daemon's shutdown interrupted is undone and never answered (RELIABILITY: the state is
            // saved as it was before it).
            if !engine.isInterrupted { RequestLine.writeError(error, id: id, into: &out) }
            return .answered
        }
        if let handoff { return .handoff(handoff, id) }
        if staged?.isApplied == true {
            // A part of a batch applied ahead (or a `ping` between its parts): the batch stays open, uncommitted,
            // its events, deletions and change frames held for its last part.
            scratch.writeResponse(id: id, to: &out)
            return .answered
        }
        if let layout, layout.isDirty {
            if layoutIsDeferred { layout.deferPass() } else { layOut(layout) }
        }
        let responseBytes = isHello ? 0 : scratch.result.count + Session.responseOverhead(id)
        guard commit(into: &out, responseBytes: responseBytes) else {
            rollback()
            RequestLine.writeError(outputLimitError(), id: id, into: &out)
            return .answered
        }
        if undo.isActive { undo.commit() }
        if scratch.hasDeferredDeleted || undo.retiredCount > 0 { leftToFree.store(true, ordering: .releasing) }
        // A session observing itself reads a request's changes before its answer: the client's view of the tree is
        // then the daemon's the moment a response arrives.
        if watch.isObserved, watch.observesItself { watch.writeOwnFrames(to: &out) }
        scratch.writeResponse(id: id, to: &out)
        if watch.isObserved { deliverObserved() }
        publishListing()
        if ending {
            // `bye`: the session ends now, answered first; the connection takes it out of the session table.
            close()
            return .ended
        }
        return .answered
    }

    /// Makes the request's changes final: writes its events and frees the views it deleted. Returns `false`, having
    /// written and kept nothing, when its events and its response (`responseBytes`) would exceed
    /// ``Engine/Configuration/maxRequestOutputBytes``: the caller rolls the request back.
    private func commit(into out: inout [UInt8], responseBytes: Int) -> Bool {
        let limit = engine.configuration.maxRequestOutputBytes
        guard responseBytes <= limit else { return false }
        if !scratch.events.isEmpty {
            // Written first and kept (for a resume, for observers) once all of them fit.
            let start = out.count
            let seqBefore = seq
            var ends = scratch.takeFrameEnds()
            defer { scratch.giveBack(frameEnds: &ends) }
            for pending in scratch.events {
                if writeEvent(pending, into: &out) { ends.append(out.count) }
                if out.count - start + responseBytes > limit {
                    out.removeSubrange(start...)
                    seq = seqBefore
                    return false
                }
            }
            var frameStart = start
            for (index, end) in ends.enumerated() {
                keepEvent(seq: seqBefore + index + 1, frame: out[frameStart..<end])
                frameStart = end
            }
            scratch.events.removeAll(keepingCapacity: true)
        }
        scratch.deferDeleted()
        return true
    }

    /// Runs the op `op` names (in a batch: one of its ops), writing its result into `scratch.result`, or returns
    /// what the connection is to answer. Throws without having changed anything (outside a batch), or after
    /// recording how to undo (inside one).
    @discardableResult
    func perform(op: JSONRef, request json: JSONRef, inBatch: Bool) throws(BridgeError) -> Handoff? {
        guard let name = op.stringBytes, let index = OpTable.table.index(of: name) else {
            throw OpTable.unknownOp(op)
        }
        return try perform(index, OpTable.table.entries[index], request: json, inBatch: inBatch)
    }

    /// Runs the op at `index` in ``OpTable``, applying its batch rule.
    @inline(__always)
    private func perform(
        _ index: Int,
        _ op: OpTable.Entry,
        request json: JSONRef,
        inBatch: Bool
    ) throws(BridgeError) -> Handoff? {
        if inBatch, case .refused(let refusal) = op.batch { throw BridgeError(.badRequest, "\(refusal)") }
        let context = OpContext(session: self, request: Request(op: op.name, json: json))
        let handoff = try OpTable.table.ops[index].perform(context)
        if inBatch, case .refusedOnceRead(let refusal) = op.batch { throw BridgeError(.badRequest, "\(refusal)") }
        return handoff
    }

    /// The bytes of a response besides its result: `{"id":…,"ok":true,"result":` and `}\n`.
    static func responseOverhead(_ id: RequestLine.ID) -> Int {
        switch id {
        case .none: 32
        case .int: 48
        case .string(let text): 30 + text.utf8.count
        }
    }

    /// The `limit_exceeded` of a request that would write more than ``Engine/Configuration/maxRequestOutputBytes``.
    func outputLimitError() -> BridgeError {
        let limit = engine.configuration.maxRequestOutputBytes
        return BridgeError(
            .limitExceeded,
            "the request's events and response would exceed \(limit) bytes (--max-request-output-bytes); "
                + "nothing was applied"
        )
    }

    /// Undoes what the failed request changed, newest first, with what a batch in parts applied ahead of its last
    /// part. Nothing is emitted and nothing renders.
    func rollback() {
        undo.rollBack()
        scratch.discard()
        if watch.isObserved { watch.discardPending() }
        staged?.retracted()
    }

    /// Frees what the last request's commit left to free (the views it deleted; a large batch's undo steps,
    /// ``BatchUndo/Retired``), outside the gate. The daemon calls it once the request's answer is on its way, so
    /// that its client does not wait for it; else the next request's commit frees them.
    public func freeDeferred() {
        guard leftToFree.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let (deleted, retired) = gate.withLock { _ in (scratch.takeDeferredDeleted(), undo.takeRetired()) }
        for root in deleted { root.tearDown() }
        withExtendedLifetime(retired) {}
    }

    /// Holds a batch in parts, which ``Ops/Batch`` may have applied ahead.
    func hold(_ batch: StagedBatch) { staged = batch }

    /// Takes the batch in parts this session held, for its last part to run: still applied (its undo open), or not.
    func takeStaged() -> StagedBatch? {
        defer { staged = nil }
        return staged
    }

    /// Rolls back what a batch in parts applied ahead, before anything but its next part sees the session: the
    /// batch is held unapplied, as it may always be (``StagedBatch``).
    func retractStaged() {
        if staged?.isApplied == true { rollback() }
    }

    /// Drops the batch in parts this session held, rolling back what it applied ahead.
    func dropStaged() {
        retractStaged()
        staged = nil
    }

    /// Writes an event frame with its listener path, and counts its `seq`; returns `false`, having written nothing,
    /// when no listener is on the path. The frame is kept for a resume by ``keepEvent(seq:frame:)``.
    ///
    /// One walk from the target up collects the views that listen (one lookup each); the path is then their
    /// capture entries from the root down, and their bubble entries from the target up.
    func writeEvent(_ pending: PendingEvent, into out: inout [UInt8]) -> Bool {
        let target = pending.view
        guard target.isMounted else { return false }
        let name = pending.event.name
        var listening = scratch.takeListeners()
        defer { scratch.giveBack(listeners: &listening) }
        if pending.event.bubbles {
            // Unretained: the walk changes nothing, and every view on it is held by the session's storage. (A
            // retained walk was a retain and a release per view, atomic, on every event.)
            var node: Unmanaged<ViewProxy>? = .passUnretained(target)
            while let unmanaged = node {
                node = unmanaged._withUnsafeGuaranteedRef { current in
                    if let phases = current.phases(for: name) { listening.append((current.tag, phases)) }
                    return current.parent.map { .passUnretained($0) }
                }
            }
        } else if let phases = target.phases(for: name), phases.contains(.bubble) {
            listening.append((target.tag, .bubble))
        }
        guard !listening.isEmpty else { return false }
        seq += 1
        scratch.writeFrame(to: &out) { w in
            w.raw(#"{"event":"#)
            w.string(name)
            w.raw(#","seq":"#)
            w.int(seq)
            w.raw(#","target":"#)
            w.int(target.tag)
            w.raw(#","payload":"#)
            w.payload(pending.payload)
            w.raw(#","path":"#)
            w.raw("[")
            var first = true
            for (tag, phases) in listening.reversed() where phases.contains(.capture) {
                if !first { w.comma() }
                first = false
                w.raw(#"{"tag":"#)
                w.int(tag)
                w.raw(#","phase":"capture"}"#)
            }
            for (tag, phases) in listening where phases.contains(.bubble) {
                if !first { w.comma() }
                first = false
                w.raw(#"{"tag":"#)
                w.int(tag)
                w.raw(#","phase":"bubble"}"#)
            }
            w.raw("]")
            w.raw("}\n")
        }
        return true
    }

    /// Keeps an event frame written by ``writeEvent(_:into:)`` (with its newline): for a resume, in the recent log,
    /// and for observers.
    func keepEvent(seq: Int, frame: ArraySlice<UInt8>) {
        events.keep(seq: seq, frame: frame)
        watch.recent.note(event: frame)
        if watch.isObserved { watch.event(frame.dropLast()) }
    }
}
