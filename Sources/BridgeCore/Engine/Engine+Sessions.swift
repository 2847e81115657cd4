import PropStore
import Synchronization

/// The sessions of an engine that outlive their connections: attached, or detached and waiting to be
/// resumed until `sessionTTL` passes.
struct SessionTable: ~Copyable {
    final class Slot {
        let session: Session
        weak var connection: Connection?
        /// When the session lost its connection (engine clock), or `nil` while attached.
        var detachedAt: UInt64?
        /// The how-manieth detach of the table this slot's last one was: the session detached longest has the
        /// lowest (loaded sessions have 0).
        var detachOrder = 0

        init(session: Session, connection: Connection?, detachedAt: UInt64?) {
            self.session = session
            self.connection = connection
            self.detachedAt = detachedAt
        }
    }

    var slots: [String: Slot] = [:]
    /// Ids of sessions that expired, oldest first, to tell `expired` from `unknown_session`.
    var expiredOrder: [String] = []
    /// The tokens of the sessions that expired, by id: only a client that knew the token is told `expired`.
    var expired: [String: String] = [:]
    /// The ids among ``expired`` of the sessions evicted to make room for another (`--max-sessions`): their
    /// resume is told `evicted`.
    var evicted: Set<String> = []
    /// How many times a session detached.
    var detaches = 0
    /// The tokens of the saved sessions that a state file held but that were not loaded (a view of a component
    /// that changed), by id: a resume with the right token is told `components_changed`.
    var dropped: [String: String] = [:]
    var nextNumber = 0

    mutating func rememberExpired(_ session: Session, limit: Int) {
        guard limit > 0, expired.updateValue(session.token, forKey: session.id) == nil else { return }
        expiredOrder.append(session.id)
        if expiredOrder.count > limit {
            let forgotten = expiredOrder.removeFirst()
            expired.removeValue(forKey: forgotten)
            evicted.remove(forgotten)
        }
    }

    /// Takes the session detached longest out of the table, remembered as evicted; `nil` when none is detached.
    mutating func evictLongestDetached(limit: Int) -> Session? {
        var longest: Slot?
        for slot in slots.values where slot.detachedAt != nil {
            if longest == nil || slot.detachOrder < longest!.detachOrder { longest = slot }
        }
        guard let longest else { return nil }
        slots.removeValue(forKey: longest.session.id)
        rememberExpired(longest.session, limit: limit)
        if expired[longest.session.id] != nil { evicted.insert(longest.session.id) }
        return longest.session
    }
}

extension Engine {
    /// What a resume attempt came to.
    enum Claim {
        case resumed(Session)
        /// `unknown_session`, `expired`, `overflow` or `components_changed`: the client starts afresh.
        case refused(String)
        case invalid(BridgeError)
    }

    /// Opens a connection with a fresh session, which is kept in the engine's session table.
    public func connect() -> Connection {
        let connection = Connection(engine: self, session: nil)
        connection.attach(freshSession(for: connection))
        return connection
    }

    /// A new session in the table, attached to `connection`.
    func freshSession(for connection: Connection) -> Session {
        table.withLock { table -> Session in
            // Skip ids taken by sessions loaded from a state file.
            var id: String
            repeat {
                table.nextNumber += 1
                id = sessionID(table.nextNumber)
            } while table.slots[id] != nil || table.expired[id] != nil || table.dropped[id] != nil
            let session = makeSession(id: id, token: sessionToken(table.nextNumber))
            table.slots[session.id] = SessionTable.Slot(session: session, connection: connection, detachedAt: nil)
            return session
        }
    }

    /// A connection ended or moved to another session: keep the session for `sessionTTL`, or end it now.
    func detach(_ session: Session, from connection: Connection) {
        let ended: Session? = table.withLock { table in
            guard let slot = table.slots[session.id], slot.session === session else { return nil }
            // Another connection has it now: nothing to do.
            if let current = slot.connection, current !== connection { return nil }
            // A session that never said hello has nothing to resume.
            if configuration.sessionTTL == 0 || !session.gate.withLock({ _ in session.greeted }) {
                table.slots.removeValue(forKey: session.id)
                return session
            }
            slot.connection = nil
            slot.detachedAt = now()
            table.detaches += 1
            slot.detachOrder = table.detaches
            return nil
        }
        if let ended { ended.gate.withLock { _ in ended.close() } }
    }

    /// Takes a session that ended (`bye`, already closed) out of the table: a resume no longer finds it.
    func forget(_ session: Session) {
        table.withLock { table in
            guard let slot = table.slots[session.id], slot.session === session else { return }
            table.slots.removeValue(forKey: session.id)
        }
    }

