import PropStore

extension Ops {
    /// `command {tag, name, args?}` → `{}`: runs one of the view's commands, which may change its state and emit
    /// its events; logged on the view (`inspect` lists the log).
    enum Command: Op {
        static let entry = OpTable.Entry("command", outputIsUnbounded: true)
        static let spec = OpSpec(
            fields: #"{"tag":"integer","name":"string","args?":["json"]}"#,
            sample: #"{"op":"command","tag":2,"name":"press","args":[]}"#,
        )

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
            let hadFocus = view.type.isFocused(view)
            let neededRender = view.needsRender
            let outcome = command.run(on: view.props, args: args)
            func undo() { Ran.undo(outcome, of: view, neededRender: neededRender) }
            // The view took the window's focus: the one that held it gives it up first, its events first.
            var resigned: [Ran] = []
            if !hadFocus && view.type.isFocused(view) {
                do throws(BridgeError) {
                    resigned = try resignFocus(in: context.session, except: view)
                } catch {
                    undo()
                    throw error
                }
            }
            func undoAll() {
                undo()
                for other in resigned.reversed() { other.undo() }
            }
            if outcome.emitted.count + resigned.reduce(0, { $0 + $1.events.count }) > context.eventRoom {
                undoAll()
                throw context.seqExhausted("command: \(view.type.name).\(name)")
            }
            let firstEvent = context.session.scratch.events.count
            for other in resigned {
                for (event, payload) in other.events { context.emit(event, from: other.view, payload: payload) }
            }
            // A command may emit only events it declares, with payloads of their types: otherwise it failed.
            for emitted in outcome.emitted {
                do throws(BridgeError) {
                    let (event, payload) = try checked(emitted, of: command, on: view)
                    context.emit(event, from: view, payload: payload)
                } catch {
                    context.session.scratch.events.removeSubrange(firstEvent...)
                    undoAll()
                    throw error
                }
            }
            for other in resigned {
                context.commandRan(
                    other.view,
                    name: other.name,
                    args: [],
                    stateUndo: other.outcome.undo,
                    neededRender: other.neededRender
                )
            }
            context.commandRan(view, name: name, args: args, stateUndo: outcome.undo, neededRender: neededRender)
            context.result.raw("{}")
            return nil
        }

        /// An event a command emitted, checked: declared in its `emits` and by the component, its payload of the
        /// event's type.
        private static func checked(
            _ emitted: (event: String, payload: EventPayload),
            of command: ComponentType.CommandDescriptor,
            on view: ViewProxy
        ) throws(BridgeError) -> (EventSpec, EventPayload) {
            let problem: String
            if let emits = command.emits, !emits.contains(emitted.event) {
                problem = "emitted '\(emitted.event)', which it does not declare in its emits"
            } else if let event = view.type.event(named: emitted.event) {
                switch emitted.payload.checked(for: event) {
                case .success(let payload): return (event, payload)
                case .failure(let payloadProblem):
                    problem = "emitted '\(emitted.event)' with a payload that does not fit its type: \(payloadProblem)"
                }
            } else {
                problem = "emitted '\(emitted.event)', which \(view.type.name) does not declare"
            }
            throw BridgeError(.invalidPayload, "command: \(view.type.name).\(command.name) \(problem)")
        }

        /// Runs the resign command of each view of `session` but `view` that holds the focus (one, unless a
        /// component's own commands gave it to more), their events checked; taken back if one fails.
        private static func resignFocus(in session: Session, except view: ViewProxy) throws(BridgeError) -> [Ran] {
            var resigned: [Ran] = []
            for other in ViewStorage.views(session: session.storageKey)
            where other !== view && other.type.isFocused(other) {
                guard let resign = other.type.focus.flatMap({ other.type.command(named: $0.resign) }) else { continue }
                do throws(BridgeError) {
                    resigned.append(try Ran(resign, on: other))
                } catch {
                    for done in resigned.reversed() { done.undo() }
                    throw error
                }
            }
            return resigned
        }

        /// A command with no arguments run on a view, its events checked but not emitted yet.
        private struct Ran {
            let view: ViewProxy
            let name: String
            let neededRender: Bool
            let outcome: CommandOutcome
            let events: [(EventSpec, EventPayload)]

            init(_ command: ComponentType.CommandDescriptor, on view: ViewProxy) throws(BridgeError) {
                self.view = view
                self.name = command.name
                neededRender = view.needsRender
                let outcome = command.run(on: view.props, args: [])
                self.outcome = outcome
                var events: [(EventSpec, EventPayload)] = []
                for emitted in outcome.emitted {
                    do throws(BridgeError) {
                        events.append(try checked(emitted, of: command, on: view))
                    } catch {
                        Ran.undo(outcome, of: view, neededRender: neededRender)
                        throw error
                    }
                }
                self.events = events
            }

            /// Takes its state back.
            func undo() { Ran.undo(outcome, of: view, neededRender: neededRender) }

            /// Takes a command's state back, and leaves a view that had nothing to render with nothing again.
            static func undo(_ outcome: CommandOutcome, of view: ViewProxy, neededRender: Bool) {
                for step in outcome.undo.reversed() { step() }
                if !neededRender { view.renderIfNeeded(counting: false) }
            }
        }
    }
}
