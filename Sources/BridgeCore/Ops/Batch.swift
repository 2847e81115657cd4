import CYieldPoint
import PropStore

extension Ops {
    /// `batch {ops}` → `{results}`: runs the ops in order, all or nothing; their events wait for the commit.
    ///
    /// A batch too large for one line goes in parts: `batch {ops, more: true, at}` → `{staged}` holds a part's ops
    /// (``StagedBatch``), `at` being how many ops the parts before it hold (0, or left out, for the first); the
    /// last part, `batch {ops, at}`, runs the held ops and its own as one batch, with their indexes counted from
    /// the first part's first op. The held ops may have run already, invisibly, as their parts came
    /// (``StagedBatch`` says how); the answers are the same.
    enum Batch: Op {
        static let entry = OpTable.Entry(
            "batch",
            batch: .refused("batch: a batch cannot contain another batch"),
            keepsBatchInParts: true
        )
        static let spec = OpSpec(
            fields: #"{"ops":["object"],"more?":"boolean","at?":"integer"}"#,
            sample: #"{"op":"batch","ops":[{"op":"update","tag":2,"props":{"count":1}},{"op":"ping"}]}"#,
            result: #"{"$oneOf":[{"results":["object"]},{"staged":"integer"}]}"#,
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
                    if held == 0 { layOutBeforeReads(ops, session) }
                    try checkCount(held + ops.count, context)
                    guard more else {
                        try run(context, staged: session.takeStaged(), ops, from: held)
                        return nil
                    }
                    try stage(ops, after: held, context)
                } catch {
                    // The session's rollback undoes what the parts applied ahead, with the rest of the request.
                    _ = session.takeStaged()
                    throw error
                }
                return nil
            }
            // A whole batch between the parts of another is not one of them: it sees none of theirs.
            session.retractStaged()
            layOutBeforeReads(ops, session)
            try checkCount(ops.count, context)
            try run(context, staged: nil, ops, from: 0)
            return nil
        }

        /// A batch (or its first part) that reads frames (`inspect`, `layout`) or subscribes the session's first
        /// `layout` listener, where the session has deferred its passes (``Session/layoutIsDeferred``): what it
        /// deferred is laid out before the batch's first op, so that its reads give the frames of the tree as the
        /// last request left it, and the views it starts listening to move, as in a session that never deferred, by
        /// what this batch changes alone.
        private static func layOutBeforeReads(_ ops: [JSONRef], _ session: Session) {
            guard session.layoutIsDeferred, session.layout?.isDirty == true else { return }
            let layoutEvent = Session.layoutEvent.name
            let reads = ops.contains { op in
                switch op[field: "op"]?.string {
                case "inspect", "layout": true
                case "subscribe": op[field: "event"]?.string == layoutEvent
                default: false
                }
            }
            if reads { _ = session.layoutToRead() }
        }

        /// Checks that a part starting at op `at` follows the parts `session` holds (`at` is how many ops they
        /// hold), and returns `at`. A first part (`at` 0) follows none: what another batch in parts left unfinished
        /// is dropped.
        private static func checkStart(_ at: Int, of session: Session) throws(BridgeError) -> Int {
            guard at >= 0 else { throw BridgeError(.badRequest, "batch: 'at' must not be negative, got \(at)") }
            if at == 0 { session.dropStaged() }
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
            if staged.appliesAhead && configuration.appliesBatchPartsAhead {
                applyAhead(ops, from: held, staged, context)
            }
            staged.append(array, count: ops.count, lineBytes: session.lineBytes)
            session.hold(staged)
            context.result.raw(#"{"staged":"#)
            context.result.int(staged.ops)
            context.result.raw("}")
        }

        /// Runs a part's `ops` (the first of them op `first` of the batch) as it arrives, inside the undo the batch's
        /// first part opens and its last part closes, their results kept by `staged`. An op that fails leaves the
        /// whole batch to its last part: what the parts applied is rolled back, and the batch is held unapplied.
        private static func applyAhead(
            _ ops: [JSONRef],
            from first: Int,
            _ staged: StagedBatch,
            _ context: OpContext
        ) {
            let session = context.session
            let opens = !staged.isApplied
            if opens { context.beginUndo() }
            session.scratch.result.exchange(with: &staged.results)
            if opens { context.result.raw(#"{"results":["#) }
            var failed = false
            do throws(BridgeError) {
                for (offset, op) in ops.enumerated() { try runOne(op, index: first + offset, context) }
            } catch {
                failed = true
            }
            session.scratch.result.exchange(with: &staged.results)
            if failed {
                session.rollback()
                staged.retracted()
            } else {
                staged.isApplied = true
            }
        }

        /// Runs the ops held by `staged`, then `ops` (the first of them op `first` of the batch), all or nothing. The
        /// held ops have run already when `staged` applied them as their parts came: their results are taken.
        private static func run(
            _ context: OpContext,
            staged: StagedBatch?,
            _ ops: [JSONRef],
            from first: Int
        ) throws(BridgeError) {
            if let staged, staged.isApplied {
                context.session.scratch.result.exchange(with: &staged.results)
            } else {
                context.beginUndo()
                context.result.raw(#"{"results":["#)
                try staged?.eachOp { (index, op) throws(BridgeError) in try runOne(op, index: index, context) }
            }
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
