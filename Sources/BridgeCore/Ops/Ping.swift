extension Ops {
    /// `ping` → `{}`.
    enum Ping: Op {
        static let entry = OpTable.Entry("ping", keepsBatchInParts: true)

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            context.result.raw("{}")
            return nil
        }
    }
}
