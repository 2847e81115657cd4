import BridgeCore
import CYieldPoint
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Which requests run off the event loop, so that one client's long request holds up no other client on its loop
/// (issue 30, item 6).
///
/// A connection's requests are handled on its event loop, inline, as they are read: the hot path (a small request,
/// a few microseconds) never leaves the loop. A request that may take long is handed to another thread
/// (``run(_:)``) instead; while it runs, its connection handles nothing more (lines read meanwhile wait in the
/// framer, reads are held, as under backpressure), so requests within one session stay in order, and the loop goes
/// on with its other connections. The request itself is handled exactly as inline (the same
/// ``Connection/handle(line:parsed:into:)``, under its session's gate): a batch stays atomic, and no one sees its
/// changes until it commits.
///
/// A request is long when, before it is parsed (the parse of a large line is itself long):
/// - its line is at least ``minimumBytes`` long (a batch of creates, a large `setChildren`), or
/// - its session has at least ``minimumViews`` views and its `op` is `bye` or `delete` (freeing a large session or
///   subtree is linear in its views), read from the line's bytes (``opIs(_:oneOf:)``), or
/// - its session holds at least ``minimumBytes`` of a batch sent in parts (a last part, short itself, runs every op
///   the parts before it hold, or commits them; any other request may first roll back what they applied ahead).
/// - its `op` is `screenshot` (drawing a screen takes milliseconds: about 20 ms at scale 3), or `layout` with a `yoga`
///   member (the first open of a React Native version builds its Yoga with the C++ compiler: seconds; a later one
///   hashes its sources), read from the line's bytes as above.
///
/// The thresholds, from bench/fairness.mjs's requests on 2 cores: a batch of creates takes about 55 ns a byte
/// (100,000 creates, 7.5 MB, in about 400 ms), a `setChildren` about 150 ns a byte (50,000 children, 340 KB, in
/// about 50 ms: 1 µs a child), freeing about 1 µs a view (the `bye` of 100,000 views in about 100 ms). So a
/// request under them takes about a millisecond inline at most, and one over them pays the hand-over (two thread
/// hops) on at least that much work (bench/README.md, "Fairness").
///
/// The same goes for ending sessions, which frees their views: a closed connection's session is detached off the
/// loop when it is large (``ConnectionHandler``), and the daemon's expiry of detached sessions runs off the loops.
struct LongRequests: Sendable {
    /// A line this long or longer runs off the loop.
    var minimumBytes: Int = 8 * 1024
    /// A `bye` or `delete` of a session with this many views or more runs off the loop.
    var minimumViews: Int = 1_000
    /// Tests only (`--test-hold-long-requests N`): each long request waits, off the loop, until the daemon has
    /// answered N requests inline, counted from its start (or a generous safety timeout passes): the fairness
    /// test's proof, with no clock, that other connections are answered while a long request is in flight.
    var hold: LongRequestHold?

    /// Whether `line`, of a session of `sessionViews` views, runs off the loop.
    @inline(__always)
    func isLong(
        _ line: UnsafeRawBufferPointer,
        sessionViews: @autoclosure () -> Int,
        stagedBatchBytes: @autoclosure () -> Int = 0
    ) -> Bool {
        if line.count >= minimumBytes { return true }
        if Self.opIs(line, oneOf: Self.layoutOrScreenshot),
            !Self.opIs(line, oneOf: Self.layoutOnly) || Self.contains(line, Self.yogaMember)
        {
            return true
        }
        if sessionViews() >= minimumViews, Self.opIs(line, oneOf: Self.byeOrDelete) { return true }
        return stagedBatchBytes() >= minimumBytes
    }

    /// Whether `line` holds `word`'s bytes (a `layout` line, short: a plain scan).
    static func contains(_ line: UnsafeRawBufferPointer, _ word: [UInt8]) -> Bool {
        guard line.count >= word.count, let base = line.baseAddress else { return false }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        for start in 0...(line.count - word.count) where matches(bytes, start, line.count, word) { return true }
        return false
    }

    /// Whether the line's `"op"` member is one of `words` (each with its quotes), read from its bytes without
    /// parsing it: the first `"op"` key (followed by `:`) decides. An `op` spelled with escapes is taken for one of
    /// them (``isEscapedString(_:_:_:)``); a key so spelled is not seen, and the request runs inline. This runs on
    /// every line of a large session, so it is a plain scan up to the key (a request's `op` comes second, after its
    /// `id`, in every client we know): about ten bytes.
    static func opIs(_ line: UnsafeRawBufferPointer, oneOf words: [[UInt8]]) -> Bool {
        guard let base = line.baseAddress else { return false }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let count = line.count
        let quote = UInt8(ascii: "\"")
        var index = 0
        while index + 4 < count {
            if bytes[index] == quote && bytes[index + 1] == UInt8(ascii: "o") && bytes[index + 2] == UInt8(ascii: "p")
                && bytes[index + 3] == quote
            {
                var at = skipSpaces(bytes, index + 4, count)
                if at < count && bytes[at] == UInt8(ascii: ":") {
                    at = skipSpaces(bytes, at + 1, count)
                    return words.contains { matches(bytes, at, count, $0) } || isEscapedString(bytes, at, count)
                }
            }
            index += 1
        }
        return false
    }

