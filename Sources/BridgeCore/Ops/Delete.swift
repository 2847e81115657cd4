import PropStore

extension Ops {
    /// `delete {tag}` → `{deleted}`: the view and its subtree leave the session (freed once the request succeeds).
    enum Delete: Op {
        static let entry = OpTable.Entry("delete", outputIsUnbounded: true)
        static let spec = OpSpec(
            fields: #"{"tag":"integer"}"#,
            sample: #"{"op":"delete","tag":1}"#,
            result: #"{"deleted":["integer"]}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let subtree = context.remove(try context.view(try context.request.tag()))
            context.result.raw(#"{"deleted":"#)
            context.result.tagArray(subtree)
            context.result.raw("}")
            return nil
        }
    }
}
