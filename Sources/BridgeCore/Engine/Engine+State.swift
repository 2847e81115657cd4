import CJanssonArena
import PropStore

/// Saving every session to a state file and loading it back, so that clients resume across a restart.
///
/// The state is JSON: `{"format": "bridged-state", "version": 2, "server", "socket", "components",
/// "sessions": [...]}`, where `socket` names the socket of the daemon that saved it (or `null`) and
/// `components` describes every component as `hello` does; each session with its id, resume token, event
/// cursor (`seq`, `acked`, `droppedThrough`), the components it defined (`defined`, described as `hello` does),
/// views (component, every prop, children, listeners, renders) and unacked event frames. Native state that is not a prop (a text field's focus) is not saved. A session with a
/// view of a component that the loading engine lacks, or describes differently, is dropped (its resume is
/// answered `"resumed":false,"reason":"components_changed"`).
extension Engine {
    public static let stateFormat = "bridged-state"
    public static let stateVersion = 2

    /// Every session in the session table, attached or detached, as state-file bytes.
    ///
    /// Call it when no connection is handling lines (the daemon does, after it stopped reading). `socket` is the
    /// socket the saving daemon serves: ``loadState(_:socket:)`` refuses the file for any other.
    public func saveState(socket: String? = nil) -> [UInt8] {
        var left: [String] = []
        return saveState(socket: socket, blocking: true, keepWaiting: { true }, leftOut: &left)
    }

    /// Every session as ``saveState(socket:)`` saves them, waiting for a session busy with a request only while
    /// `keepWaiting` (called between tries, it may sleep a little) returns true; then the session is left out
    /// and its id added to `leftOut`. After ``interruptRequests()`` a request stops at its next op, so this
    /// leaves out only a session whose single request outlasts the daemon's patience: the others are saved.
    public func saveState(socket: String? = nil, keepWaiting: () -> Bool, leftOut: inout [String]) -> [UInt8] {
        saveState(socket: socket, blocking: false, keepWaiting: keepWaiting, leftOut: &leftOut)
    }

