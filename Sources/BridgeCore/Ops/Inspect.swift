import PropStore

extension Ops {
    /// `inspect {tag}` → the view: its props, place, render and command log (rendering it first if it needs to); a view
    /// of an untyped component (``ComponentType/isUntyped``, added by `define`) says so with `"untyped":true`.
    enum Inspect: Op {
        static let entry = OpTable.Entry("inspect", outputIsUnbounded: true)
        static let spec = OpSpec(
            fields: #"{"tag":"integer"}"#,
            sample: #"{"op":"inspect","tag":2}"#,
            result: #"""
                {"$name":"InspectResult","tag":"integer","component":"string","props":"object",
                "parent":"integer|null","children":["integer"],"render":"string","renders":"integer",
                "commands":[{"name":"string","args":["json"]}],"untyped?":"boolean","layout?":{"$name":"Frame",
                "x":"number","y":"number","width":"number","height":"number"},"layoutInWindow?":{"$name":"Frame",
                "x":"number","y":"number","width":"number","height":"number"}}
                """#,
            safeToRepeat: true,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let view = try context.view(try context.request.tag())
            if view.renders == .max && view.needsRender {
                throw BridgeError(
                    .limitExceeded,
                    "inspect: view \(view.tag) has rendered \(view.renders) times, the most it can count"
                )
            }
            if view.renderIfNeeded() { context.rendered(view) }
            context.result.viewHead(view)
            context.result.viewPlace(view)
            context.result.viewRender(view)
            context.result.raw(#","commands":"#)
            context.result.commandLog(view.commandsInOrder)
            if view.type.isUntyped { context.result.raw(#","untyped":true"#) }
            if let layout = context.session.layoutToRead(), let frame = layout.frame(of: view) {
                context.result.raw(#","layout":"#)
                context.result.frame(frame)
                if let inWindow = layout.frameInWindow(of: view) {
                    context.result.raw(#","layoutInWindow":"#)
                    context.result.frame(inWindow)
                }
            }
            context.result.raw("}")
            return nil
        }
    }
}
