import PropStore

/// One session as a state file holds it: what saving writes of it (``write(into:)``) and what loading restores
/// (``restore(_:index:in:)``): its id, resume token, event cursor, the components it defined (`defined`, as
/// `hello` describes them; absent when none), views, its layout (`layout`: Yoga's hash and the window; absent when
/// off) and unacked events. The file around the
/// sessions is ``Engine``'s (`Engine+State.swift`).
struct SessionSnapshot {
    let session: Session

    init(_ session: Session) { self.session = session }

    private var id: String { session.id }
    private var token: String { session.token }
    private var engine: Engine { session.engine }

    /// Restores the session a state file's `entry` (its `index`-th) describes, in `engine`, or says what is wrong
    /// with it (the session is then closed).
    static func restore(_ entry: JSONRef, index: Int, in engine: Engine) throws(StateError) -> Session {
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
        let components = try definedComponents(of: entry, in: engine)
        let session = engine.makeSession(id: id, token: token)
        session.components = components
        session.seq = Int(seq)
        session.acked = Int(acked)
        session.events.droppedThrough = Int(dropped)
        session.greeted = true
        defer { session.publishListing() }
        do throws(StateError) {
            try SessionSnapshot(session).restoreViews(views, registry: session.registry)
            // Its layout (Yoga and window), laid out once over the views, as before the restart.
            if let layout = entry[field: "layout"] { session.layout = try ShadowTree.restore(layout, in: session) }
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

    /// The components the saved session `entry` defined (its `defined`, as `hello` describes components), over
    /// `engine`'s; `nil` when it defined none. `invalid` when they cannot be rebuilt: a caller checks first that
    /// none clashes with `engine`'s (``Engine/changedComponent(of:saved:current:)``).
    static func definedComponents(of entry: JSONRef, in engine: Engine) throws(StateError) -> SessionComponents? {
        guard let defined = entry[field: "defined"] else { return nil }
        let id = entry[field: "id"]?.string ?? "?"
        do {
            return try SessionComponents.restore(defined, over: engine.registry, source: "session \(id)")
        } catch {
            throw StateError("session \(id): its defined components: \(error)")
        }
    }

    /// Writes the session's entry of a state file.
    func write(into w: inout JSONWriter) {
        w.raw(#"{"id":"#)
        w.string(id)
        w.raw(#","token":"#)
        w.string(token)
        session.writeCursor(into: &w)
        w.raw(#","droppedThrough":"#)
        w.int(session.events.droppedThrough)
        if let components = session.components, !components.defined.isEmpty {
            w.raw(#","defined":"#)
            w.raw(components.descriptions)
        }
        w.raw(#","views":"#)
        w.array(session.viewsByTag) { w, view in
            w.viewHead(view)
            w.raw(#","children":"#)
            w.tagArray(view.children)
            w.listeners(of: view)
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
        if let layout = session.layout {
            w.raw(#","layout":"#)
            layout.writeState(into: &w)
        }
        w.raw(#","events":"#)
        w.array(session.events.frames) { $0.string(String(decoding: $1.dropLast(), as: UTF8.self)) }
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

    /// Restores the session's views from a state file's entries, linked as they were.
    private func restoreViews(_ entries: [JSONRef], registry: ComponentRegistry) throws(StateError) {
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
            var converted: [Session.PropChange] = []
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
                if !set.isEmpty {
                    view.listeners[event] = set
                    if event == Session.layoutEvent.name { session.layoutListened = true }
                }
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
        ViewStorage.insert(made.map(\.0), session: session.storageKey)
        session.viewCount = made.count
    }
}
