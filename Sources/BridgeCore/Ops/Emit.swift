import PropStore

extension Ops {
    /// `emit {tag, event, payload?}` → `{}`: the view emits one of its component's events as native code would
    /// (user input, a timer), dispatched exactly as a command's events are.
    enum Emit: Op {
        static let entry = OpTable.Entry("emit", outputIsUnbounded: true)
        static let spec = OpSpec(
            fields: #"{"tag":"integer","event":"string","payload?":"object"}"#,
            sample: #"{"op":"emit","tag":2,"event":"countChange","payload":{"count":1}}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let view = try context.view(try request.tag())
            let name = try request.string("event")
            guard
                let event = view.type.event(named: name)
                    ?? (view.type.isUntyped ? context.session.untypedEvent(named: name) : nil)
            else {
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
                    let (value, details) = convert(given, as: payloadType, context)
                    guard case .object(let members)? = value else {
                        throw BridgeError(
                            .invalidPayload,
                            "emit: bad payload for '\(name)': \(details[0].path): \(details[0].message)",
                            details: details
                        )
                    }
                    fields = members.map { (name: $0.name, value: $0.value) }
                } else {
                    // An event whose payload is not declared sends any fields, as given.
                    let (value, details) = convert(given, as: .mixed, context)
                    guard case .json(.object(let members))? = value else {
                        throw BridgeError(.invalidPayload, "emit: bad payload for '\(name)'", details: details)
                    }
                    fields = members.map { (name: $0.name, value: .json($0.value)) }
                }
            } else if let payloadType = event.payloadType {
                // No payload: every field must be optional.
                let (value, details) = convert(JSONValue.object([]), as: payloadType, context)
                guard case .object(let members)? = value else {
                    throw BridgeError(
                        .invalidPayload,
                        "emit: '\(name)' needs a payload: \(details[0].path): \(details[0].message)",
                        details: details
                    )
                }
                fields = members.map { (name: $0.name, value: $0.value) }
            }
            guard context.eventRoom > 0 else { throw context.seqExhausted("emit") }
            context.emit(event, from: view, payload: EventPayload(fields: fields))
            context.result.raw("{}")
            return nil
        }

        /// `payload` converted as `type`, and the details of what was wrong with it (each with its path).
        private static func convert(
            _ payload: some PropSource,
            as type: PropType,
            _ context: OpContext
        ) -> (PropValue?, [BridgeError.Detail]) {
            var issues = PropIssues(limits: context.engine.configuration.propLimits)
            var path = PropPath("")
            let value = type.convert(payload, path: &path, into: &issues)
            let owners = [(prop: String?, arg: Int?)](repeating: (nil, nil), count: issues.list.count)
            return (value, BridgeError.Detail.list(issues, owners: owners))
        }
    }
}
