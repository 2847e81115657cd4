extension Ops {
    /// `observe {session}` → a snapshot of another session, then its change frames: answered by the connection.
    enum Observe: Op {
        static let entry = OpTable.Entry(
            "observe",
            batch: .refusedOnceRead("batch: observe cannot be part of a batch"),
            reachesOtherSessions: true
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            .observer(.observe(try context.request.string("session")))
        }
    }
}
