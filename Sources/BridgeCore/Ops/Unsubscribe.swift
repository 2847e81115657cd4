extension Ops {
    /// `unsubscribe {tag, event, phase?}` → `{}`: a view stops listening to an event in a phase.
    enum Unsubscribe: Op {
        static let entry = OpTable.Entry("unsubscribe")

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            try Subscribe.change(context, on: false)
            return nil
        }
    }
}
