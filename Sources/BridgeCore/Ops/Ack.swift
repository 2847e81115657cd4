extension Ops {
    /// `ack {seq}` → `{acked, retained}`: the client has dispatched every event up to `seq`; they need not be
    /// kept for a resume.
    enum Ack: Op {
        static let entry = OpTable.Entry("ack", batch: .refused("batch: ack cannot be part of a batch"))
        static let spec = OpSpec(
            fields: #"{"seq":"integer"}"#,
            sample: #"{"op":"ack","seq":0}"#,
            result: #"{"acked":"integer","retained":"integer"}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let session = context.session
            guard let value = context.request.json[field: "seq"], let seq = value.integer, seq >= 0 else {
                throw BridgeError(.badRequest, "ack: 'seq' must be a non-negative integer")
            }
            guard seq <= Int64(session.seq) else {
                throw BridgeError(.badRequest, "ack: seq \(seq) is beyond the last event written (\(session.seq))")
            }
            session.acked = max(session.acked, Int(seq))
            session.events.forget(through: session.acked)
            context.result.raw(#"{"acked":"#)
            context.result.int(session.acked)
            context.result.raw(#","retained":"#)
            context.result.int(session.events.count)
            context.result.raw("}")
            return nil
        }
    }
}
