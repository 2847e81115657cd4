extension Ops {
    /// `unobserve {session}` → `{}`: stops observing a session; answered by the connection.
    enum Unobserve {
        static let entry = OpTable.Entry(
            "unobserve",
            batch: .refusedOnceRead("batch: unobserve cannot be part of a batch"),
            reachesOtherSessions: true
        ) { context throws(BridgeError) in .observer(.unobserve(try context.request.string("session"))) }
    }
}
