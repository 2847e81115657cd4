extension Ops {
    /// `unobserve {session}` → `{}`: stops observing a session; answered by the connection.
    enum Unobserve: Op {
        static let entry = OpTable.Entry(
            "unobserve",
            batch: .refusedOnceRead("batch: unobserve cannot be part of a batch"),
            reachesOtherSessions: true
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            .observer(.unobserve(try context.request.string("session")))
        }
    }
}