    /// Of a read's complete lines, those a second core may parse ahead (``ParseAheadPool``): the ones before the
    /// first line long by its length alone. That line goes off the loop, where it is parsed, and the connection
    /// handles nothing after it until it is answered, so a tree parsed ahead for it or for the lines after it
    /// would be thrown away (a 256 KiB line is about 25 ms of the other core's time).
    func linesToParseAhead(_ lines: [UnsafeRawBufferPointer]) -> [UnsafeRawBufferPointer] {
        guard let long = lines.firstIndex(where: { $0.count >= minimumBytes }) else { return lines }
        return Array(lines[..<long])
    }

    /// Whether closing a connection whose session has `sessionViews` views and holds `stagedBatchBytes` of a batch
    /// in parts runs off the loop: ending the session frees its views, and dropping the parts rolls back what they
    /// applied ahead (as long as running them).
    func closeIsLong(sessionViews: Int, stagedBatchBytes: Int) -> Bool {
        sessionViews >= minimumViews || stagedBatchBytes >= minimumBytes
    }

    /// The `op`s ``opIs(_:oneOf:)`` looks for, made once (not an array per line).
    static let byeOrDelete = [Array(#""bye""#.utf8), Array(#""delete""#.utf8)]
    static let layoutOrScreenshot = [Array(#""layout""#.utf8), Array(#""screenshot""#.utf8)]
    static let layoutOnly = [Array(#""layout""#.utf8)]
    static let yogaMember = Array(#""yoga""#.utf8)

    @inline(__always)
    private static func skipSpaces(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int {
        var at = start
        while at < count && (bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D) {
            at += 1
        }
        return at
    }

    /// Whether the value at `at` is a string with an escape before its closing quote: an `op` spelled with escapes
    /// (`"by\u0065"`), which only a parse would name. It is taken for one of the words: a large session's `bye`
    /// so spelled still runs off the loop, and another op so spelled costs two thread hops at worst.
    private static func isEscapedString(_ bytes: UnsafePointer<UInt8>, _ at: Int, _ count: Int) -> Bool {
        guard at < count, bytes[at] == UInt8(ascii: "\"") else { return false }
        var index = at + 1
        while index < count {
            if bytes[index] == UInt8(ascii: "\\") { return true }
            if bytes[index] == UInt8(ascii: "\"") { return false }
            index += 1
        }
        return false
    }

    @inline(__always)
    private static func matches(_ bytes: UnsafePointer<UInt8>, _ at: Int, _ count: Int, _ word: [UInt8]) -> Bool {
        guard count - at >= word.count else { return false }
        for offset in 0..<word.count where bytes[at + offset] != word[offset] { return false }
        return true
    }

    /// How much work (in units of about a quarter of a microsecond) a long request does between two yields of its
    /// core (``cyield_point_begin(_:)``): about 0.1 ms.
    static let yieldEvery: UInt32 = 512

    /// The event loops' slices, short while a long request runs (``LoopSlices``); `nil`: left as they are.
    var loopSlices: LoopSlices?

    /// Runs `work` on a thread of NIO's blocking pool (``NIOThreadPool/singleton``, as many threads as cores):
    /// long-lived threads, a bounded number of them. With more long requests at once than threads, the others
    /// wait their turn; short ones never do. From its hand-over to its end the loops' slices are short, and its
    /// thread yields its core every ``yieldEvery`` units of work (`cyield_point.h`).
    func run(_ work: @escaping @Sendable () -> Void) {
        let slices = loopSlices
        slices?.begin()
        NIOThreadPool.singleton.submit { _ in
            cyield_point_begin(Self.yieldEvery)
            work()
            cyield_point_end()
            slices?.end()
        }
    }
}

/// The test hook of ``LongRequests/hold``: counts the requests answered inline, and holds a long request until
/// `count` of them have been, since the daemon started.
final class LongRequestHold: Sendable {
    let count: Int
    private let answered = Atomic<Int>(0)
    /// The safety net: a daemon that never answers another connection (the loop is blocked) lets the request go
    /// after this, so that a test fails instead of hanging.
    private let patience: Duration = .seconds(30)

    init(count: Int) { self.count = count }

    /// A request was answered on an event loop.
    func requestAnswered() { answered.add(1, ordering: .relaxed) }

    /// Called off the loop before a long request runs.
    func wait() {
        let target = count
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while answered.load(ordering: .relaxed) < target && clock.now < deadline { usleep(1_000) }
    }
}
