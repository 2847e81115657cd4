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
            if undo.isActive { undo.record { view.listeners[name] = old.isEmpty ? nil : old } }
            if watch.isObserved { observeSubscribed(view, event: name) }
        }
        scratch.result.raw("{}")
    }

    func command(_ request: Request) throws(BridgeError) {
        let view = try view(try request.tag(), op: "command")
        let nameBytes = try request.stringBytes("name")
        guard let command = view.type.command(named: nameBytes) else {
            let name = String(decoding: nameBytes, as: UTF8.self)
            let known = view.type.commands.map(\.name)
            throw BridgeError(
                .unknownCommand,
                "command: \(view.type.name) has no command '\(name)'"
                    + (known.isEmpty ? "" : "; it has \(known.joined(separator: ", "))")
            )
        }
        let name = command.name
        let given = try request.array("args", required: false) ?? []
        guard given.count == command.params.count else {
            throw BridgeError(
                .invalidArgs,
                "command: \(view.type.name).\(name) takes \(command.params.count) argument(s), got \(given.count)"
            )
        }
        var args: [PropValue] = []
        args.reserveCapacity(given.count)
        var issues = PropIssues(limits: engine.configuration.propLimits)
        var owners: [(prop: String?, arg: Int?)] = []
        for (i, (value, param)) in zip(given, command.params).enumerated() {
            var path = PropPath(param.name)
            if let typed = param.type.convert(value, path: &path, into: &issues) { args.append(typed) }
            while owners.count < issues.list.count { owners.append((nil, i)) }
        }
        if !issues.isEmpty {
            let details = BridgeError.Detail.list(issues, owners: owners)
            throw BridgeError(
                .invalidArgs,
                "command: bad argument \(details[0].arg!) of \(view.type.name).\(name): "
                    + (details[0].path == command.params[details[0].arg!].name
                        ? details[0].message : "\(details[0].path): \(details[0].message)"),
                details: details
            )
        }
        let neededRender = view.needsRender
        let outcome = command.run(on: view.props, args: args)
        if outcome.emitted.count > eventRoom {
            for step in outcome.undo.reversed() { step() }
            if !neededRender { view.renderIfNeeded(counting: false) }
            throw Session.seqExhausted("command: \(view.type.name).\(name)", seq: seq)
        }
        // A command may emit only events it declares, with payloads of their types: otherwise it failed.
        let firstEvent = scratch.events.count
        for emitted in outcome.emitted {
            var problem: String?
            if let emits = command.emits, !emits.contains(emitted.event) {
                problem = "emitted '\(emitted.event)', which it does not declare in its emits"
            } else if let event = view.type.event(named: emitted.event) {
                switch emitted.payload.checked(for: event) {
                case .success(let payload):
                    scratch.events.append(PendingEvent(view: view, event: event, payload: payload))
                case .failure(let payloadProblem):
                    problem = "emitted '\(emitted.event)' with a payload that does not fit its type: \(payloadProblem)"
                }
            } else {
                problem = "emitted '\(emitted.event)', which \(view.type.name) does not declare"
            }
            if let problem {
                scratch.events.removeSubrange(firstEvent...)
                for step in outcome.undo.reversed() { step() }
                if !neededRender { view.renderIfNeeded(counting: false) }
                throw BridgeError(.invalidPayload, "command: \(view.type.name).\(name) \(problem)")
            }
        }
        if undo.isActive && !outcome.undo.isEmpty {
            undo.note(view, neededRender: neededRender)
            undo.record(contentsOf: outcome.undo)
        }
        let entry = view.logCommand(LoggedCommand(name: name, args: args))
        if undo.isActive { undo.record(logged: entry, of: view) }
        if watch.isObserved {
            observeCommand(view, name: name, args: args)
            if !outcome.undo.isEmpty { observeChangedState(view) }
        }
        scratch.result.raw("{}")
    }

    /// `emit {tag, event, payload}`: the view emits one of its component's events as native code would (user
    /// input, a timer), dispatched exactly as a command's events are.
    func emit(_ request: Request) throws(BridgeError) {
        let view = try view(try request.tag(), op: "emit")
        let name = try request.string("event")
        guard let event = view.type.event(named: name) else {
            let known = view.type.events.map(\.name)
            throw BridgeError(
                .unknownEvent,
                "emit: \(view.type.name) (tag \(view.tag)) does not emit '\(name)'"
                    + (known.isEmpty ? "; it declares no events" : "; it declares \(known.joined(separator: ", "))")
            )
        }
        let given = request.json[field: "payload"]
        var fields: [(name: String, value: PropValue)] = []
        if let given, !given.isNull {
            guard given.isObject else {
                throw BridgeError(
                    .invalidPayload,
                    "emit: the payload of '\(name)' must be an object, got \(given.rawValue.typeName)"
                )
            }
            if let payloadType = event.payloadType {
                if event.payload?.isEmpty == true && given.elementCount > 0 {
                    throw BridgeError(.invalidPayload, "emit: '\(name)' takes no payload")
                }
                var issues = PropIssues(limits: engine.configuration.propLimits)
                var path = PropPath("")
                guard case .object(let members)? = payloadType.convert(given, path: &path, into: &issues) else {
                    let owners = [(prop: String?, arg: Int?)](repeating: (nil, nil), count: issues.list.count)
                    let details = BridgeError.Detail.list(issues, owners: owners)
                    throw BridgeError(
                        .invalidPayload,
                        "emit: bad payload for '\(name)': \(details[0].path): \(details[0].message)",
                        details: details
                    )
                }
                fields = members.map { (name: $0.name, value: $0.value) }
            } else {
                // An event whose payload is not declared sends any fields, as given.
                var issues = PropIssues(limits: engine.configuration.propLimits)
                var path = PropPath("")
                guard case .json(.object(let members))? = PropType.mixed.convert(given, path: &path, into: &issues) else {
                    let owners = [(prop: String?, arg: Int?)](repeating: (nil, nil), count: issues.list.count)
                    throw BridgeError(
                        .invalidPayload,
                        "emit: bad payload for '\(name)'",
                        details: BridgeError.Detail.list(issues, owners: owners)
                    )
                }
                fields = members.map { (name: $0.name, value: .json($0.value)) }
            }
        } else if let payloadType = event.payloadType {
            // No payload: every field must be optional.
            var issues = PropIssues(limits: engine.configuration.propLimits)
            var path = PropPath("")
            let empty = JSONValue.object([])
            guard case .object(let members)? = payloadType.convert(empty, path: &path, into: &issues) else {
                let owners = [(prop: String?, arg: Int?)](repeating: (nil, nil), count: issues.list.count)
                let details = BridgeError.Detail.list(issues, owners: owners)
                throw BridgeError(
                    .invalidPayload,
                    "emit: '\(name)' needs a payload: \(details[0].path): \(details[0].message)",
                    details: details
                )
            }
            fields = members.map { (name: $0.name, value: $0.value) }
        }
        guard eventRoom > 0 else { throw Session.seqExhausted("emit", seq: seq) }
        scratch.events.append(PendingEvent(view: view, event: event, payload: EventPayload(fields: fields)))
        scratch.result.raw("{}")
    }

    /// How many more events the request may emit before the session's seq would pass `Int.max`.
    private var eventRoom: Int { Int.max - seq - scratch.events.count }

    /// The error of a request whose events would take the session's seq past `Int.max`; it changes nothing.
    private static func seqExhausted(_ what: String, seq: Int) -> BridgeError {
        BridgeError(.limitExceeded, "\(what): the session's event seq is at \(seq), the most it can count")
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
        retain(seq: seq, frame: frame)
        watch.recent.note(event: frame)
        if watch.isObserved { observeEvent(frame.dropLast()) }
    }
}
