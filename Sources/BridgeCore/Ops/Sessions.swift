extension Ops {
    /// `sessions` → `{sessions}`: every session of the daemon, answered by the connection.
    enum Sessions: Op {
        static let entry = OpTable.Entry(
            "sessions",
            batch: .refusedOnceRead("batch: sessions cannot be part of a batch"),
            reachesOtherSessions: true
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? { .observer(.sessions) }
    }
}
