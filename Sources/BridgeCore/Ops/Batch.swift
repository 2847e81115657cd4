import CYieldPoint
import PropStore

extension Ops {
    /// `batch {ops}` → `{results}`: runs the ops in order, all or nothing; their events wait for the commit.
    ///
    /// A batch too large for one line goes in parts: `batch {ops, more: true, at}` → `{staged}` holds a part's ops
    /// unapplied (``StagedBatch``), `at` being how many ops the parts before it hold (0, or left out, for the
    /// first); the last part, `batch {ops, at}`, runs the held ops and its own as one batch, with their indexes
    /// counted from the first part's first op.
    enum Batch: Op {
        static let entry = OpTable.Entry(
            "batch",
            batch: .refused("batch: a batch cannot contain another batch")
        )

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            guard let ops = try context.request.array("ops", required: true) else { return nil }
            let more = try context.request.optionalBool("more") ?? false
            let at = try context.request.optionalInt("at")
            let session = context.session
            if more || at != nil {
                // A part: whatever goes wrong with it, the parts held so far are dropped with it.
                do throws(BridgeError) {
                    let held = try checkStart(at ?? 0, of: session)
                    try checkCount(held + ops.count, context)
                    guard more else {
                        let staged = session.staged
                        session.staged = nil
                        try run(context, staged: staged, ops, from: held)
                        return nil
                    }
                    try stage(ops, after: held, context)
                } catch {
                    session.staged = nil
                    throw error
                }
                return nil
            }
            try checkCount(ops.count, context)
            try run(context, staged: nil, ops, from: 0)
            return nil
        }

        /// Checks that a part starting at op `at` follows the parts `session` holds (`at` is how many ops they
        /// hold), and returns `at`. A first part (`at` 0) follows none: what another batch in parts left unfinished
        /// is dropped.
        private static func checkStart(_ at: Int, of session: Session) throws(BridgeError) -> Int {
            guard at >= 0 else { throw BridgeError(.badRequest, "batch: 'at' must not be negative, got \(at)") }
            if at == 0 { session.staged = nil }
            let held = session.staged?.ops ?? 0
            guard held == at else {
                throw BridgeError(
                    .badRequest,
                    "batch: this part starts at op \(at), but the parts before it hold \(held) ops (a part was "
                        + "refused, not sent, or its connection closed); nothing was applied, the parts are dropped"
                )
            }
            return held
        }

        private static func checkCount(_ count: Int, _ context: OpContext) throws(BridgeError) {
            let limit = context.engine.configuration.maxOpsPerBatch
            guard count <= limit else {
                throw BridgeError(.limitExceeded, "batch: \(count) ops exceed the limit of \(limit) per batch")
            }
        }

        /// Holds a part's ops (checked for their shape) and answers `{staged}`, the ops held.
        private static func stage(_ ops: [JSONRef], after held: Int, _ context: OpContext) throws(BridgeError) {
            let session = context.session
            let configuration = context.engine.configuration
            let staged = session.staged ?? StagedBatch()
            let bytes = staged.bytes + session.lineBytes
            guard bytes <= configuration.maxBatchBytes else {
                throw BridgeError(
                    .limitExceeded,
                    "batch: its parts would hold \(bytes) bytes, more than \(configuration.maxBatchBytes) "
                        + "(--max-batch-bytes); nothing was applied, the parts are dropped"
                )
            }
            for (offset, op) in ops.enumerated() {
                do throws(BridgeError) {
                    _ = try name(of: op, index: held + offset)
                } catch {
                    throw failure(error, op: op, index: held + offset)
                }
            }
            guard let array = context.request.json[field: "ops"] else { return }
            staged.append(array, count: ops.count, lineBytes: session.lineBytes)
            session.staged = staged
            context.result.raw(#"{"staged":"#)
            context.result.int(staged.ops)
            context.result.raw("}")
        }

        /// Runs the ops held by `staged`, then `ops` (the first of them op `first` of the batch), all or nothing.
        private static func run(
            _ context: OpContext,
            staged: StagedBatch?,
            _ ops: [JSONRef],
            from first: Int
        ) throws(BridgeError) {
            context.beginUndo()
            context.result.raw(#"{"results":["#)
            try staged?.eachOp { (index, op) throws(BridgeError) in try runOne(op, index: index, context) }
            for (offset, op) in ops.enumerated() { try runOne(op, index: first + offset, context) }
            if context.engine.isInterrupted { throw BridgeError(.limitExceeded, "batch: the daemon is stopping") }
            context.result.raw("]}")
            // The batch's changes are final once its events fit too: the session's commit closes the undo.
        }

        @inline(__always)
        private static func runOne(_ op: JSONRef, index: Int, _ context: OpContext) throws(BridgeError) {
            let engine = context.engine
            // An op of a batch is a few microseconds: long work (cyield_point.h).
            cyield_point(8)
            if index > 0 { context.result.comma() }
            // The daemon is stopping and will not wait for the rest: undone, and saved as it was before.
            if engine.isInterrupted { throw BridgeError(.limitExceeded, "batch: the daemon is stopping") }
            do throws(BridgeError) {
                try context.session.perform(op: try name(of: op, index: index), request: op, inBatch: true)
            } catch {
                throw failure(error, op: op, index: index)
            }
            // The results alone may not outgrow the request's output bound (its events are checked at the commit).
            if context.result.count > engine.configuration.maxRequestOutputBytes {
                throw context.session.outputLimitError()
            }
        }

        /// The `op` string of op `index` of the batch, which must be an object.
        @inline(__always)
        private static func name(of op: JSONRef, index: Int) throws(BridgeError) -> JSONRef {
            guard op.isObject else { throw BridgeError(.badRequest, "batch: op \(index) is not an object") }
            guard let name = op[field: "op"], name.kind == .string else {
                throw BridgeError(.badRequest, "batch: op \(index) has no 'op' string")
            }
            return name
        }

        private static func failure(_ error: BridgeError, op: JSONRef, index: Int) -> BridgeError {
            var failure = BridgeError(
                .batchFailed,
                "op \(index) (\(op[field: "op"]?.string ?? "not an op")) of the batch failed, nothing was "
                    + "applied: \(error.message)"
            )
            failure.index = index
            failure.inner = BridgeError.Inner(error)
            return failure
        }
    }
}
