extension Ops {
    /// `sessions` → `{sessions}`: every session of the daemon, answered by the connection.
    enum Sessions: ObserverOp {
        static let entry = OpTable.Entry(
            "sessions",
            batch: .refusedOnceRead("batch: sessions cannot be part of a batch")
        )
        static let spec = OpSpec(
            sample: #"{"op":"sessions"}"#,
            result:
                #"{"sessions":[{"$name":"SessionSummary","session":"string","client":"string|null","connected":"boolean","views":"integer","seq":"integer","observers":"integer"}]}"#,
        )

        static func observerRequest(_ context: OpContext) throws(BridgeError) -> ObserverRequest {
            .sessions
        }
    }
}