    /// Hands the session a resume asks for to `connection` if the token is its token and it can be resumed from
    /// the resume's `ack` without a gap. A wrong or missing token is refused exactly as an unknown session is.
    ///
    /// The session's cursor is read under its gate with the table's lock released, so that a session busy with a
    /// long request holds up only the connection that resumes it, never another's `hello`. It is read again once
    /// the session is this connection's (its former connection handles no more lines), for what changed between.
    func claim(_ request: ResumeRequest, by connection: Connection) -> Claim {
        let (id, token, ack) = (request.session, request.token, request.ack)
        expireSessions()
        let found: Session? = table.withLock { table in
            guard let slot = table.slots[id], let token, tokensMatch(slot.session.token, token) else { return nil }
            return slot.session
        }
        guard let session = found else {
            return table.withLock { table in
                if let known = table.dropped[id], let token, tokensMatch(known, token) {
                    return .refused("components_changed")
                }
                let expired = table.expired[id].map { known in token.map { tokensMatch(known, $0) } ?? false }
                guard expired == true else { return .refused("unknown_session") }
                return .refused(table.evicted.contains(id) ? "evicted" : "expired")
            }
        }
        // Events up to `forgotten` are no longer kept: dropped when the buffer was full, or acked before.
        let (seq, forgotten, ended) = session.gate.withLock { _ in
            (session.seq, max(session.events.droppedThrough, session.acked), session.closed)
        }
        if !ended && ack > seq {
            return .invalid(
                BridgeError(.badRequest, "hello: resume ack \(ack) is beyond the session's last event (\(seq))")
            )
        }
        var displaced: Connection?
        let claim: Claim = table.withLock { table in
            guard let slot = table.slots[id], slot.session === session else { return .refused("unknown_session") }
            if ended {
                // Said `bye` and not yet forgotten by its connection: gone all the same.
                table.slots.removeValue(forKey: id)
                return .refused("unknown_session")
            }
            displaced = slot.connection
            if forgotten > ack {
                table.slots.removeValue(forKey: id)
                table.rememberExpired(session, limit: configuration.expiredMemory)
                return .refused("overflow")
            }
            slot.connection = connection
            slot.detachedAt = nil
            return .resumed(session)
        }
        if let displaced, displaced !== connection {
            displaced.takenOver.store(true, ordering: .releasing)
            displaced.onTakeover?()
        }
        switch claim {
        case .refused("overflow"):
            session.gate.withLock { _ in session.close() }
            return claim
        case .resumed:
            // Its former connection handled requests until it was displaced: they may have ended the session or
            // dropped events after `ack` from a full buffer. Then it is refused as if that had come first.
            let late: String? = session.gate.withLock { _ in
                if session.closed { return "unknown_session" }
                if max(session.events.droppedThrough, session.acked) > ack { return "overflow" }
                session.acked = max(session.acked, ack)
                session.events.forget(through: ack)
                return nil
            }
            guard let late else { return claim }
            table.withLock { table in
                guard let slot = table.slots[id], slot.session === session, slot.connection === connection else {
                    return
                }
                table.slots.removeValue(forKey: id)
                if late == "overflow" { table.rememberExpired(session, limit: configuration.expiredMemory) }
            }
            session.gate.withLock { _ in session.close() }
            return .refused(late)
        default:
            return claim
        }
    }

    /// Makes room for a session that says hello (or is given a fresh session by a refused resume) within
    /// ``Configuration/maxSessions``: ends the sessions detached longest while the table is over the cap. Throws
    /// `limit_exceeded` when it is over the cap with every session connected.
    func admit(_ session: Session) throws(BridgeError) {
        let limit = configuration.maxSessions
        var evicted: [Session] = []
        let full: Bool = table.withLock { table in
            while table.slots.count > limit {
                guard let session = table.evictLongestDetached(limit: configuration.expiredMemory) else { return true }
                evicted.append(session)
            }
            return false
        }
        for session in evicted {
            let end: @Sendable () -> Void = { session.gate.withLock { _ in session.close() } }
            if let elsewhere = configuration.endLargeSession,
                session.listing.views.load(ordering: .relaxed) >= configuration.largeSessionViews
            {
                elsewhere(end)
            } else {
                end()
            }
        }
        if full {
            throw BridgeError(
                .limitExceeded,
                "hello: the daemon has \(limit) sessions (--max-sessions), all connected; try again later"
            )
        }
    }

    /// Ends the detached sessions whose `sessionTTL` has passed; returns how many.
    @discardableResult
    public func expireSessions() -> Int {
        let time = now()
        let ttl = configuration.sessionTTL
        let ended: [Session] = table.withLock { table in
            var ended: [Session] = []
            for (id, slot) in table.slots {
                guard let since = slot.detachedAt, time >= since, time - since >= ttl else { continue }
                table.slots.removeValue(forKey: id)
                table.rememberExpired(slot.session, limit: configuration.expiredMemory)
                ended.append(slot.session)
            }
            return ended
        }
        for session in ended { session.gate.withLock { _ in session.close() } }
        return ended.count
    }

    /// Ends every session in the table, attached or not (their views leave storage). For an engine that is
    /// done: `bridged replay` after a file, or a daemon after saving its state. Sessions hold their engine, so
    /// an engine with sessions in its table is not freed until they end.
    public func closeAllSessions() {
        let sessions = table.withLock { table in
            let sessions = table.slots.values.map(\.session)
            table.slots.removeAll()
            return sessions
        }
        for session in sessions { session.gate.withLock { _ in session.close() } }
    }

    /// Sessions waiting to be resumed.
    public var detachedSessionCount: Int {
        table.withLock { $0.slots.values.count { $0.detachedAt != nil } }
    }
}

/// Whether two tokens are equal, in a time that depends only on their lengths (not on where they differ).
func tokensMatch(_ a: String, _ b: String) -> Bool {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in 0..<a.count { difference |= a[i] ^ b[i] }
    return difference == 0
}
