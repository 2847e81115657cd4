extension Ops {
    /// `observe {session}` → a snapshot of another session, then its change frames: answered by the connection.
    enum Observe: ObserverOp {
        static let entry = OpTable.Entry(
            "observe",
            batch: .refusedOnceRead("batch: observe cannot be part of a batch")
        )

        static func observerRequest(_ context: OpContext) throws(BridgeError) -> ObserverRequest {
            .observe(try context.request.string("session"))
        }
    }
}
