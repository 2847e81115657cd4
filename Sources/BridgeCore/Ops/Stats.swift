extension Ops {
    /// `stats` → `{sessions, views, sessionViews, seq}`.
    enum Stats {
        static let entry = OpTable.Entry("stats") { context throws(BridgeError) in
            let session = context.session
            context.result.raw(#"{"sessions":"#)
            context.result.int(context.engine.sessionCount)
            context.result.raw(#","views":"#)
            context.result.int(context.engine.viewCount)
            context.result.raw(#","sessionViews":"#)
            context.result.int(session.viewCount)
            context.result.raw(#","seq":"#)
            context.result.int(session.seq)
            context.result.raw("}")
            return nil
        }
    }
}
