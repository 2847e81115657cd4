extension Ops {
    /// `observe {session, tree?, layout?, grouped?}` → a snapshot of a session, then its change frames: answered by the connection.
    enum Observe: ObserverOp {
        static let entry = OpTable.Entry(
            "observe",
            batch: .refusedOnceRead("batch: observe cannot be part of a batch")
        )
        static let spec = OpSpec(
            fields: #"{"session":"string","tree?":"boolean","layout?":"boolean","grouped?":"boolean"}"#,
            sample: #"{"op":"observe","session":"<session>"}"#,
            result:
                #"{"$name":"ObserveSnapshot","session":"string","client":"string|null","connected":"boolean","seq":"integer","acked":"integer","views":["object"],"events":["object"]}"#,
        )

        static func observerRequest(_ context: OpContext) throws(BridgeError) -> ObserverRequest {
            .observe(
                try context.request.string("session"),
                tree: try context.request.optionalBool("tree") ?? false,
                layout: try context.request.optionalBool("layout") ?? true,
                grouped: try context.request.optionalBool("grouped") ?? false
            )
        }
    }
}
