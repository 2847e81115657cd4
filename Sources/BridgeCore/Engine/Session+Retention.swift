import PropStore

/// An event frame kept until the client acknowledges it, so that a resumed connection gets it again.
struct RetainedEvent {
    let seq: Int
    let start: Int
    let end: Int
}

extension Session {
    /// Keeps a copy of an event frame just written (`frame` includes its newline) until it is acked.
    ///
    /// At most `eventBuffer` frames are kept; past that the oldest is dropped and the session remembers that
    /// a client whose cursor is before it cannot resume without a gap (`overflow`).
    func retain(seq: Int, frame: ArraySlice<UInt8>) {
        let limit = engine.configuration.eventBuffer
        guard limit > 0 else {
            droppedThrough = seq
            return
        }
        let start = retainedBytes.count
        retainedBytes.append(contentsOf: frame)
        retainedIndex.append(RetainedEvent(seq: seq, start: start, end: retainedBytes.count))
        if retainedIndex.count - retainedHead > limit {
            droppedThrough = retainedIndex[retainedHead].seq
            retainedHead += 1
            compactRetained()
        }
    }

    /// Forgets every retained event up to and including `seq` (cumulative).
    func forgetRetained(through seq: Int) {
        while retainedHead < retainedIndex.count, retainedIndex[retainedHead].seq <= seq { retainedHead += 1 }
        compactRetained()
    }

    /// How many events are kept for a resume.
    var retainedCount: Int { retainedIndex.count - retainedHead }

    /// Writes every retained event after `seq`, in order.
    func writeRetained(after seq: Int, into out: inout [UInt8]) {
        for event in retainedIndex[retainedHead...] where event.seq > seq {
            out.append(contentsOf: retainedBytes[event.start..<event.end])
        }
    }

    /// The retained frames, oldest first, each with its newline.
    var retainedFrames: [ArraySlice<UInt8>] {
        retainedIndex[retainedHead...].map { retainedBytes[$0.start..<$0.end] }
    }

    private func compactRetained() {
        if retainedHead == retainedIndex.count {
            retainedIndex.removeAll(keepingCapacity: true)
            retainedBytes.removeAll(keepingCapacity: true)
            retainedHead = 0
        } else if retainedHead >= 1024 && retainedHead * 2 >= retainedIndex.count {
            let shift = retainedIndex[retainedHead].start
            retainedBytes.removeFirst(shift)
            retainedIndex = retainedIndex[retainedHead...].map {
                RetainedEvent(seq: $0.seq, start: $0.start - shift, end: $0.end - shift)
            }
            retainedHead = 0
        }
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
        result.raw(#"{"acked":"#)
        result.int(acked)
        result.raw(#","retained":"#)
        result.int(retainedCount)
        result.raw("}")
    }
}
