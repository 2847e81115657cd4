extension Ops {
    /// `unobserve {session}` → `{}`: stops observing a session; answered by the connection.
    enum Unobserve: ObserverOp {
        static let entry = OpTable.Entry(
            "unobserve",
            batch: .refusedOnceRead("batch: unobserve cannot be part of a batch")
        )
        static let spec = OpSpec(
            fields: #"{"session":"string"}"#,
            sample: #"{"op":"unobserve","session":"<session>"}"#,
        )

        static func observerRequest(_ context: OpContext) throws(BridgeError) -> ObserverRequest {
            .unobserve(try context.request.string("session"))
        }
    }
}
