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
/// - its protocol state: whether it said hello (`greeted`) or ended (`closed`), how many views it has
///   (`viewCount`), its last event's ``seq``, the client's last ``acked`` seq and the events kept for a resume
///   (`events`, an ``EventBuffer``);
/// - the request being handled: its result, events and deleted views (`scratch`, a ``RequestScratch``) and,
///   inside a batch, how to undo it (`undo`, a ``BatchUndo``);
/// - what its observers are owed (`watch`, a ``SessionWatch``), which never changes the protocol state.
///
/// A request that only the connection can answer, because it reaches other sessions (a resume, `observe`), is
/// checked here and handed to the connection as a value (``Handoff``).
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
    public let engine: Engine
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

    /// Event frames not yet acked, for a resume.
    var events: EventBuffer
    /// The highest seq the client has acked.
    public internal(set) var acked = 0

    /// The request being handled: its result, the events it emitted, the views it deleted, working arrays.
    var scratch = RequestScratch()
    /// Inside a batch: how to undo what it changed so far.
    var undo = BatchUndo()
    /// Observers, the change frames they are owed, the recent log (Session+Observe).
    var watch = SessionWatch()

    struct PendingEvent {
        let view: ViewProxy
        let event: EventSpec
        let payload: EventPayload
    }

    /// What a line turned out to be, for a recorder that keeps bad input as raw text.
    public enum LineKind: Sendable {
        /// Blank: a keep-alive, answered with nothing.
        case keepAlive
        /// A JSON object (a request, valid or not).
        case object
        /// Not a JSON object jansson reads (answered with `bad_json`, `bad_request` or `limit_exceeded`), or
        /// one it reads only with its integers as reals: a recorder keeps it as raw text.
        case notObject
        /// A request about other sessions (`sessions`, `observe`, `unobserve`) that a connection answered.
        /// Not recorded: a replay has no other sessions to show.
        case observer
    }

    init(engine: Engine, id: String, token: String) {
        self.engine = engine
        self.id = id
        self.token = token
        self.storageKey = ViewStorage.makeSessionKey()
        self.events = EventBuffer(limit: engine.configuration.eventBuffer)
    }

    deinit {
        if !closed { close() }
    }

    /// Parses a line and calls `body` with the request object; a line that is not one is answered here
    /// (`bad_json` or `bad_request`, with `id: null`) and a blank line is a keep-alive.
    static func withRequest(
        line: UnsafeRawBufferPointer,
        into out: inout [UInt8],
        _ body: (JSONRef, inout [UInt8]) -> Void
    ) -> LineKind {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        if line.isEmpty { return .keepAlive }
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: line)
        } catch {
            guard let reread = refused(line, error, into: &out) else { return .notObject }
            // Handled as a request, but kept as text by a recorder: its integers do not fit a JSON reader.
            _ = withParsed(reread, into: &out, body)
            return .notObject
        }
        return withParsed(document, into: &out, body)
    }

    private static func withParsed(
        _ document: consuming JSONDocument,
        into out: inout [UInt8],
        _ body: (JSONRef, inout [UInt8]) -> Void
    ) -> LineKind {
        let request = document.root
        guard request.isObject else {
            writeError(BridgeError(.badRequest, "a request must be a JSON object"), id: .none, into: &out)
            return .notObject
        }
        body(request, &out)
        withExtendedLifetime(document) {}
        return .object
    }

    /// Answers a line jansson refused. Only a line that is not JSON is `bad_json`; valid JSON that jansson
    /// cannot take is answered with the request's own `id` (read by ``JSONScanner``) and what was wrong, except
    /// integers beyond 64 bits: the line is read again with them as reals, and returned to be handled, so that
    /// the prop or field that holds one is named.
    private static func refused(
        _ line: UnsafeRawBufferPointer,
        _ error: JSONParseError,
        into out: inout [UInt8]
    ) -> JSONDocument? {
        guard error.reason != .syntax, let outline = JSONScanner.outline(line) else {
            writeError(BridgeError(.badJSON, "invalid JSON: \(error)"), id: .none, into: &out)
            return nil
        }
        if error.reason == .numberOverflow, let reread = try? JSONDocument(parsing: line, integersAsReals: true) {
            // An integer `id` read as a real may come back as another integer (beyond 64 bits, or past 2^53):
            // it is never echoed changed; an `id` that is not a 64-bit integer is `bad_request`.
            if outline.isObject, let id = reread.root[field: "id"], id.kind == .integer {
                guard case .int(let given) = outline.id, Int64(given) == id.integer else {
                    writeError(BridgeError(.badRequest, "'id' must be an integer or a string"), id: .none, into: &out)
                    return nil
                }
            }
            return reread
        }
        let id = outline.isObject ? outline.id : .none
        let failure: BridgeError
        switch error.reason {
        case .tooDeep:
            failure = BridgeError(
                .limitExceeded,
                "the request nests arrays and objects deeper than 2048 levels, the JSON reader's limit"
            )
        case .outOfMemory:
            failure = BridgeError(.limitExceeded, "the request is too large to read")
        case .numberOverflow:
            failure = BridgeError(.badRequest, "a number is outside the range of a double (\(error))")
        case .nulInKey:
            failure = BridgeError(.badRequest, "an object key contains \\u0000, which is not supported (\(error))")
        case .duplicateKey:
            failure = BridgeError(.badRequest, "an object has a duplicate key (\(error))")
        case .syntax:
            failure = BridgeError(.badJSON, "invalid JSON: \(error)")
        }
        writeError(failure, id: id, into: &out)
        return nil
    }

    /// Ends the session: every view it has leaves storage; no event is emitted for them again.
    public func close() {
        guard !closed else { return }
        closed = true
        endObservations(reason: "closed")
        for view in ViewStorage.removeSession(storageKey) { view.unmount() }
        viewCount = 0
        engine.sessionClosed()
    }

    /// The `id` of a request, or `nil` (after answering `bad_request`) when it is neither an integer nor a string.
    static func requestID(of request: JSONRef, into out: inout [UInt8]) -> RequestID? {
        guard let value = request[field: "id"] else { return RequestID.none }
        switch value.kind {
        case .integer: return .int(Int(value.integer!))
        case .string: return .string(value.string!)
        case .null: return RequestID.none
        default:
            writeError(BridgeError(.badRequest, "'id' must be an integer or a string"), id: .none, into: &out)
            return nil
        }
    }

    /// A request the session checked and leaves to its ``Connection``, which alone reaches other sessions.
    enum Handoff {
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
        case handoff(Handoff, RequestID)
        /// A `bye`, answered: the session is closed (its views are gone); no line after it is handled.
        case ended
    }

    @discardableResult
    func handle(request: JSONRef, into out: inout [UInt8]) -> Handled {
        // After `bye` the connection is closing: nothing more is read from it.
        guard !closed else { return .ended }
        guard let id = Session.requestID(of: request, into: &out) else { return .answered }
        scratch.begin()
        let ending: Bool
        let handoff: Handoff?
        do throws(BridgeError) {
            guard let op = request[field: "op"] else { throw BridgeError(.badRequest, "the request has no 'op'") }
            guard op.kind == .string else { throw BridgeError(.badRequest, "'op' must be a string") }
            if !greeted && !op.isString("hello") {
                throw BridgeError(.helloRequired, "send hello {protocol: 1} before '\(op.string ?? "")'")
            }
            handoff = try perform(op: op, request: request, inBatch: false)
            ending = op.isString("bye")
        } catch {
            rollback()
            Session.writeError(error, id: id, into: &out)
            return .answered
        }
        if let handoff { return .handoff(handoff, id) }
        commit(into: &out)
        Session.writeResponsePrefix(id: id, into: &out)
        out.append(contentsOf: scratch.result.bytes)
        out.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "\n")])
        if watch.isObserved { deliverObserved() }
        if ending {
            // `bye`: the session ends now, answered first; the connection takes it out of the session table.
            close()
            return .ended
        }
        return .answered
    }

    /// Makes the request's changes final: writes its events and frees the views it deleted.
    private func commit(into out: inout [UInt8]) {
        if !scratch.events.isEmpty {
            for pending in scratch.events { writeEvent(pending, into: &out) }
            scratch.events.removeAll(keepingCapacity: true)
        }
        scratch.tearDownDeleted()
    }

    /// Undoes what the failed request changed, newest first. Nothing is emitted and nothing renders.
    func rollback() {
        undo.rollBack()
        scratch.discard()
        if watch.isObserved { watch.pending.bytes.removeAll(keepingCapacity: true) }
    }

    enum RequestID {
        case none
        case int(Int)
        case string(String)
    }

    static func writeResponsePrefix(id: RequestID, into out: inout [UInt8]) {
        JSONWriter.append(to: &out) { w in
            w.raw(#"{"id":"#)
            w.requestID(id)
            w.raw(#","ok":true,"result":"#)
        }
    }

    static func writeError(_ error: BridgeError, id: RequestID, into out: inout [UInt8]) {
        JSONWriter.append(to: &out) { w in
            w.raw(#"{"id":"#)
            w.requestID(id)
            w.raw(#","ok":false,"error":"#)
            w.error(error)
            w.raw("}\n")
        }
    }

    /// Writes an error frame that answers no request (`id: null`), e.g. `frame_too_large` from the daemon.
    public static func errorFrame(_ code: ErrorCode, _ message: String) -> [UInt8] {
        var w = JSONWriter()
        w.raw(#"{"id":null,"ok":false,"error":"#)
        w.error(BridgeError(code, message))
        w.raw("}\n")
        return w.bytes
    }
}

extension JSONWriter {
    mutating func requestID(_ id: Session.RequestID) {
        switch id {
        case .none: null()
        case .int(let i): int(i)
        case .string(let s): string(s)
        }
    }
}
