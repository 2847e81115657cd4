extension Ops {
    /// `components` → `{components}`: the components this session defined, described as `hello` describes
    /// components (an empty object when it defined none).
    enum Components: Op {
        static let entry = OpTable.Entry("components")
        static let spec = OpSpec(
            sample: #"{"op":"components"}"#,
            result: #"{"components":{"$name":"Components","*":"object"}}"#,
            safeToRepeat: true,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            context.result.raw(#"{"components":"#)
            context.result.raw(context.session.components?.descriptions ?? Array("{}".utf8))
            context.result.raw("}")
            return nil
        }
    }
}
