import PropStore

extension Session {
    /// Keeps a copy of an event frame just written (`frame` includes its newline) until it is acked.
    func retain(seq: Int, frame: ArraySlice<UInt8>) { events.keep(seq: seq, frame: frame) }

    /// Forgets every retained event up to and including `seq` (cumulative).
    func forgetRetained(through seq: Int) { events.forget(through: seq) }

    /// How many events are kept for a resume.
    var retainedCount: Int { events.count }

    /// Writes every retained event after `seq`, in order.
    func writeRetained(after seq: Int, into out: inout [UInt8]) { events.write(after: seq, into: &out) }

    /// The retained frames, oldest first, each with its newline.
    var retainedFrames: [ArraySlice<UInt8>] { events.frames }

    /// The highest seq dropped unacked because the buffer was full (0: none).
    var droppedThrough: Int {
        get { events.droppedThrough }
        set { events.droppedThrough = newValue }
    }

    /// `ack {seq}`: the client has dispatched every event up to `seq`; they need not be kept for a resume.
    func ack(_ request: Request) throws(BridgeError) {
        guard let value = request.json[field: "seq"], let seq = value.integer, seq >= 0 else {
            throw BridgeError(.badRequest, "ack: 'seq' must be a non-negative integer")
        }
        guard seq <= Int64(self.seq) else {
            throw BridgeError(.badRequest, "ack: seq \(seq) is beyond the last event written (\(self.seq))")
        }
        acked = max(acked, Int(seq))
        forgetRetained(through: acked)
        scratch.result.raw(#"{"acked":"#)
        scratch.result.int(acked)
        scratch.result.raw(#","retained":"#)
        scratch.result.int(retainedCount)
        scratch.result.raw("}")
    }
}
