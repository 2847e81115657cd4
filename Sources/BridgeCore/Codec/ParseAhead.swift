import CJansson
import Synchronization

/// The lines of one read, parsed by jansson on a second core while the event loop handles them in order: the
/// JSON parse of line *n + 1* runs beside the engine's work on line *n*.
///
/// Work stealing, so the loop never waits for a thread that has not started: both sides claim lines from one
/// counter. A helper (``help()``, on another thread) claims the next line, parses it and publishes the tree.
/// The loop takes its lines in order (``take(_:)``); when it has caught up with the helper it claims the line
/// itself and parses it as usual. When its line is the one the helper is parsing, it parses the next unclaimed
/// lines meanwhile. When none is left, a short line (under ``waitBytes``) it parses itself too, without waiting;
/// a long one (the bench's batch of 100 updates is 5.2 KB, about 500 µs of jansson) it waits for, as long as
/// the helper's parse is moving (its arena keeps allocating), and parses itself only once the helper has not
/// moved for ``stall`` (it was preempted). So a helper that is slow or preempted costs at most a short line parsed
/// twice, or a wait of ``stall`` and a long line parsed twice; one that runs costs no long line parsed twice.
///
/// The trees are built in arenas (``JSONArena``) that go away with this: no node is allocated on one thread and
/// freed on the other, which glibc's allocator makes expensive.
///
/// The engine still runs on the loop, one line after another, so answers, events and everything that depends
/// on their order are exactly those of a read handled without it. A line jansson refuses is handed back
/// unparsed: the loop parses it again to answer it the way it always does.
///
/// Safety of `@unchecked Sendable`: `lines` and `keepAlive` are immutable; a result slot is written once by the
/// thread that claimed its line (through `next`, an atomic) and read by the loop after an acquiring load that
/// sees it published; `handled` is the loop's alone.
public final class ParseAhead: @unchecked Sendable {
    /// The lines, without their `\n`: pointers into memory that `keepAlive` owns.
    private let lines: [UnsafeRawBufferPointer]
    private let keepAlive: any Sendable
    /// The next line to claim; past the end, nobody parses any more.
    private let next = Atomic<Int>(0)
    /// Per line: 0 while unparsed, else the tree's address (or ``refused``).
    private let results: UnsafeMutablePointer<Atomic<Int>>
    /// Lines the loop has taken (the loop's alone).
    public private(set) var handled = 0
    /// Set by ``stop()``: nothing more is handed over (the loop's alone).
    private var stopped = false
    /// Lines the loop took parsed by the helper (for the figures in tests).
    public private(set) var takenParsed = 0
    /// Turns of the loop waiting for the helper to finish a line (for the figures in tests).
    public private(set) var waitedForHelper = 0
    /// Where the helper's trees are, and the loop's when it parses ahead: each used by one thread only.
    private let helperArena = JSONArena()
    private let loopArena = JSONArena()

    /// A line the helper could not parse (or a blank one): the loop reads it itself.
    private static let refused = 1

    /// The shortest line the loop waits for the helper to finish rather than parse it a second time: jansson
    /// takes about 100 ns a byte, so parsing a line this long again costs more than the longest wait, ``stall``.
    static let waitBytes = 1024
    /// How long the loop waits for a helper whose parse shows no progress before it parses the line itself.
    /// jansson allocates for every value and key, every few hundred nanoseconds.
    static let stall = Duration.microseconds(20)

    /// - Parameters:
    ///   - lines: the complete lines of one read, in order, each without its `\n`, as the loop will be given them.
    ///   - keepAlive: what owns the lines' bytes (the read's buffer), released with this.
    public init(lines: [UnsafeRawBufferPointer], keepAlive: any Sendable) {
        self.lines = lines
        self.keepAlive = keepAlive
        self.results = .allocate(capacity: max(lines.count, 1))
        for index in 0..<lines.count { (results + index).initialize(to: Atomic(0)) }
    }

    deinit {
        // The trees are in the arenas, which go with this (a helper still holding this is done with every line
        // it claimed, and the loop is done with the lines it took).
        results.deinitialize(count: lines.count)
        results.deallocate()
    }

    /// How many lines there are.
    public var count: Int { lines.count }

    /// Parses lines until none is left to claim. Runs on a thread other than the loop's.
    public func help() {
        while let index = claimForHelper() {
            results[index].store(Self.parse(lines[index], in: helperArena), ordering: .releasing)
        }
    }

    /// Claims the next line for the helper: the index of the line it is to parse, or `nil` when none is left.
    func claimForHelper() -> Int? {
        let index = next.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        return index < lines.count ? index : nil
    }

    /// The parsed document of `line`, the loop's next line, or `nil` when the loop is to parse it itself: it
    /// claimed it, jansson refused it, or it is not one of `lines` (a line completed from an earlier read).
    public func take(_ line: UnsafeRawBufferPointer) -> JSONDocument? {
        let index = handled
        guard !stopped, index < lines.count, lines[index].baseAddress == line.baseAddress,
            lines[index].count == line.count
        else { return nil }
        handled += 1
        // Caught up with the helper: claim the line and parse it here.
        if next.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged {
            return nil
        }
        let tree = waitParsingAhead(for: index)
        guard tree > Self.refused else { return nil }
        takenParsed += 1
        return JSONDocument(inArena: JSONRef(UnsafeMutablePointer(bitPattern: tree)!))
    }

    /// Stops the helper from claiming more lines (the loop will not take them). Call it when the loop is done
    /// with the read, or stops early (backpressure). The helper may still be finishing a line: its tree goes to
    /// its arena, which lives as long as the helper holds this.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        next.store(lines.count, ordering: .releasing)
    }

    /// The tree of line `index`, which the helper claimed: while it is not done, the loop parses the next
    /// unclaimed lines (their trees wait in their slots). When none is left and the helper is still on this line:
    /// for a short line at once, for a long one once the helper has shown no progress for ``stall``,
    /// ``refused``, so that the loop parses the line itself.
    private func waitParsingAhead(for index: Int) -> Int {
        /// The helper's progress when it was last seen to move, and when.
        var lastMove: (progress: Int, at: ContinuousClock.Instant)?
        while true {
            let tree = results[index].load(ordering: .acquiring)
            if tree != 0 { return tree }
            let frontier = next.load(ordering: .relaxed)
            if frontier < lines.count {
                if next.compareExchange(expected: frontier, desired: frontier + 1, ordering: .acquiringAndReleasing)
                    .exchanged
                {
                    results[frontier].store(Self.parse(lines[frontier], in: loopArena), ordering: .releasing)
                }
                continue
            }
            // Nothing left to parse here: the helper is on this line.
            guard lines[index].count >= Self.waitBytes else { return Self.refused }
            let progress = helperArena.progress
            let now = ContinuousClock.now
            if let last = lastMove, last.progress == progress {
                if now - last.at > Self.stall { return Self.refused }
            } else {
                lastMove = (progress, now)
            }
            waitedForHelper += 1
        }
    }

    /// Parses a line the way ``Session`` does (a `\r` before the `\n` is dropped) into `arena`, or ``refused``.
    private static func parse(_ line: UnsafeRawBufferPointer, in arena: JSONArena) -> Int {
        guard let text = RequestLine.text(line), let tree = JanssonMemory.parse(text, in: arena) else {
            return refused
        }
        return Int(bitPattern: tree)
    }
}
