import PropStore

extension Ops {
    /// `command {tag, name, args?}` → `{}`: runs one of the view's commands, which may change its state and emit
    /// its events; logged on the view (`inspect` lists the log).
    enum Command: Op {
        static let entry = OpTable.Entry("command", outputIsUnbounded: true)

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let view = try context.view(try request.tag())
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
            var issues = PropIssues(limits: context.engine.configuration.propLimits)
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
            if outcome.emitted.count > context.eventRoom {
                for step in outcome.undo.reversed() { step() }
                if !neededRender { view.renderIfNeeded(counting: false) }
                throw context.seqExhausted("command: \(view.type.name).\(name)")
            }
            // A command may emit only events it declares, with payloads of their types: otherwise it failed.
            let firstEvent = context.session.scratch.events.count
            for emitted in outcome.emitted {
                var problem: String?
                if let emits = command.emits, !emits.contains(emitted.event) {
                    problem = "emitted '\(emitted.event)', which it does not declare in its emits"
                } else if let event = view.type.event(named: emitted.event) {
                    switch emitted.payload.checked(for: event) {
                    case .success(let payload):
                        context.emit(event, from: view, payload: payload)
                    case .failure(let payloadProblem):
                        problem =
                            "emitted '\(emitted.event)' with a payload that does not fit its type: \(payloadProblem)"
                    }
                } else {
                    problem = "emitted '\(emitted.event)', which \(view.type.name) does not declare"
                }
                if let problem {
                    context.session.scratch.events.removeSubrange(firstEvent...)
                    for step in outcome.undo.reversed() { step() }
                    if !neededRender { view.renderIfNeeded(counting: false) }
                    throw BridgeError(.invalidPayload, "command: \(view.type.name).\(name) \(problem)")
                }
            }
            context.commandRan(view, name: name, args: args, stateUndo: outcome.undo, neededRender: neededRender)
            context.result.raw("{}")
            return nil
        }
    }
}
