import CJansson
import CJanssonArena

/// The parts of a batch sent over several lines (`batch` with `more: true`), held until its last part runs them
/// all, with its own ops, as one batch.
///
/// A part's `ops` stay where its line was parsed: the thread's scratch arena, which the part takes with it (no
/// copy, so a part costs its parse alone); a tree parsed elsewhere (ahead, by another thread) is copied. Each op's
/// shape (an object with an `op` string) is checked as it arrives, so that a malformed part fails at once rather
/// than at the commit.
///
/// **Applied ahead, invisibly.** So that the daemon's work on a long batch overlaps the client's work on its next
/// part (a React Native commit is sent in parts while React still renders it), each part's ops are also run as it
/// arrives (``isApplied``), inside the batch's undo, which stays open from the first part to the last: their
/// results wait here (``results``), their events, the views they deleted and their observers' change frames wait in
/// the session's request scratch, uncommitted. Nothing of it is visible: the session's next request, if it is not
/// the batch's next part (or a `ping`), and anyone reading the session (a snapshot for its observers or the state
/// file) first rolls it back (``Session/retractStaged()``), and so does an op of a part that fails; the batch is
/// then held unapplied, as it always may be, and its last part runs every op against the session as it is then.
/// Either way the last part answers the same.
///
/// Bounded: the ops of all parts together by ``Engine/Configuration/maxOpsPerBatch``, their lines' bytes by
/// ``Engine/Configuration/maxBatchBytes``. A session holds one at most; the session drops it when a part fails,
/// when a new first part (`at: 0`) starts another, and when its connection closes.
final class StagedBatch {
    /// Each part's `ops` array: in an arena held here, or a copy owned here.
    private var parts: [UnsafeMutablePointer<json_t>] = []
    /// The arenas the parts' trees are in (taken from the threads that parsed them), freed with the batch.
    private var arenas: [OpaquePointer] = []
    /// The parts copied out of trees parsed elsewhere, released with the batch.
    private var copies: [UnsafeMutablePointer<json_t>] = []
    /// How many ops the parts hold.
    private(set) var ops = 0
    /// The bytes of the parts' lines.
    private(set) var bytes = 0
    /// Whether every op held has run, inside the session's undo, opened by the first part and still open.
    var isApplied = false
    /// The results of the ops applied (``isApplied``): `{"results":[` and one per op, the last part's to follow.
    var results = JSONWriter(capacity: 0)

    /// Whether the next part's ops are to run as it arrives: those held are applied, or there are none.
    var appliesAhead: Bool { isApplied || ops == 0 }

    /// The session rolled back the ops applied: they are held unapplied, for the last part to run.
    func retracted() {
        isApplied = false
        results.removeAll()
    }

    /// Takes a part's `ops` (checked by the caller) and the length of its line.
    func append(_ ops: JSONRef, count: Int, lineBytes: Int) {
        if let arena = JanssonMemory.takeScratch(holding: ops.raw) {
            arenas.append(arena)
            parts.append(ops.raw)
        } else {
            let copy = json_deep_copy(ops.raw)!
            copies.append(copy)
            parts.append(copy)
        }
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

    deinit {
        // A tree in an arena goes with it, not node by node.
        for copy in copies { cj_decref(copy) }
        for arena in arenas { cja_arena_destroy(arena) }
    }
}
