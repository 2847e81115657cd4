extension Ops {
    /// `sessions` → `{sessions}`: every session of the daemon, answered by the connection.
    enum Sessions: ObserverOp {
        static let entry = OpTable.Entry(
            "sessions",
            batch: .refusedOnceRead("batch: sessions cannot be part of a batch")
        )

        static func observerRequest(_ context: OpContext) throws(BridgeError) -> ObserverRequest {
            .sessions
        }
    }
}
