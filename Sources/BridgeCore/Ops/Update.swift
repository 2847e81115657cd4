import PropStore

extension Ops {
    /// `update {tag, props}` → `{changed}`: sets props, naming those whose value changed. The hot path.
    enum Update: Op {
        static let entry = OpTable.Entry("update")
        static let spec = OpSpec(
            fields: #"{"tag":"integer","props":"object"}"#,
            sample: #"{"op":"update","tag":2,"props":{"title":"Updated"}}"#,
            result: #"{"changed":["string"]}"#,
        )

        @inline(__always)
        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let tag = try request.tag()
            guard let props = try request.object("props", required: true) else { return nil }
            let view = try context.view(tag)
            var converted = context.session.scratch.takeConverted()
            defer { context.session.scratch.giveBack(converted: &converted) }
            try context.convert(props, for: view.type, tag: tag, into: &converted)
            // The names of the props whose value changed, as a list of JSON strings.
            context.result.raw(#"{"changed":["#)
            var first = true
            context.set(converted, of: view) { prop in
                if first {
                    first = false
                } else {
                    context.result.comma()
                }
                context.result.string(prop.name)
            }
            context.result.raw("]}")
            return nil
        }
    }
}
