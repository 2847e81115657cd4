/// The event frames a session wrote and its client has not acknowledged yet, kept so that a resumed
/// connection gets them again: at most `limit` of them, the oldest dropped first.
///
/// Frames are kept back to back in one byte array with an index, so keeping one costs a copy of its bytes
/// and no allocation of its own; acknowledged frames are compacted away in bulk.
struct EventBuffer {
    /// An event frame kept: its seq and where its bytes (with their newline) are.
    struct Entry {
        let seq: Int
        let start: Int
        let end: Int
    }

    /// The most frames kept (0: none).
    let limit: Int
    private var bytes: [UInt8] = []
    private var index: [Entry] = []
    private var head = 0
    /// The highest seq dropped unacknowledged because the buffer was full (0: none): a client whose cursor
    /// is before it cannot resume without a gap (`overflow`).
    var droppedThrough = 0

    init(limit: Int) { self.limit = limit }

    /// How many frames are kept.
    var count: Int { index.count - head }

    /// Keeps a copy of a frame just written (`frame` includes its newline).
    mutating func keep(seq: Int, frame: ArraySlice<UInt8>) {
        guard limit > 0 else {
            droppedThrough = seq
            return
        }
        let start = bytes.count
        bytes.append(contentsOf: frame)
        index.append(Entry(seq: seq, start: start, end: bytes.count))
        if index.count - head > limit {
            droppedThrough = index[head].seq
            head += 1
            compact()
        }
    }

    /// Forgets every frame up to and including `seq` (cumulative).
    mutating func forget(through seq: Int) {
        while head < index.count, index[head].seq <= seq { head += 1 }
        compact()
    }

    /// Writes every kept frame after `seq`, in order.
    func write(after seq: Int, into out: inout [UInt8]) {
        for entry in index[head...] where entry.seq > seq {
            out.append(contentsOf: bytes[entry.start..<entry.end])
        }
    }

    /// The kept frames, oldest first, each with its newline.
    var frames: [ArraySlice<UInt8>] {
        index[head...].map { bytes[$0.start..<$0.end] }
    }

    private mutating func compact() {
        if head == index.count {
            index.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= index.count {
            let shift = index[head].start
            bytes.removeFirst(shift)
            index = index[head...].map { Entry(seq: $0.seq, start: $0.start - shift, end: $0.end - shift) }
            head = 0
        }
    }
}