    private func saveState(
        socket: String?,
        blocking: Bool,
        keepWaiting: () -> Bool,
        leftOut: inout [String]
    ) -> [UInt8] {
        let sessions = table.withLock { table in table.slots.values.map(\.session).sorted { $0.id < $1.id } }
        var w = JSONWriter(capacity: 4096)
        w.raw(#"{"format":"#)
        w.string(Engine.stateFormat)
        w.raw(#","version":"#)
        w.int(Engine.stateVersion)
        w.raw(#","server":"#)
        w.string(configuration.server)
        w.raw(#","socket":"#)
        if let socket { w.string(socket) } else { w.null() }
        w.raw(#","components":"#)
        w.raw(componentsJSON)
        w.raw(#","sessions":["#)
        var first = true
        for session in sessions {
            let state: [UInt8]?
            if !blocking {
                var saved: [UInt8]?
                repeat {
                    saved = session.gate.withLockIfAvailable { _ -> [UInt8] in
                        session.retractStaged()
                        var one = JSONWriter(capacity: 4096)
                        SessionSnapshot(session).write(into: &one)
                        return one.bytes
                    }
                } while saved == nil && keepWaiting()
                state = saved
            } else {
                state = session.gate.withLock { _ in
                    session.retractStaged()
                    var one = JSONWriter(capacity: 4096)
                    SessionSnapshot(session).write(into: &one)
                    return one.bytes
                }
            }
            guard let state else {
                leftOut.append(session.id)
                continue
            }
            if !first { w.comma() }
            first = false
            w.raw(state)
        }
        w.raw("]}\n")
        return w.bytes
    }

    /// Loads sessions saved by ``saveState()``; each waits `sessionTTL` to be resumed. Returns how many.
    ///
    /// Nothing is loaded when the file is not a state file of this version, was saved for another socket than
    /// `socket` (``StateError/Code/otherSocket``), or any part of it is invalid.
    @discardableResult
    public func loadState(_ bytes: [UInt8], socket: String? = nil) throws(StateError) -> Int {
        var dropped: [DroppedSession] = []
        return try loadState(bytes, socket: socket, dropped: &dropped)
    }

    /// Loads sessions saved by ``saveState()``, as ``loadState(_:socket:)``; the sessions that are not loaded
    /// because one of their views is of a component this engine lacks or describes differently are added to
    /// `dropped`.
    @discardableResult
    public func loadState(
        _ bytes: [UInt8],
        socket: String? = nil,
        dropped: inout [DroppedSession]
    ) throws(StateError) -> Int {
        // The file's tree is built in an arena of its own, freed at once when the sessions are restored, and the
        // memory freed then goes back to the system: jansson's nodes from malloc, freed one by one, stay in the
        // daemon's resident memory long after a large file is loaded (bench/README.md has the figures).
        // (Runs once the inner call has returned: its arena is gone.)
        defer { cja_return_free_memory() }
        return try restoreSessions(bytes, socket: socket, dropped: &dropped)
    }

    private func restoreSessions(
        _ bytes: [UInt8],
        socket: String?,
        dropped: inout [DroppedSession]
    ) throws(StateError) -> Int {
        let arena = JSONArena()
        defer { withExtendedLifetime(arena) {} }
        let document: JSONDocument
        do {
            document = try JanssonMemory.document(bytes, in: arena)
        } catch {
            throw StateError("the state file is not JSON: \(error)")
        }
        let root = document.root
        guard root[field: "format"]?.string == Engine.stateFormat else {
            throw StateError("not a bridged state file (no \"format\":\"\(Engine.stateFormat)\")")
        }
        guard root[field: "version"]?.integer == Int64(Engine.stateVersion) else {
            throw StateError(
                "state file version \(root[field: "version"]?.compactText ?? "?") is not \(Engine.stateVersion)"
            )
        }
        guard let saved = root[field: "socket"], saved.isNull || saved.string != nil else {
            throw StateError("the state file does not say which socket's daemon saved it (no \"socket\")")
        }
        guard saved.string == socket else {
            throw StateError(
                .otherSocket,
                "the state file was saved by the daemon of \(saved.string ?? "an unnamed socket"), "
                    + "not of this one (\(socket ?? "an unnamed socket"))"
            )
        }
        guard let entries = root[field: "sessions"]?.elements else {
            throw StateError("the state file has no sessions")
        }
        let savedComponents = root[field: "components"]
        let current = JSONDocument.describing(registry)
        var restored: [Session] = []
        var droppedHere: [(drop: DroppedSession, token: String)] = []
        // Ids already in the table, then those of the file: a second session of one id would replace the first.
        var ids = table.withLock { Set($0.slots.keys) }
        do throws(StateError) {
            for (index, entry) in entries.enumerated() {
                if let id = entry[field: "id"]?.string, !ids.insert(id).inserted {
                    throw StateError("session \(index): the id '\(id)' is taken by another session")
                }
                if let drop = changedComponent(of: entry, saved: savedComponents, current: current.root) {
                    droppedHere.append(drop)
                    continue
                }
                restored.append(try SessionSnapshot.restore(entry, index: index, in: self))
            }
        } catch {
            for session in restored { session.close() }
            throw error
        }
        let time = now()
        dropped.append(contentsOf: droppedHere.map(\.drop))
        table.withLock { table in
            for (drop, token) in droppedHere { table.dropped[drop.session] = token }
            for session in restored {
                table.slots[session.id] = SessionTable.Slot(session: session, connection: nil, detachedAt: time)
            }
        }
        return restored.count
    }

    /// Why the saved session `entry` cannot come back: a component it defined that this engine serves described
    /// otherwise, or the first of its views whose component this engine lacks, or describes otherwise than the
    /// state file (when the file has descriptions); `nil` when none.
    private func changedComponent(
        of entry: JSONRef,
        saved: JSONRef?,
        current: JSONRef
    ) -> (drop: DroppedSession, token: String)? {
        guard let id = entry[field: "id"]?.string, let token = entry[field: "token"]?.string, !id.isEmpty,
            !token.isEmpty, let views = entry[field: "views"]?.elements
        else { return nil }
        // The components the session defined come back with it, unless this engine now serves one of their names
        // described otherwise.
        let defined = entry[field: "defined"]
        var clash: String?
        defined?.forEachSourceMember { name, description in
            if clash == nil, let existing = current[name], !existing.isEqual(to: description) { clash = name }
        }
        if let clash { return (DroppedSession(session: id, component: clash, reason: .changed), token) }
        for view in views {
            guard let name = view[field: "component"]?.string else { continue }
            if defined?[name] != nil { continue }
            guard let description = current[name] else {
                return (DroppedSession(session: id, component: name, reason: .missing), token)
            }
            if let savedDescription = saved?[name], !savedDescription.isEqual(to: description) {
                return (DroppedSession(session: id, component: name, reason: .changed), token)
            }
        }
        return nil
    }

}

/// A saved session that was not loaded, because one of its views is of a component that changed.
public struct DroppedSession: Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The loading engine has no component of that name.
        case missing
        /// The loading engine describes the component otherwise than the state file did.
        case changed
    }

    public var session: String
    public var component: String
    public var reason: Reason

    public init(session: String, component: String, reason: Reason) {
        self.session = session
        self.component = component
        self.reason = reason
    }
}

/// Why a state file could not be loaded.
public struct StateError: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal.
    public enum Code: Sendable {
        /// Not a state file of this version, or a part of it is invalid.
        case invalid
        /// A valid state file that the daemon of another socket saved: its sessions are not this daemon's.
        case otherSocket
    }

    public var code: Code
    public var message: String
    init(_ message: String) { self.init(.invalid, message) }
    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { message }
}
