import PropStore
import Synchronization

/// One client connection: the session it is attached to, which a `hello` with `resume` can change.
///
/// The daemon makes one per socket connection with ``Engine/connect()``, feeds it lines with
/// ``handle(line:into:)`` and calls ``close()`` when the socket ends; the session then waits
/// `sessionTTL` to be resumed by another connection.
///
/// Safety of `@unchecked Sendable`: a connection is driven from one place at a time (its socket's event
/// loop, or the thread its long request was handed to while the loop leaves it alone); the only field another
/// thread touches is `takenOver`, an atomic, and `onTakeover`, which is set once before the first line.
public final class Connection: @unchecked Sendable {
    public let engine: Engine
    /// The session this connection is attached to.
    public var session: Session { current! }
    private var current: Session?
    /// Called (on the thread of the connection that resumed the session) when another connection takes this
    /// connection's session over. The daemon writes ``Connection/takeoverFrame`` and closes the socket.
    public var onTakeover: (@Sendable () -> Void)?
    let takenOver = Atomic<Bool>(false)
    private var closed = false
    /// Makes the sink that pushes an observed session's change frames to this connection (`observe`); the
    /// daemon sets it before the first line. Without it, `observe` is refused.
    public var makeObserverSink: (@Sendable (_ session: String) -> any ObserverSink)?
    /// The sessions this connection observes, with their sinks.
    var observing: [String: any ObserverSink] = [:]
    /// Set by a `bye`: the session is over and the connection is to be closed once the answer is written.
    public private(set) var hasEnded = false

    init(engine: Engine, session: Session?) {
        self.engine = engine
        self.current = session
    }

    func attach(_ session: Session) { current = session }

    /// Whether the session this connection is attached to has said `hello` (or was resumed by one).
    public var hasSaidHello: Bool {
        let session = self.session
        return session.gate.withLock { _ in session.greeted }
    }

    /// The views of the session this connection is attached to, as of its last answered request (read without
    /// its gate: the daemon asks it of every line, to know whether the line may take long).
    public var sessionViews: Int { session.listing.views.load(ordering: .relaxed) }

    /// The bytes of the batch parts the session holds (read without its gate, as ``sessionViews``): a `batch` line
    /// then may run them all.
    public var stagedBatchBytes: Int { session.listing.stagedBytes.load(ordering: .relaxed) }

    /// Whether another connection has taken this one's session over; its lines are then ignored.
    public var isTakenOver: Bool { takenOver.load(ordering: .acquiring) }

    /// The frame a taken-over connection is sent before it is closed.
    public static let takeoverFrame = RequestLine.errorFrame(
        .sessionTakenOver,
        "another connection resumed this session; this connection is closed"
    )

    /// Handles one line (without its `\n`) and appends the frames to write.
    ///
    /// `parsed` is the line already parsed elsewhere (``ParseAhead``); the answer is the same either way.
    /// After a `bye` (``hasEnded``) or a takeover, lines are ignored: nothing is written for them.
    @discardableResult
    public func handle(
        line: UnsafeRawBufferPointer,
        parsed: consuming JSONDocument? = nil,
        into out: inout [UInt8]
    ) -> RequestLine.Kind {
        guard !isTakenOver, !hasEnded else { return .object }
        var aboutOtherSessions = false
        let kind = RequestLine.withRequest(line: line, parsed: parsed, into: &out) { request, out in
            let session = self.session
            let handled = session.gate.withLock { _ in
                session.lineBytes = line.count
                return isTakenOver || engine.isInterrupted ? .answered : session.handle(request: request, into: &out)
            }
            // Outside the gate: resuming may take this very session, or another one's gate; so may observing.
            switch handled {
            case .answered: break
            case .handoff(.greet, let id): greet(id: id, into: &out)
            case .handoff(.resume(let resume), let id): self.resume(resume, id: id, into: &out)
            case .handoff(.observer(let observerRequest), let id):
                aboutOtherSessions = true
                answer(observerRequest, id: id, into: &out)
            case .ended:
                hasEnded = true
                engine.forget(session)
            }
        }
        return aboutOtherSessions ? .observer : kind
    }

    /// Frees what the session's last request left to free once answered (``Session/freeDeferred()``): called
    /// when its answer is written.
    public func freeDeferred() {
        current?.freeDeferred()
    }

    /// Handles one line of text; returns the frames written, one per element, without newlines.
    public func handle(line: String) -> [String] {
        JSONWriter.frames(answering: line) { handle(line: $0, into: &$1) }
    }

    /// The socket ended: the session is kept for `sessionTTL` (unless another connection already has it).
    public func close() {
        guard !closed else { return }
        closed = true
        endObservations()
        // A batch sent in parts is the connection's: its client gets no answer to it now (connection_closed).
        let session = self.session
        if !isTakenOver { session.gate.withLock { _ in session.dropStaged() } }
        engine.detach(session, from: self)
    }

    /// The first `hello` of a session, which the session has checked: makes room for it, and answers.
    private func greet(id: RequestLine.ID, into out: inout [UInt8]) {
        do throws(BridgeError) {
            try engine.admit(session)
        } catch {
            RequestLine.writeError(error, id: id, into: &out)
            return
        }
        answerHello(id: id, resumed: nil, reason: nil, replayingAfter: nil, into: &out)
    }

    /// `hello {protocol: 1, resume: {session, token, ack}}`, which the session has checked (its id, the protocol,
    /// the resume's members) and left to the connection: claims the session, or moves to a fresh one, and answers.
    private func resume(_ request: ResumeRequest, id: RequestLine.ID, into out: inout [UInt8]) {
        switch engine.claim(request, by: self) {
        case .resumed(let claimed):
            switchSession(to: claimed)
            answerHello(id: id, resumed: true, reason: nil, replayingAfter: request.ack, into: &out)
        case .refused(let reason):
            // Never a silent gap: the client gets a fresh session and is told why.
            switchSession(to: engine.freshSession(for: self))
            do throws(BridgeError) {
                try engine.admit(session)
            } catch {
                RequestLine.writeError(error, id: id, into: &out)
                return
            }
            answerHello(id: id, resumed: false, reason: reason, replayingAfter: nil, into: &out)
        case .invalid(let error):
            RequestLine.writeError(error, id: id, into: &out)
        }
    }

    /// Attaches this connection to `session`; the one it leaves waits to be resumed like any detached session.
    private func switchSession(to session: Session) {
        let previous = self.session
        guard session !== previous else { return }
        current = session
        engine.detach(previous, from: self)
    }

    /// The hello response of a resume, then the retained events after the client's cursor.
    private func answerHello(
        id: RequestLine.ID,
        resumed: Bool?,
        reason: String?,
        replayingAfter ack: Int?,
        into out: inout [UInt8]
    ) {
        let session = self.session
        session.gate.withLock { _ in
            session.greeted = true
            RequestLine.writeResponsePrefix(id: id, into: &out)
            JSONWriter.append(to: &out) { w in
                Ops.Hello.writeResult(of: session, resumed: resumed, reason: reason, into: &w)
                w.raw("}\n")
            }
            if let ack { session.events.write(after: ack, into: &out) }
        }
    }
}
