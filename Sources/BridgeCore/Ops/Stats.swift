extension Ops {
    /// `stats` → `{sessions, views, sessionViews, seq}`.
    enum Stats: Op {
        static let entry = OpTable.Entry("stats")
        static let spec = OpSpec(
            sample: #"{"op":"stats"}"#,
            result:
                #"{"$name":"StatsResult","sessions":"integer","views":"integer","sessionViews":"integer","seq":"integer"}"#,
            safeToRepeat: true,
            sessionFree: true,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            context.result.raw(#"{"sessions":"#)
            context.result.int(context.engine.sessionCount)
            context.result.raw(#","views":"#)
            context.result.int(context.engine.viewCount)
            context.result.raw(#","sessionViews":"#)
            context.result.int(context.session.viewCount)
            context.result.raw(#","seq":"#)
            context.result.int(context.session.seq)
            context.result.raw("}")
            return nil
        }
    }
}
