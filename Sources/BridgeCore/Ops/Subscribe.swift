import PropStore

extension Ops {
    /// `subscribe {tag, event, phase?}` → `{}`: a view listens to an event, in a phase (bubble by default).
    enum Subscribe: Op {
        static let entry = OpTable.Entry("subscribe")
        static let spec = OpSpec(
            fields: #"{"tag":"integer","event":"string","phase?":"string"}"#,
            sample: #"{"op":"subscribe","tag":2,"event":"countChange","phase":"bubble"}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            try change(context, on: true)
            return nil
        }

        /// Adds (`on`) or removes the listener the request names.
        static func change(_ context: OpContext, on: Bool) throws(BridgeError) {
            let request = context.request
            let op = request.op
            let view = try context.view(try request.tag())
            let name = try request.string("event")
            let phase: ListenerPhases
            switch try request.optionalString("phase") {
            case nil, "bubble": phase = .bubble
            case "capture": phase = .capture
            case let other?:
                throw BridgeError(.badRequest, "\(op): 'phase' must be \"bubble\" or \"capture\", got \"\(other)\"")
            }
            // With layout on, any view emits `layout` (its frame changed), as every React Native view may.
            if name == Session.layoutEvent.name, context.session.layout != nil {
                if phase == .capture {
                    throw BridgeError(.badRequest, "\(op): 'layout' is a direct event; it has no capture phase")
                }
                var phases = view.listeners[name] ?? []
                if on { phases.insert(phase) } else { phases.remove(phase) }
                context.setListeners(phases, of: view, for: name)
                context.result.raw("{}")
                return
            }
            // An untyped view may emit any event: one no component declares is a direct event of it.
            guard
                let event = context.session.event(named: name)
                    ?? (view.type.isUntyped ? context.session.untypedEvent(named: name) : nil)
            else {
                throw BridgeError(.unknownEvent, "\(op): no component declares an event '\(name)'")
            }
            if !event.bubbles {
                guard view.type.isUntyped || view.type.event(named: name) != nil else {
                    throw BridgeError(
                        .unknownEvent,
                        "\(op): '\(name)' is a direct event and \(view.type.name) (tag \(view.tag)) does not emit it"
                    )
                }
                if phase == .capture {
                    throw BridgeError(.badRequest, "\(op): '\(name)' is a direct event; it has no capture phase")
                }
            }
            var phases = view.listeners[name] ?? []
            if on { phases.insert(phase) } else { phases.remove(phase) }
            context.setListeners(phases, of: view, for: name)
            context.result.raw("{}")
        }
    }
}
