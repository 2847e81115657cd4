extension Ops {
    /// `ping` → `{}`.
    enum Ping {
        static let entry = OpTable.Entry("ping") { context throws(BridgeError) in
            context.result.raw("{}")
            return nil
        }
    }
}
