import CThreadSlice
import Logging
import NIOCore
import Synchronization

/// While a request runs off the event loops (``LongRequests``), the loops' threads ask the kernel for short
/// scheduling slices, so that a loop woken by another client's request takes a core from the long request's thread
/// at once, instead of waiting out that thread's slice (issue 30, item 6).
///
/// Why: a long request's thread keeps one core busy. A loop thread woken (a ping arrives) while the other core is
/// busy too (the client, another loop) waits for a core; Linux's EEVDF scheduler lets a waking thread preempt the
/// running one at once only when the waking one's slice is shorter (6.12 and later; the default slice is the same
/// for every thread, 1.4 ms on 2 cores), and otherwise at the running one's slice end or the next tick. With the
/// loops' slices at 0.1 ms (`sched_setattr`'s `sched_runtime`, the shortest the kernel takes), the pings of
/// bench/fairness-processes.py during a `setChildren` of 50,000 children had a p99 of 2.19 ms (1.63–2.92 per
/// round), against 3.49 ms (3.37–3.63) with the default; during a batch of 100,000 creates 0.34 against 0.45 ms
/// (bench/README.md, "Fairness"). The slice is not always enough: the long request's thread also yields its core
/// as it goes (`cyield_point.h`, ``LongRequests/yieldEvery``).
///
/// Why only then: short slices always cost the hot path its throughput (pipelined updates, the loops sharing the
/// cores with their clients: 296k–382k updates/s against 336k–491k, five alternated daemons each), as a loop that
/// shares a core is preempted every 0.1 ms. So the loops take short slices when the first long request starts and
/// give them back when the last one ends.
///
/// Where the kernel has no custom slices (before 6.12) the call does nothing; where it fails (a loop thread of a
/// real-time or idle policy, a system-call filter) the loops are left as they are, and that is logged once.
final class LoopSlices: Sendable {
    /// The loops' slice while a long request runs.
    static let shortSliceNanoseconds: UInt64 = 100_000

    private let loops: [EventLoop]
    private let logger: Logger
    /// Long requests running off the loops.
    private let running = Atomic<Int>(0)
    /// Set when the kernel refused a slice: nothing more is asked.
    private let refused = Atomic<Bool>(false)

    init(group: EventLoopGroup, logger: Logger) {
        self.loops = Array(group.makeIterator())
        self.logger = logger
    }

    /// A long request starts: the first one shortens the loops' slices.
    func begin() {
        if running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue == 1 { update() }
    }

    /// A long request ended: the last one gives the loops their default slices back.
    func end() {
        if running.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue == 0 { update() }
    }

    /// Has each loop set its own slice (a thread can only be asked from itself here) from the count as it is when
    /// the loop gets to it: after any run of begins and ends, the last task each loop runs sees the last count.
    private func update() {
        guard !refused.load(ordering: .relaxed) else { return }
        for loop in loops { loop.execute { self.apply() } }
    }

    private func apply() {
        let slice = running.load(ordering: .sequentiallyConsistent) > 0 ? Self.shortSliceNanoseconds : 0
        let error = Self.setCurrentThreadSlice(slice)
        guard error != 0, refused.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        logger.notice(
            "the kernel refused the event loops' short scheduling slices; long requests may delay other clients more",
            metadata: ["errno": "\(error)"]
        )
    }

    /// Sets the calling thread's slice (0: the kernel's default); returns 0 or the `errno` of the failure.
    static func setCurrentThreadSlice(_ nanoseconds: UInt64) -> Int32 {
        cthread_slice_set(nanoseconds)
    }

    /// The calling thread's slice in nanoseconds as the kernel reports it (0: none reported), or `nil` when it
    /// cannot be read.
    static func currentThreadSlice() -> UInt64? {
        let slice = cthread_slice_get()
        return slice < 0 ? nil : UInt64(slice)
    }
}
