extension Ops {
    /// `observe {session}` → a snapshot of another session, then its change frames: answered by the connection.
    enum Observe {
        static let entry = OpTable.Entry(
            "observe",
            batch: .refusedOnceRead("batch: observe cannot be part of a batch"),
            reachesOtherSessions: true
        ) { context throws(BridgeError) in .observer(.observe(try context.request.string("session"))) }
    }
}
