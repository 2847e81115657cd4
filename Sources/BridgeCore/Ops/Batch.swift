import PropStore

extension Ops {
    /// `batch {ops}` → `{results}`: runs the ops in order, all or nothing; their events wait for the commit.
    enum Batch: Op {
        static let entry = OpTable.Entry(
            "batch",
            batch: .refused("batch: a batch cannot contain another batch")
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let engine = context.engine
            guard let ops = try context.request.array("ops", required: true) else { return nil }
            guard ops.count <= engine.configuration.maxOpsPerBatch else {
                throw BridgeError(
                    .limitExceeded,
                    "batch: \(ops.count) ops exceed the limit of \(engine.configuration.maxOpsPerBatch) per batch"
                )
            }
            context.beginUndo()
            context.result.raw(#"{"results":["#)
            for (index, op) in ops.enumerated() {
                if index > 0 { context.result.comma() }
                // The daemon is stopping and will not wait for the rest: undone, and saved as it was before.
                if engine.isInterrupted { throw BridgeError(.limitExceeded, "batch: the daemon is stopping") }
                do throws(BridgeError) {
                    guard op.isObject else { throw BridgeError(.badRequest, "batch: op \(index) is not an object") }
                    guard let name = op[field: "op"], name.kind == .string else {
                        throw BridgeError(.badRequest, "batch: op \(index) has no 'op' string")
                    }
                    try context.session.perform(op: name, request: op, inBatch: true)
                } catch {
                    var failure = BridgeError(
                        .batchFailed,
                        "op \(index) (\(op[field: "op"]?.string ?? "not an op")) of the batch failed, nothing was "
                            + "applied: \(error.message)"
                    )
                    failure.index = index
                    failure.inner = BridgeError.Inner(error)
                    throw failure
                }
                // The results alone may not outgrow the request's output bound (its events are checked at the
                // commit).
                if context.result.count > engine.configuration.maxRequestOutputBytes {
                    throw context.session.outputLimitError()
                }
            }
            if engine.isInterrupted { throw BridgeError(.limitExceeded, "batch: the daemon is stopping") }
            context.result.raw("]}")
            // The batch's changes are final once its events fit too: the session's commit closes the undo.
            return nil
        }
    }
}
