extension Ops {
    /// `unsubscribe {tag, event, phase?}` → `{}`: a view stops listening to an event in a phase.
    enum Unsubscribe: Op {
        static let entry = OpTable.Entry("unsubscribe")
        static let spec = OpSpec(
            fields: #"{"tag":"integer","event":"string","phase?":"string"}"#,
            sample: #"{"op":"unsubscribe","tag":2,"event":"countChange"}"#,
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            try Subscribe.change(context, on: false)
            return nil
        }
    }
}
