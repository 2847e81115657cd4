import PropStore

extension Session {
    func subscribe(_ request: Request, on: Bool) throws(BridgeError) {
        let op = request.op
        let view = try view(try request.tag(), op: op)
        let name = try request.string("event")
        let phase: ListenerPhases
        switch try request.optionalString("phase") {
        case nil, "bubble": phase = .bubble
        case "capture": phase = .capture
        case let other?:
            throw BridgeError(.badRequest, "\(op): 'phase' must be \"bubble\" or \"capture\", got \"\(other)\"")
        }
        guard let event = engine.registry.events[name] else {
            throw BridgeError(.unknownEvent, "\(op): no component declares an event '\(name)'")
        }
        if !event.bubbles {
            guard view.type.event(named: name) != nil else {
                throw BridgeError(
                    .unknownEvent,
                    "\(op): '\(name)' is a direct event and \(view.type.name) (tag \(view.tag)) does not emit it"
                )
            }
            if phase == .capture {
                throw BridgeError(.badRequest, "\(op): '\(name)' is a direct event; it has no capture phase")
            }
        }
        let old = view.listeners[name] ?? []
        var new = old
        if on { new.insert(phase) } else { new.remove(phase) }
        if new != old {
            view.listeners[name] = new.isEmpty ? nil : new
            if inBatch { recordUndo { view.listeners[name] = old.isEmpty ? nil : old } }
        }
        result.raw("{}")
    }

    func command(_ request: Request) throws(BridgeError) {
        let view = try view(try request.tag(), op: "command")
        let name = try request.string("name")
        guard let command = view.type.command(named: name) else {
            let known = view.type.commands.map(\.name)
            throw BridgeError(
                .unknownCommand,
                "command: \(view.type.name) has no command '\(name)'"
                    + (known.isEmpty ? "" : "; it has \(known.joined(separator: ", "))")
            )
        }
        let given = try request.array("args", required: false) ?? []
        guard given.count == command.args.count else {
            throw BridgeError(
                .invalidArgs,
                "command: \(view.type.name).\(name) takes \(command.args.count) argument(s), got \(given.count)"
            )
        }
        var args: [PropValue] = []
        var issues: [BridgeError.Detail] = []
        for (i, (value, type)) in zip(given, command.args).enumerated() {
            let raw = value.rawValue
            switch type.convert(raw) {
            case .success(let typed): args.append(typed)
            case .failure(let failure):
                issues.append(.init(arg: i, expected: failure.expected, got: raw, message: failure.message))
            }
        }
        if !issues.isEmpty {
            throw BridgeError(
                .invalidArgs,
                "command: bad argument \(issues[0].arg!) of \(view.type.name).\(name): \(issues[0].message)",
                details: issues
            )
        }
        let neededRender = view.needsRender
        let outcome = command.run(on: view.props, args: args)
        if undoLog != nil && !outcome.undo.isEmpty {
            undoLog!.append(contentsOf: outcome.undo)
            touched.append((view, neededRender))
        }
        for emitted in outcome.emitted {
            guard let event = view.type.event(named: emitted.event) else { continue }
            pendingEvents.append(PendingEvent(view: view, event: event, payload: emitted.payload))
        }
        result.raw("{}")
    }

    /// Writes an event frame with its listener path, or nothing when no listener is on the path.
    ///
    /// One walk from the target up collects the views that listen (one lookup each); the path is then their
    /// capture entries from the root down, and their bubble entries from the target up.
    func writeEvent(_ pending: PendingEvent, into out: inout [UInt8]) {
        let target = pending.view
        guard target.isMounted else { return }
        let name = pending.event.name
        var listening = listenerScratch
        listenerScratch = []
        defer {
            listening.removeAll(keepingCapacity: true)
            listenerScratch = listening
        }
        if pending.event.bubbles {
            var node: ViewProxy? = target
            while let current = node {
                if let phases = current.listeners[name] { listening.append((current.tag, phases)) }
                node = current.parent
            }
        } else if let phases = target.listeners[name], phases.contains(.bubble) {
            listening.append((target.tag, .bubble))
        }
        guard !listening.isEmpty else { return }
        seq += 1
        let start = out.count
        JSONWriter.append(to: &out) { w in
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
        retain(seq: seq, frame: out[start...])
    }
}
