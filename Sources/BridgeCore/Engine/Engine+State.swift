import CJanssonArena
import PropStore

/// Saving every session to a state file and loading it back, so that clients resume across a restart.
///
/// The state is JSON: `{"format": "bridged-state", "version": 2, "server", "socket", "components",
/// "sessions": [...]}`, where `socket` names the socket of the daemon that saved it (or `null`) and
/// `components` describes every component as `hello` does; each session with its id, resume token, event
/// cursor (`seq`, `acked`, `droppedThrough`), views (component, every prop, children, listeners, renders) and
/// unacked event frames. Native state that is not a prop (a text field's focus) is not saved. A session with a
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
                        var one = JSONWriter(capacity: 4096)
                        session.writeState(into: &one)
                        return one.bytes
                    }
                } while saved == nil && keepWaiting()
                state = saved
            } else {
                state = session.gate.withLock { _ in
                    var one = JSONWriter(capacity: 4096)
                    session.writeState(into: &one)
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
                restored.append(try restoreSession(entry, index: index))
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

    /// Why the saved session `entry` cannot come back: the first of its views whose component this engine
    /// lacks, or describes otherwise than the state file (when the file has descriptions); `nil` when none.
    private func changedComponent(
        of entry: JSONRef,
        saved: JSONRef?,
        current: JSONRef
    ) -> (drop: DroppedSession, token: String)? {
        guard let id = entry[field: "id"]?.string, let token = entry[field: "token"]?.string, !id.isEmpty,
            !token.isEmpty, let views = entry[field: "views"]?.elements
        else { return nil }
        for view in views {
            guard let name = view[field: "component"]?.string else { continue }
            guard let description = current[name] else {
                return (DroppedSession(session: id, component: name, reason: .missing), token)
            }
            if let savedDescription = saved?[name], !savedDescription.isEqual(to: description) {
                return (DroppedSession(session: id, component: name, reason: .changed), token)
            }
        }
        return nil
    }

    private func restoreSession(_ entry: JSONRef, index: Int) throws(StateError) -> Session {
        guard let id = entry[field: "id"]?.string, let token = entry[field: "token"]?.string,
            let seq = entry[field: "seq"]?.integer, let acked = entry[field: "acked"]?.integer,
            let dropped = entry[field: "droppedThrough"]?.integer, let views = entry[field: "views"]?.elements,
            let events = entry[field: "events"]?.elements
        else {
            throw StateError("session \(index): missing id, token, seq, acked, droppedThrough, views or events")
        }
        // Values the daemon could have saved, and nothing else: a seq below 0 refuses every later resume, an ack
        // beyond the seq lets a resume skip events, a session of no token is resumed with an empty one.
        guard !id.isEmpty, !token.isEmpty else { throw StateError("session \(index): an empty id or token") }
        guard seq >= 0, (0...seq).contains(acked), (0...seq).contains(dropped) else {
            throw StateError(
                "session \(id): seq \(seq), acked \(acked), droppedThrough \(dropped): "
                    + "acked and droppedThrough must be within 0...seq"
            )
        }
        let session = makeSession(id: id, token: token)
        session.seq = Int(seq)
        session.acked = Int(acked)
        session.events.droppedThrough = Int(dropped)
        session.greeted = true
        defer { session.publishListing() }
        do throws(StateError) {
            try session.restoreViews(views, registry: registry)
            var lastSeq: Int64 = 0
            for event in events {
                guard let text = event.string else { throw StateError("session \(id): an event is not a string") }
                let frameDocument: JSONDocument
                do {
                    frameDocument = try JSONDocument(parsing: text)
                } catch {
                    throw StateError("session \(id): an event is not JSON: \(error)")
                }
                guard let eventSeq = frameDocument.root[field: "seq"]?.integer, eventSeq > 0 else {
                    throw StateError("session \(id): an event frame has no seq")
                }
                // Kept events are the unacked ones, in order, none after the session's seq.
                guard eventSeq > max(acked, dropped, lastSeq), eventSeq <= seq else {
                    throw StateError(
                        "session \(id): an event of seq \(eventSeq) is out of order or outside "
                            + "\(max(acked, dropped))...\(seq)"
                    )
                }
                lastSeq = eventSeq
                var frame = Array(text.utf8)
                frame.append(UInt8(ascii: "\n"))
                session.events.keep(seq: Int(eventSeq), frame: frame[...])
            }
        } catch {
            session.close()
            throw error
        }
        return session
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

extension Session {
    func writeState(into w: inout JSONWriter) {
        w.raw(#"{"id":"#)
        w.string(id)
        w.raw(#","token":"#)
        w.string(token)
        w.raw(#","seq":"#)
        w.int(seq)
        w.raw(#","acked":"#)
        w.int(acked)
        w.raw(#","droppedThrough":"#)
        w.int(events.droppedThrough)
        w.raw(#","views":"#)
        w.array(ViewStorage.views(session: storageKey).sorted { $0.tag < $1.tag }) { w, view in
            w.viewHead(view)
            w.raw(#","children":"#)
            w.tagArray(view.children)
            w.raw(#","listeners":"#)
            w.object(view.listeners.sorted { $0.key < $1.key }, key: \.key) { w, listener in
                let phases = listener.value
                w.stringArray(
                    (phases.contains(.bubble) ? ["bubble"] : []) + (phases.contains(.capture) ? ["capture"] : [])
                )
            }
            w.raw(#","renders":"#)
            w.int(view.renders)
            w.raw(#","stale":"#)
            w.bool(view.needsRender)
            // A stale view's last render, for observers until it renders again (the others render on load).
            if view.needsRender && !view.render.isEmpty {
                w.raw(#","render":"#)
                w.string(view.render)
            }
            w.raw(#","commands":"#)
            w.commandLog(view.commandsInOrder)
            w.raw("}")
        }
        w.raw(#","events":"#)
        w.array(events.frames) { $0.string(String(decoding: $1.dropLast(), as: UTF8.self)) }
        w.raw("}")
    }

    /// A view's saved command log, each call's arguments checked again against the command's parameters.
    private func restoreCommands(
        _ entries: [JSONRef],
        of type: ComponentType,
        tag: Int64
    ) throws(StateError)
        -> [LoggedCommand]
    {
        var log: [LoggedCommand] = []
        for entry in entries {
            guard let name = entry[field: "name"]?.string, let command = type.command(named: name),
                let given = entry[field: "args"]?.elements, given.count == command.params.count
            else { throw StateError("session \(id): view \(tag) has a bad command log entry") }
            var issues = PropIssues(limits: engine.configuration.propLimits)
            var args: [PropValue] = []
            for (value, param) in zip(given, command.params) {
                var path = PropPath(param.name)
                if let typed = param.type.convert(value, path: &path, into: &issues) { args.append(typed) }
            }
            guard issues.isEmpty else { throw StateError("session \(id): view \(tag) logged bad arguments of \(name)") }
            log.append(LoggedCommand(name: name, args: args))
        }
        return log
    }

    func restoreViews(_ entries: [JSONRef], registry: ComponentRegistry) throws(StateError) {
        var made: [(ViewProxy, [Int])] = []
        for entry in entries {
            guard let tag = entry[field: "tag"]?.integer, tag > 0, let name = entry[field: "component"]?.string,
                let props = entry[field: "props"], props.isObject, let children = entry[field: "children"]?.elements,
                let listeners = entry[field: "listeners"], listeners.isObject
            else { throw StateError("session \(id): a view lacks tag, component, props, children or listeners") }
            guard let type = registry.component(named: name) else {
                throw StateError("session \(id): view \(tag) is a '\(name)', which is not registered")
            }
            let view = ViewProxy(tag: Int(tag), type: type)
            var converted: [PropChange] = []
            do {
                try OpContext.convert(props, for: type, tag: Int(tag), op: "restore", engine: engine, into: &converted)
            } catch {
                throw StateError("session \(id): \(error.message)")
            }
            for (prop, value) in converted { view.setValue(value, of: prop) }
            var listenerError: StateError?
            try? listeners.forEachMember { (event, phases) throws(BridgeError) in
                var set: ListenerPhases = []
                for phase in phases.elements ?? [] {
                    if phase.isString("bubble") {
                        set.insert(.bubble)
                    } else if phase.isString("capture") {
                        set.insert(.capture)
                    } else {
                        listenerError = StateError("session \(id): view \(tag) has a bad listener phase")
                    }
                }
                if !set.isEmpty { view.listeners[event] = set }
            }
            if let listenerError { throw listenerError }
            // A view that needed a render when it was saved (one never inspected, or changed since) still does:
            // it renders, and counts it, the next time it is inspected, as it would have. The others render now,
            // uncounted, for their render text and what it read. (Rendering every view here would keep
            // Observation's tracking of each, most of a loaded session's memory: bench/README.md has the figures.)
            // Files saved before `stale` existed have every view rendered, as they were loaded then.
            /// An optional member of the view's entry, refused when it is there as another kind of value.
            func optionalMember(
                _ field: StaticString,
                _ kind: JSONRef.Kind,
                _ described: String
            ) throws(StateError)
                -> JSONRef?
            {
                guard let value = entry[field: field] else { return nil }
                guard value.kind == kind else {
                    throw StateError("session \(id): view \(tag) has a '\(field)' that is not \(described)")
                }
                return value
            }
            let stale = try optionalMember("stale", .bool, "a boolean")
            let render = try optionalMember("render", .string, "a string")
            if stale?.boolValue != true {
                view.renderIfNeeded(counting: false)
            } else if let text = render?.string {
                view.restore(render: text)
            }
            let renders = entry[field: "renders"]?.integer ?? 0
            guard renders >= 0 else { throw StateError("session \(id): view \(tag) has rendered \(renders) times") }
            view.restore(renders: Int(renders))
            view.restore(commands: try restoreCommands(entry[field: "commands"]?.elements ?? [], of: type, tag: tag))
            var childTags: [Int] = []
            for child in children {
                guard let childTag = child.integer else {
                    throw StateError("session \(id): view \(tag) has a bad child")
                }
                childTags.append(Int(childTag))
            }
            made.append((view, childTags))
        }
        if let problem = ViewTree.link(made.map { (view: $0.0, children: $0.1) }) {
            throw StateError("session \(id): \(problem)")
        }
        ViewStorage.insert(made.map(\.0), session: storageKey)
        viewCount = made.count
    }
}
