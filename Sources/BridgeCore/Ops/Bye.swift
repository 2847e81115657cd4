extension Ops {
    /// `bye` → `{}`: the session ends once it is answered (the session's commit closes it) and the daemon closes
    /// the connection.
    enum Bye {
        static let entry = OpTable.Entry(
            "bye",
            batch: .refused("batch: bye cannot be part of a batch"),
            endsSession: true
        ) { context throws(BridgeError) in
            context.result.raw("{}")
            return nil
        }
    }
}
