import PropStore

extension Ops {
    /// `update {tag, props}` → `{changed}`: sets props, naming those whose value changed. The hot path.
    enum Update {
        static let entry = OpTable.Entry("update") { context throws(BridgeError) in
            try perform(context)
            return nil
        }

        @inline(__always)
        static func perform(_ context: OpContext) throws(BridgeError) {
            let request = context.request
            let tag = try request.tag()
            guard let props = try request.object("props", required: true) else { return }
            let view = try context.view(tag)
            var converted = context.session.scratch.takeConverted()
            defer { context.session.scratch.giveBack(converted: &converted) }
            try context.convert(props, for: view.type, tag: tag, into: &converted)
            context.result.raw(#"{"changed":["#)
            context.set(converted, of: view)
            context.result.raw("]}")
        }
    }
}
