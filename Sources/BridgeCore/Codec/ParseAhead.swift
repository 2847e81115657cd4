import CJansson
import Synchronization

/// The lines of one read, parsed by jansson on a second core while the event loop handles them in order: the
/// JSON parse of line *n + 1* runs beside the engine's work on line *n*.
///
/// Work stealing, so the loop never waits for a thread that has not started: both sides claim lines from one
/// counter, short lines in runs (``run``: up to a quarter of what is left), a long line (``waitBytes`` or more)
/// alone. A helper (``help()``, on another thread) claims the next run, parses its lines and publishes each tree.
/// The loop takes its lines in order (``take(_:)``); when it has caught up with the helper it claims the next run
/// itself and parses those lines as usual. When its line is one the helper has claimed and not parsed yet, it
/// parses the next unclaimed lines meanwhile. When none is left, a short line it parses itself too, without
/// waiting; a long one (the bench's batch of 100 updates is 5.2 KB, about 500 µs of jansson) it waits for, as long
/// as the helper's parse is moving (its arena keeps allocating), and parses itself only once the helper has not
/// moved for ``stall`` (it was preempted). So a helper that is slow or preempted costs at most a few short lines
/// parsed twice (the rest of its last run), or a wait of ``stall`` and a long line parsed twice; one that runs
/// costs no long line parsed twice.
///
/// The trees are built in arenas (``JSONArena``) that go away with this: no node is allocated on one thread and
/// freed on the other, which glibc's allocator makes expensive.
///
/// The engine still runs on the loop, one line after another, so answers, events and everything that depends
/// on their order are exactly those of a read handled without it. A line jansson refuses is handed back
/// unparsed: the loop parses it again to answer it the way it always does.
///
/// What the two threads share is kept apart from what the loop writes for every line: the claim counter has cache
/// lines of its own, and the loop takes a line the helper has parsed by reading its slot, without touching the
/// counter. Claimed a line at a time, with the counter beside the loop's own fields, the two threads took turns on
/// every line and moved the counter's cache line, and each tree, from one core to the other while the other was
/// still writing beside it: about a third more CPU per update than one thread alone (bench/README.md, "CPU per
/// update").
///
/// Safety of `@unchecked Sendable`: `lines` and `keepAlive` are immutable; a result slot is written once by the
/// thread that claimed its line (through `next`, an atomic) and read by the loop after an acquiring load that
/// sees it published; `handled` is the loop's alone.
public final class ParseAhead: @unchecked Sendable {
    /// The lines, without their `\n`: pointers into memory that `keepAlive` owns.
    private let lines: [UnsafeRawBufferPointer]
    private let keepAlive: any Sendable
    /// The next line to claim; at the end, nobody claims any more; past it (``stop()``), nobody parses any more.
    /// Alone in its own two cache lines.
    private let next: UnsafeMutablePointer<Atomic<Int>>
    /// Per line: 0 while unparsed, else the tree's address (or ``refused``).
    private let results: UnsafeMutablePointer<Atomic<Int>>
    /// Lines the loop has taken (the loop's alone).
    public private(set) var handled = 0
    /// The end of the last run of lines the loop claimed to parse itself (the loop's alone).
    private var loopClaimedEnd = 0
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
        self.next = UnsafeMutableRawPointer.allocate(byteCount: Self.counterBytes, alignment: Self.counterBytes)
            .bindMemory(to: Atomic<Int>.self, capacity: 1)
        next.initialize(to: Atomic(0))
    }

    deinit {
        // The trees are in the arenas, which go with this (a helper still holding this is done with every line
        // it claimed, and the loop is done with the lines it took).
        results.deinitialize(count: lines.count)
        results.deallocate()
        next.deinitialize(count: 1)
        UnsafeMutableRawPointer(next).deallocate()
    }

    /// The bytes (and alignment) of the claim counter's allocation: two cache lines, as x86's prefetcher fetches
    /// lines in pairs.
    private static let counterBytes = 128

    /// How many lines there are.
    public var count: Int { lines.count }

    /// Parses lines until none is left to claim. Runs on a thread other than the loop's.
    public func help() {
        let lines = self.lines
        let results = self.results
        let arena = helperArena
        while let claimed = claimForHelper() {
            for index in claimed {
                // Stopped (the loop will not take them): the rest of the run is left.
                if next.pointee.load(ordering: .relaxed) > lines.count { return }
                results[index].store(Self.parse(lines[index], in: arena), ordering: .releasing)
            }
        }
    }

    /// The most lines claimed at once (by the helper, or by the loop when it has caught up with it).
    ///
    /// Claimed one at a time, the helper's line was the loop's next one: the two threads took turns on every
    /// line, and the loop read each tree while the other core was still writing the next one beside it. Claimed
    /// in runs, each side works on lines of its own, and the loop reads a run of the helper's trees once they
    /// are all written. Bounded so that a read of many short lines (256 KiB of them) is still shared out.
    static let run = 256

    /// How many lines to claim from `index`: a long line alone (the loop waits for it rather than parse it twice,
    /// so no run of them may keep it waiting); short ones a quarter of what is left, at most ``run``, so that
    /// the runs shrink towards the end of the read, where the loop, which takes the lines in order, would parse
    /// again the lines of a helper's run it has caught up with.
    @inline(__always)
    private func runLength(from index: Int) -> Int {
        lines[index].count >= Self.waitBytes ? 1 : max(1, min(Self.run, (lines.count - index) / 4))
    }

    /// Claims the next lines for the helper: the indices it is to parse, or `nil` when none is left.
    func claimForHelper() -> Range<Int>? {
        var index = next.pointee.load(ordering: .relaxed)
        while index < lines.count {
            let end = index + runLength(from: index)
            let (exchanged, found) = next.pointee.compareExchange(
                expected: index,
                desired: end,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return index..<end }
            index = found
        }
        return nil
    }

    /// The parsed document of `line`, the loop's next line, or `nil` when the loop is to parse it itself: it
    /// claimed it, jansson refused it, or it is not one of `lines` (a line completed from an earlier read).
    public func take(_ line: UnsafeRawBufferPointer) -> JSONDocument? {
        let index = handled
        guard !stopped, index < lines.count, lines[index].baseAddress == line.baseAddress,
            lines[index].count == line.count
        else { return nil }
        handled += 1
        // One of a run the loop claimed: it parses it as usual.
        if index < loopClaimedEnd { return nil }
        // Parsed already (the common case): the counter is not touched.
        var tree = results[index].load(ordering: .acquiring)
        if tree == 0 {
            // Caught up with the helper: claim a run from this line and parse its lines here.
            let length = runLength(from: index)
            if next.pointee.compareExchange(
                expected: index,
                desired: index + length,
                ordering: .acquiringAndReleasing
            ).exchanged {
                loopClaimedEnd = index + length
                return nil
            }
            tree = waitParsingAhead(for: index)
        }
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
        // Past the end, which claims never reach: the helper also leaves the rest of a run it claimed.
        next.pointee.store(lines.count + 1, ordering: .releasing)
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
            let frontier = next.pointee.load(ordering: .relaxed)
            if frontier < lines.count {
                if next.pointee.compareExchange(
                    expected: frontier,
                    desired: frontier + 1,
                    ordering: .acquiringAndReleasing
                ).exchanged {
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
