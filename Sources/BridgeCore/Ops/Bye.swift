extension Ops {
    /// `bye` → `{}`: the session ends once it is answered (the session's commit closes it) and the daemon closes
    /// the connection.
    enum Bye: Op {
        static let entry = OpTable.Entry(
            "bye",
            batch: .refused("batch: bye cannot be part of a batch"),
            endsSession: true
        )
        static let spec = OpSpec(
            sample: #"{"op":"bye"}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            context.result.raw("{}")
            return nil
        }
    }
}
