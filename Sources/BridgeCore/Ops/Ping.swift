extension Ops {
    /// `ping` → `{}`.
    enum Ping: Op {
        static let entry = OpTable.Entry("ping", keepsBatchInParts: true)
        static let spec = OpSpec(
            sample: #"{"op":"ping"}"#,
            safeToRepeat: true,
            sessionFree: true,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            context.result.raw("{}")
            return nil
        }
    }
}
