extension Ops {
    /// `sessions` → `{sessions}`: every session of the daemon, answered by the connection.
    enum Sessions {
        static let entry = OpTable.Entry(
            "sessions",
            batch: .refusedOnceRead("batch: sessions cannot be part of a batch"),
            reachesOtherSessions: true
        ) { _ throws(BridgeError) in .observer(.sessions) }
    }
}
