import PropStore

extension Ops {
    /// `touch {tag, phase, identifier?, pageX?, pageY?, locationX?, locationY?, timestamp?}` → `{}`: a finger on
    /// view `tag`, as iOS's `RCTTouchHandler` reports it: a bubbling `touchStart`, `touchMove`, `touchEnd` or
    /// `touchCancel` (``TouchEvents``) from that view, with one touch, dispatched as any bubbling event is.
    ///
    /// The payload is `{"touches":[{identifier, target, pageX, pageY, locationX, locationY, timestamp}],
    /// "changedIndices":[0]}`; each number is written as given (an integer stays one), 0 when absent.
    enum Touch: Op {
        static let entry = OpTable.Entry("touch", outputIsUnbounded: true)
        static let spec = OpSpec(
            fields: #"""
                {"tag":"integer","phase":"string","identifier?":"integer","pageX?":"number","pageY?":"number",
                "locationX?":"number","locationY?":"number","timestamp?":"number"}
                """#,
            sample:
                #"{"op":"touch","tag":2,"phase":"start","identifier":1,"pageX":1,"pageY":2,"locationX":1,"locationY":2,"timestamp":0}"#,
        )

        /// The request's `phase` → the event it emits.
        private static let phases = ["start", "move", "end", "cancel"]
        /// The number fields of a touch, in the payload's order (after `identifier` and `target`).
        private static let numbers: [StaticString] = ["pageX", "pageY", "locationX", "locationY", "timestamp"]

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let tag = try request.tag()
            guard let phase = try request.optionalString("phase") else {
                throw BridgeError(.badRequest, "touch: missing 'phase' (\"start\", \"move\", \"end\" or \"cancel\")")
            }
            guard let index = phases.firstIndex(of: phase) else {
                throw BridgeError(
                    .badRequest,
                    "touch: 'phase' must be \"start\", \"move\", \"end\" or \"cancel\", got \"\(phase)\""
                )
            }
            let identifier = try request.optionalInt("identifier") ?? 1
            guard (0...20).contains(identifier) else {
                throw BridgeError(.badRequest, "touch: 'identifier' must be an integer from 0 to 20, got \(identifier)")
            }
            var touch: [JSONMember] = [
                JSONMember("identifier", .int(Int64(identifier))), JSONMember("target", .int(0)),
            ]
            for field in numbers {
                touch.append(JSONMember(field.description, try number(field, of: request)))
            }
            let view = try context.view(tag)
            touch[1].value = .int(Int64(view.tag))
            guard context.eventRoom > 0 else { throw context.seqExhausted("touch") }
            context.emit(
                TouchEvents.all[index],
                from: view,
                payload: [
                    "touches": .json(.array([.object(touch)])),
                    "changedIndices": .json(.array([.int(0)])),
                ]
            )
            context.result.raw("{}")
            return nil
        }

        /// The number `field` as given (0 when absent or null); `bad_request` when it is not a number.
        private static func number(_ field: StaticString, of request: Request) throws(BridgeError) -> JSONValue {
            guard let value = request.json[field: field], !value.isNull else { return .int(0) }
            switch value.kind {
            case .integer: return .int(value.integerValue)
            case .real: return .double(value.realValue)
            default:
                throw BridgeError(.badRequest, "touch: '\(field)' must be a number, got \(value.compactText)")
            }
        }
    }
}
