import CJansson

/// The parts of a batch sent over several lines (`batch` with `more: true`), held unapplied until its last part
/// runs them all, with its own ops, as one batch.
///
/// A part's `ops` are copied out of its request's tree (which lives only as long as the request: a parse arena's),
/// and each op's shape (an object with an `op` string) is checked as it arrives, so that a malformed part fails at
/// once rather than at the commit. Nothing else is checked until the last part: the ops run then, against the
/// session as it is then, all or nothing.
///
/// Bounded: the ops of all parts together by ``Engine/Configuration/maxOpsPerBatch``, their lines' bytes by
/// ``Engine/Configuration/maxBatchBytes``. A session holds one at most; the session drops it when a part fails,
/// when a new first part (`at: 0`) starts another, and when its connection closes.
final class StagedBatch {
    /// Each part's `ops` array, copied (owned here).
    private var parts: [UnsafeMutablePointer<json_t>] = []
    /// How many ops the parts hold.
    private(set) var ops = 0
    /// The bytes of the parts' lines.
    private(set) var bytes = 0

    /// Takes a part's `ops` (checked by the caller) and the length of its line.
    func append(_ ops: JSONRef, count: Int, lineBytes: Int) {
        parts.append(json_deep_copy(ops.raw)!)
        self.ops += count
        bytes += lineBytes
    }

    /// Calls `body` with each op held, in order, and its index in the whole batch.
    func eachOp(_ body: (Int, JSONRef) throws(BridgeError) -> Void) throws(BridgeError) {
        var index = 0
        for part in parts {
            for position in 0..<json_array_size(part) {
                try body(index, JSONRef(json_array_get(part, position)!))
                index += 1
            }
        }
    }

    deinit { for part in parts { cj_decref(part) } }
}
