/// The last events of a session, for the snapshot an observer starts from.
///
/// Kept whether or not the session is observed, so it must cost next to nothing: the event frames' bytes in two
/// generations of at most ``eventBytes`` each (no allocation once both exist), oldest dropped first.
struct RecentLog {
    static let eventBytes = 32 * 1024

    /// Event frames, each ending in `\n`: the older generation, then the current one.
    private var olderEvents: [UInt8] = []
    private var events: [UInt8] = []

    /// Keeps an event frame (with its newline).
    mutating func note(event frame: ArraySlice<UInt8>) {
        if events.count + frame.count > Self.eventBytes {
            swap(&events, &olderEvents)
            events.removeAll(keepingCapacity: true)
        }
        events.append(contentsOf: frame)
    }

    /// Writes the kept event frames as a JSON array, oldest first.
    func writeEvents(into w: inout JSONWriter) {
        w.raw("[")
        var first = true
        for generation in [olderEvents, events] {
            for frame in generation.split(separator: UInt8(ascii: "\n")) {
                if !first { w.comma() }
                first = false
                w.raw(frame)
            }
        }
        w.raw("]")
    }
}
