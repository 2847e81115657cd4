/// The event frames a session wrote and its client has not acknowledged yet, kept so that a resumed
/// connection gets them again: at most `limit` of them and `byteLimit` bytes of them, the oldest dropped first.
///
/// Frames are kept back to back in byte arrays with an index, so keeping one costs a copy of its bytes and no
/// allocation of its own. There are two generations: frames are added to the newer; the older one's frames
/// are dropped or acknowledged from its front by moving a head; once the older has none left, the two swap
/// and the emptied one is reused. Nothing is moved to make room (a client that never acknowledges, or a full
/// buffer, costs no copy of the frames kept), and at most about twice the kept frames' bytes are held.
struct EventBuffer {
    /// An event frame kept: its seq and where its bytes (with their newline) are in its generation.
    struct Entry {
        let seq: Int
        let start: Int
        let end: Int
    }

    /// Frames back to back, and where each is.
    private struct Generation {
        var bytes: [UInt8] = []
        var index: [Entry] = []

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            index.removeAll(keepingCapacity: true)
        }

        func frame(_ entry: Entry) -> ArraySlice<UInt8> { bytes[entry.start..<entry.end] }
    }

    /// The most frames kept (0: none).
    let limit: Int
    /// The most bytes of frames kept; a frame larger than this alone is not kept.
    let byteLimit: Int
    /// The bytes of the frames kept.
    private(set) var bytes = 0
    /// Frames before ``newer``'s, the first `head` of them gone.
    private var older = Generation()
    private var head = 0
    /// Where frames are added.
    private var newer = Generation()
    /// The highest seq dropped unacknowledged because the buffer was full (0: none): a client whose cursor
    /// is before it cannot resume without a gap (`overflow`).
    var droppedThrough = 0

    init(limit: Int, byteLimit: Int = .max) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// How many frames are kept.
    var count: Int { older.index.count - head + newer.index.count }

    /// Keeps a copy of a frame just written (`frame` includes its newline).
    mutating func keep(seq: Int, frame: ArraySlice<UInt8>) {
        guard limit > 0 else {
            droppedThrough = seq
            return
        }
        let start = newer.bytes.count
        newer.bytes.append(contentsOf: frame)
        newer.index.append(Entry(seq: seq, start: start, end: newer.bytes.count))
        bytes += frame.count
        while count > limit || bytes > byteLimit {
            droppedThrough = oldest!.seq
            dropOldest()
        }
    }

    /// Forgets every frame up to and including `seq` (cumulative).
    mutating func forget(through seq: Int) {
        while let oldest, oldest.seq <= seq { dropOldest() }
    }

    /// Writes every kept frame after `seq`, in order.
    func write(after seq: Int, into out: inout [UInt8]) {
        for entry in older.index[head...] where entry.seq > seq { out.append(contentsOf: older.frame(entry)) }
        for entry in newer.index where entry.seq > seq { out.append(contentsOf: newer.frame(entry)) }
    }

    /// The kept frames, oldest first, each with its newline.
    var frames: [ArraySlice<UInt8>] {
        older.index[head...].map { older.frame($0) } + newer.index.map { newer.frame($0) }
    }

    /// The oldest frame kept.
    private var oldest: Entry? {
        head < older.index.count ? older.index[head] : newer.index.first
    }

    private mutating func dropOldest() {
        if let oldest { bytes -= oldest.end - oldest.start }
        if head == older.index.count {
            // The older generation is spent: the newer becomes it, and the spent one is reused for new frames.
            swap(&older, &newer)
            newer.removeAll()
            head = 0
        }
        head += 1
        if head == older.index.count && newer.index.isEmpty {
            older.removeAll()
            head = 0
        }
    }
}
